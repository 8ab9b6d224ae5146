#include "arch/aarch64.h"

#include <bit>

#include "arch/aarch64_fields.h"
#include "arch/edge_kind_names.h"
#include "link/table_manager.h"
#include "target/target.h"

namespace linklab::aarch64 {

namespace F = fields;

LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_AARCH64_EDGE_KINDS)

// --- fixups ------------------------------------------------------------------

static constexpr int64_t pageOf(int64_t V) { return V & ~int64_t(0xfff); }

namespace {

// One fixup: S, A, P computed once; helpers check, then write the field.
struct Fixup : FixupContext {
  using FixupContext::FixupContext;

  uint32_t instr() const { return readLE<uint32_t>(Loc); }
  Error wrongInstr(const char *Expected) const {
    return fail(formatv("instruction %s at the fixup is not %s", hex(instr()).c_str(), Expected));
  }
  Error write32(uint32_t I) const { return writeLE<uint32_t>(Loc, I), Error::success(); }

  // A PC-relative branch/literal field of Bits bits counting 4-byte units.
  Error pcRel4(int64_t V, unsigned Bits, uint32_t (*Encode)(uint32_t, int64_t)) const {
    if (Error Err = aligned(V, 4))
      return Err;
    int64_t Lim = int64_t(1) << (Bits + 1);
    if (Error Err = range(V, -Lim, Lim - 4))
      return Err;
    return write32(Encode(instr(), V >> 2));
  }
  Error adrp(bool Check) const {
    if (!F::isAdrp(instr()))
      return wrongInstr("ADRP");
    int64_t Delta = pageOf(S + A) - pageOf(P);
    if (Check)
      if (Error Err = range(Delta, -(int64_t(1) << 32), (int64_t(1) << 32) - 4096))
        return Err;
    return write32(F::encodeAdrImm21(instr(), Delta >> 12));
  }
  // ADD imm12 or scaled LDR/STR imm12 of the low 12 bits of V.
  Error pageOffset12(int64_t V) const {
    uint32_t I = instr();
    if (F::isAddSubImm12(I))
      return write32(F::encodeAddImm12(I, uint64_t(V) & 0xfff));
    if (!F::isLoadStoreImm12(I))
      return wrongInstr("ADD (immediate) or LDR/STR (unsigned immediate)");
    unsigned Scale = F::loadStoreScale(I);
    if (Error Err = aligned(V, 1u << Scale))
      return Err;
    return write32(F::encodeLoadStoreImm12(I, (uint64_t(V) & 0xfff) >> Scale));
  }
  // SignedForm: TLSLE_MOVW_TPREL_G0/G1/G2, where the linker picks MOVZ for a
  // non-negative value (ours always are) and assemblers may emit MOVN.
  Error moveWide(int64_t V, bool Check, bool SignedForm = false) const {
    uint32_t I = instr();
    if (!F::isMoveWide(I))
      return wrongInstr("MOVZ/MOVN/MOVK");
    unsigned Shift = F::decodeMoveWideShift(I);
    if (Check && Shift < 48)
      if (Error Err = range(V, 0, (int64_t(1) << (Shift + 16)) - 1))
        return Err;
    if (SignedForm && F::getBits(I, 29, 2) == 0)
      I = F::makeMovz(I);
    return write32(F::encodeMoveWideImm16(I, (uint64_t(V) >> Shift) & 0xffff));
  }
  Error addImm12(uint64_t V) const {
    if (!F::isAddSubImm12(instr()))
      return wrongInstr("ADD (immediate)");
    return write32(F::encodeAddImm12(instr(), V));
  }
};

} // namespace

// Kinds that write a plain value rather than an instruction field.
static bool isDataKind(EdgeKind K) {
  switch (K) {
  case Pointer64:
  case Pointer32:
  case Pointer16:
  case Delta64:
  case Delta32:
  case Delta16:
  case NegDelta64:
  case NegDelta32:
  case TPOff64:
  case Pointer64Authenticated: return true;
  default: return false;
  }
}

