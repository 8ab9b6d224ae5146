#include "arch/ppc64.h"

#include "arch/edge_kind_names.h"
#include "link/table_manager.h"

#include <map>

namespace linklab::ppc64 {

LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_PPC64_EDGE_KINDS)

namespace {

constexpr const char *TOCSymbolName = ".TOC.";
constexpr const char *TOCAliasName = "__TOC__"; // as JITLink names it for its checker

// The address of .TOC. once the post-allocation pass has defined it.
Expected<int64_t> tocBase(const LinkGraph &G) {
  for (const Symbol *S : G.absoluteSymbols())
    if (S->name == TOCSymbolName)
      return int64_t(S->address());
  for (const Symbol *S : G.definedSymbols())
    if (S->name == TOCSymbolName)
      return int64_t(S->address());
  return makeError(formatv("%s: .TOC. is not defined (no GOT was built)", G.name().c_str()));
}

struct Fixup : FixupContext {
  using FixupContext::FixupContext;

  // Instructions are words in the object's byte order (both orders put a
  // D-form's immediate, the low half of the word, where the relocation's
  // offset points: byte 0 little-endian, byte 2 big-endian).
  uint32_t word(const char *At) const { return readData<uint32_t>(At, BigEndian); }
  void setWord(char *At, uint32_t W) const { writeData<uint32_t>(At, W, BigEndian); }
  // Replaces the bits of Mask in the word at At with V's.
  void patchWord(char *At, uint32_t Mask, uint32_t V) const { setWord(At, (word(At) & ~Mask) | (V & Mask)); }

