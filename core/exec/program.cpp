#include "exec/program.h"

#include "executor/remote_memory_manager.h"
#include "target/target.h"

#include <algorithm>
#include <cstring>

namespace linklab::exec {

using namespace executor;

namespace {

// Constructor and destructor pointer arrays, and the symbols a static linker
// defines around their concatenation (libc start-up and exit walk them).
struct ArrayKind {
  const char *section, *start, *end;
};
const ArrayKind ArrayKinds[] = {
    {".preinit_array", "__preinit_array_start", "__preinit_array_end"},
    {".init_array", "__init_array_start", "__init_array_end"},
    {".fini_array", "__fini_array_start", "__fini_array_end"},
};
enum { PreInit, Init, Fini, NumArrays };

// ".init_array" -> priority 65536 (after every numbered one), ".init_array.101" -> 101; -1 if not that kind.
long arrayPriority(std::string_view Section, const ArrayKind &K) {
  std::string_view Base = K.section;
  if (Section == Base)
    return 65536;
  if (!Section.starts_with(Base) || Section.size() <= Base.size() + 1 || Section[Base.size()] != '.')
    return -1;
  long P = 0;
  for (char Ch : Section.substr(Base.size() + 1)) {
    if (Ch < '0' || Ch > '9')
      return -1;
    P = P * 10 + (Ch - '0');
  }
  return P;
}

// Supplies the names the executor exposes (setup-result), like a process's
// own symbols, to references nothing else defines.
class ExecutorSymbols : public DefinitionGenerator {
public:
  explicit ExecutorSymbols(std::vector<ExposedSymbol> Syms) : Syms(std::move(Syms)) {}
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override {
    for (auto &N : Names)
      for (auto &E : Syms)
        if (E.name == N)
          if (Error Err = S.defineAbsolute(N, E.address))
            return Err;
    return Error::success();
  }

private:
  std::vector<ExposedSymbol> Syms;
};

} // namespace

// Keeps every graph's constructor/destructor arrays alive, records their
// fixed-up pointers, and on the first reference to an __*_array_start/end
// symbol lays out one table for the whole program (a graph of its own) that
// install() fills once everything is linked. Entries are counted when a graph
// starts linking, so a graph with constructors that starts after the table
// was laid out is an error rather than a silently skipped constructor.
class InitArrays : public Plugin, public DefinitionGenerator {
public:
  explicit InitArrays(Triple TT) : TT(std::move(TT)) {}

  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override {
    size_t Count = 0;
    forEachArrayBlock(G, [&](unsigned, long, Block &B) { Count += B.size / 8; });
    if (!Count)
      return;
    std::string Name = MR.objectName;
    bool Late = LaidOut;
    Config.prePrunePasses.push_back([this, Name, Late](LinkGraph &G) -> Error {
      if (Late)
        return makeError(formatv("%s: has constructor/destructor arrays but was linked after the program's init "
                                 "arrays were laid out (an archive member pulled in late)",
                                 Name.c_str()));
      forEachArrayBlock(G, [&](unsigned, long, Block &B) {
        if (B.size % 8)
          return;
        G.addAnonymousSymbol(B, 0, B.size, false, true); // nothing else references these blocks
      });
      return Error::success();
    });
    for (unsigned K = 0; K < NumArrays; ++K)
      forEachArrayBlock(G, [&](unsigned Kind, long, Block &B) { Counts[Kind] += Kind == K ? B.size / 8 : 0; });
    Config.postFixupPasses.push_back([this, Name](LinkGraph &G) -> Error {
      Error Err = Error::success();
      forEachArrayBlock(G, [&](unsigned Kind, long Prio, Block &B) {
        if (Err)
          return;
        if (B.size % 8 || B.isZeroFill()) {
          Err = makeError(formatv("%s: %s block at %s is %llu bytes, not an array of 8-byte pointers", Name.c_str(),
                                  std::string(B.section->name).c_str(), hex(B.address).c_str(),
                                  (unsigned long long)B.size));
          return;
        }
        for (uint64_t Off = 0; Off < B.size; Off += 8) {
          uint64_t P;
          std::memcpy(&P, B.content().data() + Off, 8);
          Entries[Kind].push_back({Prio, Order++, P});
        }
      });
      return Err;
    });
  }

  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override {
    bool Wanted = false;
    for (auto &N : Names)
      for (auto &K : ArrayKinds)
        Wanted |= N == K.start || N == K.end;
    if (!Wanted || LaidOut)
      return Error::success();
    LaidOut = true;
    const TargetInfo *T = findTarget(TT);
    auto G = std::make_unique<LinkGraph>("<init/fini arrays>", TT, T ? T->edgeKindName : nullptr);
    uint64_t Total = Counts[PreInit] + Counts[Init] + Counts[Fini];
    Section &Sec = G->createSection(".linklab.init_arrays", MemProt::Read | MemProt::Write);
    Block &B = G->createZeroFillBlock(Sec, std::max<uint64_t>(Total, 1) * 8, 0, 8, 0);
    uint64_t Off = 0;
    for (unsigned K = 0; K < NumArrays; ++K) {
      G->addDefinedSymbol(B, Off, ArrayKinds[K].start, 0, Linkage::Strong, Scope::Default, false, true);
      Off += Counts[K] * 8;
      G->addDefinedSymbol(B, Off, ArrayKinds[K].end, 0, Linkage::Strong, Scope::Default, false, true);
    }
    auto Key = S.addGraph(std::move(G), ObjectKind::Library);
    return Key ? Error::success() : Key.takeError();
  }

