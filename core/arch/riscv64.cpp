#include "arch/riscv64.h"

#include "arch/edge_kind_names.h"
#include "arch/riscv64_fields.h"
#include "link/table_manager.h"

#include <algorithm>
#include <bit>

namespace linklab::riscv64 {

LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_RISCV64_EDGE_KINDS)

// ---------------------------------------------------------------------------
// TLS layout
// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// Fixups
// ---------------------------------------------------------------------------

// The range of a %hi/%lo pair: hi20 is taken after adding 0x800, and lui/auipc
// sign-extend their 32-bit result on RV64.
static constexpr int64_t Hi20Lo = INT32_MIN - 0x800LL, Hi20Hi = INT32_MAX - 0x800LL;

static bool isPCRelHi20(EdgeKind K) { return K == R_RISCV_PCREL_HI20; }

// Edges are sorted by offset (relax() sorts them), so partners are found by
// binary search: PCREL_LO12 -> the HI20 edge at its target's address, and
// SET_ULEB128 -> the SUB_ULEB128 edge at the same offset.
static const Edge *findEdgeAt(const Block &B, uint64_t Offset, bool (*Want)(EdgeKind)) {
  auto It =
      std::lower_bound(B.edges.begin(), B.edges.end(), Offset, [](const Edge &E, uint64_t O) { return E.offset < O; });
  for (; It != B.edges.end() && It->offset == Offset; ++It)
    if (Want(It->kind))
      return &*It;
  return nullptr;
}

namespace {

struct Fixup : FixupContext {
  using FixupContext::FixupContext;

  Error rangeEven(int64_t V, int64_t Lo, int64_t Hi) const {
    if (Error Err = range(V, Lo, Hi))
      return Err;
    return aligned(V, 2);
  }
  uint32_t insn() const { return readLE<uint32_t>(Loc); }
  void setInsn(uint32_t I) const { writeLE<uint32_t>(Loc, I); }
  uint16_t half() const { return readLE<uint16_t>(Loc); }

  // Needs 8 bytes (auipc + jalr); the reader checked the width.
  Error call() const {
    int64_t V = S + A - P;
    if (Error Err = hi20Of(V))
      return Err;
    writeLE<uint32_t>(Loc + 4, encodeIType(readLE<uint32_t>(Loc + 4), lo12(V)));
    return Error::success();
  }
  Error hi20Of(int64_t V) const {
    if (Error Err = range(V, Hi20Lo, Hi20Hi))
      return Err;
    setInsn(encodeUType(insn(), hi20(V)));
    return Error::success();
  }
  // The value of the PCREL_HI20 edge at the auipc E's target names.
  Expected<int64_t> pcrelHi20Value() const {
    const Symbol &Hi = *E.target;
    if (!Hi.isDefined())
      return fail("target is not a label on an auipc in this graph");
    const Block &HB = Hi.block();
    const Edge *HE = findEdgeAt(HB, Hi.offset, isPCRelHi20);
    if (!HE)
      return fail(formatv("no R_RISCV_PCREL_HI20, R_RISCV_GOT_HI20 or R_RISCV_TLS_GOT_HI20 relocation at %s, "
                          "which this relocation's symbol points to",
                          hex(Hi.address()).c_str()));
    return int64_t(HE->target->address()) + HE->addend - int64_t(HB.fixupAddress(*HE));
  }
  Expected<int64_t> tpoff() const { return edgeTPOffset(G, B, E); }
  // Replaces the ULEB128 at Loc by V, keeping its length: the bytes after it
  // are already laid out.
  Error uleb128(uint64_t V) const {
    const char *End = B.content().data() + B.size;
    size_t Len = 0;
    while (Loc + Len < End && (uint8_t(Loc[Len]) & 0x80))
      ++Len;
    if (Loc + Len >= End)
      return fail("ULEB128 runs past the end of the block");
    ++Len;
    if (Len < 10 && V >> (7 * Len))
      return makeOutOfRangeError(G, B, E, int64_t(V), 0, int64_t((uint64_t(1) << (7 * Len)) - 1));
    for (size_t I = 0; I < Len; ++I, V >>= 7)
      Loc[I] = char((V & 0x7f) | (I + 1 < Len ? 0x80 : 0));
    return Error::success();
  }
};

template <typename T> void addInPlace(char *Loc, int64_t V) { writeLE<T>(Loc, T(readLE<T>(Loc) + T(V))); }

} // namespace