Error applyFixup(LinkGraph &G, Block &B, const Edge &E) {
  Fixup X(G, B, E);
  const int64_t S = X.S, A = X.A, P = X.P;
  // Instruction fixups need a 4-byte aligned instruction (object builders
  // checked the fixup lies within the block).
  if (!isDataKind(E.kind) && (P & 3))
    return X.fail(formatv("instruction fixup at %s is not 4-byte aligned", hex(uint64_t(P)).c_str()));
  auto TPOff = [&] { return edgeTPOffset(G, B, E); };
  switch (E.kind) {
  // Data in the target's byte order (big-endian on aarch64_be), instructions always little-endian.
  case Pointer64: return X.putData<uint64_t>(S + A);
  case Pointer32: return X.putData<uint32_t>(S + A, 0, UINT32_MAX);
  // ABS16/PREL16 accept signed and unsigned 16-bit values (psABI: -2^15 <= X < 2^16).
  case Pointer16: return X.putData<uint16_t>(S + A, INT16_MIN, UINT16_MAX);
  case Delta16: return X.putData<uint16_t>(S + A - P, INT16_MIN, UINT16_MAX);
  case Delta64: return X.putData<uint64_t>(S + A - P);
  case Delta32: return X.putData<uint32_t>(S + A - P, INT32_MIN, INT32_MAX);
  case NegDelta64: return X.putData<uint64_t>(P - S + A);
  case NegDelta32: return X.putData<uint32_t>(P - S + A, INT32_MIN, INT32_MAX);
  case Branch26PCRel:
    if (!F::isBranch26(X.instr()))
      return X.wrongInstr("B/BL");
    return X.pcRel4(S + A - P, 26, F::encodeBranch26);
  case TestAndBranch14PCRel:
    if (!F::isTestBranch14(X.instr()))
      return X.wrongInstr("TBZ/TBNZ");
    return X.pcRel4(S + A - P, 14, F::encodeTestBranch14);
  case CondBranch19PCRel:
    if (!F::isCondBranch19(X.instr()) && !F::isCompareBranch19(X.instr()))
      return X.wrongInstr("B.cond/CBZ/CBNZ");
    return X.pcRel4(S + A - P, 19, F::encodeImm19);
  case LDRLiteral19:
    if (!F::isLoadLiteral19(X.instr()))
      return X.wrongInstr("LDR (literal)");
    return X.pcRel4(S + A - P, 19, F::encodeImm19);
  case ADRLiteral21:
    if (!F::isAdr(X.instr()))
      return X.wrongInstr("ADR");
    if (Error Err = X.range(S + A - P, -(1 << 20), (1 << 20) - 1))
      return Err;
    return X.write32(F::encodeAdrImm21(X.instr(), S + A - P));
  case Page21: return X.adrp(true);
  case Page21NoCheck: return X.adrp(false);
  case PageOffset12: return X.pageOffset12(S + A);
  case GotPageOffset15: {
    // psABI LD64_GOTPAGE_LO15: G(S) - Page(GOT), a 64-bit load's scaled imm12.
    int64_t V = S + A - pageOf(int64_t(gotBase(G)));
    if (!F::isLoadStoreImm12(X.instr()) || F::loadStoreScale(X.instr()) != 3)
      return X.wrongInstr("a 64-bit LDR");
    if (Error Err = X.aligned(V, 8))
      return Err;
    if (Error Err = X.range(V, 0, (1 << 15) - 8))
      return Err;
    return X.write32(F::encodeLoadStoreImm12(X.instr(), uint64_t(V) >> 3));
  }
  case Pointer64Authenticated: // llvm-jitlink signs these in the executor, and only in allocated memory
    return makeError(formatv("In graph %s, section %s unsupported edge kind Pointer64Authenticated (%s)",
                             G.name().c_str(), std::string(B.section->name).c_str(), describeEdge(G, B, E).c_str()));
  case MoveWide16: return X.moveWide(S + A, false);
  case MoveWide16Checked: return X.moveWide(S + A, true);
  case TPOff64:
  case TPOffAddHi12:
  case TPOffAddLo12:
  case TPOffAddLo12NoCheck:
  case TPOffMoveWide16:
  case TPOffMoveWide16Checked: {
    auto T = TPOff();
    if (!T)
      return T.takeError();
    switch (E.kind) {
    case TPOff64: return X.putData<uint64_t>(*T);
    case TPOffAddHi12:
      if (Error Err = X.range(*T, 0, (1 << 24) - 1))
        return Err;
      return X.addImm12(uint64_t(*T) >> 12);
    case TPOffAddLo12:
      if (Error Err = X.range(*T, 0, 0xfff))
        return Err;
      return X.addImm12(uint64_t(*T));
    case TPOffAddLo12NoCheck: return X.addImm12(uint64_t(*T) & 0xfff);
    default: return X.moveWide(*T, E.kind == TPOffMoveWide16Checked, E.kind == TPOffMoveWide16Checked);
    }
  }
  default: return makeError(formatv("%s: edge kind was not lowered before fixup", describeEdge(G, B, E).c_str()));
  }
}

