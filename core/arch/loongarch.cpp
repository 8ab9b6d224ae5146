#include "arch/loongarch.h"

#include "arch/loongarch_fields.h"

#include "arch/edge_kind_names.h"
#include "link/table_manager.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace linklab::loongarch {

LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_LOONGARCH_EDGE_KINDS)

namespace {

using namespace fields;

constexpr int64_t page(int64_t V) { return V & ~int64_t(0xfff); }

struct Fixup : FixupContext {
  using FixupContext::FixupContext;

  uint32_t insn(unsigned At = 0) const { return readLE<uint32_t>(Loc + At); }
  void setInsn(uint32_t I, unsigned At = 0) const { writeLE<uint32_t>(Loc + At, I); }

  // A PC-relative branch of Bits offset bits (in words): range first, then
  // alignment, as JITLink checks them.
  Error branch(unsigned Bits, uint32_t (*Encode)(uint32_t, int64_t)) const {
    int64_t V = S + A - P, Half = int64_t(1) << (Bits + 1);
    if (Error Err = range(V, -Half, Half - 1))
      return Err;
    if (Error Err = aligned(V, 4))
      return Err;
    setInsn(Encode(insn(), V >> 2));
    return Error::success();
  }
  template <typename T> void add(int64_t V) const { writeLE<T>(Loc, T(readLE<T>(Loc) + T(V))); }
  // Rewrites the ULEB128 at Loc as its value plus V, keeping its length
  // (the bytes after it are laid out): the sum wraps at 7 bits per byte.
  Error addUleb128(int64_t V) const {
    const char *End = B.content().data() + B.size;
    uint64_t Old = 0;
    size_t Len = 0;
    for (;; ++Len) {
      if (Loc + Len >= End)
        return fail("ULEB128 runs past the end of the block");
      if (Len == 10)
        return fail("ULEB128 is longer than 10 bytes");
      Old |= uint64_t(uint8_t(Loc[Len]) & 0x7f) << (7 * Len);
      if (!(uint8_t(Loc[Len]) & 0x80))
        break;
    }
    ++Len;
    uint64_t New = Old + uint64_t(V);
    for (size_t I = 0; I < Len; ++I, New >>= 7)
      Loc[I] = char((New & 0x7f) | (I + 1 < Len ? 0x80 : 0));
    return Error::success();
  }
};

} // namespace

