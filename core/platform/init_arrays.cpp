#include "platform/init_arrays.h"

#include "target/target.h"

#include <algorithm>
#include <cstring>

namespace linklab {

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
constexpr unsigned NumArrays = InitArrays::NumKinds;

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

template <typename Fn> void forEachArrayBlock(LinkGraph &G, Fn F) {
  for (auto &Sec : G.sections())
    for (unsigned K = 0; K < NumArrays; ++K)
      if (long P = arrayPriority(Sec->name, ArrayKinds[K]); P >= 0)
        for (Block *B : Sec->blocks)
          F(K, P, *B);
}

} // namespace

void InitArrays::modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) {
  bool Any = false;
  forEachArrayBlock(G, [&](unsigned, long, Block &) { Any = true; });
  if (!Any)
    return;
  std::string Name = MR.objectName;
  Config.prePrunePasses.push_back([](LinkGraph &G) -> Error {
    forEachArrayBlock(G, [&](unsigned, long, Block &B) {
      if (B.size % G.pointerSize())
        return;
      G.addAnonymousSymbol(B, 0, B.size, false, true); // nothing else references these blocks
    });
    return Error::success();
  });
  Config.postAllocationPasses.push_back([this, Name](LinkGraph &G) -> Error {
    uint64_t Count[NumArrays] = {};
    forEachArrayBlock(G, [&](unsigned Kind, long, Block &B) { Count[Kind] += B.size / G.pointerSize(); });
    if (LaidOut && (Count[PreInit] || Count[Init] || Count[Fini]))
      return makeError(formatv("%s: has constructor/destructor arrays but was linked after the program's init "
                               "arrays were laid out (linked by a later lookup)",
                               Name.c_str()));
    for (unsigned K = 0; K < NumArrays; ++K)
      Counts[K] += Count[K];
    return Error::success();
  });
  Config.postFixupPasses.push_back([this, Name, Key = MR.key](LinkGraph &G) -> Error {
    Error Err = Error::success();
    forEachArrayBlock(G, [&](unsigned Kind, long Prio, Block &B) {
      if (Err)
        return;
      const unsigned Size = G.pointerSize();
      if (B.size % Size || B.isZeroFill()) {
        Err = makeError(formatv("%s: %s block at %s is %llu bytes, not an array of %u-byte pointers", Name.c_str(),
                                std::string(B.section->name).c_str(), hex(B.address).c_str(),
                                (unsigned long long)B.size, Size));
        return;
      }
      for (uint64_t Off = 0; Off < B.size; Off += Size) {
        const char *At = B.content().data() + Off;
        uint64_t P = Size == 8 ? readData<uint64_t>(At, G.bigEndian()) : readData<uint32_t>(At, G.bigEndian());
        Entries[Kind].push_back({Prio, Key, Order++, P});
      }
    });
    return Err;
  });
}

bool InitArrays::claims(std::string_view N) const {
  return std::any_of(std::begin(ArrayKinds), std::end(ArrayKinds),
                     [&](const ArrayKind &K) { return N == K.start || N == K.end; });
}

Error InitArrays::tryToGenerate(Session &S, const std::vector<std::string> &Names) {
  if (LaidOut)
    return Error::success();
  LaidOut = true;
  auto G = std::make_unique<LinkGraph>("<init/fini arrays>", S.triple(), edgeKindNamesOf(S.triple()));
  uint64_t Total = Counts[PreInit] + Counts[Init] + Counts[Fini];
  const unsigned Size = G->pointerSize();
  Section &Sec = G->createSection(".linklab.init_arrays", MemProt::Read | MemProt::Write);
  Block &B = G->createZeroFillBlock(Sec, std::max<uint64_t>(Total, 1) * Size, 0, Size, 0);
  uint64_t Off = 0;
  for (unsigned K = 0; K < NumArrays; ++K) {
    G->addDefinedSymbol(B, Off, ArrayKinds[K].start, 0, Linkage::Strong, Scope::Default, false, true);
    Off += Counts[K] * Size;
    G->addDefinedSymbol(B, Off, ArrayKinds[K].end, 0, Linkage::Strong, Scope::Default, false, true);
  }
  auto Key = S.addGraph(std::move(G), ObjectKind::Runtime);
  return Key ? Error::success() : Key.takeError();
}

std::optional<size_t> InitArrays::add(Kind K, uint64_t Pointer) {
  if (LaidOut)
    return std::nullopt;
  ++Counts[K];
  Entries[K].push_back({arrayPriority(ArrayKinds[K].section, ArrayKinds[K]), 0, Order++, Pointer});
  return Entries[K].size() - 1;
}

std::vector<uint64_t> InitArrays::sorted(Kind K) const {
  auto E = Entries[K];
  std::sort(E.begin(), E.end(),
            [](auto &L, auto &R) { return std::tie(L.prio, L.key, L.order) < std::tie(R.prio, R.key, R.order); });
  std::vector<uint64_t> Out;
  for (auto &X : E)
    Out.push_back(X.pointer);
  return Out;
}

Expected<std::optional<InitArrays::Table>> InitArrays::table(const Session &S) const {
  auto Base = S.addressOf(ArrayKinds[PreInit].start);
  if (!LaidOut || !Base)
    return std::optional<Table>();
  std::vector<uint8_t> Bytes;
  for (unsigned K = 0; K < NumArrays; ++K) {
    if (Entries[K].size() != Counts[K])
      return makeError(formatv("%s: %zu entries were counted but %zu linked", ArrayKinds[K].section, size_t(Counts[K]),
                               Entries[K].size()));
    const ArchRow &A = archRow(S.triple().arch);
    for (uint64_t P : sorted(Kind(K)))
      for (unsigned I = 0; I < A.pointerSize; ++I) // in the target's byte order
        Bytes.push_back(uint8_t(P >> (8 * (A.bigEndian ? A.pointerSize - 1 - I : I))));
  }
  return std::optional<Table>(Table{*Base, std::move(Bytes)});
}

} // namespace linklab
