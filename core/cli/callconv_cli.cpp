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

Expected<std::shared_ptr<const callconv::ConventionTable>> installConventions(const Options &O, Session &S) {
  auto T = callconv::targetForTriple(S.triple().str);
  if (!T) // a target the planner does not know: fine unless conventions were asked for
    return O.conventions.empty() && O.callSymbol.empty()
               ? Expected<std::shared_ptr<const callconv::ConventionTable>>(nullptr)
               : T.takeError();
  auto Table = std::make_shared<callconv::ConventionTable>(**T);
  for (auto &E : O.conventions)
    if (Error Err = Table->add(E, "-cc"))
      return Err;
  for (auto &Path : O.inputs) {
    auto Bytes = exec::readFileBytes(Path);
    if (!Bytes)
      return Bytes.takeError();
    if (Error Err = Table->addObject(Path, {(*Bytes)->data(), (*Bytes)->size()}))
      return Err;
  }
  printWarnings(Table->warnings());
  if (!Table->empty())
    S.addPlugin(std::make_shared<callconv::BridgeThunkPlugin>(Table, [](const std::string &W) {
      printWarnings({W});
    }));
  return std::shared_ptr<const callconv::ConventionTable>(std::move(Table));
}

std::optional<int> applyConventions(const Options &O, exec::Program &Prog, const executor::Limits &L) {
  auto Installed = installConventions(O, Prog.session());
  if (!Installed)
    return fail(Installed.takeError());
  const callconv::ConventionTable *Table = Installed->get();
  if (O.callSymbol.empty())
    return std::nullopt;
  auto T = callconv::targetForTriple(Prog.session().triple().str);
  if (!T)
    return fail(T.takeError());

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
  if (!R)
    return fail(R.takeError());
  for (auto &Line : callconv::formatCall(*P, *R))
    std::printf("%s\n", Line.c_str());
  return 0;
}

} // namespace linklab::cli
