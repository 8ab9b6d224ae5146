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
    uint64_t Count[NumArrays] = {};
    forEachArrayBlock(G, [&](unsigned Kind, long, Block &B) { Count[Kind] += B.size / 8; });
    if (!Count[PreInit] && !Count[Init] && !Count[Fini])
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
      Counts[K] += Count[K];
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
    auto G = std::make_unique<LinkGraph>("<init/fini arrays>", TT,
                                         TT.arch == Arch::Unknown ? nullptr : archRow(TT.arch).edgeKindName);
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
  void install(ExecutorClient &C, Session &S, std::function<void(Error)> Done) {
    auto Base = S.addressOf(ArrayKinds[PreInit].start);
    if (!LaidOut || !Base)
      return Done(Error::success());
    std::vector<uint8_t> Bytes;
    for (unsigned K = 0; K < NumArrays; ++K) {
      if (Entries[K].size() != Counts[K])
        return Done(makeError(formatv("%s: %zu entries were counted but %zu linked", ArrayKinds[K].section,
                                      size_t(Counts[K]), Entries[K].size())));
      for (uint64_t P : sorted(K))
        for (int I = 0; I < 8; ++I)
          Bytes.push_back(uint8_t(P >> (8 * I)));
    }
    if (Bytes.empty())
      return Done(Error::success());
    C.writeMemory(*Base, std::move(Bytes), std::move(Done));
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


RunResultMsg returned() {
  RunResultMsg R;
  R.status = uint8_t(RunStatus::Returned);
  return R;
}
} // namespace

// The client outlives the program (a browser session disposes programs):
// it must not symbolize through a freed one.
Program::~Program() { C.setSymbolizer(nullptr); }

void Program::create(ExecutorClient &C, const Triple &TT, const RuntimeSpec *Runtime, RuntimeFiles Files,
                     OnCreated Done) {
  if (auto &Info = C.setupInfo()) {
    if (Triple::parse(Info->triple).arch != TT.arch)
      return Done(makeError(formatv("the executor is set up for %s; cannot run a %s program in it",
                                    Info->triple.c_str(), TT.str.c_str())));
    return Done(build(C, TT, *Info, Runtime, std::move(Files)));
  }
  C.setup(TT.str, [&C, TT, Runtime, Files = std::move(Files), Done = std::move(Done)](
                      Expected<executor::SetupInfo> Info) mutable {
    if (!Info)
      return Done(Info.takeError());
    Done(build(C, TT, *Info, Runtime, std::move(Files)));
  });
}

Expected<std::unique_ptr<Program>> Program::createSync(ExecutorClient &C, const Triple &TT,
                                                       const RuntimeSpec *Runtime) {
  RuntimeFiles Files;
  if (Runtime) {
    auto Read = readRuntimeFiles(*Runtime);
    if (!Read)
      return Read.takeError();
    Files = std::move(*Read);
  }
  return C.sync<std::unique_ptr<Program>>([&](OnCreated Done) { create(C, TT, Runtime, std::move(Files), Done); });
}

Expected<std::unique_ptr<Program>> Program::build(ExecutorClient &C, const Triple &TT, const executor::SetupInfo &Info,
                                                  const RuntimeSpec *Runtime, RuntimeFiles Files) {
  std::unique_ptr<Program> P(new Program(C));
  P->MM = std::make_unique<RemoteMemoryManager>(C, Info.pageSize);
  P->S = std::make_unique<Session>(TT, *P->MM);
  P->Info = std::make_shared<LinkInfoRecorder>();
  P->S->addPlugin(P->Info);
  P->TLS = std::make_shared<TLSLayout>(tlsVariantOf(TT.arch));
  P->S->addPlugin(P->TLS);
  P->Inits = std::make_shared<InitArrays>(TT);
  P->S->addPlugin(P->Inits);
  P->S->addGenerator(P->Inits);
  P->S->addGenerator(std::make_unique<ExecutorSymbols>(Info.symbols));
  if (Runtime)
    if (Error E = P->addRuntime(*Runtime, std::move(Files)))
      return E;
  C.setSymbolizer([P = P.get()](uint64_t A) { return P->symbolize(A); });
  return P;
}