Error applyFixup(LinkGraph &G, Block &B, const Edge &E) {
  const Fixup F(G, B, E);
  const int64_t S = F.S, A = F.A, P = F.P;
  char *Loc = F.Loc;
  switch (E.kind) {
  case R_RISCV_32: return F.putData<uint32_t>(S + A, INT32_MIN, UINT32_MAX);
  case R_RISCV_64: return F.putData<uint64_t>(S + A);
  case R_RISCV_BRANCH:
    if (Error Err = F.rangeEven(S + A - P, -4096, 4094))
      return Err;
    F.setInsn(encodeBType(F.insn(), S + A - P));
    return Error::success();
  case R_RISCV_JAL:
    if (Error Err = F.rangeEven(S + A - P, -(1 << 20), (1 << 20) - 2))
      return Err;
    F.setInsn(encodeJType(F.insn(), S + A - P));
    return Error::success();
  case R_RISCV_CALL:
  case R_RISCV_CALL_PLT:
  case CallRelaxable: return F.call();
  case R_RISCV_PCREL_HI20: return F.hi20Of(S + A - P);
  case R_RISCV_PCREL_LO12_I:
  case R_RISCV_PCREL_LO12_S: {
    auto V = F.pcrelHi20Value();
    if (!V)
      return V.takeError();
    F.setInsn(E.kind == R_RISCV_PCREL_LO12_I ? encodeIType(F.insn(), lo12(*V)) : encodeSType(F.insn(), lo12(*V)));
    return Error::success();
  }
  case R_RISCV_HI20: return F.hi20Of(S + A);
  case R_RISCV_LO12_I: F.setInsn(encodeIType(F.insn(), lo12(S + A))); return Error::success();
  case R_RISCV_LO12_S: F.setInsn(encodeSType(F.insn(), lo12(S + A))); return Error::success();
  // Label arithmetic is modular by the psABI: each half of an ADD/SUB pair is
  // out of range on its own, only their sum is meaningful.
  case R_RISCV_ADD8: addInPlace<uint8_t>(Loc, S + A); return Error::success();
  case R_RISCV_ADD16: addInPlace<uint16_t>(Loc, S + A); return Error::success();
  case R_RISCV_ADD32: addInPlace<uint32_t>(Loc, S + A); return Error::success();
  case R_RISCV_ADD64: addInPlace<uint64_t>(Loc, S + A); return Error::success();
  case R_RISCV_SUB8: addInPlace<uint8_t>(Loc, -(S + A)); return Error::success();
  case R_RISCV_SUB16: addInPlace<uint16_t>(Loc, -(S + A)); return Error::success();
  case R_RISCV_SUB32: addInPlace<uint32_t>(Loc, -(S + A)); return Error::success();
  case R_RISCV_SUB64: addInPlace<uint64_t>(Loc, -(S + A)); return Error::success();
  case R_RISCV_SUB6: *Loc = char((*Loc & 0xc0) | ((*Loc - (S + A)) & 0x3f)); return Error::success();
  case R_RISCV_SET6: *Loc = char((*Loc & 0xc0) | ((S + A) & 0x3f)); return Error::success();
  case R_RISCV_SET8: *Loc = char(S + A); return Error::success();
  case R_RISCV_SET16: return F.putData<uint16_t>(S + A);
  case R_RISCV_SET32: return F.putData<uint32_t>(S + A);
  case R_RISCV_32_PCREL: return F.putData<int32_t>(S + A - P, INT32_MIN, INT32_MAX);
  case R_RISCV_RVC_BRANCH:
    if (Error Err = F.rangeEven(S + A - P, -256, 254))
      return Err;
    writeLE<uint16_t>(Loc, encodeCBType(F.half(), S + A - P));
    return Error::success();
  case R_RISCV_RVC_JUMP:
    if (Error Err = F.rangeEven(S + A - P, -2048, 2046))
      return Err;
    writeLE<uint16_t>(Loc, encodeCJType(F.half(), S + A - P));
    return Error::success();
  case R_RISCV_SET_ULEB128: {
    const Edge *Sub = findEdgeAt(B, E.offset, [](EdgeKind K) { return K == R_RISCV_SUB_ULEB128; });
    if (!Sub)
      return F.fail("no R_RISCV_SUB_ULEB128 at the same offset");
    return F.uleb128(uint64_t(S + A - (int64_t(Sub->target->address()) + Sub->addend)));
  }
  case R_RISCV_SUB_ULEB128: return Error::success(); // applied with its SET_ULEB128
  case R_RISCV_TPREL_HI20:
  case R_RISCV_TPREL_LO12_I:
  case R_RISCV_TPREL_LO12_S: {
    auto V = F.tpoff();
    if (!V)
      return V.takeError();
    if (E.kind == R_RISCV_TPREL_HI20)
      return F.hi20Of(*V);
    F.setInsn(E.kind == R_RISCV_TPREL_LO12_I ? encodeIType(F.insn(), lo12(*V)) : encodeSType(F.insn(), lo12(*V)));
    return Error::success();
  }
  case R_RISCV_TPREL_ADD: return Error::success(); // a relaxation hint on `add rd, rs, tp`
  case R_RISCV_TLS_TPREL64:
  case R_RISCV_TLS_DTPREL64: {
    // The static block starts at TP (variant I, no TCB gap), so an offset
    // in it is the TP offset; __tls_get_addr adds TLS_DTV_OFFSET back.
    auto V = F.tpoff();
    if (!V)
      return V.takeError();
    return F.putData<uint64_t>(*V - (E.kind == R_RISCV_TLS_DTPREL64 ? 0x800 : 0));
  }
  case R_RISCV_TLS_TPREL32:
  case R_RISCV_TLS_DTPREL32: {
    auto V = F.tpoff();
    if (!V)
      return V.takeError();
    return F.putData<uint32_t>(*V - (E.kind == R_RISCV_TLS_DTPREL32 ? 0x800 : 0), INT32_MIN, INT32_MAX);
  }
  case NegDelta32: return F.putData<int32_t>(P - S + A, INT32_MIN, INT32_MAX);
  case AlignRelaxable: {
    // Only reached when relax() did not run: the padding is kept, which is
    // right only if the code after it happens to be aligned already.
    uint64_t Align = std::bit_ceil(uint64_t(A) + 1);
    if ((P + A) % int64_t(Align))
      return F.fail(formatv("code after the padding at %s is not aligned to %llu bytes: the relaxation pass did "
                            "not run",
                            hex(uint64_t(P + A)).c_str(), (unsigned long long)Align));
    return Error::success();
  }
  default: return F.fail("edge kind was not lowered before fixup");
  }
}