Error applyFixup(LinkGraph &G, Block &B, const Edge &E) {
  const Fixup F(G, B, E);
  const int64_t S = F.S, A = F.A, P = F.P;
  switch (E.kind) {
  case Pointer64: return F.putData<uint64_t>(S + A);
  case Pointer32: return F.putData<uint32_t>(S + A, 0, UINT32_MAX);
  case Branch16PCRel: return F.branch(16, encodeB16);
  case Branch21PCRel: return F.branch(21, encodeB21);
  case Branch26PCRel: return F.branch(26, encodeB26);
  case Delta32: return F.putData<uint32_t>(S + A - P, INT32_MIN, INT32_MAX);
  case NegDelta32: return F.putData<uint32_t>(P - S + A, INT32_MIN, INT32_MAX);
  case Delta64: return F.putData<uint64_t>(S + A - P);
  case Page20: {
    // The page of S + A, one up when its low 12 bits read as negative.
    int64_t Delta = page(S + A + ((S + A) & 0x800)) - page(P);
    if (Error Err = F.range(Delta, INT32_MIN, INT32_MAX))
      return Err;
    F.setInsn(encodeSi20(F.insn(), field(Delta, 12, 20)));
    return Error::success();
  }
  case PageOffset12: F.setInsn(encodeSi12(F.insn(), field(S + A, 0, 12))); return Error::success();
  case PCAddHi20: {
    int64_t Delta = S + A - P + 0x800;
    if (Error Err = F.range(Delta, INT32_MIN, INT32_MAX))
      return Err;
    F.setInsn(encodeSi20(F.insn(), field(Delta, 12, 20)));
    return Error::success();
  }
  case PCAddLo12: {
    // S + A is the pcaddu12i: its edge says where the pair points.
    const Block &HiBlock = E.target->block();
    uint64_t HiOffset = E.target->offset + uint64_t(A);
    auto Hi = std::find_if(HiBlock.edges.begin(), HiBlock.edges.end(),
                           [&](const Edge &H) { return H.offset == HiOffset && H.kind == PCAddHi20; });
    if (Hi == HiBlock.edges.end())
      return F.fail("No PCAddHi20 relocation type be found for PCAddLo12 relocation type (no R_LARCH_PCADD_HI20 or "
                    "GOT_PCADD_HI20 at the instruction it names)");
    int64_t Delta = int64_t(Hi->target->address()) + Hi->addend - (S + A);
    F.setInsn(encodeSi12(F.insn(), field(Delta, 0, 12)));
    return Error::success();
  }
  case Call30PCRel: {
    int64_t V = S + A - P;
    if (Error Err = F.range(V, INT32_MIN, INT32_MAX))
      return Err;
    if (Error Err = F.aligned(V, 4))
      return Err;
    F.setInsn(encodeSi20(F.insn(), field(V, 12, 20)));
    F.setInsn(F.insn(4) | uint32_t(field(V, 2, 10)) << 10, 4);
    return Error::success();
  }
  case Call36PCRel: {
    // jirl's 16-bit word offset is sign-extended, so the upper part is
    // rounded by half its unit: the pair reaches [-2^37 - 0x20000, 2^37 - 0x20000).
    int64_t V = S + A - P;
    if (Error Err = F.range(V, -(int64_t(1) << 37) - 0x20000, (int64_t(1) << 37) - 0x20000 - 1))
      return Err;
    if (Error Err = F.aligned(V, 4))
      return Err;
    F.setInsn(encodeSi20(F.insn(), field(V + 0x20000, 18, 20)));
    F.setInsn(encodeB16(F.insn(4), V >> 2), 4);
    return Error::success();
  }
  // Label arithmetic is modular: each half of an ADD/SUB pair is out of
  // range on its own, only their sum means something.
  case Add6: *F.Loc = char((*F.Loc & 0xc0) | ((*F.Loc + (S + A)) & 0x3f)); return Error::success();
  case Sub6: *F.Loc = char((*F.Loc & 0xc0) | ((*F.Loc - (S + A)) & 0x3f)); return Error::success();
  case Add8: F.add<uint8_t>(S + A); return Error::success();
  case Add16: F.add<uint16_t>(S + A); return Error::success();
  case Add32: F.add<uint32_t>(S + A); return Error::success();
  case Add64: F.add<uint64_t>(S + A); return Error::success();
  case Sub8: F.add<uint8_t>(-(S + A)); return Error::success();
  case Sub16: F.add<uint16_t>(-(S + A)); return Error::success();
  case Sub32: F.add<uint32_t>(-(S + A)); return Error::success();
  case Sub64: F.add<uint64_t>(-(S + A)); return Error::success();
  case AddUleb128: return F.addUleb128(S + A);
  case SubUleb128: return F.addUleb128(-(S + A));
  case AlignRelaxable: return Error::success(); // the relaxation pass removed these; kept padding is valid code
  default: return F.fail("edge kind was not lowered before fixup");
  }
}

int64_t alignPadding(const Edge &E) {
  if (!E.target->isDefined()) // no symbol: the addend is the padding
    return E.addend >= 0 && E.addend % 4 == 0 ? E.addend : -1;
  unsigned Log2 = unsigned(E.addend & 0xff);
  return Log2 >= 2 && Log2 < 32 ? (int64_t(1) << Log2) - 4 : -1;
}

// ---------------------------------------------------------------------------
// R_LARCH_ALIGN: after allocation, delete the padding bytes that overshoot
// the alignment, moving the block's later symbols and edges back. A padding
// with a max-bytes limit (addend >> 8) that cannot be met is deleted whole.
// Only deletions before it move a padding, so one pass in order is exact.
// The block keeps its size (its tail is stale bytes), as JITLink's does.
// ---------------------------------------------------------------------------

