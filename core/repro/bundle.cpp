#include "repro/bundle.h"

#include "api/json_export.h"

#include <algorithm>

namespace linklab::repro {

namespace {

using api::jsonString;

std::string base64(std::string_view In, bool Url) {
  const char *Digits = Url ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
                           : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string Out;
  size_t I = 0;
  for (; I + 2 < In.size(); I += 3) {
    uint32_t V = uint8_t(In[I]) << 16 | uint8_t(In[I + 1]) << 8 | uint8_t(In[I + 2]);
    for (int S : {18, 12, 6, 0})
      Out += Digits[(V >> S) & 63];
  }
  if (size_t Left = In.size() - I) {
    uint32_t V = uint8_t(In[I]) << 16 | (Left > 1 ? uint8_t(In[I + 1]) << 8 : 0);
    Out += Digits[V >> 18], Out += Digits[(V >> 12) & 63];
    if (Left > 1)
      Out += Digits[(V >> 6) & 63];
    if (!Url)
      Out += Left > 1 ? "=" : "==";
  }
  return Out;
}

// One argument as the page's argument field spells it (lib/link-flow.mjs's
// parseArgs: spaces separate, quotes group).
Expected<std::string> quoteArg(const std::string &A) {
  bool Plain = !A.empty() && A.find_first_of(" \t\n\"'") == std::string::npos;
  if (Plain)
    return A;
  if (A.find('"') == std::string::npos)
    return '"' + A + '"';
  if (A.find('\'') == std::string::npos)
    return "'" + A + "'";
  return makeError(formatv("-save-bundle: the argument '%s' has both kinds of quote, which a bundle's argument "
                           "field cannot hold",
                           A.c_str()));
}

std::string str(std::string_view K, std::string_view V) { return jsonString(K) + ":" + jsonString(V); }

// Bytes as the page's TextDecoder reads them (the WHATWG UTF-8 decoder):
// each ill-formed sequence, up to the byte that breaks it, becomes U+FFFD.
// A program's output is bytes; a bundle's JSON is UTF-8 text, and the page
// and the replayer decode what they record so.
std::string utf8Text(std::string_view In) {
  static const char Replacement[] = "\xEF\xBF\xBD";
  std::string Out;
  for (size_t I = 0; I < In.size();) {
    uint8_t B = uint8_t(In[I]);
    size_t Need = B >= 0xC2 && B <= 0xDF ? 1 : B >= 0xE0 && B <= 0xEF ? 2 : B >= 0xF0 && B <= 0xF4 ? 3 : 0;
    if (B < 0x80 || !Need) {
      Out += B < 0x80 ? std::string(1, char(B)) : Replacement;
      ++I;
      continue;
    }
    uint8_t Lower = B == 0xE0 ? 0xA0 : B == 0xF0 ? 0x90 : 0x80, Upper = B == 0xED ? 0x9F : B == 0xF4 ? 0x8F : 0xBF;
    size_t Seen = 1;
    for (; Seen <= Need && I + Seen < In.size(); ++Seen) {
      uint8_t C = uint8_t(In[I + Seen]);
      if (C < Lower || C > Upper)
        break;
      Lower = 0x80, Upper = 0xBF;
    }
    if (Seen == Need + 1)
      Out.append(In.substr(I, Seen));
    else
      Out += Replacement; // the byte that broke it starts the next sequence
    I += Seen;
  }
  return Out;
}

bool isUtf8(std::string_view S) { return utf8Text(S) == S; }

} // namespace

Expected<std::string> bundleJson(const Bundle &B) {
  // What the program is given must replay exactly: a bundle holds it as text.
  if (!isUtf8(B.stdin_))
    return makeError("-save-bundle: the program's stdin is not UTF-8 text, which a bundle's stdin field holds");
  if (!isUtf8(B.argv0) || !std::all_of(B.args.begin(), B.args.end(), isUtf8))
    return makeError("-save-bundle: an argument is not UTF-8 text, which a bundle's argument field holds");
  std::string Args;
  for (auto &A : B.args) {
    auto Q = quoteArg(A);
    if (!Q)
      return Q.takeError();
    Args += (Args.empty() ? "" : " ") + *Q;
  }
  std::string Abs;
  for (auto &A : B.absolutes)
    Abs += (Abs.empty() ? "" : "\n") + A;
  std::string J = "{\n " + str("format", "linklab-session") + formatv(",\n \"version\":%d,\n ", BundleFormatVersion) +
                  str("linklab", B.linklabVersion) + ",\n " + str("arch", B.arch) + ",\n \"objects\":[";
  for (size_t I = 0; I < B.objects.size(); ++I) {
    auto &O = B.objects[I];
    J += std::string(I ? "," : "") + "\n  {" + str("name", O.name) + ",\"harness\":" + (O.harness ? "true" : "false") +
         "," + str("data", base64(O.bytes, false)) + "}";
  }
  J += "\n ],\n \"options\":{" + str("entry", B.entry) +
       ",\"phonyExternals\":" + (B.phonyExternals ? "true" : "false") + "," + str("absolutes", Abs) + "," +
       str("slabAddress", "") + ",\"runtime\":" + (B.runtime ? "true" : "false") + "},\n \"run\":{" +
       str("argv0", B.argv0) + "," + str("args", Args) + "," + str("instructions", B.instructions) + "," +
       str("wallMillis", B.wallMillis) + "," + str("memoryMB", B.memoryMB) + "," + str("stdin", B.stdin_) + "}";
  if (auto &O = B.outcome) {
    J += ",\n \"outcome\":{";
    if (O->error)
      J += str("error", utf8Text(*O->error));
    else {
      J += str("status", O->status);
      if (O->exitCode)
        J += formatv(",\"exitCode\":%lld", (long long)*O->exitCode);
      J += "," + str("stdout", utf8Text(O->stdout_)) + "," + str("stderr", utf8Text(O->stderr_));
      if (auto &F = O->fault)
        J += ",\"fault\":{" + str("kind", F->kind) + "," + str("pc", hex(F->pc)) + "," +
             str("address", hex(F->address)) + "," + str("symbol", utf8Text(F->symbol)) + "}";
    }
    J += "}";
  }
  return J + "\n}\n";
}

std::string shareFragment(const std::string &Json) {
  // Raw deflate (RFC 1951) in stored blocks: a header byte (BFINAL, BTYPE
  // 00), LEN and its complement, then up to 65535 bytes as they are.
  std::string D;
  size_t At = 0;
  do {
    size_t N = std::min<size_t>(Json.size() - At, 65535);
    bool Last = At + N == Json.size();
    D += char(Last ? 1 : 0);
    D += char(N & 0xff), D += char(N >> 8), D += char(~N & 0xff), D += char((~N >> 8) & 0xff);
    D.append(Json, At, N);
    At += N;
  } while (At < Json.size());
  return "#s=" + base64(D, true);
}

} // namespace linklab::repro