  // A half16 field from a value that must fit an int32 (JITLink's check).
  Error half16(int64_t V) const {
    if (Error Err = range(V, INT32_MIN, INT32_MAX))
      return Err;
    return half16Unchecked(V);
  }
  // TPOFF(S) + A - 0x7000: the offset from r13, which points 0x7000 past
  // the TLS block's start (the layout gives offsets from the start).
  Expected<int64_t> tprel() const {
    auto V = edgeTPOffset(G, B, E);
    if (!V)
      return V.takeError();
    return *V - TPBias;
  }
  // A prefixed instruction's 34-bit immediate: the prefix word (first in
  // memory) holds si0, the high 18 bits; the suffix word's low half holds
  // si1. Checked: V must fit an int34; else its low 34 bits are written.
  Error si34(int64_t V, bool Checked) const {
    if (Checked)
      if (Error Err = range(V, -(int64_t(1) << 33), (int64_t(1) << 33) - 1))
        return Err;
    patchWord(Loc, 0x3ffff, uint32_t(uint64_t(V) >> 16));
    patchWord(Loc + 4, 0xffff, uint32_t(V));
    return Error::success();
  }
  // What a _DS field's value must be a multiple of: 4 for DS-form (ld, std:
  // the low 2 bits select the instruction), 16 for DQ-form, whose low 4 bits
  // are not displacement (lxv/stxv: opcode 61 with low bits 01; lq: 56;
  // Power10's lxvp/stxvp: 6), which assemblers relocate with the same _DS
  // types. Read from the instruction word the field is the low half of.
  unsigned dsAlignment() const {
    uint64_t Start = E.offset - (BigEndian ? 2 : 0);
    if ((BigEndian && E.offset < 2) || Start + 4 > B.size)
      return 4;
    uint32_t Inst = word(Loc - (E.offset - Start)), Op = Inst >> 26;
    return Op == 56 || Op == 6 || (Op == 61 && (Inst & 3) == 1) ? 16 : 4;
  }
  Error half16Unchecked(int64_t V) const {
    uint64_t U = uint64_t(V);
    uint16_t H = 0;
    switch (E.kind) {
    case Pointer16:
    case Delta16:
    case TOCDelta16:
    case TPRel16: H = uint16_t(U); break;
    case Pointer16DS:
    case TOCDelta16DS:
    case Pointer16LODS:
    case TOCDelta16LODS:
    case TPRel16DS:
    case TPRel16LODS: { // the low bits belong to the instruction
      uint16_t Keep = uint16_t(dsAlignment() - 1);
      if (Error Err = aligned(V, Keep + 1))
        return Err;
      H = uint16_t((U & ~uint64_t(Keep) & 0xffff) | (readData<uint16_t>(Loc, BigEndian) & Keep));
      break;
    }
    case Pointer16HA:
    case Delta16HA:
    case TOCDelta16HA:
    case TPRel16HA: H = uint16_t((U + 0x8000) >> 16); break;
    case Pointer16HI:
    case Delta16HI:
    case TOCDelta16HI:
    case TPRel16HI:
    case Pointer16HIGH:
    case TPRel16HIGH: H = uint16_t(U >> 16); break;
    case Pointer16HIGHA:
    case TPRel16HIGHA: H = uint16_t((U + 0x8000) >> 16); break;
    case Pointer16HIGHER:
    case TPRel16HIGHER: H = uint16_t(U >> 32); break;
    case Pointer16HIGHERA:
    case TPRel16HIGHERA: H = uint16_t((U + 0x8000) >> 32); break;
    case Pointer16HIGHEST:
    case TPRel16HIGHEST: H = uint16_t(U >> 48); break;
    case Pointer16HIGHESTA:
    case TPRel16HIGHESTA: H = uint16_t((U + 0x8000) >> 48); break;
    default: H = uint16_t(U); break; // the LO kinds
    }
    writeData<uint16_t>(Loc, H, BigEndian);
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
  case Pointer16:
  case Pointer16DS:
  case Pointer16HA:
  case Pointer16HI:
  case Pointer16LO:
  case Pointer16LODS: return F.half16(S + A);
  // The 64-bit pieces of an address: any 64-bit value is in range.
  case Pointer16HIGH:
  case Pointer16HIGHA:
  case Pointer16HIGHER:
  case Pointer16HIGHERA:
  case Pointer16HIGHEST:
  case Pointer16HIGHESTA: return F.half16Unchecked(S + A);
  case Pointer14:
  case Delta14: {
    int64_t V = E.kind == Pointer14 ? S + A : S + A - P;
    if (Error Err = F.range(V, INT16_MIN, INT16_MAX))
      return Err;
    if (Error Err = F.aligned(V, 4))
      return Err;
    F.patchWord(F.Loc, 0xfffc, uint32_t(V));
    return Error::success();
  }
  case Pointer24: {
    int64_t V = S + A;
    if (Error Err = F.range(V, -(int64_t(1) << 25), (int64_t(1) << 25) - 1))
      return Err;
    if (Error Err = F.aligned(V, 4))
      return Err;
    F.patchWord(F.Loc, 0x03fffffc, uint32_t(V));
    return Error::success();
  }
  case Delta64: return F.putData<uint64_t>(S + A - P);
  case Delta34: return F.si34(S + A - P, true);
  case Pointer34: return F.si34(S + A, true);
  case Pointer34LO: return F.si34(S + A, false);
  case Pointer34HI30: return F.si34(int64_t(uint64_t(S + A) >> 34), false);
  case Pointer34HA30: return F.si34(int64_t((uint64_t(S + A) + (uint64_t(1) << 33)) >> 34), false);
  case TPRel16:
  case TPRel16DS:
  case TPRel16HA:
  case TPRel16HI:
  case TPRel16LO:
  case TPRel16LODS:
  case TPRel16HIGH:
  case TPRel16HIGHA:
  case TPRel16HIGHER:
  case TPRel16HIGHERA:
  case TPRel16HIGHEST:
  case TPRel16HIGHESTA:
  case TPRel34:
  case TPRel64: {
    auto V = F.tprel();
    if (!V)
      return V.takeError();
    switch (E.kind) {
    case TPRel64: return F.putData<uint64_t>(*V);
    case TPRel34: return F.si34(*V, true);
    // The whole value in one half16 (r13-relative d-form): an int16.
    case TPRel16:
    case TPRel16DS:
      if (Error Err = F.range(*V, INT16_MIN, INT16_MAX))
        return Err;
      return F.half16Unchecked(*V);
    case TPRel16HA:
    case TPRel16HI:
    case TPRel16LO:
    case TPRel16LODS: return F.half16(*V);
    default: return F.half16Unchecked(*V); // the 64-bit pieces
    }
  }
  case Delta32: return F.putData<uint32_t>(S + A - P, INT32_MIN, INT32_MAX);
  case NegDelta32: return F.putData<uint32_t>(P - S + A, INT32_MIN, INT32_MAX);
  case Delta16:
  case Delta16HA:
  case Delta16HI:
  case Delta16LO: return F.half16(S + A - P);
  case TOC:
  case TOCDelta16:
  case TOCDelta16DS:
  case TOCDelta16HA:
  case TOCDelta16HI:
  case TOCDelta16LO:
  case TOCDelta16LODS: {
    auto Base = tocBase(G);
    if (!Base)
      return F.fail(Base.takeError().message());
    if (E.kind == TOC)
      return F.putData<uint64_t>(*Base);
    return F.half16(S + A - *Base);
  }
  case CallBranchDelta:
  case CallBranchDeltaRestoreTOC: {
    int64_t V = S + A - P;
    if (Error Err = F.range(V, -(int64_t(1) << 25), (int64_t(1) << 25) - 1))
      return Err;
    if (Error Err = F.aligned(V, 4))
      return Err;
    F.patchWord(F.Loc, 0x03fffffc, uint32_t(V));
    if (E.kind == CallBranchDeltaRestoreTOC) {
      // The caller's TOC pointer comes back from the stub's save slot.
      if (F.word(F.Loc + 4) != 0x60000000)
        return F.fail(formatv("expected a nop after the call to restore r2 into, found %08x", F.word(F.Loc + 4)));
      F.setWord(F.Loc + 4, 0xe8410018); // ld r2, 24(r1)
    }
    return Error::success();
  }
  default: return F.fail("edge kind was not lowered before fixup");
  }
}

namespace {

Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, Pointer64);
}
// An entry holding Target + Addend: a static callee or variable is named
// by its section's symbol plus an offset.
Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target, int64_t Addend) {
  Symbol &Entry = createGOTEntry(G, GOT, Target);
  Entry.block().edges.front().addend = Addend;
  return Entry;
}

