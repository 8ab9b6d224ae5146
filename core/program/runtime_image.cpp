#include "program/runtime_image.h"

#include "link/eh_frame.h"
#include "link/slab_memory_manager.h"
#include "platform/eh_frame_registration.h"
#include "platform/section_merge.h"
#include "program/program.h"
#include "protocol/address_plan.h"
#include "support/wire.h"
#include "target/target.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace linklab {

// What an image keeps of each graph's link info, for symbolizing.
template <class IO> void fields(IO &io, ObjectLinkInfo::SectionInfo &S) {
  io(S.name), io(S.address), io(S.size), io(S.prot);
}
template <class IO> void fields(IO &io, ObjectLinkInfo::SymbolInfo &S) {
  io(S.address), io(S.size), io(S.section), io(S.scope), io(S.callable), io(S.zeroFill), io(S.targetFlags);
}
template <class IO> void fields(IO &io, ObjectLinkInfo &O) { io(O.name), io(O.sections), io(O.symbols); }

} // namespace linklab

namespace linklab::exec {

namespace {

// Where the image build resolves the entry: the start of the region a run
// gives the program's own objects, its farthest point from the runtime's,
// so a fixup that reaches it reaches an entry anywhere in that region.
constexpr Addr EntryPlaceholder = executor::ReservationPlan::Base;
constexpr char Magic[8] = {'L', 'L', 'R', 'T', 'I', 'M', 'G', '1'};
constexpr uint32_t FormatVersion = 3; // 3: the runtime's region of its own
constexpr const char *RootsGraph = "<runtime image roots>";

// Sections whose contents a link lays out over every graph: an object with
// one needs the runtime's tables laid out with it.
bool addsToLinkEndTables(std::string_view Name) {
  for (const char *P : {".tdata", ".tbss", ".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors",
                        ".ARM.exidx", IFuncSlotsSectionName})
    if (Name.starts_with(P))
      return true;
  return SectionMerger::isCIdentifier(Name);
}

uint64_t fnv1a(std::span<const uint8_t> B) {
  uint64_t H = 0xcbf29ce484222325ull;
  size_t I = 0;
  for (; I + 8 <= B.size(); I += 8) {
    uint64_t W;
    std::memcpy(&W, B.data() + I, 8);
    H = (H ^ W) * 0x100000001b3ull;
    H ^= H >> 29;
  }
  for (; I < B.size(); ++I)
    H = (H ^ B[I]) * 0x100000001b3ull;
  return H;
}

// Records what the image's graphs reference, and their fixups against the
// entry with the edges that depend on those (a RISC-V %pcrel_lo names the
// auipc whose %pcrel_hi is the entry's).
class ImageWatcher : public Plugin {
public:
  std::set<std::string, std::less<>> externals;
  std::vector<RuntimeImage::EntryFixup> fixups;

  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override {
    Config.postFixupPasses.push_back([this](LinkGraph &G) {
      for (Symbol *S : G.externalSymbols())
        externals.insert(std::string(S->name));
      for (Section *Sec : G.sections())
        for (Block *B : Sec->blocks) {
          std::set<uint64_t> AtEntry;
          for (const Edge &E : B->edges)
            if (E.isRelocation() && !E.target->isDefined() && E.target->name == "main") {
              fixups.push_back({B->fixupAddress(E), E.kind, E.addend, 0});
              AtEntry.insert(E.offset);
            }
          if (!AtEntry.empty())
            for (const Edge &E : B->edges)
              if (E.isRelocation() && E.target->isDefined() && &E.target->block() == B &&
                  AtEntry.count(E.target->offset))
                fixups.push_back({B->fixupAddress(E), E.kind, E.addend, B->address + E.target->offset});
        }
      return Error::success();
    });
  }
};

} // namespace

std::vector<ObjectLinkInfo> RuntimeImage::linkInfo() const {
  wire::Reader R{linkInfoBytes};
  std::vector<ObjectLinkInfo> Out;
  R(Out);
  if (!R.atEnd())
    return {};
  for (ObjectLinkInfo &O : Out) {
    for (auto &S : O.sections)
      S.prot = MemProt(uint8_t(S.prot) & 7);
    for (auto &[Name, S] : O.symbols)
      if (uint8_t(S.scope) > uint8_t(Scope::Local))
        S.scope = Scope::Local;
    std::sort(O.symbols.begin(), O.symbols.end(), [](auto &L, auto &Rt) { return L.first < Rt.first; });
  }
  return Out;
}

ImageRoots imageRoots(const Session &S, const RuntimeSpec &R) {
  ImageRoots Out;
  std::set<std::string, std::less<>> Defined;
  std::vector<std::pair<std::string, bool>> Refs; // name, referenced strongly; in the order the archive scan meets them
  std::map<std::string, size_t, std::less<>> At;  // name -> its place in Refs
  auto Reference = [&](std::string_view Name, bool Strong) {
    auto [It, New] = At.try_emplace(std::string(Name), Refs.size());
    if (New)
      Refs.push_back({std::string(Name), Strong});
    else
      Refs[It->second].second |= Strong;
  };
  S.forEachPendingGraph([&](const LinkGraph &G) {
    for (Section *Sec : G.sections())
      if (!Sec->blocks.empty() && addsToLinkEndTables(Sec->name))
        Out.usable = false;
    G.forEachDefinedSymbol([&](Symbol &Sym) {
      if (Sym.hasName() && Sym.scope != Scope::Local)
        Defined.insert(std::string(Sym.name));
    });
    for (Symbol *Abs : G.absoluteSymbols())
      if (Abs->hasName() && Abs->scope != Scope::Local)
        Defined.insert(std::string(Abs->name));
    for (Symbol *Ext : G.externalSymbols())
      Reference(Ext->name, !Ext->weaklyReferenced);
    // Its registration thunk's call, which the scan adds after its names
    // (EHFrameRegistration::addReferences).
    if (R.registerFrames && EHFrameRegistration::registers(G))
      Reference(R.registerFrames, true);
  });
  for (auto &[Name, Strong] : Refs)
    if (!Defined.count(Name))
      Out.refs.push_back((Strong ? "s:" : "w:") + Name);
  Out.defined.assign(Defined.begin(), Defined.end());
  return Out;
}

Expected<std::string> imageKey(const std::string &Identity, const Triple &TT, const RuntimeSpec &R,
                               const std::vector<std::string> &Refs) {
  std::string K = formatv("linklab runtime image %u\n%s\n%s\n%s\n", FormatVersion, Identity.c_str(),
                          fullTriple(TT).c_str(), R.name);
  for (const RuntimeFile &F : R.files()) {
    struct stat St;
    if (stat(F.path, &St) != 0)
      return makeError(formatv("cannot stat %s", F.path));
    K += formatv("%s %lld %lld.%09ld\n", F.path, (long long)St.st_size, (long long)St.st_mtim.tv_sec,
                 (long)St.st_mtim.tv_nsec);
  }
  K += "entry main\n";
  for (const std::string &N : Refs)
    K += N + "\n";
  return K;
}

Expected<RuntimeImage> buildRuntimeImage(const Triple &TT, const RuntimeSpec &R, const RuntimeFiles &Files,
                                         const std::vector<std::string> &Refs, std::string Key) {
  using executor::ReservationPlan;
  if (!R.startObject.name)
    return makeError("the runtime has no start object");
  struct Taken {
    Addr base;
    uint64_t size, alignment;
  };
  std::vector<Taken> Reserved;
  SlabMemoryManager MM(ReservationPlan::PageSize,
                       [&Reserved, Plan = executor::reservationsAsRun()](uint64_t Size, uint64_t Align,
                                                                         bool Arena) mutable -> Expected<Addr> {
                         if (!Arena) // the runtime's graphs are all ProcessDylib's
                           return makeError("a graph of the runtime's link is not the runtime's");
                         auto At = Plan(Size, Align, Arena);
                         if (At)
                           Reserved.push_back({*At, Size, Align});
                         return At;
                       });
  Session S(TT, MM);
  auto Info = std::make_shared<LinkInfoRecorder>();
  S.addPlugin(Info);
  auto Watcher = std::make_shared<ImageWatcher>();
  S.addPlugin(Watcher);
  LinkServices LS = addLinkServices(S, ReservationPlan::PageSize);
  addExecutorSymbols(S, executor::executorSymbols());
  SharedBytes Start;
  std::shared_ptr<EHFrameRegistration> Registration;
  if (Error E = addRuntimeArchives(S, R, Files, &Start, LS.inits, {}, &Registration))
    return E;
  // The roots: one graph referencing what the program's objects need.
  auto Roots = std::make_unique<LinkGraph>(RootsGraph, TT, archRow(TT.arch).edgeKindName);
  for (const std::string &N : Refs)
    Roots->addExternalSymbol(Roots->allocateString(std::string_view(N).substr(2)), 0, N[0] == 'w');
  if (auto K = S.addGraph(std::move(Roots)); !K)
    return K.takeError();
  if (auto K = addStartObject(S, R, Start, "main"); !K)
    return K.takeError();
  if (Error E = S.defineAbsolute("main", EntryPlaceholder))
    return E;
  std::optional<Error> Linked;
  S.linkAll([&](Error E) { Linked.emplace(std::move(E)); });
  if (!Linked)
    return makeError("the runtime's link did not finish");
  if (*Linked)
    return std::move(*Linked);
  if (auto Entry = S.lookupNow({R.startSymbol}); !Entry)
    return Entry.takeError();
  if (!LS.irelatives->takeUncovered().empty())
    return makeError("IFUNC slots no start code fills");

  RuntimeImage I;
  I.key = std::move(Key);
  for (const Taken &T : Reserved)
    I.reservations.push_back({T.base, T.size, T.alignment, MemProt::None, {}});
  auto Holding = [&](Addr A, uint64_t Size) -> RuntimeImage::Reservation * {
    for (auto &Res : I.reservations)
      if (A >= Res.base && Size <= Res.size && A - Res.base <= Res.size - Size)
        return &Res;
    return nullptr;
  };
  auto Put = [&](Addr A, std::span<const uint8_t> Bytes) -> Error {
    RuntimeImage::Reservation *Res = Holding(A, Bytes.size());
    if (!Res)
      return makeError(formatv("no reservation holds %s", hex(A).c_str()));
    uint64_t Off = A - Res->base;
    if (Res->bytes.size() < Off + Bytes.size())
      Res->bytes.resize(Off + Bytes.size());
    std::copy(Bytes.begin(), Bytes.end(), Res->bytes.begin() + ptrdiff_t(Off));
    return Error::success();
  };
  for (const SegmentRecord &Seg : MM.segments()) {
    RuntimeImage::Reservation *Res = Holding(Seg.address, Seg.size);
    if (!Res || (Res->prot != MemProt::None && Res->prot != Seg.prot))
      return makeError("a reservation holds segments of two protections");
    Res->prot = Seg.prot;
    auto Bytes = MM.read(Seg.address, Seg.size);
    if (!Bytes)
      return Bytes.takeError();
    if (Error E = Put(Seg.address, {reinterpret_cast<const uint8_t *>(Bytes->data()), Bytes->size()}))
      return E;
  }
  auto Table = LS.inits->table(S);
  if (!Table)
    return Table.takeError();
  if (*Table && !(*Table)->bytes.empty())
    if (Error E = Put((*Table)->address, (*Table)->bytes))
      return E;
  for (auto &Res : I.reservations) {
    while (!Res.bytes.empty() && Res.bytes.back() == 0)
      Res.bytes.pop_back();
    if (Res.prot == MemProt::None)
      return makeError("a reservation holds nothing");
  }
  auto TLS = LS.tls->image();
  if (!TLS)
    return TLS.takeError();
  I.tls = std::move(*TLS);

  std::set<std::string, std::less<>> Executor;
  for (auto &E : executor::executorSymbols())
    Executor.insert(E.name);
  std::set<std::string, std::less<>> Exported;
  S.forEachSymbol([&](std::string_view Name, const Session::SymbolEntry &E) {
    if (!E.resolved || Name == "main" || (!E.owner && Executor.count(Name)))
      return;
    I.symbols.push_back({std::string(Name), E.address});
    Exported.insert(std::string(Name));
  });
  std::sort(I.symbols.begin(), I.symbols.end(), [](auto &L, auto &Rt) { return L.name < Rt.name; });
  for (const std::string &N : Watcher->externals)
    if (!Exported.count(N))
      I.imports.push_back(N);
  I.entryFixups = std::move(Watcher->fixups);
  if (auto Trial = entryFixupBytes(I, TT.arch, EntryPlaceholder); !Trial)
    return Trial.takeError();

  if (Registration && Registration->newestThunk()) {
    I.ehNewestRecord = Registration->newestRecord();
    std::vector<uint64_t> PreInit = LS.inits->sorted(InitArrays::PreInit);
    auto It = std::find(PreInit.begin(), PreInit.end(), *Registration->newestThunk());
    if (!*Table || It == PreInit.end())
      return makeError("the .eh_frame registration has no .preinit_array slot");
    I.ehPreInitSlot = (*Table)->address + uint64_t(It - PreInit.begin()) * archRow(TT.arch).pointerSize;
  }
  const std::vector<ObjectLinkInfo> &Objects = Info->objects();
  for (const ObjectLinkInfo &O : Objects)
    for (auto &Sec : O.sections)
      if (Sec.name == ElfEHFrame.sectionName && Sec.size)
        I.ehFrames.push_back({Sec.address, Sec.size});
  for (std::string &N : S.objectNames())
    if (N != RootsGraph)
      I.members.push_back(std::move(N));
  I.linkInfoBytes = wire::encode(Objects);
  return I;
}

Expected<std::vector<std::pair<Addr, std::vector<uint8_t>>>> entryFixupBytes(const RuntimeImage &I, Arch A,
                                                                             Addr Entry) {
  const ArchRow &Row = archRow(A);
  auto Width = [&](EdgeKind K) -> Expected<uint64_t> {
    unsigned W = K >= edge::FirstRelocation ? Row.edgeKindWidth(K) : 0;
    if (W == 0 || W > 8)
      return makeError(formatv("entry fixup of kind %u", unsigned(K)));
    return W;
  };
  auto Inside = [&](Addr At, uint64_t Size) -> const RuntimeImage::Reservation * {
    for (auto &Res : I.reservations)
      if (At >= Res.base && Size <= Res.size && At - Res.base <= Res.size - Size)
        return &Res;
    return nullptr;
  };
  std::vector<std::pair<Addr, std::vector<uint8_t>>> Out;
  for (const RuntimeImage::EntryFixup &F : I.entryFixups) {
    if (F.pairedWith) { // applied with its partner
      if (std::none_of(I.entryFixups.begin(), I.entryFixups.end(),
                       [&](auto &P) { return !P.pairedWith && P.where == F.pairedWith; }))
        return makeError("an entry fixup's partner is missing");
      continue;
    }
    std::vector<const RuntimeImage::EntryFixup *> Group = {&F};
    for (const RuntimeImage::EntryFixup &P : I.entryFixups)
      if (P.pairedWith == F.where)
        Group.push_back(&P);
    Addr Lo = F.where, Hi = F.where;
    for (auto *G : Group) {
      auto W = Width(G->kind);
      if (!W)
        return W.takeError();
      Lo = std::min(Lo, G->where);
      Hi = std::max(Hi, G->where + *W);
    }
    const RuntimeImage::Reservation *Res = Hi - Lo <= 64 ? Inside(Lo, Hi - Lo) : nullptr;
    if (!Res)
      return makeError("an entry fixup lies outside the image");
    std::vector<char> Bytes(Hi - Lo);
    for (Addr At = Lo; At < Hi; ++At)
      if (At - Res->base < Res->bytes.size())
        Bytes[At - Lo] = char(Res->bytes[At - Res->base]);
    LinkGraph G("<prepared C runtime>", Triple{A, ObjectFormat::ELF, archRow(A).name}, Row.edgeKindName);
    Section &Sec = G.createSection(".text", MemProt::Read);
    Block &B = G.createMutableContentBlock(Sec, Bytes, Lo, 1, 0);
    Symbol &Target = G.addAbsoluteSymbol("main", Entry, 0, Linkage::Strong, Scope::Default, true);
    Symbol &Label = G.addAnonymousSymbol(B, F.where - Lo, 0, false, false);
    for (auto *E : Group)
      B.addEdge(E->kind, uint32_t(E->where - Lo), E->pairedWith ? Label : Target, E->addend);
    std::sort(B.edges.begin(), B.edges.end(), [](const Edge &L, const Edge &R) { return L.offset < R.offset; });
    for (const Edge &E : B.edges)
      if (Error Err = Row.applyFixup(G, B, E))
        return Err;
    Out.push_back({Lo, std::vector<uint8_t>(B.content().begin(), B.content().end())});
  }
  return Out;
}

std::vector<uint8_t> serializeRuntimeImage(const RuntimeImage &I) { return frameRuntimeImage(wire::encode(I)); }

std::vector<uint8_t> frameRuntimeImage(std::span<const uint8_t> Body) {
  std::vector<uint8_t> Out(Magic, Magic + sizeof Magic);
  wire::Writer W{Out};
  W(FormatVersion), W(uint64_t(Body.size())), W(fnv1a(Body));
  Out.insert(Out.end(), Body.begin(), Body.end());
  return Out;
}

std::optional<RuntimeImage> parseRuntimeImage(std::span<const uint8_t> Bytes, Arch A) {
  constexpr size_t Header = sizeof Magic + 4 + 8 + 8;
  if (Bytes.size() < Header || std::memcmp(Bytes.data(), Magic, sizeof Magic) != 0)
    return std::nullopt;
  std::span<const uint8_t> Body = Bytes.subspan(Header);
  wire::Reader H{Bytes.subspan(sizeof Magic, Header - sizeof Magic)};
  uint32_t Version = 0;
  uint64_t Size = 0, Sum = 0;
  H(Version), H(Size), H(Sum);
  if (Version != FormatVersion || Size != Body.size() || Sum != fnv1a(Body))
    return std::nullopt;
  wire::Reader R{Body};
  RuntimeImage I;
  R(I);
  if (!R.atEnd())
    return std::nullopt;
  // Each reservation where the executor's plan puts it, given what
  // precedes it (a run reserves them from a fresh executor, in order).
  executor::ReservationPlan Plan;
  for (const RuntimeImage::Reservation &Res : I.reservations) {
    auto At = Plan.take(Res.size, Res.alignment, executor::Region::Runtime);
    if (!At) {
      consumeError(At.takeError());
      return std::nullopt;
    }
    uint8_t Prot = uint8_t(Res.prot);
    if (*At != Res.base || !Prot || Prot > 7 || Res.bytes.size() > Res.size)
      return std::nullopt;
  }
  auto Inside = [&](Addr At, uint64_t Size) {
    for (auto &Res : I.reservations)
      if (At >= Res.base && Size <= Res.size && At - Res.base <= Res.size - Size)
        return true;
    return false;
  };
  const TLSImage &T = I.tls;
  if (T.bytes.size() > T.memSize || !T.alignment || (T.alignment & (T.alignment - 1)) || T.memSize > (64u << 20))
    return std::nullopt;
  if (I.ehPreInitSlot && !Inside(I.ehPreInitSlot, archRow(A).pointerSize))
    return std::nullopt;
  // The fixups must apply (known kinds, inside the image, partners present).
  if (auto Trial = entryFixupBytes(I, A, EntryPlaceholder); !Trial) {
    consumeError(Trial.takeError());
    return std::nullopt;
  }
  return I;
}

std::optional<std::string> runtimeCacheDir() {
  const char *C = std::getenv("LINKLAB_CACHE");
  if (C && std::string_view(C) == "off")
    return std::nullopt;
  if (C && *C && std::string_view(C) != "on")
    return std::string(C);
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X == '/')
    return std::string(X) + "/linklab";
  if (const char *H = std::getenv("HOME"); H && *H == '/')
    return std::string(H) + "/.cache/linklab";
  return std::nullopt;
}