  // Pointers in the order a static link would run them (by priority, then
  // link order).
  std::vector<uint64_t> sorted(unsigned Kind) const {
    auto E = Entries[Kind];
    std::sort(E.begin(), E.end(), [](auto &L, auto &R) { return std::tie(L.prio, L.order) < std::tie(R.prio, R.order); });
    std::vector<uint64_t> Out;
    for (auto &X : E)
      Out.push_back(X.pointer);
    return Out;
  }

  // Writes the table laid out by tryToGenerate (if anything referenced it).
  Error install(ExecutorClient &C, Session &S) {
    auto Base = S.addressOf(ArrayKinds[PreInit].start);
    if (!LaidOut || !Base)
      return Error::success();
    std::vector<uint8_t> Bytes;
    for (unsigned K = 0; K < NumArrays; ++K) {
      if (sorted(K).size() != Counts[K])
        return makeError(formatv("%s: %zu entries were counted but %zu linked", ArrayKinds[K].section,
                                 size_t(Counts[K]), sorted(K).size()));
      for (uint64_t P : sorted(K))
        for (int I = 0; I < 8; ++I)
          Bytes.push_back(uint8_t(P >> (8 * I)));
    }
    if (Bytes.empty())
      return Error::success();
    Error Result = Error::success();
    bool Done = false;
    C.writeMemory(*Base, std::move(Bytes), [&](Error E) {
      Result = std::move(E);
      Done = true;
    });
    if (Error E = C.waitFor(Done))
      return E;
    return Result;
  }

private:
  template <typename Fn> static void forEachArrayBlock(LinkGraph &G, Fn F) {
    for (auto &Sec : G.sections())
      for (unsigned K = 0; K < NumArrays; ++K)
        if (long P = arrayPriority(Sec->name, ArrayKinds[K]); P >= 0)
          for (Block *B : Sec->blocks)
            F(K, P, *B);
  }
  struct Entry {
    long prio;
    uint64_t order, pointer;
  };
  Triple TT;
  bool LaidOut = false;
  uint64_t Counts[NumArrays] = {};
  std::vector<Entry> Entries[NumArrays];
  uint64_t Order = 0;
};

namespace {
// Forwards a session's generator call to a plugin it shares ownership of.
class SharedGenerator : public DefinitionGenerator {
public:
  explicit SharedGenerator(std::shared_ptr<InitArrays> I) : I(std::move(I)) {}
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override { return I->tryToGenerate(S, Names); }

private:
  std::shared_ptr<InitArrays> I;
};

template <typename T> Expected<T> waitSync(ExecutorClient &C, std::function<void(Callback<T>)> Issue) {
  std::optional<Expected<T>> Out;
  bool Done = false;
  Issue([&](Expected<T> R) {
    Out = std::move(R);
    Done = true;
  });
  if (Error E = C.waitFor(Done))
    return E;
  return std::move(*Out);
}
} // namespace

Program::~Program() = default;

Expected<std::unique_ptr<Program>> Program::create(ExecutorClient &C, const Triple &TT, const RuntimeSpec *Runtime) {
  auto Info = C.setupSync(TT.str);
  if (!Info)
    return Info.takeError();
  std::unique_ptr<Program> P(new Program(C, Runtime));
  P->MM = std::make_unique<RemoteMemoryManager>(C, Info->pageSize);
  P->S = std::make_unique<Session>(TT, *P->MM);
  P->Info = std::make_shared<LinkInfoRecorder>();
  P->S->addPlugin(P->Info);
  static const TLSVariant FreestandingTLS[] = {TLSVariant::BlockBelowTP, TLSVariant::BlockBelowTP,
                                               TLSVariant::BlockAfterTCB16, TLSVariant::BlockAtTP};
  P->TLS = std::make_shared<TLSLayout>(Runtime ? Runtime->tls : FreestandingTLS[size_t(TT.arch)]);
  P->S->addPlugin(P->TLS);
  P->Inits = std::make_shared<InitArrays>(TT);
  P->S->addPlugin(P->Inits);
  P->S->addGenerator(std::make_unique<SharedGenerator>(P->Inits));
  P->S->addGenerator(std::make_unique<ExecutorSymbols>(Info->symbols));
  if (Runtime) {
    auto Archives = runtimeArchives(*Runtime);
    if (!Archives)
      return Archives.takeError();
    for (auto &Path : *Archives) {
      auto Bytes = readFileBytes(Path);
      if (!Bytes)
        return Bytes.takeError();
      if (Error E = P->S->addArchive(Path, std::move(*Bytes)))
        return E;
    }
  }
  C.setSymbolizer([P = P.get()](uint64_t A) { return P->symbolize(A); });
  return P;
}

Error Program::prepareRun() {
  if (!TLSInstalled && (Runtime || !TLS->empty())) {
    auto Image = TLS->image();
    if (!Image)
      return Image.takeError();
    SetupTLSMsg M{std::move(Image->bytes), Image->memSize, Image->alignment};
    auto R = waitSync<TLSResultMsg>(C, [&](Callback<TLSResultMsg> Done) { C.setupTLS(std::move(M), Done); });
    if (!R)
      return R.takeError();
    TLSInstalled = true;
  }
  return Inits->install(C, *S);
}

namespace {
Error linkAll(Session &S, ExecutorClient &C) {
  Error Result = Error::success();
  bool Done = false;
  S.linkAll([&](Error E) {
    Result = std::move(E);
    Done = true;
  });
  if (Error E = C.waitFor(Done))
    return E;
  return Result;
}

Expected<std::vector<Addr>> lookup(Session &S, ExecutorClient &C, std::vector<std::string> Names) {
  return waitSync<std::vector<Addr>>(
      C, [&](Callback<std::vector<Addr>> Done) { S.lookup(std::move(Names), std::move(Done)); });
}
} // namespace

Expected<RunResultMsg> Program::runMain(const std::string &Entry, std::vector<std::string> Args, Limits L) {
  // Every object given is linked, as a static link would (their
  // constructors count even if nothing references them); archive members
  // only when needed.
  if (Error E = linkAll(*S, C))
    return E;
  bool Process = Runtime && Runtime->startObject && Entry == "main";
  if (Process) {
    auto Main = lookup(*S, C, {"main"});
    if (!Main)
      return Main.takeError();
    std::string Path = std::string(Runtime->libDir) + "/" + Runtime->startObject;
    auto Bytes = readFileBytes(Path);
    if (!Bytes)
      return Bytes.takeError();
    if (auto K = S->addObject(Path, std::move(*Bytes), ObjectKind::Library); !K)
      return K.takeError();
    auto Start = lookup(*S, C, {Runtime->startSymbol});
    if (!Start)
      return Start.takeError();
    if (Error E = prepareRun())
      return E;
    return C.runMainSync((*Start)[0], std::move(Args), L, Startup::ProcessEntry);
  }
  std::vector<std::string> Names = {Entry};
  if (Runtime)
    Names.push_back("exit");
  auto Addrs = lookup(*S, C, Names);
  if (!Addrs)
    return Addrs.takeError();
  if (Error E = prepareRun())
    return E;
  for (unsigned K : {PreInit, Init})
    for (uint64_t Ctor : Inits->sorted(K)) {
      CallMsg M;
      M.limits = L;
      auto R = callAddress(Ctor, std::move(M));
      if (!R || R->runStatus() != RunStatus::Returned)
        return R; // an error, or the constructor exited or faulted
    }
  auto R = C.runMainSync((*Addrs)[0], std::move(Args), L, Startup::CallMain);
  if (!R || R->runStatus() != RunStatus::Returned || !Runtime)
    return R;
  // Returning from main is exit(status): atexit handlers, destructors, stdio.
  CallMsg M;
  M.limits = L;
  int64_t Status = R->value;
  M.registers.push_back({Runtime->firstArgDwarf, {uint8_t(Status), uint8_t(Status >> 8), uint8_t(Status >> 16),
                                                  uint8_t(Status >> 24)}});
  return callAddress((*Addrs)[1], std::move(M));
}

Expected<RunResultMsg> Program::callAddress(uint64_t Entry, CallMsg M) {
  M.entry = Entry;
  return C.callSync(std::move(M));
}

Expected<RunResultMsg> Program::call(const std::string &Entry, CallMsg M) {
  auto A = lookup(*S, C, {Entry});
  if (!A)
    return A.takeError();
  if (Error E = prepareRun())
    return E;
  return callAddress((*A)[0], std::move(M));
}

std::string Program::symbolize(uint64_t A) const {
  for (auto &O : Info->objects())
    for (auto &Sec : O.sections) {
      if (A < Sec.address || A >= Sec.address + std::max<uint64_t>(Sec.size, 1))
        continue;
      const std::string *Best = nullptr;
      Addr BestAddr = 0;
      for (auto &[Name, Sym] : O.symbols)
        if (Sym.section == Sec.name && Sym.address <= A && (!Best || Sym.address > BestAddr) &&
            !Name.starts_with(".L")) { // assembler-local labels name nothing a user wrote
          Best = &Name;
          BestAddr = Sym.address;
        }
      std::string Where = Best ? formatv("%s+%s", Best->c_str(), hex(A - BestAddr).c_str())
                               : formatv("%s+%s", Sec.name.c_str(), hex(A - Sec.address).c_str());
      return formatv("%s in %s of %s", Where.c_str(), Sec.name.c_str(), O.name.c_str());
    }
  return "";
}

} // namespace linklab::exec