// --- GOT, stubs, TLS entries ---------------------------------------------------

Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, Pointer64);
}

// adrp x16, <entry>@page        90000010
// ldr  x16, [x16, <entry>@lo12] f9400210
// br   x16                      d61f0200
static const uint32_t PointerJumpStubWords[3] = {0x90000010, 0xf9400210, 0xd61f0200};

static std::span<const char> wordsAsBytes(const uint32_t *W, size_t N) {
  static_assert(std::endian::native == std::endian::little, "stub templates are stored little-endian");
  return {reinterpret_cast<const char *>(W), N * 4};
}

Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer) {
  Block &B = G.createContentBlock(Stubs, wordsAsBytes(PointerJumpStubWords, 3), 0, 4, 0);
  B.addEdge(Page21, 0, Pointer, 0);
  B.addEdge(PageOffset12, 4, Pointer, 0);
  return G.addAnonymousSymbol(B, 0, 12, true, false);
}

// Initial-exec: a GOT-like entry holding TPOFF(Target).
static Symbol &createTPOffEntry(LinkGraph &G, Section &Sec, Symbol &Target) {
  return createPointerEntry(G, Sec, Target, TPOff64);
}

// The TLS descriptor resolver for static TLS: the descriptor's second word
// already holds TPOFF, so the resolver returns it (AAPCS64 TLSDESC calling
// convention: x0 = descriptor address in, TP offset out, nothing else clobbered).
//   ldr x0, [x0, #8]   f9400400
//   ret                d65f03c0
static const uint32_t TLSDescResolverWords[2] = {0xf9400400, 0xd65f03c0};
static constexpr const char *TLSDescResolverSectionName = "$__TLSDESC_RESOLVER";

namespace {

struct GOTAndStubsBuilder {
  // R-X as in JITLink, so the GOT shares the code segment and layouts match.
  TableManager GOT{GOTSectionName, MemProt::Read | MemProt::Exec, createGOTEntry};
  TableManager TPOffs{"$__TLSGOT", MemProt::Read, createTPOffEntry};
  TableManager TLSDescs{"$__TLSDESC", MemProt::Read, createTLSDesc};
  TableManager Stubs{StubsSectionName, MemProt::Read | MemProt::Exec};
  bool DefineGOTSymbol = true;

  Error operator()(LinkGraph &G) {
    static const EntryRequest<GOTAndStubsBuilder> Rows[] = {
        {RequestGOTAndTransformToPage21, Page21, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToPageOffset12, PageOffset12, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToPageOffset15, GotPageOffset15, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToDelta32, Delta32, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToLDRLiteral19, LDRLiteral19, &GOTAndStubsBuilder::GOT},
        {RequestTLVPAndTransformToPage21, Page21, &GOTAndStubsBuilder::TPOffs},
        {RequestTLVPAndTransformToPageOffset12, PageOffset12, &GOTAndStubsBuilder::TPOffs},
        {RequestTLSDescEntryAndTransformToPage21, Page21, &GOTAndStubsBuilder::TLSDescs},
        {RequestTLSDescEntryAndTransformToPageOffset12, PageOffset12, &GOTAndStubsBuilder::TLSDescs},
    };
    static const EntryRequests<GOTAndStubsBuilder> Requests(Rows);
    forEachEdgeOnce(G, [&](Edge &E) {
      if (!Requests.retarget(*this, G, E))
        addStub(G, E);
    });
    if (DefineGOTSymbol)
      defineGOTSymbol(G, false, {MemProt::Read | MemProt::Exec, 8, true, true});
    return Error::success();
  }