std::string cachedImagePath(const std::string &Dir, const std::string &Key) {
  uint64_t H = fnv1a({reinterpret_cast<const uint8_t *>(Key.data()), Key.size()});
  return formatv("%s/runtime-%016llx.img", Dir.c_str(), (unsigned long long)H);
}

RuntimeImage::OpenFile::~OpenFile() { close(fd); }

std::optional<RuntimeImage> readCachedImage(const std::string &Dir, const std::string &Key, Arch A) {
  auto File = std::make_shared<RuntimeImage::OpenFile>(open(cachedImagePath(Dir, Key).c_str(), O_RDONLY | O_CLOEXEC));
  struct stat St;
  if (File->fd < 0 || fstat(File->fd, &St) || !S_ISREG(St.st_mode) || St.st_size < off_t(RuntimeImageHeaderSize))
    return std::nullopt;
  // Read through a mapping of the file; the executor reads the same file
  // (cache files are replaced by rename, never rewritten in place).
  size_t Size = size_t(St.st_size);
  void *Map = mmap(nullptr, Size, PROT_READ, MAP_PRIVATE, File->fd, 0);
  if (Map == MAP_FAILED)
    return std::nullopt;
  auto I = parseRuntimeImage({static_cast<const uint8_t *>(Map), Size}, A);
  munmap(Map, Size);
  if (!I || I->key != Key)
    return std::nullopt;
  for (RuntimeImage::Reservation &R : I->reservations)
    R.fileOffset += RuntimeImageHeaderSize;
  I->file = std::move(File);
  return I;
}