// ---------------------------------------------------------------------------
// GOT and stubs
// ---------------------------------------------------------------------------

// GOT entries are pointer-sized: RV32 graphs get 4-byte entries.
Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, G.pointerSize() == 4 ? R_RISCV_32 : R_RISCV_64);
}

Symbol &createTLSGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, G.pointerSize() == 4 ? R_RISCV_TLS_TPREL32 : R_RISCV_TLS_TPREL64);
}

Symbol &createTLSGDEntry(LinkGraph &G, Section &Pairs, Symbol &Target) {
  static const char Module1[16] = {1};
  unsigned W = G.pointerSize();
  Block &B = G.createContentBlock(Pairs, {Module1, 2 * W}, 0, W, 0);
  B.addEdge(W == 4 ? R_RISCV_TLS_DTPREL32 : R_RISCV_TLS_DTPREL64, W, Target, 0);
  return G.addAnonymousSymbol(B, 0, 2 * W, false, false);
}

// auipc t3, %pcrel_hi(entry); ld t3, %pcrel_lo(entry)(t3); jr t3; nop
// (lw on RV32). t3 is free to clobber: the psABI reserves it for PLT-like stubs.
static const char StubContent64[16] = {0x17, 0x0e, 0, 0, 0x03, 0x3e, 0x0e, 0, 0x67, 0x00, 0x0e, 0, 0x13, 0, 0, 0};
static const char StubContent32[16] = {0x17, 0x0e, 0, 0, 0x03, 0x2e, 0x0e, 0, 0x67, 0x00, 0x0e, 0, 0x13, 0, 0, 0};

Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &GOTEntry) {
  Block &B = G.createContentBlock(Stubs, {G.pointerSize() == 4 ? StubContent32 : StubContent64, 16}, 0, 4, 0);
  B.addEdge(R_RISCV_CALL, 0, GOTEntry, 0); // auipc+ld is a hi20/I-type lo12 pair like auipc+jalr
  return G.addAnonymousSymbol(B, 0, 16, true, false);
}