  void addStub(LinkGraph &G, Edge &E) {
    // As JITLink's ELF/aarch64: every call or jump to a symbol outside the
    // graph goes through a stub (the target may be further than +-128MiB),
    // and the stub is never bypassed.
    // The stubs section is made before the GOT entry, as JITLink does, so
    // both land at the same addresses.
    if (E.kind == Branch26PCRel && !E.target->isDefined()) {
      E.target = &Stubs.getEntryForTarget(G, *E.target, [&](LinkGraph &G, Section &S, Symbol &T) -> Symbol & {
        return createPointerJumpStub(G, S, GOT.getEntryForTarget(G, T));
      });
    }
  }

  // A 16-byte descriptor {resolver, TPOFF(Target)}; the resolver is made
  // once per graph.
  static Symbol &createTLSDesc(LinkGraph &G, Section &Sec, Symbol &Target) {
    Symbol *Resolver = nullptr;
    if (Section *RS = G.findSectionByName(TLSDescResolverSectionName))
      Resolver = RS->symbols.front();
    else {
      Section &NewRS = G.createSection(TLSDescResolverSectionName, MemProt::Read | MemProt::Exec);
      Block &RB = G.createContentBlock(NewRS, wordsAsBytes(TLSDescResolverWords, 2), 0, 4, 0);
      Resolver = &G.addAnonymousSymbol(RB, 0, 8, true, false);
    }
    static const char Zero[16] = {};
    Block &B = G.createContentBlock(Sec, {Zero, 16}, 0, 16, 0);
    B.addEdge(Pointer64, 0, *Resolver, 0);
    B.addEdge(TPOff64, 8, Target, 0);
    return G.addAnonymousSymbol(B, 0, 16, false, false);
  }
};

} // namespace

LinkGraphPass createGOTAndStubsPass(bool DefineGOTSymbol) {
  GOTAndStubsBuilder B;
  B.DefineGOTSymbol = DefineGOTSymbol;
  return B;
}

void addDefaultPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.postPrunePasses.push_back(createGOTAndStubsPass(true));
}

} // namespace linklab::aarch64

namespace linklab {
// The registry rows: aarch64 as every object format sees it, and aarch64_be,
// the same arch with big-endian data (its instructions stay little-endian,
// so only the data fixups, which follow the graph's byte order, differ).
// aarch64_be has no calling-convention table (plans pass memory operands
// little-endian) and no IFUNC lowering (its slots and records are written
// little-endian), so both give their "not supported" errors.
constexpr ArchRow aarch64Row(bool BE) {
  return {.arch = BE ? Arch::AArch64_BE : Arch::AArch64,
          .name = BE ? "aarch64_be" : "aarch64",
          .aliases = BE ? "" : "arm64 arm64e",
          .pointerSize = 8,
          .bigEndian = BE,
          .edgeKindName = aarch64::edgeKindName,
          .edgeKindWidth = aarch64::edgeKindWidth,
          .applyFixup = aarch64::applyFixup,
          .ehFrame = aarch64::EhFrameEdgeKinds,
          .tlsVariant = TLSVariant::BlockAfterTCB16,
          .createPointerJumpStub = BE ? nullptr : aarch64::createPointerJumpStub};
}
const ArchRow AArch64Arch = aarch64Row(false);
const ArchRow AArch64BEArch = aarch64Row(true);
} // namespace linklab
