// A shared playground session (share URL / bundle file). Decoding the URL
// and the bundle (base64, deflate, JSON, validation: web/src/session-codec.mjs)
// and splitting its fields (parseAbsolutes, runLimits: web/src/link-flow.mjs)
// are JavaScript; this fuzzes the core calls a restored session makes through
// the wasm package (wasm-bindings/src/bindings.cpp): the session's triple and
// slab address (driver::makeSlab), absolute symbols (driver::parseNumber,
// Session::defineAbsolute), calling conventions (SessionConventions), run
// limits (driver::parseLimits), the objects, and the entry lookup.
//
// Input: "key value" lines (triple, slab, abs NAME=ADDR, phony, harness,
// cc ENTRY, limits INSTR,MS,MB, entry NAME), a line "--", then one object.
#include "fuzz_support.h"

#include "driver/settings.h"

using namespace linklab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Rest(reinterpret_cast<const char *>(Data), Size);
  std::string TripleText, Slab, Entry = "main";
  std::vector<std::pair<std::string, std::string>> Absolutes;
  std::vector<std::string> Conventions;
  bool Phony = false, Harness = false;
  while (!Rest.empty()) {
    std::string_view Line = fuzz::takeLine(Rest);
    if (Line == "--")
      break;
    size_t Sp = Line.find(' ');
    std::string_view Key = Line.substr(0, Sp), Value = Sp == std::string_view::npos ? "" : Line.substr(Sp + 1);
    if (Key == "triple")
      TripleText = Value;
    else if (Key == "slab")
      Slab = Value;
    else if (Key == "entry")
      Entry = Value;
    else if (Key == "phony")
      Phony = Value == "1";
    else if (Key == "harness")
      Harness = Value == "1";
    else if (Key == "cc")
      Conventions.emplace_back(Value);
    else if (Key == "abs" && Value.find('=') != std::string_view::npos)
      Absolutes.emplace_back(Value.substr(0, Value.find('=')), Value.substr(Value.find('=') + 1));
    else if (Key == "limits") {
      std::string V(Value), Parts[3];
      for (int I = 0, At = 0; I < 3; ++I) {
        size_t C = V.find(',', At);
        Parts[I] = V.substr(At, C == std::string::npos ? std::string::npos : C - At);
        At = C == std::string::npos ? int(V.size()) : int(C + 1);
      }
      auto L = driver::parseLimits({"instructions", Parts[0]}, {"wallMillis", Parts[1]}, {"memoryBytes", Parts[2]});
      if (!L)
        consumeError(L.takeError());
    }
  }

  auto MM = driver::makeSlab({"slabAddress", Slab}, {"slabPageSize", ""}, {"slabAllocate", "16Mb"});
  if (!MM) {
    consumeError(MM.takeError());
    return 0;
  }
  Session S(TripleText.empty() ? Triple() : Triple::parse(TripleText), **MM);
  S.setPhonyExternals(Phony);
  for (auto &[Name, Address] : Absolutes) {
    auto A = driver::parseNumber({"defineAbsolute address", Address});
    if (!A) {
      consumeError(A.takeError());
      continue;
    }
    if (Error E = S.defineAbsolute(Name, *A))
      (void)E.message();
  }
  driver::SessionConventions CC(S, [](const std::string &) {});
  for (auto &C : Conventions)
    if (Error E = CC.addEntry(C, "conventions"))
      (void)E.message();
  auto Bytes = fuzz::bytesOf(reinterpret_cast<const uint8_t *>(Rest.data()), Rest.size());
  auto K = S.addObject("session.o", Bytes, Harness ? ObjectKind::Harness : ObjectKind::Regular);
  if (!K) {
    consumeError(K.takeError());
    return 0;
  }
  if (Error E = CC.addObject("session.o", {Bytes->data(), Bytes->size()}))
    return 0;
  auto R = S.lookupNow({Entry});
  if (!R)
    consumeError(R.takeError());
  return 0;
}