namespace {

Error relaxBlock(LinkGraph &G, Block &B) {
  std::vector<Edge *> Aligns;
  for (Edge &E : B.edges)
    if (E.kind == AlignRelaxable)
      Aligns.push_back(&E);
  if (Aligns.empty())
    return Error::success();
  std::sort(Aligns.begin(), Aligns.end(), [](const Edge *L, const Edge *R) { return L->offset < R->offset; });
  // Bytes deleted up to and including each padding (cumulative).
  std::vector<uint64_t> Deltas;
  uint64_t Delta = 0, PrevEnd = 0;
  for (Edge *E : Aligns) {
    int64_t Pad = alignPadding(*E);
    if (Pad < 0)
      return makeError(formatv("%s: malformed R_LARCH_ALIGN addend %s", describeEdge(G, B, *E).c_str(),
                               hex(uint64_t(E->addend)).c_str()));
    if (E->offset < PrevEnd || E->offset > B.content().size() || uint64_t(Pad) > B.content().size() - E->offset)
      return makeError(formatv("%s: %s bytes of padding at offset %s overlap other padding or run past the block",
                               describeEdge(G, B, *E).c_str(), hex(uint64_t(Pad)).c_str(), hex(E->offset).c_str()));
    PrevEnd = E->offset + Pad;
    uint64_t Align = uint64_t(Pad) + 4, Max = E->target->isDefined() ? uint64_t(E->addend) >> 8 : 0;
    uint64_t Loc = B.address + E->offset - Delta, Need = (Align - (Loc & (Align - 1))) & (Align - 1);
    Delta += Max && Need > Max ? uint64_t(Pad) : uint64_t(Pad) - Need;
    Deltas.push_back(Delta);
  }
  // An offset moves back by the bytes deleted before it: by each padding
  // that starts below it (a symbol or edge at a padding's start stays put).
  // One inside the bytes a padding deletes, which only a malformed object
  // has (a relocation in the padding), lands on the padding's start rather
  // than before it.
  auto Moved = [&](uint64_t Offset) {
    size_t Before = std::lower_bound(Aligns.begin(), Aligns.end(), Offset,
                                     [](const Edge *E, uint64_t O) { return E->offset < O; }) -
                    Aligns.begin();
    if (!Before)
      return Offset;
    uint64_t Start = Aligns[Before - 1]->offset, Earlier = Before > 1 ? Deltas[Before - 2] : 0;
    return Offset < Start + (Deltas[Before - 1] - Earlier) ? Start - Earlier : Offset - Deltas[Before - 1];
  };
  for (Symbol *S : B.section->symbols)
    if (&S->block() == &B) {
      uint64_t End = Moved(S->offset + S->size);
      S->offset = Moved(S->offset);
      S->size = End - S->offset;
    }
  // Each padding loses its first bytes (all NOPs).
  char *Data = B.mutableContent(G).data();
  uint64_t Out = 0, In = 0, Prev = 0;
  for (size_t I = 0; I < Aligns.size(); ++I) {
    uint64_t Remove = Deltas[I] - Prev;
    Prev = Deltas[I];
    std::memmove(Data + Out, Data + In, Aligns[I]->offset - In);
    Out += Aligns[I]->offset - In;
    In = Aligns[I]->offset + Remove;
  }
  std::memmove(Data + Out, Data + In, B.size - In);
  for (Edge &E : B.edges)
    E.offset = uint32_t(Moved(E.offset));
  std::erase_if(B.edges, [](const Edge &E) { return E.kind == AlignRelaxable; });
  return Error::success();
}

Error relax(LinkGraph &G) {
  for (auto &Sec : G.sections())
    if (hasProt(Sec->prot, MemProt::Exec))
      for (Block *B : Sec->blocks)
        if (Error Err = relaxBlock(G, *B))
          return Err;
  return Error::success();
}

// ---------------------------------------------------------------------------
// GOT and stubs
// ---------------------------------------------------------------------------

Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, G.pointerSize() == 4 ? Pointer32 : Pointer64);
}

} // namespace

