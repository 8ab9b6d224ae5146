#include "session/session.h"

#include "object/archive.h"
#include "session/graph_prefetch.h"
#include "target/target.h"

#include <algorithm>

namespace linklab {

struct Session::Object {
  ResourceKey key;
  std::string name;
  ObjectKind kind;
  uint64_t rank;
  std::unique_ptr<LinkGraph> graph; // until its link starts
  enum class State { Pending, Linking, Done, Failed } state = State::Pending;
  std::vector<FinalizedAlloc> allocs;
  // Set when another definition took one of this object's names (or kept
  // its own): only then must materialize look for definitions it lost.
  bool lostDefinitions = false;
  std::vector<std::string> references; // as read, before any pass (recordProcessLookups)
  std::string failure;                 // why its link failed: lookups of its symbols say so
};

// A linker's lookup waiting for symbols to get addresses.
struct Session::Query {
  std::vector<Addr> result;
  size_t remaining = 0;
  OnLookupFn onResult;
  bool done = false;
  void complete(Expected<LookupResult> R) {
    if (done) { // answered already (the first failure is the one reported)
      if (!R)
        consumeError(R.takeError());
      return;
    }
    done = true;
    onResult(std::move(R));
  }
};

class ObjectLinkContext : public LinkContext {
public:
  ObjectLinkContext(Session &S, Session::Object &O) : S(S), O(O) {}
  MemoryManager &memoryManager() override { return S.MM; }
  const void *dylib() const override {
    return O.kind == ObjectKind::Runtime ? static_cast<const void *>(&ProcessDylib) : &S;
  }
  void notifyFailed(Error Err) override { S.linkDone(O, std::move(Err)); }
  void lookup(std::vector<LookupRequest> Names, OnLookupFn OnResult) override {
    S.resolveForLink(std::move(Names), std::move(OnResult), &O.name, /*FromLink=*/true);
  }
  Error notifyResolved(LinkGraph &G) override {
    S.symbolsResolved(O, G);
    return Error::success();
  }
  void notifyFinalized(std::unique_ptr<LinkGraph> G, FinalizedAlloc A) override {
    if (S.KeepLinkedGraphs)
      S.LinkedGraphs.push_back(std::move(G));
    O.allocs.push_back(A);
    S.linkDone(O, Error::success());
  }
  // Symbols other objects may reference are live; locals only if reachable.
  LinkGraphPass markLivePass(const Triple &) const override {
    return [](LinkGraph &G) {
      G.forEachDefinedSymbol([](Symbol &Sym) {
        if (Sym.scope != Scope::Local)
          Sym.live = true;
      });
      return Error::success();
    };
  }
  Error modifyPassConfig(LinkGraph &G, PassConfiguration &Config) override {
    MaterializationInfo MR{O.key, O.name, O.kind};
    for (auto &P : S.Plugins)
      P->modifyPassConfig(MR, G, Config);
    return Error::success();
  }

private:
  Session &S;
  Session::Object &O;
};

Session::Session(Triple T, MemoryManager &M) : TT(std::move(T)), MM(M) {}
Session::~Session() = default;

Expected<ResourceKey> Session::addObject(std::string Name, SharedBytes Bytes, ObjectKind Kind, uint64_t Rank) {
  auto G = buildGraph(std::move(Name), std::move(Bytes));
  if (!G)
    return G.takeError();
  return addGraph(std::move(*G), Kind, Rank);
}

void Session::usePrefetched(std::unique_ptr<PrefetchedGraphs> P) { Prefetched = std::move(P); }

Expected<std::unique_ptr<LinkGraph>> Session::buildGraph(std::string Name, SharedBytes Bytes) {
  if (Prefetched)
    if (auto G = Prefetched->take(Name, Bytes))
      return G;
  return createLinkGraph(std::move(Name), std::move(Bytes));
}

Expected<ResourceKey> Session::addGraph(std::unique_ptr<LinkGraph> G, ObjectKind Kind, uint64_t Rank) {
  if (TT.arch == Arch::Unknown)
    TT = G->triple();
  else if (G->triple().arch != TT.arch)
    return makeError(formatv("%s: object is for %s, but this link is for %s (%s); objects of different "
                             "architectures cannot be linked together",
                             G->name().c_str(), archName(G->triple().arch), archName(TT.arch), fullTriple(TT).c_str()));
  std::vector<std::string> References;
  if (RecordLookups && Kind != ObjectKind::Runtime)
    for (Symbol *Ext : G->externalSymbols())
      References.push_back(std::string(Ext->name));
  for (auto &P : Plugins)
    if (Error E = P->notifyAdded(NextKey, *G))
      return E;
  auto O = std::make_unique<Object>();
  O->references = std::move(References);
  O->key = NextKey++;
  O->name = G->name();
  O->kind = Kind;
  O->rank = Rank;
  Object *Obj = O.get();
  Objects.push_back(std::move(O));

  // A harness reaches the tested objects' statics: promote the locals it names.
  HarnessScopesPending |= Kind == ObjectKind::Harness;
  // Each name goes to the first pending object with such a local. Found by
  // a scan when a harness comes (rarely), not indexed for every object.
  if (Kind == ObjectKind::Harness) {
    std::unordered_set<std::string_view> Wanted;
    for (Symbol *Ext : G->externalSymbols()) {
      HarnessRefs.insert(std::string(Ext->name));
      if (!Symbols.contains(Ext->name))
        Wanted.insert(Ext->name);
    }
    for (auto &Other : Objects) {
      if (Wanted.empty())
        break;
      if (Other->state != Object::State::Pending || !Other->graph)
        continue;
      Error Err = Error::success();
      Other->graph->forEachDefinedSymbol([&](Symbol &S) {
        auto W = Err || S.scope != Scope::Local || !S.hasName() ? Wanted.end() : Wanted.find(S.name);
        if (W == Wanted.end())
          return;
        Wanted.erase(W);
        S.scope = Scope::Default;
        Err = define(Other.get(), S, 0, false);
      });
      if (Err)
        return Err;
    }
  }

  size_t Defined = 0;
  for (auto &Sec : G->sections())
    Defined += Sec->symbols.size();
  // One rehash for a big object instead of a doubling series; growth stays
  // geometric, as a reserve of just what one more small object needs would
  // rehash the whole table for each archive member.
  Symbols.reserve(Symbols.size() + Defined);
  Error Err = Error::success();
  G->forEachDefinedSymbol([&](Symbol &S) {
    if (Err || !S.hasName())
      return;
    if (S.scope != Scope::Local)
      Err = define(Obj, S, 0, false);
  });
  for (Symbol *S : G->absoluteSymbols())
    if (!Err && S->scope != Scope::Local)
      Err = define(nullptr, *S, S->address(), true, Kind == ObjectKind::Runtime);
  if (Err) {
    // Names defined before the failure still lead here: a lookup of one
    // reports this failure rather than linking a graph that is not there.
    Obj->state = Object::State::Failed;
    Obj->failure = Err.message();
    return Err;
  }
  Obj->graph = std::move(G);
  return Obj->key;
}

Error Session::define(Object *Owner, const Symbol &Sym, Addr A, bool Resolved, bool Process) {
  return define(Owner, Sym.name, Sym.linkage, A, Resolved, Sym.callable, Sym.scope == Scope::Hidden, Process);
}

Error Session::define(Object *Owner, std::string_view Name, Linkage L, Addr A, bool Resolved, bool Callable,
                      bool Hidden, bool Process) {
  auto [Found, New] = Symbols.insert(Name);
  if (!New) {
    SymbolEntry &E = *Found;
    bool OldPending = !E.owner || E.owner->state == Object::State::Pending;
    bool HarnessOverride =
        Owner && Owner->kind == ObjectKind::Harness && E.owner && E.owner->kind != ObjectKind::Harness;
    // The runtime stands for the process, whose symbols the linked objects'
    // definitions shadow (llvm-jitlink searches the process last): a
    // runtime member's duplicate of an object's definition loses to it.
    bool IsRuntime = Owner && Owner->kind == ObjectKind::Runtime;
    bool WasRuntime = E.owner && E.owner->kind == ObjectKind::Runtime;
    bool Override =
        HarnessOverride || (E.linkage == Linkage::Weak && L == Linkage::Strong) || (WasRuntime && Owner && !IsRuntime);
    if (!Override || !OldPending) {
      if (L == Linkage::Weak || E.linkage == Linkage::Weak || (E.owner && E.owner->kind == ObjectKind::Harness) ||
          (IsRuntime && E.owner && !WasRuntime)) {
        if (Owner) // the existing definition stays
          Owner->lostDefinitions = true;
        return Error::success();
      }
      // llvm-jitlink's words first (LLVM's tests read them), then both owners.
      const char *New = Owner ? Owner->name.c_str() : "<absolute>";
      return makeError(formatv("In %s, duplicate definition of symbol '%s' (in %s and %s)", New,
                               std::string(Name).c_str(), E.owner ? E.owner->name.c_str() : "<absolute>", New));
    }
  }
  SymbolEntry &E = *Found;
  if (E.owner && E.owner != Owner)
    E.owner->lostDefinitions = true;
  E.owner = Owner;
  E.process = Owner ? Owner->kind == ObjectKind::Runtime : Process;
  E.linkage = L;
  E.callable = Callable;
  E.hidden = Hidden;
  E.address = A;
  E.resolved = Resolved;
  return Error::success();
}

Error Session::defineAbsolute(std::string_view Name, Addr A, bool Process) {
  SymbolEntry *Old = Symbols.find(Name);
  if (Old && Old->resolved && Old->address != A)
    return makeError(formatv("absolute symbol '%.*s' is already defined at %s", int(Name.size()), Name.data(),
                             hex(Old->address).c_str()));
  if (Old && Old->owner && Old->owner->state != Object::State::Pending)
    return makeError(formatv("absolute symbol '%.*s' is already defined by %s", int(Name.size()), Name.data(),
                             Old->owner->name.c_str()));
  auto &E = *Symbols.insert(Name).first;
  if (E.owner)
    E.owner->lostDefinitions = true;
  E.owner = nullptr;
  E.process = Process;
  E.callable = E.hidden = false;
  E.linkage = Linkage::Strong; // a pending weak definition's linkage must not let a strong one replace it
  E.address = A;
  E.resolved = true;
  return Error::success();
}

namespace {
// Links archive members that define needed symbols (llvm-jitlink -l/-L).
class ArchiveGenerator : public DefinitionGenerator {
public:
  ArchiveGenerator(Archive A, ObjectKind Kind, unsigned Number)
      : A(std::move(A)), Kind(Kind), Number(Number), Loaded(this->A.members().size()) {}
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override {
    for (const std::string &N : Names) {
      long M = A.memberDefining(N);
      if (M < 0 || Loaded[M])
        continue;
      if (!A.isPresent(size_t(M))) // a partial archive (Archive::parseHead) lacks what a whole one would link
        return makeError(formatv("%s: the member at %s, which defines '%s', was not fetched", A.name().c_str(),
                                 hex(A.members()[size_t(M)].offset).c_str(), N.c_str()));
      Loaded[M] = true;
      if (Error E = A.load(size_t(M)))
        return E;
      auto K = S.addObject(A.memberObjectName(size_t(M)), A.memberBytes(size_t(M)), Kind,
                           (uint64_t(Number) << 32) + uint64_t(M));
      if (!K)
        return K.takeError();
    }
    return Error::success();
  }

private:
  Archive A;
  ObjectKind Kind;
  unsigned Number; // from 1: its members rank after the objects added whole
  std::vector<bool> Loaded;
};
} // namespace

Error Session::addArchive(std::string Name, SharedBytes Bytes, ObjectKind MemberKind) {
  std::optional<Archive> Taken = Prefetched ? Prefetched->takeArchive(Name, Bytes) : std::nullopt;
  auto A = Taken ? Expected<Archive>(std::move(*Taken)) : Archive::parseForLink(std::move(Name), std::move(Bytes));
  if (!A)
    return A.takeError();
  addArchive(std::move(*A), MemberKind);
  return Error::success();
}

Error Session::addAllArchiveMembers(std::string Name, SharedBytes Bytes, ObjectKind MemberKind) {
  auto A = Archive::parse(Name, std::move(Bytes));
  if (!A)
    return A.takeError();
  for (size_t I = 0; I < A->members().size(); ++I) {
    SharedBytes Member = A->memberBytes(I);
    if (!isObjectFile(Member.span()))
      continue;
    std::string MemberName = formatv("%s[%zu](%s)", Name.c_str(), I, std::string(A->members()[I].name).c_str());
    if (auto K = addObject(std::move(MemberName), std::move(Member), MemberKind); !K)
      return K.takeError();
  }
  return Error::success();
}

void Session::addArchive(Archive A, ObjectKind MemberKind) {
  addGenerator(std::make_unique<ArchiveGenerator>(std::move(A), MemberKind, ++ArchivesAdded));
}

// Like a static linker's archive scan, what the generated objects need is
// generated too before any of them links: a strong definition in a member
// pulled later must still replace a weak one (musl's lite malloc, exit's
// no-op __funcs_on_exit), which it can only while the weak one is unlinked.
Error Session::generate(const std::vector<std::string> &Missing) {
  std::vector<std::string> Want = Missing;
  size_t Seen = Objects.size();
  while (!Want.empty()) {
    for (auto &Gen : Generators) {
      std::vector<std::string> StillMissing;
      for (const std::string &N : Want)
        if (!Symbols.contains(N))
          StillMissing.push_back(N);
      if (StillMissing.empty())
        break;
      if (Error E = Gen->tryToGenerate(*this, StillMissing))
        return E;
    }
    Want.clear();
    for (; Seen < Objects.size(); ++Seen)
      if (Objects[Seen]->graph)
        missingReferences(*Objects[Seen]->graph, Want);
  }
  return Error::success();
}

void Session::missingReferences(const LinkGraph &G, std::vector<std::string> &Out) const {
  for (Symbol *Ext : G.externalSymbols())
    if (!Symbols.contains(Ext->name))
      Out.push_back(std::string(Ext->name));
  std::vector<std::string> Added;
  for (auto &P : Plugins)
    P->addReferences(G, Added);
  for (std::string &N : Added)
    if (!Symbols.contains(N))
      Out.push_back(std::move(N));
}

// The archive scan over what the objects added since the last scan need,
// before any of them links, as a static linker's: a member's strong
// definition then replaces a given object's weak one (which it no longer
// can once that object has started to link).
Error Session::scanArchives() {
  std::vector<std::string> Missing;
  for (; Scanned < Objects.size(); ++Scanned)
    if (Object &O = *Objects[Scanned]; O.state == Object::State::Pending && O.graph)
      missingReferences(*O.graph, Missing);
  Error E = Missing.empty() ? Error::success() : generate(Missing);
  Scanned = Objects.size(); // what generate added is scanned already
  return E;
}

// llvm-jitlink -harness, rule (3): the tested objects keep visible only what
// a harness references or overrides; the rest becomes local, so untested code
// is dead-stripped along with its unresolved references.
void Session::applyHarnessScopes() {
  if (!HarnessScopesPending)
    return;
  HarnessScopesPending = false;
  for (auto &O : Objects) {
    if (O->kind != ObjectKind::Regular || O->state != Object::State::Pending)
      continue;
    O->graph->forEachDefinedSymbol([&](Symbol &S) {
      if (!S.hasName() || S.scope == Scope::Local || HarnessRefs.count(std::string(S.name)))
        return;
      SymbolEntry *E = Symbols.find(S.name);
      if (!E || E->owner != O.get())
        return; // overridden by a harness definition: becomes a reference to it
      Symbols.erase(S.name);
      S.scope = Scope::Local;
    });
  }
}

void Session::materialize(Object &O) {
  O.state = Object::State::Linking;
  ++InFlight;
  std::unique_ptr<LinkGraph> G = std::move(O.graph);
  // Definitions that lost to another object's become references to it.
  std::vector<Symbol *> Lost;
  if (O.lostDefinitions)
    G->forEachDefinedSymbol([&](Symbol &S) {
      if (S.hasName() && S.scope != Scope::Local) {
        SymbolEntry *E = Symbols.find(S.name);
        if (!E || E->owner != &O)
          Lost.push_back(&S);
      }
    });
  for (Symbol *S : Lost)
    G->makeExternal(*S);
  MaterializationInfo MR{O.key, O.name, O.kind};
  for (auto &P : Plugins)
    P->notifyLoaded(MR);
  link(std::move(G), std::make_unique<ObjectLinkContext>(*this, O));
}

bool Session::startsLater(const Object &O) const { return StartingRuntime && O.kind == ObjectKind::Runtime; }

bool Session::claimedAtLinkEnd(std::string_view Name) const {
  return std::any_of(LinkEndGenerators.begin(), LinkEndGenerators.end(), [&](auto &G) { return G->claims(Name); });
}

void Session::resolveForLink(std::vector<LookupRequest> Names, OnLookupFn OnResult, const std::string *Referrer,
                             bool FromLink, bool MayWait) {
  applyHarnessScopes();
  if (Error E = scanArchives())
    return OnResult(std::move(E));
  std::vector<std::string> Missing;
  for (auto &R : Names)
    if (!Symbols.contains(R.name))
      Missing.push_back(std::string(R.name));
  if (!Missing.empty()) {
    if (Error E = generate(Missing))
      return OnResult(std::move(E));
  }
  // Names only the link-end generators define: start the links of
  // everything else this lookup needs (they must count), then wait.
  bool AtLinkEnd = MayWait && std::any_of(Names.begin(), Names.end(), [&](const LookupRequest &R) {
                     return !Symbols.contains(R.name) && claimedAtLinkEnd(R.name);
                   });
  if (AtLinkEnd) {
    ++InFlight; // no link-end run until every link started here has allocated
    for (auto &R : Names)
      if (SymbolEntry *E = Symbols.find(R.name))
        if (Object *Owner = E->owner; Owner && Owner->state == Object::State::Pending && !startsLater(*Owner))
          materialize(*Owner);
    Parked.push_back({std::move(Names), std::move(OnResult), Referrer ? *Referrer : "", Referrer != nullptr, FromLink});
    ParkedLinks += FromLink;
    --InFlight;
    runLinkEndGenerators();
    fireQuiescence();
    return;
  }
  auto Q = std::make_shared<Query>();
  Q->result.assign(Names.size(), 0);
  Q->onResult = std::move(OnResult);
  std::vector<std::string> NotFound;
  std::vector<std::pair<SymbolEntry *, size_t>> Pending;
  for (size_t I = 0; I < Names.size(); ++I) {
    SymbolEntry *Found = Symbols.find(Names[I].name);
    if (!Found) {
      if (!Names[I].weaklyReferenced && !PhonyExternals)
        NotFound.push_back(std::string(Names[I].name));
      continue;
    }
    SymbolEntry &E = *Found;
    if (E.resolved)
      Q->result[I] = E.address;
    else if (E.owner && E.owner->state == Object::State::Failed)
      return Q->complete(
          makeError(formatv("symbol '%s' is unavailable: %s failed to link: %s", std::string(Names[I].name).c_str(),
                            E.owner->name.c_str(), E.owner->failure.c_str())));
    else
      Pending.push_back({&E, I});
  }
  if (!NotFound.empty()) {
    std::string List;
    for (auto &N : NotFound)
      List += " " + N;
    // llvm-jitlink's wording, then which object needs them.
    return Q->complete(
        makeError("Symbols not found: [" + List + " ]" + (Referrer ? " (referenced by " + *Referrer + ")" : "")));
  }
  Q->remaining = Pending.size();
  for (auto &[E, I] : Pending) {
    E->waiting.push_back({Q, I});
  }
  // Start the links that define what is pending (this may resolve some now).
  ++InFlight; // the link-end generators wait until all of them have started
  for (auto &[E, I] : Pending)
    if (E->owner && E->owner->state == Object::State::Pending && !startsLater(*E->owner))
      materialize(*E->owner);
  --InFlight;
  if (Q->remaining == 0)
    Q->complete(std::move(Q->result));
  runLinkEndGenerators();
  fireQuiescence();
}

// Runs when every link in flight waits for a link-end name: nothing else
// can add a graph now, so the tables can be laid out over all of them.
void Session::runLinkEndGenerators() {
  while (!InLinkEnd && !Parked.empty() && InFlight == ParkedLinks) {
    InLinkEnd = true;
    std::vector<std::string> Names;
    for (auto &P : Parked)
      for (auto &R : P.names)
        if (!Symbols.contains(R.name) && claimedAtLinkEnd(R.name) &&
            std::find(Names.begin(), Names.end(), R.name) == Names.end())
          Names.push_back(std::string(R.name));
    Error Err = Error::success();
    for (auto &G : LinkEndGenerators) {
      std::vector<std::string> Mine;
      for (auto &N : Names)
        if (G->claims(N) && !Symbols.contains(N))
          Mine.push_back(N);
      if (!Err && !Mine.empty())
        Err = G->tryToGenerate(*this, Mine);
    }
    auto Waiting = std::move(Parked);
    Parked.clear();
    ParkedLinks = 0;
    std::string Message = Err ? Err.message() : "";
    // Resolved again, without waiting: what is still missing is missing.
    for (auto &P : Waiting) {
      if (!Message.empty())
        P.onResult(makeError(Message));
      else
        resolveForLink(std::move(P.names), std::move(P.onResult), P.hasReferrer ? &P.referrer : nullptr, P.fromLink,
                       /*MayWait=*/false);
    }
    InLinkEnd = false;
  }
}

void Session::symbolsResolved(Object &O, LinkGraph &G) {
  std::vector<std::shared_ptr<Query>> Ready;
  auto Exported = G.triple().arch == Arch::Unknown ? nullptr : archRow(G.triple().arch).exportedAddress;
  G.forEachDefinedSymbol([&](Symbol &S) {
    if (!S.hasName() || S.scope == Scope::Local)
      return;
    SymbolEntry *Found = Symbols.find(S.name);
    if (!Found || Found->owner != &O)
      return;
    SymbolEntry &E = *Found;
    E.address = Exported ? Exported(S) : S.address();
    E.resolved = true;
    for (auto &[Q, Index] : E.waiting) {
      Q->result[Index] = E.address;
      if (--Q->remaining == 0)
        Ready.push_back(Q);
    }
    E.waiting.clear();
  });
  for (auto &Q : Ready)
    Q->complete(std::move(Q->result));
}

void Session::linkDone(Object &O, Error Err) {
  if (Err) {
    O.state = Object::State::Failed;
    O.failure = Err.message();
    Failures.push_back(O.failure);
    MaterializationInfo MR{O.key, O.name, O.kind};
    for (auto &P : Plugins)
      if (Error PE = P->notifyFailed(MR))
        Failures.push_back(PE.message());
    // Fail every lookup waiting for this object's symbols.
    Symbols.forEach([&](std::string_view Name, SymbolEntry &E) {
      if (E.owner != &O)
        return;
      auto Waiting = std::move(E.waiting);
      for (auto &[Q, Index] : Waiting)
        Q->complete(makeError(formatv("symbol '%s' is unavailable: %s failed to link: %s", std::string(Name).c_str(),
                                      O.name.c_str(), O.failure.c_str())));
    });
  } else {
    O.state = Object::State::Done;
    MaterializationInfo MR{O.key, O.name, O.kind};
    for (auto &P : Plugins)
      if (Error PE = P->notifyEmitted(MR))
        Failures.push_back(PE.message());
  }
  --InFlight;
  runLinkEndGenerators();
  fireQuiescence();
}

void Session::fireQuiescence() {
  if (InFlight)
    return;
  auto Callbacks = std::move(OnQuiescent);
  for (auto &C : Callbacks)
    C();
}

void Session::lookup(std::vector<std::string> Names, std::function<void(Expected<std::vector<Addr>>)> OnDone) {
  size_t FailuresBefore = Failures.size();
  std::vector<LookupRequest> Reqs;
  for (auto &N : Names)
    Reqs.push_back({N, false});
  auto Result = std::make_shared<std::optional<Expected<LookupResult>>>();
  auto Finish = [this, Result, FailuresBefore, OnDone]() {
    if (Failures.size() > FailuresBefore) {
      if (*Result && !**Result) // the link's own failure says more than "unavailable"
        consumeError((*Result)->takeError());
      return OnDone(makeError(Failures[FailuresBefore]));
    }
    if (!*Result)
      return OnDone(makeError("lookup did not complete"));
    OnDone(std::move(**Result));
  };
  resolveForLink(std::move(Reqs), [this, Result, Finish](Expected<LookupResult> R) {
    *Result = std::move(R);
    // Resolved is not enough for a caller who will run code: wait until
    // every link started on its behalf has finished.
    if (InFlight)
      OnQuiescent.push_back(Finish);
    else
      Finish();
  });
}

Expected<std::vector<Addr>> Session::lookupNow(std::vector<std::string> Names) {
  std::optional<Expected<std::vector<Addr>>> Out;
  lookup(std::move(Names), [&](Expected<std::vector<Addr>> R) { Out = std::move(R); });
  if (!Out)
    return makeError("lookup is still waiting for an asynchronous memory manager or executor");
  return std::move(*Out);
}

void Session::linkAll(std::function<void(Error)> OnDone) {
  size_t FailuresBefore = Failures.size();
  auto Finish = [this, FailuresBefore, OnDone] {
    OnDone(Failures.size() > FailuresBefore ? makeError(Failures[FailuresBefore]) : Error::success());
  };
  OnQuiescent.push_back(Finish);
  applyHarnessScopes();
  if (Error E = scanArchives())
    Failures.push_back(E.message());
  ++InFlight; // hold quiescence until every object has started
  StartingRuntime = true;
  // The objects in the order they came, then the runtime's by rank; in
  // rounds: a round's links may pull more members (a pass's new
  // reference), which start in the next round.
  for (size_t From = 0;;) {
    std::vector<Object *> Round;
    for (; From < Objects.size(); ++From)
      if (Objects[From]->state == Object::State::Pending)
        Round.push_back(Objects[From].get());
    if (Round.empty())
      break;
    std::stable_sort(Round.begin(), Round.end(), [](const Object *L, const Object *R) {
      return std::pair(L->kind == ObjectKind::Runtime, L->rank) < std::pair(R->kind == ObjectKind::Runtime, R->rank);
    });
    for (Object *O : Round)
      if (O->state == Object::State::Pending)
        materialize(*O);
  }
  StartingRuntime = false;
  --InFlight;
  runLinkEndGenerators();
  fireQuiescence();
}

void Session::removeObject(ResourceKey K, std::function<void(Error)> OnDone) {
  auto It = std::find_if(Objects.begin(), Objects.end(), [&](auto &O) { return O->key == K; });
  if (It == Objects.end())
    return OnDone(makeError(formatv("no object with resource key %llu", (unsigned long long)K)));
  for (auto &P : Plugins)
    if (Error E = P->notifyRemovingResources(K))
      return OnDone(std::move(E));
  Object *O = It->get();
  Symbols.eraseIf([&](const SymbolEntry &E) { return E.owner == O; });
  std::vector<FinalizedAlloc> Allocs = std::move(O->allocs);
  Scanned -= size_t(It - Objects.begin()) < Scanned;
  Objects.erase(It);
  MM.deallocate(std::move(Allocs), std::move(OnDone));
}

void Session::transferResources(ResourceKey Dst, ResourceKey Src) {
  Object *D = nullptr, *S = nullptr;
  for (auto &O : Objects) {
    if (O->key == Dst)
      D = O.get();
    if (O->key == Src)
      S = O.get();
  }
  if (!D || !S || D == S)
    return;
  for (auto &P : Plugins)
    P->notifyTransferringResources(Dst, Src);
  D->allocs.insert(D->allocs.end(), S->allocs.begin(), S->allocs.end());
  S->allocs.clear();
}

std::optional<Addr> Session::addressOf(std::string_view Name) const {
  const SymbolEntry *E = Symbols.find(Name);
  if (!E || !E->resolved)
    return std::nullopt;
  return E->address;
}

std::vector<std::string> Session::objectNames() const {
  std::vector<std::string> Out;
  for (auto &O : Objects)
    Out.push_back(O->name);
  return Out;
}

void Session::forEachPendingGraph(const std::function<void(const LinkGraph &)> &F) const {
  for (auto &O : Objects)
    if (O->state == Object::State::Pending && O->graph)
      F(*O->graph);
}

void Session::forEachSymbol(const std::function<void(std::string_view, const SymbolEntry &)> &F) const {
  const_cast<SymbolTable<SymbolEntry> &>(Symbols).forEach([&](std::string_view N, SymbolEntry &E) { F(N, E); });
}

// The words of ORC's JITDylib::dump (Core.cpp) and JITSymbolFlags'
// operator<<, so that LLVM's tests' FileCheck lines read linklab's too.
std::string Session::dumpSymbolTables(bool HasProcess) {
  auto Flags = [](const SymbolEntry &E, bool Failed) {
    std::string F = Failed ? "[*ERROR*]" : "";
    F += E.callable ? "[Callable]" : "[Data]";
    if (E.linkage == Linkage::Weak)
      F += "[Weak]";
    if (E.hidden)
      F += "[Hidden]";
    return F;
  };
  // What main's linked objects looked up: the process symbols ORC would
  // have generated for them, and the -abs symbols that are Ready.
  std::unordered_set<std::string_view> Searched;
  for (auto &O : Objects)
    if (O->state != Object::State::Pending)
      Searched.insert(O->references.begin(), O->references.end());
  std::vector<std::pair<std::string_view, const SymbolEntry *>> Main, Process;
  Symbols.forEach([&](std::string_view Name, SymbolEntry &E) {
    if (!E.process)
      Main.push_back({Name, &E});
    else if (HasProcess && E.resolved && Searched.count(Name))
      Process.push_back({Name, &E});
  });
  std::string Out;
  auto Header = [&](const char *JD, const char *LinkOrder) {
    Out += formatv("JITDylib \"%s\" (ES: 0x%016llx, State = Open)\nLink order: %s\nSymbol table:\n", JD,
                   (unsigned long long)reinterpret_cast<uintptr_t>(this), LinkOrder);
  };
  auto Sorted = [](auto &V) { std::sort(V.begin(), V.end(), [](auto &L, auto &R) { return L.first < R.first; }); };
  if (HasProcess) {
    Header("Process", "[ (\"Process\", MatchAllSymbols) ]");
    Sorted(Process);
    // The process's symbols are absolute to ORC: exported data.
    for (auto &[Name, E] : Process)
      Out +=
          formatv("    \"%.*s\": 0x%llx [Data] Ready\n", int(Name.size()), Name.data(), (unsigned long long)E->address);
  }
  Header("main", HasProcess ? "[ (\"main\", MatchAllSymbols), (\"Process\", MatchExportedSymbolsOnly) ]"
                            : "[ (\"main\", MatchAllSymbols) ]");
  Sorted(Main);
  for (auto &[Name, E] : Main) {
    Out += formatv("    \"%.*s\": ", int(Name.size()), Name.data());
    const Object *O = E->owner;
    bool Failed = O && O->state == Object::State::Failed;
    bool Started = O ? O->state != Object::State::Pending : Searched.count(Name) > 0;
    bool Done = O ? O->state == Object::State::Done : Started;
    if (E->resolved && Started)
      Out += formatv("0x%llx ", (unsigned long long)E->address);
    else
      Out += "<not resolved>  ";
    Out += Flags(*E, Failed);
    if (!Started)
      Out += formatv(" Never-Searched (Materializer 0x%llx, %s)\n",
                     (unsigned long long)reinterpret_cast<uintptr_t>(O ? static_cast<const void *>(O) : &Symbols),
                     O ? O->name.c_str() : "<Absolute Symbols>");
    else
      Out += Done ? " Ready\n" : E->resolved ? " Resolved\n" : " Materializing\n";
  }
  return Out;
}

} // namespace linklab