void noteRuntimeImage(const std::string &Line) {
  const char *Log = std::getenv("LINKLAB_CACHE_LOG");
  if (!Log || !*Log)
    return;
  if (FILE *F = std::fopen(Log, "a")) {
    std::fprintf(F, "%s\n", Line.c_str());
    std::fclose(F);
  }
}

void writeCachedImage(const std::string &Dir, const RuntimeImage &I) {
  // The directory and its parents (~/.cache may not exist yet).
  for (size_t At = Dir.find('/', 1); At != std::string::npos; At = Dir.find('/', At + 1))
    mkdir(Dir.substr(0, At).c_str(), 0755);
  mkdir(Dir.c_str(), 0755);
  std::string Path = cachedImagePath(Dir, I.key);
  std::string Temp = Path + formatv(".%d.tmp", int(getpid()));
  std::vector<uint8_t> Bytes = serializeRuntimeImage(I);
  int Fd = open(Temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return;
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t W = write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (W <= 0)
      break;
    Done += size_t(W);
  }
  bool Ok = close(Fd) == 0 && Done == Bytes.size();
  if (!Ok || rename(Temp.c_str(), Path.c_str()) != 0)
    unlink(Temp.c_str());
  // Bounded: the least recently written images beyond the newest
  // MaxCachedImages go (a few MB each).
  std::vector<std::pair<int64_t, std::string>> Images; // mtime (ns), path
  if (DIR *D = opendir(Dir.c_str())) {
    while (dirent *E = readdir(D)) {
      std::string_view Name = E->d_name;
      struct stat St;
      std::string File = Dir + "/" + E->d_name;
      if (Name.starts_with("runtime-") && Name.ends_with(".img") && stat(File.c_str(), &St) == 0)
        Images.push_back({int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec, File});
    }
    closedir(D);
  }
  if (Images.size() <= MaxCachedImages)
    return;
  std::sort(Images.begin(), Images.end());
  for (size_t K = 0; K + MaxCachedImages < Images.size(); ++K)
    unlink(Images[K].second.c_str());
}

} // namespace linklab::exec