// pcalau12i $t8, %pc_hi20(ptr) ; ld.d $t8, $t8, %pc_lo12(ptr) ; jr $t8
static const char StubContent64[12] = {0x14, 0, 0, 0x1a, char(0x94), 0x02, char(0xc0), 0x28, char(0x80), 0x02, 0, 0x4c};
// 1: pcaddu12i $t8, %pcadd_hi20(ptr) ; ld.w $t8, $t8, %pcadd_lo12(1b) ; jr $t8
static const char StubContent32[12] = {0x14, 0, 0, 0x1c, char(0x94), 0x02, char(0x80), 0x28, char(0x80), 0x02, 0, 0x4c};

Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer) {
  bool LA32 = G.pointerSize() == 4;
  Block &B = G.createContentBlock(Stubs, LA32 ? StubContent32 : StubContent64, 0, 4, 0);
  Symbol &Stub = G.addAnonymousSymbol(B, 0, sizeof(StubContent64), true, false);
  B.addEdge(LA32 ? PCAddHi20 : Page20, 0, Pointer, 0);
  if (LA32)
    B.addEdge(PCAddLo12, 4, Stub, 0);
  else
    B.addEdge(PageOffset12, 4, Pointer, 0);
  return Stub;
}

namespace {

// GOT_PC edges get their entries; calls and branches to symbols outside the
// graph go through stubs (their distance is unknown). The GOT is
// read-execute, as JITLink's LoongArch GOT is (dumps and layout line up).
struct GOTAndStubsBuilder {
  TableManager GOT{GOTSectionName, MemProt::Read | MemProt::Exec, createGOTEntry};
  TableManager Stubs{StubsSectionName, MemProt::Read | MemProt::Exec};

  Error operator()(LinkGraph &G) {
    static const EntryRequest<GOTAndStubsBuilder> Rows[] = {
        {RequestGOTAndTransformToPage20, Page20, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToPageOffset12, PageOffset12, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToPCAddHi20, PCAddHi20, &GOTAndStubsBuilder::GOT},
    };
    static const EntryRequests<GOTAndStubsBuilder> Requests(Rows);
    forEachEdgeOnce(G, [&](Edge &E) {
      if (Requests.retarget(*this, G, E) || E.target->isDefined() ||
          (E.kind != Branch26PCRel && E.kind != Call36PCRel && E.kind != Call30PCRel))
        return;
      E.target = &Stubs.getEntryForTarget(G, *E.target, [&](LinkGraph &G, Section &S, Symbol &T) -> Symbol & {
        return createPointerJumpStub(G, S, GOT.getEntryForTarget(G, T));
      });
    });
    return Error::success();
  }
};

} // namespace

void addDefaultPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.postPrunePasses.push_back(GOTAndStubsBuilder());
  Config.postAllocationPasses.push_back(relax);
}

} // namespace linklab::loongarch

namespace linklab {
// The registry rows. TLS is not linked (variant I with TP at the
// block, as glibc's LoongArch port, is recorded for completeness).
// LoongArch32 and LoongArch64 differ only in their pointer size.
constexpr ArchRow loongArchRow(Arch A, const char *Name, uint8_t PointerSize) {
  return {.arch = A,
          .name = Name,
          .pointerSize = PointerSize,
          .edgeKindName = loongarch::edgeKindName,
          .edgeKindWidth = loongarch::edgeKindWidth,
          .applyFixup = loongarch::applyFixup,
          .ehFrame = loongarch::EhFrameEdgeKinds,
          .tlsVariant = TLSVariant::BlockAtTP,
          .createPointerJumpStub = loongarch::createPointerJumpStub,
          .cannotRun = "the executor's emulator (Unicorn 2.0.1) has no LoongArch CPU"};
}
extern const ArchRow LoongArch32Arch = loongArchRow(Arch::LoongArch32, "loongarch32", 4);
extern const ArchRow LoongArch64Arch = loongArchRow(Arch::LoongArch64, "loongarch64", 8);
} // namespace linklab
