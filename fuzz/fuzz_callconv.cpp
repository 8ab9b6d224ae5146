// Calling-convention text: signatures, specs, plan texts, call arguments and
// -cc entries. Lines: triple, signature, spec or plan text ("" standard),
// the declared convention, call arguments, a -cc entry. A plan that
// validates must print a text that parses back to the same plan.
#include "fuzz_support.h"

#include "callconv/call.h"
#include "callconv/embedded.h"
#include "callconv/plan.h"
#include "callconv/registry.h"

using namespace linklab;
using namespace linklab::callconv;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Rest(reinterpret_cast<const char *>(Data), Size);
  std::string_view TripleText = fuzz::takeLine(Rest), SigText = fuzz::takeLine(Rest), Input = fuzz::takeLine(Rest),
                   Expect = fuzz::takeLine(Rest), Args = fuzz::takeLine(Rest), Entry = fuzz::takeLine(Rest);

  if (auto S = parseSpec(Input))
    (void)S->canonical();
  else
    consumeError(S.takeError());

  auto T = targetForTriple(TripleText);
  auto Sig = parseSignature(SigText);
  if (!T || !Sig) {
    if (!T)
      consumeError(T.takeError());
    if (!Sig)
      consumeError(Sig.takeError());
    return 0;
  }
  FUZZ_EXPECT(parseSignature(Sig->str()) && *parseSignature(Sig->str()) == *Sig, "signature '%s' does not re-parse",
              Sig->str().c_str());

  ConventionTable Table(**T);
  if (Error E = Table.add(Entry, "-cc"))
    (void)E.message();

  auto P = planFor(TripleText, SigText, Input, Expect);
  if (!P) {
    consumeError(P.takeError());
    return 0;
  }
  std::string Text = P->text();
  auto Again = parsePlan(Text, P->signature(), P->target());
  FUZZ_EXPECT(Again && Again->text() == Text, "plan text '%s' does not parse back: %s", Text.c_str(),
              Again ? Again->text().c_str() : Again.takeError().message().c_str());
  (void)P->describe();

  if (auto Std = standardPlan(P->target(), P->signature())) {
    for (auto *Pair : {&*Std, &*P}) {
      auto M = bridgeMoves(*Pair, Pair == &*Std ? *P : *Std);
      if (!M)
        consumeError(M.takeError());
    }
  } else {
    consumeError(Std.takeError());
  }
  std::vector<std::string> Warnings;
  if (auto I = planIndirectCall(*P, "f", Warnings); !I)
    consumeError(I.takeError());

  auto Values = parseCallArguments(P->signature(), Args);
  if (!Values) {
    consumeError(Values.takeError());
    return 0;
  }
  auto PC = prepareCall(*P, *Values, 0x20000000);
  if (!PC)
    consumeError(PC.takeError());
  return 0;
}