Error addRuntimeArchives(Session &S, const RuntimeSpec &R, const RuntimeFiles &Files, FileBytes *StartObject) {
  if (R.arch != S.triple().arch)
    return makeError(formatv("C runtime %s is not for %s", R.description, S.triple().str.c_str()));
  auto All = R.files();
  for (auto &Given : Files) {
    const std::string &Name = Given.first; // not a structured binding: clang 14 cannot capture those
    if (std::none_of(All.begin(), All.end(), [&](const RuntimeFile &F) { return Name == F.name; })) {
      std::string Known;
      for (auto &F : All)
        Known += (Known.empty() ? "" : ", ") + std::string(F.name);
      return makeError(formatv("C runtime %s: unknown file '%s' (its files are %s)", R.description, Name.c_str(),
                               Known.c_str()));
    }
  }
  for (auto &F : All) {
    bool Start = R.startObject.name && std::strcmp(F.name, R.startObject.name) == 0;
    if (Start && !StartObject)
      continue; // not wanted: a link that does not start a process
    auto It = Files.find(F.name);
    if (It == Files.end() || !It->second)
      return makeError(formatv("C runtime %s: the bytes of %s (%s) were not supplied", R.description, F.name, F.path));
    if (Start)
      *StartObject = It->second;
    // Named by Debian path in every build, so messages and fault reports match.
    else if (Error E = S.addArchive(F.path, It->second))
      return E;
  }
  return Error::success();
}

Error Program::addRuntime(const RuntimeSpec &R, RuntimeFiles Files) {
  if (Runtime)
    return makeError(formatv("this program already links the C runtime %s", Runtime->description));
  if (Error E = addRuntimeArchives(*S, R, Files, &StartObject))
    return E;
  Runtime = &R;
  return Error::success();
}

void Program::prepareRun(std::function<void(Error)> Done) {
  auto InstallInits = [this, Done] { Inits->install(C, *S, Done); };
  // A libc needs its thread pointer even when no graph has TLS (errno, stdio locks).
  if (TLSInstalled || (!Runtime && TLS->empty()))
    return InstallInits();
  auto Image = TLS->image();
  if (!Image)
    return Done(Image.takeError());
  SetupTLSMsg M{std::move(Image->bytes), Image->memSize, Image->alignment};
  C.setupTLS(std::move(M), [this, Done, InstallInits](Expected<TLSResultMsg> R) {
    if (!R)
      return Done(R.takeError());
    TLSInstalled = true;
    TLS->seal();
    InstallInits();
  });
}

void Program::runMain(std::string Entry, std::vector<std::string> Args, Limits L, OnResult Done) {
  // Every object given is linked, as a static link would (their
  // constructors count even if nothing references them); archive members
  // only when needed.
  S->linkAll([this, Entry = std::move(Entry), Args = std::move(Args), L, Done = std::move(Done)](Error E) mutable {
    if (E)
      return Done(std::move(E));
    if (Runtime && Runtime->startObject.name && Entry == "main")
      return startProcess(std::move(Args), L, std::move(Done));
    callMain(std::move(Entry), std::move(Args), L, std::move(Done));
  });
}

// Through the runtime's start object: main is looked up first so that a
// program without one fails naming main, not some reference inside crt1.
void Program::startProcess(std::vector<std::string> Args, Limits L, OnResult Done) {
  S->lookup({"main"}, [this, Args = std::move(Args), L, Done = std::move(Done)](Expected<std::vector<Addr>> Main) mutable {
    if (!Main)
      return Done(Main.takeError());
    if (!StartAdded) {
      auto K = S->addObject(Runtime->startObject.path, StartObject, ObjectKind::Library);
      if (!K)
        return Done(K.takeError());
      StartAdded = true;
    }
    S->lookup({Runtime->startSymbol}, [this, Args = std::move(Args), L, Done = std::move(Done)](
                                          Expected<std::vector<Addr>> Start) mutable {
      if (!Start)
        return Done(Start.takeError());
      prepareRun([this, Args = std::move(Args), L, Done = std::move(Done), Entry = (*Start)[0]](Error E) mutable {
        if (E)
          return Done(std::move(E));
        C.runMain(Entry, std::move(Args), L, std::move(Done), Startup::ProcessEntry, Env);
      });
    });
  });
}