// A stub's block: its instruction words in the graph's byte order.
template <size_t N> Block &createStubBlock(LinkGraph &G, Section &Stubs, const uint32_t (&Words)[N]) {
  char Bytes[N * 4];
  for (size_t I = 0; I < N; ++I)
    writeData<uint32_t>(Bytes + 4 * I, Words[I], G.bigEndian());
  return G.createContentBlock(Stubs, G.allocateContent(Bytes), 0, 4, 0);
}
// Where the immediate of the D-form word at byte Offset of a block is: its
// low half, the word's last two bytes big-endian.
uint32_t half16At(const LinkGraph &G, uint32_t Offset) { return Offset + (G.bigEndian() ? 2 : 0); }

// std r2, 24(r1) ; addis r12, r2, entry@toc@ha ; ld r12, entry@toc@l(r12) ;
// mtctr r12 ; bctr (r12 holds the callee's global entry, as ELFv2 wants).
const uint32_t SaveR2Stub[] = {0xf8410018, 0x3d820000, 0xe98c0000, 0x7d8903a6, 0x4e800420};

Symbol &createCallStub(LinkGraph &G, Section &Stubs, Symbol &GOTEntry) {
  Block &B = createStubBlock(G, Stubs, SaveR2Stub);
  B.addEdge(TOCDelta16HA, half16At(G, 4), GOTEntry, 0);
  B.addEdge(TOCDelta16LO, half16At(G, 8), GOTEntry, 0);
  return G.addAnonymousSymbol(B, 0, sizeof(SaveR2Stub), true, false);
}

