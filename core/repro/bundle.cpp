#include "repro/bundle.h"

#include "api/json_export.h"

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

} // namespace

Expected<std::string> bundleJson(const Bundle &B) {
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
      J += str("error", *O->error);
    else {
      J += str("status", O->status);
      if (O->exitCode)
        J += formatv(",\"exitCode\":%lld", (long long)*O->exitCode);
      J += "," + str("stdout", O->stdout_) + "," + str("stderr", O->stderr_);
      if (auto &F = O->fault)
        J += ",\"fault\":{" + str("kind", F->kind) + "," + str("pc", hex(F->pc)) + "," +
             str("address", hex(F->address)) + "," + str("symbol", F->symbol) + "}";
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