namespace {

// Gives GOT_HI20 / TLS_GOT_HI20 / TLS_GD_HI20 edges their GOT entries and routes calls to
// symbols outside the graph through stubs (their addresses are unknown until
// after relaxation, which must know every call's displacement).
struct GOTAndStubsBuilder {
  TableManager GOT{GOTSectionName, MemProt::Read, createGOTEntry};
  TableManager TLSGOT{GOTSectionName, MemProt::Read, createTLSGOTEntry};
  TableManager TLSGD{"$__TLSGD", MemProt::Read, createTLSGDEntry};
  TableManager Stubs{StubsSectionName, MemProt::Read | MemProt::Exec};

  Error operator()(LinkGraph &G) {
    static const EntryRequest<GOTAndStubsBuilder> Rows[] = {
        {R_RISCV_GOT_HI20, R_RISCV_PCREL_HI20, &GOTAndStubsBuilder::GOT},
        {R_RISCV_TLS_GOT_HI20, R_RISCV_PCREL_HI20, &GOTAndStubsBuilder::TLSGOT},
        {R_RISCV_TLS_GD_HI20, R_RISCV_PCREL_HI20, &GOTAndStubsBuilder::TLSGD}, // clang's -fPIC TLS
    };
    static const EntryRequests<GOTAndStubsBuilder> Requests(Rows);
    forEachEdgeOnce(G, [&](Edge &E) {
      if (!Requests.retarget(*this, G, E))
        addStub(G, E);
    });
    return Error::success();
  }

  void addStub(LinkGraph &G, Edge &E) {
    if ((E.kind != R_RISCV_CALL && E.kind != R_RISCV_CALL_PLT && E.kind != CallRelaxable) || E.target->isDefined())
      return;
    E.kind = R_RISCV_CALL;
    E.target = &Stubs.getEntryForTarget(G, *E.target, [&](LinkGraph &G, Section &S, Symbol &T) -> Symbol & {
      return createPointerJumpStub(G, S, GOT.getEntryForTarget(G, T));
    });
  }
};

} // namespace

void addDefaultPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.postPrunePasses.push_back(GOTAndStubsBuilder());
  Config.postAllocationPasses.push_back(relax);
}

} // namespace linklab::riscv64

namespace linklab {
// The registry row: riscv64 as every object format sees it.
const ArchRow RISCV64Arch = {.arch = Arch::RISCV64,
                             .name = "riscv64",
                             .pointerSize = 8,
                             .edgeKindName = riscv64::edgeKindName,
                             .edgeKindWidth = riscv64::edgeKindWidth,
                             .applyFixup = riscv64::applyFixup,
                             .ehFrame = riscv64::EhFrameEdgeKinds,
                             .tlsVariant = TLSVariant::BlockAtTP,
                             .createPointerJumpStub = riscv64::createPointerJumpStub};
} // namespace linklab