// For callers without a TOC (Power10 @notoc): mflr r12 ; bcl 20, 31, .+4 ;
// mflr r11 ; mtlr r12 ; addis r12, r11, (entry - L)@ha ;
// ld r12, (entry - L)@l(r12) ; mtctr r12 ; bctr, where L (the stub + 8) is
// the address bcl leaves in the link register.
const uint32_t NoTOCStub[] = {0x7d8802a6, 0x429f0005, 0x7d6802a6, 0x7d8803a6,
                              0x3d8b0000, 0xe98c0000, 0x7d8903a6, 0x4e800420};

Symbol &createNoTOCStub(LinkGraph &G, Section &Stubs, Symbol &GOTEntry) {
  Block &B = createStubBlock(G, Stubs, NoTOCStub);
  // Addend P - 8 = L, P the half16's address.
  B.addEdge(Delta16HA, half16At(G, 16), GOTEntry, int64_t(half16At(G, 16)) - 8);
  B.addEdge(Delta16LO, half16At(G, 20), GOTEntry, int64_t(half16At(G, 20)) - 8);
  return G.addAnonymousSymbol(B, 0, sizeof(NoTOCStub), true, false);
}

// An initial-exec variable's GOT entry: its TPREL.
Symbol &createTPRelGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, TPRel64);
}

// What an initial-exec request becomes, pointed at the GOT entry holding
// TPREL; Invalid for other kinds.
EdgeKind gotTPRelTransform(EdgeKind K) {
  switch (K) {
  case RequestGOTTPRelAndTransformToTOCDelta16DS: return TOCDelta16DS;
  case RequestGOTTPRelAndTransformToTOCDelta16LODS: return TOCDelta16LODS;
  case RequestGOTTPRelAndTransformToTOCDelta16HI: return TOCDelta16HI;
  case RequestGOTTPRelAndTransformToTOCDelta16HA: return TOCDelta16HA;
  case RequestGOTTPRelAndTransformToDelta34: return Delta34;
  default: return edge::Invalid;
  }
}

// A general-dynamic variable's $__TLSINFO entry, the 16 bytes its
// __tls_get_addr call is handed: {key, &x}, the key 0 (JITLink's ELF
// platform would write it; without one the entry stays as here).
Symbol &createTLSInfoEntry(LinkGraph &G, Section &TLSInfo, Symbol &Target) {
  static const char Zero[16] = {};
  Block &B = G.createContentBlock(TLSInfo, Zero, 0, 8, 0);
  B.addEdge(Pointer64, 8, Target, 0);
  return G.addAnonymousSymbol(B, 0, sizeof(Zero), false, false);
}

// Sections the TOC pointer reaches, merged into the GOT as JITLink merges them.
const char *const TOCSections[] = {".got", ".toc", ".sdata", ".sbss", ".tocbss", ".plt"};

void mergeInto(LinkGraph &G, Section &To, Section &From) {
  for (Block *B : From.blocks) {
    B->section = &To;
    To.blocks.push_back(B);
  }
  To.symbols.insert(To.symbols.end(), From.symbols.begin(), From.symbols.end());
  From.blocks.clear();
  From.symbols.clear();
  G.removeSection(From);
}

// The GOT with its ELFv2 header (an entry holding .TOC.), the compiler's .toc
// entries for externals reused as their GOT entries, stubs for calls leaving
// the graph and for every @notoc call, $__TLSINFO entries for general-dynamic
// TLS, GOT entries holding TPREL for initial-exec, then the TOC sections
// merged into the GOT. Each GOT_PCREL34 gets a GOT entry of its own, as in
// JITLink (whose dumps then line up); a stub's entry is shared.
struct TOCAndStubsBuilder {
  TableManager GOT{GOTSectionName, MemProt::Read, createGOTEntry};
  TableManager Stubs{StubsSectionName, MemProt::Read | MemProt::Exec};
  TableManager TLSInfo{"$__TLSINFO", MemProt::Read, createTLSInfoEntry};
  // Initial-exec entries live in the GOT too, keyed apart from addresses.
  TableManager TPRelGOT{GOTSectionName, MemProt::Read, createTPRelGOTEntry};
  // @notoc stubs by target and addend (each reaching its own GOT entry
  // when the addend is not 0).
  std::map<std::pair<Symbol *, int64_t>, Symbol *> NoTOCStubs;

