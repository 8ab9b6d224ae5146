#include "cli/callconv_cli.h"

#include "callconv/call.h"
#include "callconv/thunks.h"

#include <cstdio>

namespace linklab::cli {

namespace {

int fail(const Error &E) {
  std::fprintf(stderr, "linklab error: %s\n", E.message().c_str());
  return 1;
}

void printWarnings(const std::vector<std::string> &W) {
  for (auto &M : W)
    std::fprintf(stderr, "linklab warning: %s\n", M.c_str());
}

} // namespace

std::optional<int> applyConventions(const Options &O, exec::Program &Prog, const executor::Limits &L) {
  Session &S = Prog.session();
  auto T = callconv::targetForTriple(S.triple().str);
  if (!T)
    return O.conventions.empty() && O.callSymbol.empty() ? std::nullopt : std::optional<int>(fail(T.takeError()));
  auto Table = std::make_shared<callconv::ConventionTable>(**T);
  for (auto &E : O.conventions)
    if (Error Err = Table->add(E, "-cc"))
      return fail(Err);
  for (auto &Path : O.inputs) {
    auto Bytes = exec::readFileBytes(Path);
    if (!Bytes)
      return fail(Bytes.takeError());
    if (Error Err = Table->addObject(Path, {(*Bytes)->data(), (*Bytes)->size()}))
      return fail(Err);
  }
  printWarnings(Table->warnings());
  auto Thunks = std::make_shared<callconv::BridgeThunkPlugin>(Table);
  if (!Table->empty())
    S.addPlugin(Thunks);
  if (O.callSymbol.empty())
    return std::nullopt;

  // The plan: -call-conv (with -call-sig, or the -cc signature), else the
  // symbol's -cc/embedded plan, else the standard convention.
  const callconv::Plan *Known = Table->find(O.callSymbol);
  std::string SigText = !O.callSignature.empty() ? O.callSignature : Known ? Known->signature().str() : "";
  if (SigText.empty())
    return fail(makeError(formatv("-call=%s: give -call-sig (the symbol has no -cc or embedded convention)",
                                  O.callSymbol.c_str())));
  auto Sig = callconv::parseSignature(SigText);
  if (!Sig)
    return fail(Sig.takeError());
  Expected<callconv::Plan> P = !O.callConvention.empty() ? callconv::materialize(O.callConvention, *Sig, **T)
                               : Known && Known->signature() == *Sig ? Expected<callconv::Plan>(*Known)
                                                                     : callconv::standardPlan(**T, *Sig);
  if (!P)
    return fail(P.takeError());
  printWarnings(P->warnings());
  auto Args = callconv::parseCallArguments(*Sig, O.callArgs);
  if (!Args)
    return fail(Args.takeError());
  auto R = callconv::callWithPlan(Prog, O.callSymbol, *P, *Args, L);
  printWarnings(Thunks->warnings());
  if (!R)
    return fail(R.takeError());
  for (auto &Line : callconv::formatCall(*P, *R))
    std::printf("%s\n", Line.c_str());
  return 0;
}

} // namespace linklab::cli
