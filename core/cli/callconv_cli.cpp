#include "cli/callconv_cli.h"

#include "callconv/call.h"
#include "callconv/thunks.h"
#include "target/target.h"

#include <cstdio>

namespace linklab::cli {

namespace {

void printWarnings(const std::vector<std::string> &W) {
  for (auto &M : W)
    std::fprintf(stderr, "linklab warning: %s\n", M.c_str());
}

} // namespace

// Joins the session at once, so its pass sits where the session's later
// plugins expect it; it forwards to the bridge-thunk plugin once there is a
// table (with no convention, that plugin changes nothing either).
class SessionConventions::Slot : public Plugin {
public:
  std::shared_ptr<callconv::BridgeThunkPlugin> Thunks;
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &C) override {
    if (Thunks)
      Thunks->modifyPassConfig(MR, G, C);
  }
};

SessionConventions::SessionConventions(Session &S, WarningFn Warn)
    : S(S), Warn(std::move(Warn)), Thunks(std::make_shared<Slot>()) {
  S.addPlugin(Thunks);
}

Error SessionConventions::addEntry(std::string_view Entry, const std::string &Origin) {
  if (S.triple().arch == Arch::Unknown) { // no object yet: planned when the target is known
    Pending.emplace_back(Entry, Origin);
    return Error::success();
  }
  if (Error E = makeTable())
    return E;
  if (!Table)
    return callconv::targetForTriple(fullTriple(S.triple())).takeError();
  return added(Table->add(Entry, Origin));
}

Error SessionConventions::addObject(const std::string &Name, std::span<const char> Bytes) {
  if (Error E = makeTable())
    return E;
  return Table ? added(Table->addObject(Name, Bytes)) : Error::success();
}

// Once the session has a target: its table (none for a target the planner
// does not know, which matters only if a convention was asked for) and the
// entries given before.
Error SessionConventions::makeTable() {
  if (Table || S.triple().arch == Arch::Unknown)
    return Error::success();
  auto T = callconv::targetForTriple(fullTriple(S.triple()));
  if (T) {
    Table = std::make_shared<callconv::ConventionTable>(**T);
    Thunks->Thunks = std::make_shared<callconv::BridgeThunkPlugin>(Table, Warn);
  }
  auto Entries = std::move(Pending);
  Pending.clear();
  if (!T) { // an unknown target matters only when a convention was asked for
    if (!Entries.empty())
      return T.takeError();
    consumeError(T.takeError());
  }
  for (auto &[Entry, Origin] : Entries) {
    if (Error E = added(Table->add(Entry, Origin)))
      return E;
  }
  return Error::success();
}

// Shows the planner warnings the last addition made.
Error SessionConventions::added(Error E) {
  if (E)
    return E;
  for (auto &W = Table->warnings(); WarningsShown < W.size(); ++WarningsShown)
    Warn(W[WarningsShown]);
  return Error::success();
}

Expected<std::shared_ptr<const callconv::ConventionTable>> installConventions(const Options &O,
                                                                            const std::vector<Input> &Inputs,
                                                                            Session &S) {
  SessionConventions C(S, [](const std::string &W) { printWarnings({W}); });
  if (!O.callSymbol.empty()) // -call needs the planner even without -cc
    if (auto T = callconv::targetForTriple(fullTriple(S.triple())); !T)
      return T.takeError();
  for (auto &E : O.conventions)
    if (Error Err = C.addEntry(E, "-cc"))
      return Err;
  for (const Input &I : Inputs) // the objects named (not -l archives)
    if (!I.library)
      if (Error Err = C.addObject(I.path, I.bytes.span()))
        return Err;
  return C.table();
}

std::optional<int> applyConventions(const Options &O, const std::vector<Input> &Inputs, exec::Program &Prog,
                                    const executor::Limits &L) {
  auto Installed = installConventions(O, Inputs, Prog.session());
  if (!Installed)
    return fail(Installed.takeError());
  const callconv::ConventionTable *Table = Installed->get();
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
