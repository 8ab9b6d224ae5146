#include "program/program.h"

#include "link/eh_frame.h"
#include "platform/init_arrays.h"
#include "platform/linker_symbols.h"
#include "protocol/address_plan.h"
#include "protocol/remote_memory_manager.h"
#include "target/target.h"

#include <algorithm>
#include <cstring>

namespace linklab::exec {

using namespace executor;

namespace {

// Supplies the names the executor exposes (setup-result), like a process's
// own symbols, to references nothing else defines.
class ExecutorSymbols : public DefinitionGenerator {
public:
  explicit ExecutorSymbols(std::vector<ExposedSymbol> Syms) : Syms(std::move(Syms)) {}
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override {
    for (auto &N : Names)
      for (auto &E : Syms)
        if (E.name == N)
          if (Error Err = S.defineAbsolute(N, E.address, /*Process=*/true))
            return Err;
    return Error::success();
  }

private:
  std::vector<ExposedSymbol> Syms;
};

// A prepared runtime image's definitions, as the process's symbols.
class ImageSymbols : public DefinitionGenerator {
public:
  explicit ImageSymbols(std::shared_ptr<const RuntimeImage> I) : I(std::move(I)) {}
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override {
    for (auto &N : Names) {
      auto It =
          std::lower_bound(I->symbols.begin(), I->symbols.end(), N,
                           [](const RuntimeImage::Definition &D, const std::string &Name) { return D.name < Name; });
      if (It != I->symbols.end() && It->name == N)
        if (Error E = S.defineAbsolute(N, It->address, /*Process=*/true))
          return E;
    }
    return Error::success();
  }

private:
  std::shared_ptr<const RuntimeImage> I;
};

// Whether objects defining Defined (sorted) may use image I: they define
// nothing the image defines or references.
bool imageServes(const RuntimeImage &I, const std::vector<std::string> &Defined) {
  for (const std::string &N : Defined) {
    if (N == "main") // the entry: the image's start code calls it
      continue;
    auto It =
        std::lower_bound(I.symbols.begin(), I.symbols.end(), N,
                         [](const RuntimeImage::Definition &D, const std::string &Name) { return D.name < Name; });
    if ((It != I.symbols.end() && It->name == N) || std::find(I.imports.begin(), I.imports.end(), N) != I.imports.end())
      return false;
  }
  return true;
}

RunResultMsg returned() {
  RunResultMsg R;
  R.status = uint8_t(RunStatus::Returned);
  return R;
}

// A call of the runtime's function at Entry with one 32-bit argument
// (exit's status, fflush's NULL), passed where the runtime's ABI puts it.
CallMsg runtimeCall(const RuntimeSpec &R, Addr Entry, uint32_t Arg, Limits L) {
  CallMsg M;
  M.entry = Entry;
  M.limits = L;
  std::vector<uint8_t> Bytes = {uint8_t(Arg), uint8_t(Arg >> 8), uint8_t(Arg >> 16), uint8_t(Arg >> 24)};
  if (R.firstArgDwarf == RuntimeSpec::OnStack)
    M.stack = std::move(Bytes);
  else
    M.registers.push_back({R.firstArgDwarf, std::move(Bytes)});
  return M;
}

} // namespace

// The client outlives the program (a browser session disposes programs):
// it must not symbolize through a freed one.
Program::~Program() { C.setSymbolizer(nullptr); }

void Program::create(ExecutorClient &C, const Triple &TT, const RuntimeSpec *Runtime, RuntimeFiles Files,
                     OnCreated Done) {
  if (Error E = checkRunnable(TT))
    return Done(std::move(E));
  if (auto &Info = C.setupInfo()) {
    if (Triple::parse(Info->triple).arch != TT.arch)
      return Done(makeError(formatv("the executor is set up for %s; cannot run a %s program in it",
                                    Info->triple.c_str(), fullTriple(TT).c_str())));
    return Done(build(C, TT, *Info, Runtime, std::move(Files)));
  }
  C.setup(TT.str, [&C, TT, Runtime, Files = std::move(Files),
                   Done = std::move(Done)](Expected<executor::SetupInfo> Info) mutable {
    if (!Info)
      return Done(Info.takeError());
    Done(build(C, TT, *Info, Runtime, std::move(Files)));
  });
}

Expected<std::unique_ptr<Program>> Program::createSync(ExecutorClient &C, const Triple &TT, const RuntimeSpec *Runtime,
                                                       const std::vector<PrefetchedGraphs::Input> &Objects,
                                                       const ImageCache *Cache) {
  if (Error E = checkRunnable(TT))
    return E;
  // The runtime waits for the run (linkRuntime): its files are read only if
  // no image serves.
  const RuntimeSpec *Deferred = Cache && Runtime && !C.setupInfo() && imagesServe(TT.arch) ? Runtime : nullptr;
  if (Deferred)
    Runtime = nullptr;
  RuntimeFiles Files;
  if (Runtime) {
    std::vector<std::pair<std::string, SharedBytes>> Reaching;
    for (auto &O : Objects)
      Reaching.push_back({O.name, O.bytes});
    auto Read = readRuntimeFiles(*Runtime, Reaching);
    if (!Read)
      return Read.takeError();
    Files = std::move(*Read);
  }
  if (C.setupInfo()) // set up already: nothing to overlap
    return C.sync<std::unique_ptr<Program>>([&](OnCreated Done) { create(C, TT, Runtime, std::move(Files), Done); });
  auto Answer = std::make_shared<SetupAnswer>();
  C.setup(TT.str,
          [Answer](Expected<executor::SetupInfo> I) { Answer->info.emplace(std::move(I)), Answer->done = true; });
  C.flush();
  // While the executor starts: the run's graphs, the runtime's archives as
  // addRuntimeArchives names them and its start object among the objects.
  std::unique_ptr<PrefetchedGraphs> Prefetched;
  if (!Objects.empty()) {
    std::vector<PrefetchedGraphs::Input> Starting = Objects, Archives;
    if (Runtime)
      for (auto &F : Runtime->files())
        if (auto It = Files.find(F.name); It != Files.end()) {
          bool Start = Runtime->startObject.name && std::strcmp(F.name, Runtime->startObject.name) == 0;
          (Start ? Starting : Archives).push_back({F.path, It->second});
        }
    Prefetched = PrefetchedGraphs::scan(Starting, Archives);
  }
  // Nor does the link wait for the executor to start: what its setup will
  // answer is known (protocol/address_plan.h), so the link runs and its
  // writes queue while the executor starts. The answer is checked once it
  // comes, before a result of the program is believed (checkSetup).
  executor::SetupInfo Predicted = executor::predictedSetup(TT.str);
  auto P = build(C, TT, Predicted, Runtime, std::move(Files), std::move(Prefetched));
  if (!P) { // the executor's own failure, if it has one, is the cause to name
    auto Setup = C.waitForResult(Answer->info, Answer->done);
    if (!Setup) {
      consumeError(P.takeError());
      return Setup.takeError();
    }
    return P;
  }
  (*P)->PendingSetup = std::move(Answer);
  (*P)->Predicted = std::move(Predicted);
  if (Deferred) {
    (*P)->Runtime = Deferred;
    (*P)->PendingCache = *Cache;
  }
  return P;
}

Error Program::checkSetup() {
  if (!PendingSetup)
    return Error::success();
  auto Answer = std::move(PendingSetup);
  if (!Answer->info) // never answered: the connection ended, and the step that waited says so
    return Error::success();
  if (!*Answer->info)
    return Answer->info->takeError();
  return executor::checkSetupAnswer(**Answer->info, Predicted);
}

template <typename T> Expected<T> Program::afterSetup(Expected<T> R) {
  if (Error E = checkSetup()) {
    if (!R)
      consumeError(R.takeError());
    return E;
  }
  return R;
}

Expected<std::unique_ptr<Program>> Program::build(ExecutorClient &C, const Triple &TT, const executor::SetupInfo &Info,
                                                  const RuntimeSpec *Runtime, RuntimeFiles Files,
                                                  std::unique_ptr<PrefetchedGraphs> Prefetched) {
  std::unique_ptr<Program> P(new Program(C));
  P->MM = std::make_unique<RemoteMemoryManager>(C, Info.pageSize);
  P->S = std::make_unique<Session>(TT, *P->MM);
  if (Prefetched)
    P->S->usePrefetched(std::move(Prefetched));
  P->Info = std::make_shared<LinkInfoRecorder>();
  P->S->addPlugin(P->Info);
  LinkServices LS = addLinkServices(*P->S, Info.pageSize);
  P->TLS = std::move(LS.tls);
  P->Inits = std::move(LS.inits);
  P->IRelatives = std::move(LS.irelatives);
  addExecutorSymbols(*P->S, Info.symbols);
  if (Runtime)
    if (Error E = P->addRuntime(*Runtime, std::move(Files)))
      return E;
  C.setSymbolizer([P = P.get()](uint64_t A) { return P->symbolize(A); });
  return P;
}

void addExecutorSymbols(Session &S, std::vector<executor::ExposedSymbol> Symbols) {
  S.addGenerator(std::make_unique<ExecutorSymbols>(std::move(Symbols)));
}

LinkServices addLinkServices(Session &S, uint64_t PageSize) {
  LinkServices LS;
  LS.tls = std::make_shared<TLSLayout>(archRow(S.triple().arch).tlsVariant);
  S.addPlugin(LS.tls);
  LS.inits = std::make_shared<InitArrays>();
  S.addPlugin(LS.inits);
  S.addLinkEndGenerator(LS.inits);
  LS.irelatives = addStaticLinkTables(S, PageSize);
  return LS;
}

Error addRuntimeArchives(Session &S, const RuntimeSpec &R, const RuntimeFiles &Files, SharedBytes *StartObject,
                         std::shared_ptr<InitArrays> Inits, std::map<std::string, Archive> Archives,
                         std::shared_ptr<EHFrameRegistration> *Registration) {
  if (R.arch != S.triple().arch)
    return makeError(formatv("C runtime %s is not for %s", R.description, fullTriple(S.triple()).c_str()));
  auto All = R.files();
  for (auto &Given : Files) {
    const std::string &Name = Given.first; // not a structured binding: clang 14 cannot capture those
    if (std::none_of(All.begin(), All.end(), [&](const RuntimeFile &F) { return Name == F.name; })) {
      std::string Known;
      for (auto &F : All)
        Known += (Known.empty() ? "" : ", ") + std::string(F.name);
      return makeError(
          formatv("C runtime %s: unknown file '%s' (its files are %s)", R.description, Name.c_str(), Known.c_str()));
    }
  }
  // Every file is checked before any joins the session: a refused call
  // leaves it as it was. On-demand archives may be left out (the caller
  // found the program does not reach them: neededFiles).
  for (auto &F : All) {
    bool Start = R.startObject.name && std::strcmp(F.name, R.startObject.name) == 0;
    auto It = Files.find(F.name);
    if ((!Start || StartObject) && !F.onDemand && (It == Files.end() || !It->second) && !Archives.count(F.name))
      return makeError(formatv("C runtime %s: the bytes of %s (%s) were not supplied", R.description, F.name, F.path));
  }
  for (auto &F : All) {
    bool Start = R.startObject.name && std::strcmp(F.name, R.startObject.name) == 0;
    if (Start && !StartObject)
      continue; // not wanted: a link that does not start a process
    if (auto A = Archives.find(F.name); A != Archives.end() && !Start) {
      S.addArchive(std::move(A->second), ObjectKind::Runtime);
      continue;
    }
    auto It = Files.find(F.name);
    if (It == Files.end() || !It->second)
      continue; // an on-demand archive left out
    if (Start)
      *StartObject = It->second;
    // Named by Debian path in every build, so messages and fault reports match.
    else if (Error E = S.addArchive(F.path, It->second, ObjectKind::Runtime))
      return E;
  }
  auto Added = addRuntimePlugins(S, R, std::move(Inits));
  if (Registration)
    *Registration = std::move(Added);
  return Error::success();
}

std::shared_ptr<EHFrameRegistration> addRuntimePlugins(Session &S, const RuntimeSpec &R,
                                                       std::shared_ptr<InitArrays> Inits) {
  std::shared_ptr<EHFrameRegistration> Registration;
  if (Inits && R.registerFrames) {
    Registration = std::make_shared<EHFrameRegistration>(R.registerFrames, std::move(Inits));
    S.addPlugin(Registration);
  }
  if (R.addPasses) {
    struct RuntimePasses : Plugin {
      void (*Add)(LinkGraph &, PassConfiguration &);
      explicit RuntimePasses(decltype(Add) A) : Add(A) {}
      // The runtime's own graphs: the user's objects link as llvm-jitlink
      // links them (Arm: every external branch through a stub).
      void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override {
        if (MR.kind == ObjectKind::Runtime)
          Add(G, Config);
      }
    };
    S.addPlugin(std::make_shared<RuntimePasses>(R.addPasses));
  }
  return Registration;
}

bool entersThroughStart(const RuntimeSpec *R, std::string_view Entry) {
  return R && R->startObject.name && Entry != R->startSymbol;
}

Expected<ResourceKey> addStartObject(Session &S, const RuntimeSpec &R, SharedBytes Bytes, std::string_view Entry) {
  auto G = S.buildGraph(R.startObject.path, std::move(Bytes));
  if (!G)
    return G.takeError();
  if (Entry != "main")
    for (Symbol *Ext : (*G)->externalSymbols())
      if (Ext->name == "main")
        Ext->name = (*G)->allocateString(Entry);
  return S.addGraph(std::move(*G), ObjectKind::Runtime);
}

Error Program::addRuntime(const RuntimeSpec &R, RuntimeFiles Files, std::map<std::string, Archive> Archives) {
  if (Runtime)
    return makeError(formatv("this program already links the C runtime %s", Runtime->description));
  if (Error E = addRuntimeArchives(*S, R, Files, &StartObject, Inits, std::move(Archives)))
    return E;
  Runtime = &R;
  return Error::success();
}

void Program::prepareRun(Limits L, std::function<void(Error)> Done) {
  // Nothing here waits for an answer (each wait is a round trip, through a
  // browser's bridge tens of milliseconds): the image's entry fixups, the
  // TLS block and the init arrays go out unchecked, in order, and the run
  // that follows does not start if one of them failed. IFUNC resolvers
  // that must run first are calls, which wait for those answers.
  if (Image && !ImageFixedUp) { // once the program is linked, before anything runs
    ImageFixedUp = true;
    if (Error E = fixUpImage())
      return Done(std::move(E));
  }
  if (ImageFailure)
    return Done(makeError(*ImageFailure));
  // A libc needs its thread pointer even when no graph has TLS (errno, stdio locks).
  if (!TLSInstalled && (Runtime || !TLS->empty())) {
    if (Image && !TLS->empty())
      return Done(makeError("a graph with TLS was linked beside the prepared C runtime"));
    auto TLSBlock = Image ? Expected<TLSImage>(Image->tls) : TLS->image();
    if (!TLSBlock)
      return Done(TLSBlock.takeError());
    SetupTLSMsg M{std::move(TLSBlock->bytes), TLSBlock->memSize, TLSBlock->alignment};
    C.setupTLS(std::move(M), [this, Report = C.unchecked()](Expected<TLSResultMsg> R) {
      if (R)
        return;
      TLSInstalled = false; // the next run tries again
      Report(R.takeError());
    });
    TLSInstalled = true;
    TLS->seal();
  }
  // IFUNC slots no start code will fill (its runtime has no table walk, or
  // the graph came after the table): their resolvers run as calls, with
  // the thread pointer set, and the init arrays follow.
  applyIRelatives(IRelatives->takeUncovered(), 0, L, [this, Done = std::move(Done)](Error E) {
    if (E)
      return Done(std::move(E));
    auto Table = Inits->table(*S);
    if (!Table)
      return Done(Table.takeError());
    if (*Table && !(*Table)->bytes.empty())
      C.writeMemory((*Table)->address, std::move((*Table)->bytes), C.unchecked("writing the init arrays"));
    Done(Error::success());
  });
}

// Calls each resolver and stores what it returns in its slot.
void Program::applyIRelatives(std::vector<IRelative> Recs, size_t Next, Limits L, std::function<void(Error)> Done) {
  if (Next == Recs.size())
    return Done(Error::success());
  CallMsg M;
  M.entry = Recs[Next].resolver;
  M.limits = L;
  C.call(std::move(M),
         [this, Recs = std::move(Recs), Next, L, Done = std::move(Done)](Expected<RunResultMsg> R) mutable {
           if (!R)
             return Done(R.takeError());
           if (R->runStatus() != RunStatus::Returned)
             return Done(makeError(formatv("the IFUNC resolver at %s did not return: %s",
                                           symbolize(Recs[Next].resolver).c_str(), R->message.c_str())));
           std::vector<uint8_t> Value; // a pointer-sized slot
           for (unsigned I = 0; I < archRow(S->triple().arch).pointerSize; ++I)
             Value.push_back(uint8_t(uint64_t(R->value) >> (8 * I)));
           Addr Slot = Recs[Next].slot;
           C.writeMemory(Slot, std::move(Value),
                         [this, Recs = std::move(Recs), Next, L, Done = std::move(Done)](Error E) mutable {
                           if (E)
                             return Done(std::move(E));
                           applyIRelatives(std::move(Recs), Next + 1, L, std::move(Done));
                         });
         });
}

Error Program::linkRuntime(const ImageCache &Cache, std::string_view Entry) {
  const RuntimeSpec &R = *Runtime;
  RuntimeFiles Files;
  bool Read = false;
  // Through the start code into main, with objects that leave the
  // runtime's tables to it, and an executor nothing has reserved in yet.
  std::string Why = "the entry is not main";
  if (Entry == "main" && entersThroughStart(&R, Entry) &&
      C.nextReservation(Region::Runtime) == executor::ReservationPlan::RuntimeBase) {
    ImageRoots Roots = imageRoots(*S, R);
    auto Key = Roots.usable ? imageKey(Cache.identity, S->triple(), R, Roots.refs)
                            : Expected<std::string>(makeError("the objects add to the runtime's link-end tables"));
    if (Key) {
      std::string Path = cachedImagePath(Cache.dir, *Key);
      std::optional<RuntimeImage> I = readCachedImage(Cache.dir, *Key, S->triple().arch);
      const char *How = "hit";
      if (!I) { // a miss: link the image, keep it, and run from it
        auto F = readRuntimeFiles(R);
        if (!F)
          return F.takeError();
        Files = std::move(*F);
        Read = true;
        auto Built = buildRuntimeImage(S->triple(), R, Files, Roots.refs, std::move(*Key));
        if (Built) {
          writeCachedImage(Cache.dir, *Built);
          I = std::move(*Built);
          How = "built";
        } else {
          Why = "no image: " + Built.takeError().message();
        }
      }
      if (I) {
        if (imageServes(*I, Roots.defined)) {
          if (I->file && C.mapsFiles())
            How = "mapped"; // installImage hands the executor the file
          noteRuntimeImage(formatv("%s %s", How, Path.c_str()));
          installImage(std::move(*I));
          return Error::success();
        }
        Why = "the objects define a name the image defines or references";
      }
    } else {
      Why = Key.takeError().message();
    }
  }
  noteRuntimeImage("normal: " + Why);
  if (!Read) {
    auto F = readRuntimeFiles(R);
    if (!F)
      return F.takeError();
    Files = std::move(*F);
  }
  return addRuntimeArchives(*S, R, Files, &StartObject, Inits);
}

void Program::installImage(RuntimeImage I) {
  Image = std::make_shared<const RuntimeImage>(std::move(I));
  // Each reservation as the run's memory manager makes one: reserved, then
  // mapped with its protection and its bytes in one finalize, or, from a
  // cache file, in one map-file for all: the executor reads the bytes from
  // the file itself (no copies through the pipe).
  auto Failed = C.unchecked("mapping the prepared C runtime");
  bool Map = Image->file && C.mapsFiles();
  std::vector<executor::FileSegment> FromFile;
  for (const RuntimeImage::Reservation &R : Image->reservations) {
    auto Base = C.reserveNow(R.size, R.alignment, Region::Runtime, Failed);
    if (!Base || *Base != R.base) {
      ImageFailure = "the prepared C runtime's memory is not where the executor reserves";
      if (!Base)
        consumeError(Base.takeError());
      continue;
    }
    uint64_t ZeroFill = R.size - R.bytes.size();
    if (Map)
      FromFile.push_back({R.base, uint8_t(R.prot), R.fileOffset, R.bytes.size(), ZeroFill});
    else
      C.finalize({{R.base, uint8_t(R.prot), R.bytes, ZeroFill}}, Failed);
  }
  if (Map && !FromFile.empty())
    C.mapFile(Image->file->fd, std::move(FromFile), Failed);
  S->addGenerator(std::make_shared<ImageSymbols>(Image));
  Registration = addRuntimePlugins(*S, *Runtime, Inits);
  if (Registration && Image->ehNewestRecord)
    Registration->continueChain(Image->ehNewestRecord);
  StartEntry = "main"; // the image's start code enters it
}

Error Program::fixUpImage() {
  auto Entry = S->addressOf("main");
  if (!Entry)
    return makeError("the prepared C runtime's entry, main, is not linked");
  auto Writes = entryFixupBytes(*Image, S->triple().arch, *Entry);
  if (!Writes)
    return Writes.takeError();
  const ArchRow &Row = archRow(S->triple().arch);
  for (auto &[At, Bytes] : *Writes)
    C.writeMemory(At, std::move(Bytes), C.unchecked("fixing up the prepared C runtime"));
  // This run's own graphs registered after the image's: its newest thunk
  // walks both.
  if (Registration && Registration->newestThunk() && Image->ehPreInitSlot) {
    std::vector<uint8_t> Slot;
    for (unsigned I = 0; I < Row.pointerSize; ++I)
      Slot.push_back(uint8_t(*Registration->newestThunk() >> (8 * (Row.bigEndian ? Row.pointerSize - 1 - I : I))));
    C.writeMemory(Image->ehPreInitSlot, std::move(Slot), C.unchecked("fixing up the prepared C runtime"));
  }
  return Error::success();
}

void Program::runMain(std::string Entry, std::vector<std::string> Args, Limits L, OnResult Done) {
  if (PendingCache) {
    ImageCache Cache = std::move(*PendingCache);
    PendingCache.reset();
    if (Error E = linkRuntime(Cache, Entry))
      return Done(std::move(E));
  }
  // Every object given is linked, as a static link would (their
  // constructors count even if nothing references them); archive members
  // only when needed.
  // The start object joins first (as a library, linked when needed): the
  // libc refers to its symbols too (glibc's dl-support.o to _start).
  bool Process = entersThroughStart(Runtime, Entry);
  if (Process && !StartEntry) {
    auto K = addStartObject(*S, *Runtime, StartObject, Entry);
    if (!K)
      return Done(K.takeError());
    StartEntry = Entry;
  } else if (Process && *StartEntry != Entry) {
    return Done(makeError(formatv("cannot run %s: this program's start code was linked to enter %s", Entry.c_str(),
                                  StartEntry->c_str())));
  }
  auto LinkAndRun = [this, Process, Entry, Args = std::move(Args), L, Done](Error E) mutable {
    if (E)
      return Done(std::move(E));
    S->linkAll(
        [this, Process, Entry = std::move(Entry), Args = std::move(Args), L, Done = std::move(Done)](Error E) mutable {
          if (E)
            return Done(std::move(E));
          if (Process)
            return startProcess(std::move(Entry), std::move(Args), L, std::move(Done));
          callMain(std::move(Entry), std::move(Args), L, std::move(Done));
        });
  };
  if (Process)
    return LinkAndRun(Error::success());
  // A direct call: the entry is looked up first, so a missing one is the
  // error named, not some libc reference the other links meet first.
  S->lookup({Entry}, [LinkAndRun = std::move(LinkAndRun)](Expected<std::vector<Addr>> A) mutable {
    LinkAndRun(A ? Error::success() : A.takeError());
  });
}

// Through the runtime's start object: the entry is looked up first so that
// a program without one fails naming it, not some reference inside crt1.
void Program::startProcess(std::string Entry, std::vector<std::string> Args, Limits L, OnResult Done) {
  S->lookup({std::move(Entry)}, [this, Args = std::move(Args), L,
                                 Done = std::move(Done)](Expected<std::vector<Addr>> Main) mutable {
    if (!Main)
      return Done(Main.takeError());
    S->lookup({Runtime->startSymbol}, [this, Args = std::move(Args), L,
                                       Done = std::move(Done)](Expected<std::vector<Addr>> Start) mutable {
      if (!Start)
        return Done(Start.takeError());
      prepareRun(L, [this, Args = std::move(Args), L, Done = std::move(Done), Entry = (*Start)[0]](Error E) mutable {
        if (E)
          return Done(std::move(E));
        ProcessStarted = true;
        if (BeforeMainRun)
          BeforeMainRun();
        C.runMain(Entry, std::move(Args), L, std::move(Done), Startup::ProcessEntry, Env, Files, ehFrames());
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
  S->lookup(std::move(Names), [this, Args = std::move(Args), L,
                               Done = std::move(Done)](Expected<std::vector<Addr>> Addrs) mutable {
    if (!Addrs)
      return Done(Addrs.takeError());
    Addr Entry = (*Addrs)[0], Exit = Runtime ? (*Addrs)[1] : 0;
    prepareRun(L, [this, Args = std::move(Args), L, Done = std::move(Done), Entry, Exit](Error E) mutable {
      if (E)
        return Done(std::move(E));
      std::vector<uint64_t> Ctors = Inits->sorted(InitArrays::PreInit);
      for (uint64_t F : Inits->sorted(InitArrays::Init))
        Ctors.push_back(F);
      auto AfterCtors = [this, Args = std::move(Args), L, Done, Entry, Exit](Expected<RunResultMsg> R) mutable {
        if (!R || R->runStatus() != RunStatus::Returned)
          return Done(std::move(R)); // an error, or a constructor exited or faulted
        if (BeforeMainRun)
          BeforeMainRun();
        C.runMain(
            Entry, std::move(Args), L,
            [this, L, Done, Exit](Expected<RunResultMsg> R) {
              if (!R || R->runStatus() != RunStatus::Returned || !Runtime)
                return Done(std::move(R));
              C.call(runtimeCall(*Runtime, Exit, uint32_t(R->value), L), Done);
            },
            Startup::CallMain, Env, Files, ehFrames());
      };
      callInOrder(std::move(Ctors), 0, L, std::move(AfterCtors));
    });
  });
}

std::vector<executor::MemoryRange> Program::ehFrames() const {
  std::vector<executor::MemoryRange> R;
  for (const ObjectLinkInfo &O : Info->objects())
    for (const ObjectLinkInfo::SectionInfo &S : O.sections)
      if (S.name == ElfEHFrame.sectionName && S.size)
        R.push_back({S.address, S.size});
  if (Image)
    for (auto &[A, Size] : Image->ehFrames)
      R.push_back({A, Size});
  return R;
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

// With a runtime that has start code, the call runs in an initialised
// process: started once (startForCalls) unless a run started it already,
// and fflush(NULL) after the call writes out what it left in stdio's
// buffers.
void Program::call(std::string Entry, CallMsg M, OnResult Done) {
  bool Process = Runtime && Runtime->startObject.name;
  bool Start = Process && !ProcessStarted;
  auto LookupAndCall = [this, Process, Start, Entry, M = std::move(M), Done = std::move(Done)](Error E) mutable {
    if (E)
      return Done(std::move(E));
    std::vector<std::string> Names = {Entry};
    if (Process)
      Names.push_back("fflush");
    if (Start)
      Names.push_back(Runtime->startSymbol);
    S->lookup(std::move(Names),
              [this, Start, M = std::move(M), Done = std::move(Done)](Expected<std::vector<Addr>> A) mutable {
                if (!A)
                  return Done(A.takeError());
                M.entry = (*A)[0];
                Addr Flush = A->size() > 1 ? (*A)[1] : 0;
                if (!Start)
                  return callResolved(std::move(M), Flush, std::move(Done));
                Limits L = M.limits;
                startForCalls((*A)[2], L, [this, M = std::move(M), Flush, Done = std::move(Done)](Error E) mutable {
                  if (E)
                    return Done(std::move(E));
                  callResolved(std::move(M), Flush, std::move(Done));
                });
              });
  };
  if (!Start)
    return LookupAndCall(Error::success());
  // As runMain: the start object and every object start linking before the
  // lookups (their init arrays are laid out once).
  const char *Trap = "__linklab_return_trap";
  if (StartEntry && *StartEntry != Trap)
    return Done(makeError(formatv("cannot call %s: this program's start code was linked to enter %s, which has not run",
                                  Entry.c_str(), StartEntry->c_str())));
  if (!StartEntry) {
    auto K = addStartObject(*S, *Runtime, StartObject, Trap);
    if (!K)
      return Done(K.takeError());
    StartEntry = Trap;
  }
  S->linkAll(std::move(LookupAndCall));
}

// Runs M (its entry resolved) and then, if it returned and Flush is set,
// fflush(NULL) there; Done gets the call's own result.
void Program::callResolved(CallMsg M, Addr Flush, OnResult Done) {
  Limits L = M.limits;
  prepareRun(L, [this, M = std::move(M), Flush, L, Done = std::move(Done)](Error E) mutable {
    if (E)
      return Done(std::move(E));
    C.call(std::move(M), [this, Flush, L, Done = std::move(Done)](Expected<RunResultMsg> R) mutable {
      if (!R || R->runStatus() != RunStatus::Returned || !Flush)
        return Done(std::move(R));
      C.call(runtimeCall(*Runtime, Flush, 0, L),
             [R = std::move(*R), Done = std::move(Done)](Expected<RunResultMsg> FR) mutable {
               if (!FR || FR->runStatus() != RunStatus::Returned)
                 return Done(std::move(FR));
               Done(std::move(R));
             });
    });
  });
}

// Runs the start code, whose main is __linklab_return_trap (the
// executor's): the runtime initialises itself and runs the constructors,
// and the run ends as a return where main would start. argv is empty but
// for argv[0], "linklab-call".
void Program::startForCalls(Addr Start, Limits L, std::function<void(Error)> Done) {
  prepareRun(L, [this, L, Done = std::move(Done), Start](Error E) mutable {
    if (E)
      return Done(std::move(E));
    ProcessStarted = true;
    C.runMain(
        Start, {"linklab-call"}, L,
        [this, Done = std::move(Done)](Expected<RunResultMsg> R) mutable {
          if (!R)
            return Done(R.takeError());
          if (R->runStatus() != RunStatus::Returned)
            return Done(makeError("the C runtime's start-up did not return: " + C.describe(*R)));
          Done(Error::success());
        },
        Startup::ProcessEntry, Env, Files);
  });
}

Expected<RunResultMsg> Program::runMainSync(std::string Entry, std::vector<std::string> Args, Limits L) {
  return afterSetup(C.sync<RunResultMsg>([&](OnResult Done) { runMain(std::move(Entry), std::move(Args), L, Done); }));
}

Expected<RunResultMsg> Program::callSync(std::string Entry, CallMsg M) {
  return afterSetup(C.sync<RunResultMsg>([&](OnResult Done) { call(std::move(Entry), std::move(M), Done); }));
}

namespace {
std::string symbolizeIn(const std::vector<ObjectLinkInfo> &Objects, uint64_t A) {
  for (auto &O : Objects)
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
} // namespace

std::string Program::symbolize(uint64_t A) const {
  std::string Found = symbolizeIn(Info->objects(), A);
  if (Found.empty() && Image) {
    if (!ImageInfo)
      ImageInfo = Image->linkInfo();
    Found = symbolizeIn(*ImageInfo, A);
  }
  return Found;
}

} // namespace linklab::exec
