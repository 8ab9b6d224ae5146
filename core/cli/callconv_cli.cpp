#include "cli/callconv_cli.h"
#include "cli/self.h"

#include "callconv/call.h"
#include "target/target.h"

#include <cstdio>

namespace linklab::cli {

void printWarning(const std::string &W) { std::fprintf(stderr, "linklab warning: %s\n", W.c_str()); }

std::optional<int> applyConventions(const driver::Options &O, const callconv::ConventionTable *Table,
                                    exec::Program &Prog, const executor::Limits &L) {
  if (O.callSymbol.empty())
    return std::nullopt;
  auto T = callconv::targetForTriple(fullTriple(Prog.session().triple()));
  if (!T)
    return fail(T.takeError());

  // The plan: -call-conv (with -call-sig, or the -cc signature), else the
  // symbol's -cc/embedded plan, else the standard convention.
  const callconv::Plan *Known = Table ? Table->find(O.callSymbol) : nullptr;
  std::string SigText = !O.callSignature.empty() ? O.callSignature : Known ? Known->signature().str() : "";
  if (SigText.empty())
    return fail(makeError(
        formatv("-call=%s: give -call-sig (the symbol has no -cc or embedded convention)", O.callSymbol.c_str())));
  auto Sig = callconv::parseSignature(SigText);
  if (!Sig)
    return fail(Sig.takeError());
  Expected<callconv::Plan> P = !O.callConvention.empty() ? callconv::materialize(O.callConvention, *Sig, **T)
                               : Known && Known->signature() == *Sig ? Expected<callconv::Plan>(*Known)
                                                                     : callconv::standardPlan(**T, *Sig);
  if (!P)
    return fail(P.takeError());
  for (auto &W : P->warnings())
    printWarning(W);
  auto Args = callconv::parseCallArguments(*Sig, O.callArgs);
  if (!Args)
    return fail(Args.takeError());
  auto R = callconv::callWithPlan(Prog, O.callSymbol, *P, *Args, L);
  if (!R)
    return fail(R.takeError());
  for (auto &Line : callconv::formatCall(*P, *R))
    std::printf("%s\n", Line.c_str());
  return 0;
}

} // namespace linklab::cli