  Symbol &noTOCStub(LinkGraph &G, Section &GOTSec, Symbol &Target, int64_t Addend) {
    Symbol *&Stub = NoTOCStubs[{&Target, Addend}];
    if (!Stub) {
      Section *Sec = G.findSectionByName(StubsSectionName);
      if (!Sec)
        Sec = &G.createSection(StubsSectionName, MemProt::Read | MemProt::Exec);
      Stub = &createNoTOCStub(G, *Sec,
                              Addend ? createGOTEntry(G, GOTSec, Target, Addend) : GOT.getEntryForTarget(G, Target));
    }
    return *Stub;
  }

  // The GOT entry holding TPREL(Target) + Addend (shared when Addend is 0).
  Symbol &tpRelEntry(LinkGraph &G, Section &GOTSec, Symbol &Target, int64_t Addend) {
    if (!Addend)
      return TPRelGOT.getEntryForTarget(G, Target);
    Symbol &Entry = createTPRelGOTEntry(G, GOTSec, Target);
    Entry.block().edges.front().addend = Addend;
    return Entry;
  }

  Error operator()(LinkGraph &G) {
    Symbol *TOCSym = nullptr;
    for (Symbol *S : G.definedSymbols())
      if (S->name == TOCSymbolName)
        TOCSym = S;
    for (Symbol *S : G.externalSymbols())
      if (!TOCSym && S->name == TOCSymbolName)
        TOCSym = S;
    if (!TOCSym)
      TOCSym = &G.addExternalSymbol(TOCSymbolName, 0, false);
    GOT.getEntryForTarget(G, *TOCSym);
    Section &GOTSec = *G.findSectionByName(GOTSectionName);

    if (Section *Toc = G.findSectionByName(".toc"))
      for (Block *B : Toc->blocks)
        for (Edge &E : B->edges)
          if (E.kind == Pointer64 && E.target->isExternal()) {
            Symbol &Entry = G.addAnonymousSymbol(*B, E.offset, 8, false, false);
            GOT.getEntryForTarget(G, *E.target, [&](LinkGraph &, Section &, Symbol &) -> Symbol & { return Entry; });
          }

    std::vector<Block *> Blocks;
    G.forEachBlock([&](Block &B) { Blocks.push_back(&B); });
    for (Block *B : Blocks)
      for (Edge &E : B->edges) {
        if (E.kind == RequestGOTAndTransformToDelta34) {
          E.kind = Delta34;
          E.target = &createGOTEntry(G, GOTSec, *E.target, E.addend);
          E.addend = 0;
          continue;
        }
        if (EdgeKind To = gotTPRelTransform(E.kind)) {
          E.kind = To;
          E.target = &tpRelEntry(G, GOTSec, *E.target, E.addend);
          E.addend = 0;
          continue;
        }
        // The TLS requests keep their addend, as JITLink's do.
        if (E.kind == RequestTLSDescInGOTAndTransformToTOCDelta16HA ||
            E.kind == RequestTLSDescInGOTAndTransformToTOCDelta16LO ||
            E.kind == RequestTLSDescInGOTAndTransformToDelta34) {
          E.kind = E.kind == RequestTLSDescInGOTAndTransformToTOCDelta16HA   ? TOCDelta16HA
                   : E.kind == RequestTLSDescInGOTAndTransformToTOCDelta16LO ? TOCDelta16LO
                                                                             : Delta34;
          E.target = &TLSInfo.getEntryForTarget(G, *E.target);
          continue;
        }
        if (E.kind == RequestCallNoTOC) {
          E.kind = CallBranchDelta;
          E.target = &noTOCStub(G, GOTSec, *E.target, E.addend);
          E.addend = 0;
          continue;
        }
        if (E.kind != RequestCall)
          continue;
        if (!E.target->isExternal()) {
          E.kind = CallBranchDelta; // to the local entry (the reader added its offset)
          continue;
        }
        E.kind = CallBranchDeltaRestoreTOC;
        E.addend = 0;
        E.target = &Stubs.getEntryForTarget(G, *E.target, [&](LinkGraph &G, Section &S, Symbol &T) -> Symbol & {
          return createCallStub(G, S, GOT.getEntryForTarget(G, T));
        });
      }

    for (const char *Name : TOCSections)
      if (Section *S = G.findSectionByName(Name))
        mergeInto(G, GOTSec, *S);
    return Error::success();
  }
};