// Directly: constructors, the entry, and with a runtime exit(status), since
// returning from main is exit (atexit handlers, destructors, stdio flush).
void Program::callMain(std::string Entry, std::vector<std::string> Args, Limits L, OnResult Done) {
  std::vector<std::string> Names = {Entry};
  if (Runtime)
    Names.push_back("exit");
  S->lookup(std::move(Names), [this, Args = std::move(Args), L, Done = std::move(Done)](
                                  Expected<std::vector<Addr>> Addrs) mutable {
    if (!Addrs)
      return Done(Addrs.takeError());
    Addr Entry = (*Addrs)[0], Exit = Runtime ? (*Addrs)[1] : 0;
    prepareRun([this, Args = std::move(Args), L, Done = std::move(Done), Entry, Exit](Error E) mutable {
      if (E)
        return Done(std::move(E));
      std::vector<uint64_t> Ctors = Inits->sorted(PreInit);
      for (uint64_t F : Inits->sorted(Init))
        Ctors.push_back(F);
      auto AfterCtors = [this, Args = std::move(Args), L, Done, Entry, Exit](Expected<RunResultMsg> R) mutable {
        if (!R || R->runStatus() != RunStatus::Returned)
          return Done(std::move(R)); // an error, or a constructor exited or faulted
        C.runMain(Entry, std::move(Args), L, [this, L, Done, Exit](Expected<RunResultMsg> R) {
          if (!R || R->runStatus() != RunStatus::Returned || !Runtime)
            return Done(std::move(R));
          CallMsg M;
          M.entry = Exit;
          M.limits = L;
          int64_t Status = R->value;
          M.registers.push_back({Runtime->firstArgDwarf, {uint8_t(Status), uint8_t(Status >> 8),
                                                          uint8_t(Status >> 16), uint8_t(Status >> 24)}});
          C.call(std::move(M), Done);
        }, Startup::CallMain, Env);
      };
      callInOrder(std::move(Ctors), 0, L, std::move(AfterCtors));
    });
  });
}

// Calls Fns[Next...] one after another while they return; Done gets the
// first result that is not a return, or a plain return after the last.
void Program::callInOrder(std::vector<uint64_t> Fns, size_t Next, Limits L, OnResult Done) {
  if (Next == Fns.size())
    return Done(returned());
  CallMsg M;
  M.entry = Fns[Next];
  M.limits = L;
  C.call(std::move(M), [this, Fns = std::move(Fns), Next, L, Done = std::move(Done)](Expected<RunResultMsg> R) mutable {
    if (!R || R->runStatus() != RunStatus::Returned)
      return Done(std::move(R));
    callInOrder(std::move(Fns), Next + 1, L, std::move(Done));
  });
}

void Program::call(std::string Entry, CallMsg M, OnResult Done) {
  S->lookup({std::move(Entry)}, [this, M = std::move(M), Done = std::move(Done)](Expected<std::vector<Addr>> A) mutable {
    if (!A)
      return Done(A.takeError());
    M.entry = (*A)[0];
    prepareRun([this, M = std::move(M), Done = std::move(Done)](Error E) mutable {
      if (E)
        return Done(std::move(E));
      C.call(std::move(M), std::move(Done));
    });
  });
}

Expected<RunResultMsg> Program::runMainSync(std::string Entry, std::vector<std::string> Args, Limits L) {
  return C.sync<RunResultMsg>([&](OnResult Done) { runMain(std::move(Entry), std::move(Args), L, Done); });
}

Expected<RunResultMsg> Program::callSync(std::string Entry, CallMsg M) {
  return C.sync<RunResultMsg>([&](OnResult Done) { call(std::move(Entry), std::move(M), Done); });
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