// After allocation: an external .TOC. becomes an absolute 0x8000 past the
// GOT's first block, with the alias __TOC__ (both as JITLink defines them).
Error defineTOCBase(LinkGraph &G) {
  Symbol *Ext = nullptr;
  for (Symbol *S : G.externalSymbols())
    if (S->name == TOCSymbolName)
      Ext = S;
  Section *GOTSec = G.findSectionByName(GOTSectionName);
  if (!Ext || !GOTSec || GOTSec->blocks.empty())
    return Error::success();
  Addr Base = GOTSec->address() + TOCBaseOffset;
  // Live only if something kept alive refers to it (not the GOT header's
  // own reference, made after pruning), as JITLink's makeAbsolute keeps it.
  bool Live = Ext->live;
  Symbol &Abs = G.addAbsoluteSymbol(TOCSymbolName, Base, 0, Linkage::Strong, Scope::Local, Live);
  G.forEachBlock([&](Block &B) {
    for (Edge &E : B.edges)
      if (E.target == Ext)
        E.target = &Abs;
  });
  G.removeExternalSymbol(*Ext);
  G.addAbsoluteSymbol(TOCAliasName, Base, 0, Linkage::Strong, Scope::Local, Live);
  return Error::success();
}

} // namespace

void addDefaultPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.postPrunePasses.push_back(TOCAndStubsBuilder());
  Config.postAllocationPasses.push_back(defineTOCBase);
}

} // namespace linklab::ppc64

namespace linklab {
// The registry rows: PowerPC 64 in either byte order (ELFv2, and ELFv1
// objects as JITLink links them: no .opd function descriptors). No
// calling-convention table. TLS variant I with the block at TP - 0x7000:
// the layout's offsets are from the block's start, and the TP fixups
// subtract TPBias.
// The two byte orders share every fixup: they differ in name and in why
// nothing runs them.
constexpr ArchRow ppc64Row(Arch A, const char *Name, const char *Alias, bool BigEndian, const char *CannotRun) {
  return {.arch = A,
          .name = Name,
          .aliases = Alias,
          .pointerSize = 8,
          .bigEndian = BigEndian,
          .edgeKindName = ppc64::edgeKindName,
          .edgeKindWidth = ppc64::edgeKindWidth,
          .applyFixup = ppc64::applyFixup,
          .ehFrame = ppc64::EhFrameEdgeKinds,
          .tlsVariant = TLSVariant::BlockAtTP,
          .createPointerJumpStub = nullptr,
          .cannotRun = CannotRun};
}
extern const ArchRow PPC64LEArch = ppc64Row(Arch::PPC64LE, "powerpc64le", "ppc64le", false,
                                            "the executor's emulator (Unicorn 2.0.1) runs PowerPC 64 big-endian only "
                                            "(UC_MODE_PPC64 | UC_MODE_LITTLE_ENDIAN is refused with UC_ERR_MODE)");
extern const ArchRow PPC64Arch =
    ppc64Row(Arch::PPC64, "powerpc64", "ppc64", true,
             "the executor has no PowerPC 64 process (no emulator row, C runtime or calling convention for it)");
} // namespace linklab
