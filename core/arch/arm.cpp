#include "arch/arm.h"

#include "arch/arm_fields.h"

#include "arch/edge_kind_names.h"
#include "link/table_manager.h"

namespace linklab::arm {

LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_ARM_EDGE_KINDS)

namespace {

using namespace fields;

// The instruction each instruction kind expects at its fixup.
struct InstructionClass {
  EdgeKind kind;
  const char *name;
  bool thumb;
  bool (*armMatch)(uint32_t);
  bool (*thumbMatch)(ThumbPair);
};
const InstructionClass Classes[] = {
    {Arm_Call, "BL/BLX", false, isArmBranch, nullptr},
    {Arm_Jump24, "B/BL<cond>", false, [](uint32_t I) { return isArmBranch(I) && !isArmBlx(I); }, nullptr},
    {Arm_MovwAbsNC, "MOVW", false, isArmMovw, nullptr},
    {Arm_MovwPrelNC, "MOVW", false, isArmMovw, nullptr},
    {Arm_MovtAbs, "MOVT", false, isArmMovt, nullptr},
    {Arm_MovtPrel, "MOVT", false, isArmMovt, nullptr},
    {Thumb_Call, "Thumb BL/BLX", true, nullptr, isThumbCall},
    {Thumb_Jump24, "Thumb B.W", true, nullptr, isThumbJump24},
    {Thumb_Jump19, "Thumb B<c>.W", true, nullptr, isThumbJump19},
    {Thumb_MovwAbsNC, "Thumb MOVW", true, nullptr, isThumbMovw},
    {Thumb_MovwPrelNC, "Thumb MOVW", true, nullptr, isThumbMovw},
    {Thumb_MovtAbs, "Thumb MOVT", true, nullptr, isThumbMovt},
    {Thumb_MovtPrel, "Thumb MOVT", true, nullptr, isThumbMovt},
};
const InstructionClass *classOf(EdgeKind K) {
  for (const InstructionClass &C : Classes)
    if (C.kind == K)
      return &C;
  return nullptr;
}
// Error text for bytes that are not the instruction a kind expects, or null.
Expected<bool> checkInstruction(EdgeKind K, const char *Loc) {
  const InstructionClass *C = classOf(K);
  if (!C)
    return false;
  if (C->thumb ? C->thumbMatch(readThumb(Loc)) : C->armMatch(readArm(Loc)))
    return true;
  std::string Found =
      C->thumb ? formatv("[ %04x, %04x ]", readThumb(Loc).hi, readThumb(Loc).lo) : formatv("%08x", readArm(Loc));
  return makeError(formatv("expected %s instruction for %s, found %s", C->name, edgeKindName(K), Found.c_str()));
}

bool isThumbTarget(const Symbol &S) { return S.isDefined() && (S.targetFlags & ThumbSymbol); }

} // namespace

Expected<int64_t> implicitAddend(EdgeKind K, const char *Loc) {
  auto IsInstruction = checkInstruction(K, Loc);
  if (!IsInstruction)
    return IsInstruction.takeError();
  switch (K) {
  case None: return 0;
  case Data_PRel31: return signExtend(readLE<uint32_t>(Loc), 31);
  case Arm_Call:
  case Arm_Jump24: return decodeArmBranch(readArm(Loc));
  // MOVW/MOVT REL addends are the signed 16-bit immediate (AAELF32 5.6.1.1).
  case Arm_MovwAbsNC:
  case Arm_MovtAbs:
  case Arm_MovwPrelNC:
  case Arm_MovtPrel: return int16_t(decodeArmMov(readArm(Loc)));
  case Thumb_Call:
  case Thumb_Jump24: return decodeThumbBranch(readThumb(Loc));
  case Thumb_Jump19: return decodeThumbJump19(readThumb(Loc));
  case Thumb_MovwAbsNC:
  case Thumb_MovtAbs:
  case Thumb_MovwPrelNC:
  case Thumb_MovtPrel: return int16_t(decodeThumbMov(readThumb(Loc)));
  default: return int32_t(readLE<uint32_t>(Loc));
  }
}

bool isBranchKind(EdgeKind K) {
  return K == Arm_Call || K == Arm_Jump24 || K == Thumb_Call || K == Thumb_Jump24 || K == Thumb_Jump19;
}

Error applyFixup(LinkGraph &G, Block &B, const Edge &E) {
  const FixupContext X(G, B, E);
  int64_t S = X.S, T = isThumbTarget(*E.target) ? 1 : 0;
  const int64_t A = X.A, P = X.P;
  // A branch straight to a Thumb function of another graph (addDirectBranches)
  // sees its address with the T bit.
  if (isBranchKind(E.kind) && !E.target->isDefined() && (S & 1))
    S &= ~int64_t(1), T = 1;
  if (auto IsInstruction = checkInstruction(E.kind, X.Loc); !IsInstruction)
    return X.fail(IsInstruction.takeError().message());
  auto WriteData = [&](int64_t V, int64_t Lo, int64_t Hi) { return X.putData<uint32_t>(V, Lo, Hi); };
  auto WriteArmMov = [&](uint64_t V) { writeLE<uint32_t>(X.Loc, encodeArmMov(readArm(X.Loc), uint16_t(V))); };
  auto WriteThumbMov = [&](uint64_t V) { writeThumb(X.Loc, encodeThumbMov(readThumb(X.Loc), uint16_t(V))); };
  switch (E.kind) {
  case None: return Error::success();
  case Data_Delta32: return WriteData(((S + A) | T) - P, INT32_MIN, INT32_MAX);
  case Data_Pointer32: return WriteData((S + A) | T, INT32_MIN, UINT32_MAX);
  case Data_Delta32FromGOT: return WriteData(S + A - int64_t(gotBase(G)), INT32_MIN, INT32_MAX);
  case Data_PRel31: {
    int64_t V = ((S + A) | T) - P;
    if (Error Err = X.range(V, -(int64_t(1) << 30), (int64_t(1) << 30) - 1))
      return Err;
    writeLE<uint32_t>(X.Loc, (readLE<uint32_t>(X.Loc) & 0x80000000u) | (uint32_t(V) & 0x7fffffffu));
    return Error::success();
  }
  case Arm_Call:
  case Arm_Jump24: {
    uint32_t I = readArm(X.Loc);
    int64_t V = S + A - P;
    if (E.kind == Arm_Jump24 && T)
      return X.fail("a branch to Thumb code needs an interworking stub");
    if (E.kind == Arm_Call && bits(I, 28, 4) < 0xe)
      return X.fail(formatv("expected an unconditional BL/BLX, found %08x", I));
    if (Error Err = X.range(V, -(int64_t(1) << 25), (int64_t(1) << 25) - 1))
      return Err;
    if (Error Err = X.aligned(V, T ? 2 : 4))
      return Err;
    uint32_t Imm = bits(uint32_t(V), 2, 24);
    if (E.kind == Arm_Jump24)
      I = (I & 0xff000000u) | Imm;
    else // BL stays in Arm state, BLX (with offset bit 1 in H) switches to Thumb
      I = T ? 0xfa000000u | bits(uint32_t(V), 1, 1) << 24 | Imm : 0xeb000000u | Imm;
    writeLE<uint32_t>(X.Loc, I);
    return Error::success();
  }
  case Arm_MovwAbsNC: return WriteArmMov((S + A) | T), Error::success();
  case Arm_MovtAbs: return WriteArmMov(uint64_t(S + A) >> 16), Error::success();
  case Arm_MovwPrelNC: return WriteArmMov(((S + A) | T) - P), Error::success();
  case Arm_MovtPrel: return WriteArmMov(uint64_t(S + A - P) >> 16), Error::success();
  case Thumb_Call:
  case Thumb_Jump24: {
    ThumbPair I = readThumb(X.Loc);
    int64_t V = S + A - P;
    if (E.kind == Thumb_Jump24 && !T)
      return X.fail("a branch to Arm code needs an interworking stub");
    if (E.kind == Thumb_Call) {
      // BL stays in Thumb state; BLX switches to Arm and counts from Align(PC, 4).
      I.lo = T ? (I.lo | 0x1000) : (I.lo & ~0x1000);
      if (!T)
        V = S + A - (P & ~int64_t(3));
    }
    if (Error Err = X.range(V, -(int64_t(1) << 24), (int64_t(1) << 24) - 1))
      return Err;
    if (Error Err = X.aligned(V, T ? 2 : 4))
      return Err;
    writeThumb(X.Loc, encodeThumbBranch(I, V));
    return Error::success();
  }
  case Thumb_Jump19: {
    int64_t V = S + A - P;
    if (!T)
      return X.fail("a branch to Arm code needs an interworking stub");
    if (Error Err = X.range(V, -(int64_t(1) << 20), (int64_t(1) << 20) - 1))
      return Err;
    if (Error Err = X.aligned(V, 2))
      return Err;
    writeThumb(X.Loc, encodeThumbJump19(readThumb(X.Loc), V));
    return Error::success();
  }
  case Data_TPOff32:
  case Data_DTPOff32: {
    auto Off = edgeTPOffset(G, B, E);
    if (!Off)
      return Off.takeError();
    return WriteData(E.kind == Data_TPOff32 ? *Off : *Off - TCBSize, INT32_MIN, INT32_MAX);
  }
  case Thumb_MovwAbsNC: return WriteThumbMov((S + A) | T), Error::success();
  case Thumb_MovtAbs: return WriteThumbMov(uint64_t(S + A) >> 16), Error::success();
  case Thumb_MovwPrelNC: return WriteThumbMov(((S + A) | T) - P), Error::success();
  case Thumb_MovtPrel: return WriteThumbMov(uint64_t(S + A - P) >> 16), Error::success();
  default: return X.fail("edge kind was not lowered before fixup");
  }
}

namespace {

// A 4-byte GOT entry holding Target's address (with its T bit).
Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, Data_Pointer32);
}

// movw r12, #:lower16:S ; movt r12, #:upper16:S ; bx r12
const char ArmStub[12] = {0x00, char(0xc0), 0x00, char(0xe3), 0x00, char(0xc0),
                          0x40, char(0xe3), 0x1c, char(0xff), 0x2f, char(0xe1)};
// movw ip, #:lower16:S ; movt ip, #:upper16:S ; bx ip (Thumb-2)
const char ThumbStub[10] = {0x40, char(0xf2), 0x00, 0x0c, char(0xc0), char(0xf2), 0x00, 0x0c, 0x60, 0x47};

Symbol &createStub(LinkGraph &G, Section &Stubs, Symbol &Target, bool Thumb) {
  std::span<const char> Code = Thumb ? std::span<const char>(ThumbStub) : std::span<const char>(ArmStub);
  Block &B = G.createContentBlock(Stubs, Code, 0, 4, 0);
  B.addEdge(Thumb ? Thumb_MovwAbsNC : Arm_MovwAbsNC, 0, Target, 0);
  B.addEdge(Thumb ? Thumb_MovtAbs : Arm_MovtAbs, 4, Target, 0);
  Symbol &Stub = G.addAnonymousSymbol(B, 0, B.size, true, false);
  Stub.targetFlags = Thumb ? ThumbSymbol : 0;
  return Stub;
}
Symbol &createArmStub(LinkGraph &G, Section &S, Symbol &T) { return createStub(G, S, T, false); }

// A GOT entry holding Target's TP offset (initial-exec).
Symbol &createTPOffGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, Data_TPOff32);
}
// A GOT pair {module, offset} for __tls_get_addr: a static program is TLS
// module 1; local-dynamic's pair has offset 0 (Target null), its variables'
// offsets are added by R_ARM_TLS_LDO32.
const char TLSPairContent[8] = {1, 0, 0, 0, 0, 0, 0, 0};
Symbol &createTLSPair(LinkGraph &G, Section &GOT, Symbol *Target) {
  Block &B = G.createContentBlock(GOT, TLSPairContent, 0, 4, 0);
  if (Target)
    B.addEdge(Data_DTPOff32, 4, *Target, 0);
  return G.addAnonymousSymbol(B, 0, sizeof(TLSPairContent), false, false);
}
Symbol &createTLSGDPair(LinkGraph &G, Section &GOT, Symbol &Target) { return createTLSPair(G, GOT, &Target); }
Symbol &createThumbStub(LinkGraph &G, Section &S, Symbol &T) { return createStub(G, S, T, true); }

bool isThumbKind(EdgeKind K) { return (K >= Thumb_Call && K <= Thumb_MovtPrel) || K == Thumb_Jump19; }

// A branch needs a stub when its target is outside the graph (range and
// state unknown) or when it cannot switch state itself (B, B.W).
bool needsStub(const Edge &E) {
  if (!isBranchKind(E.kind))
    return false;
  if (!E.target->isDefined())
    return true;
  bool Thumb = isThumbTarget(*E.target);
  return (E.kind == Arm_Jump24 && Thumb) || ((E.kind == Thumb_Jump24 || E.kind == Thumb_Jump19) && !Thumb);
}

// Gives GOT edges their entries, routes branches through stubs in the
// caller's instruction set, and defines _GLOBAL_OFFSET_TABLE_.
struct GOTAndStubsBuilder {
  TableManager GOT{GOTSectionName, MemProt::Read, createGOTEntry};
  TableManager TPOffGOT{GOTSectionName, MemProt::Read, createTPOffGOTEntry};
  TableManager TLSGDPairs{GOTSectionName, MemProt::Read, createTLSGDPair};
  Symbol *TLSLDMPair = nullptr;
  TableManager ArmStubs{ArmStubsSectionName, MemProt::Read | MemProt::Exec, createArmStub};
  TableManager ThumbStubs{ArmStubsSectionName, MemProt::Read | MemProt::Exec, createThumbStub};

  Error operator()(LinkGraph &G) {
    static const EntryRequest<GOTAndStubsBuilder> Rows[] = {
        {Data_RequestGOTAndTransformToDelta32, Data_Delta32, &GOTAndStubsBuilder::GOT},
        {Data_RequestGOTAndTransformToDelta32FromGOT, Data_Delta32FromGOT, &GOTAndStubsBuilder::GOT},
        {Data_RequestTPOffGOTAndTransformToDelta32, Data_Delta32, &GOTAndStubsBuilder::TPOffGOT},
        {Data_RequestTLSGDPairAndTransformToDelta32, Data_Delta32, &GOTAndStubsBuilder::TLSGDPairs},
    };
    static const EntryRequests<GOTAndStubsBuilder> Requests(Rows);
    bool GOTRelative = false; // GOTOFF measures from the GOT even when no entry was asked for
    forEachEdgeOnce(G, [&](Edge &E) {
      if (needsStub(E))
        E.target = &(isThumbKind(E.kind) ? ThumbStubs : ArmStubs).getEntryForTarget(G, *E.target);
      else if (!Requests.retarget(*this, G, E) && E.kind == Data_RequestTLSLDMPairAndTransformToDelta32) {
        // One module pair for the whole graph, whatever the target.
        E.kind = Data_Delta32;
        if (!TLSLDMPair) {
          Section *Sec = G.findSectionByName(GOTSectionName);
          TLSLDMPair = &createTLSPair(G, Sec ? *Sec : G.createSection(GOTSectionName, MemProt::Read), nullptr);
        }
        E.target = TLSLDMPair;
      }
      GOTRelative |= E.kind == Data_Delta32FromGOT;
    });
    defineGOTSymbol(G, GOTRelative, {MemProt::Read, 4, false, false}); // GOT_BREL, GOTOFF32, BASE_PREL
    return Error::success();
  }
};

// movw ip, #:lower16:ptr ; movt ip, #:upper16:ptr ; ldr pc, [ip] (Arm code:
// the load switches to Thumb when the slot's value has bit 0 set).
const char PointerJumpStub[12] = {0x00, char(0xc0), 0x00, char(0xe3), 0x00,       char(0xc0),
                                  0x40, char(0xe3), 0x00, char(0xf0), char(0x9c), char(0xe5)};

// Other graphs and lookups see a Thumb function's address with bit 0 set.
Addr exportedAddress(const Symbol &S) { return S.address() | (S.targetFlags & ThumbSymbol ? 1 : 0); }

} // namespace

void addDefaultPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.postPrunePasses.push_back(GOTAndStubsBuilder());
}

// Before fixups, every branch's target has its address: one through a stub
// whose target is in range and needs no state change a B/B.W cannot make
// goes there directly, as a static linker adds veneers only where needed.
Error directBranches(LinkGraph &G) {
  Section *Stubs = G.findSectionByName(ArmStubsSectionName);
  if (!Stubs)
    return Error::success();
  G.forEachBlock([&](Block &B) {
    for (Edge &E : B.edges) {
      if (!isBranchKind(E.kind) || !E.target->isDefined() || E.target->block().section != Stubs)
        continue;
      Symbol &Real = *E.target->block().edges.front().target;
      int64_t S = int64_t(Real.address());
      bool Thumb = Real.isDefined() ? isThumbTarget(Real) : (S & 1);
      S &= ~int64_t(1);
      int64_t P = int64_t(B.address + E.offset);
      bool ThumbBranch = isThumbKind(E.kind);
      if ((E.kind == Arm_Jump24 && Thumb) || ((E.kind == Thumb_Jump24 || E.kind == Thumb_Jump19) && !Thumb))
        continue;
      int64_t V = S + E.addend - (ThumbBranch && !Thumb ? P & ~int64_t(3) : P);
      int64_t Half = int64_t(1) << (E.kind == Thumb_Jump19 ? 20 : ThumbBranch ? 24 : 25);
      if (V >= -Half && V < Half)
        E.target = &Real;
    }
  });
  return Error::success();
}

void addDirectBranches(LinkGraph &, PassConfiguration &Config) { Config.preFixupPasses.push_back(directBranches); }

Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer) {
  Block &B = G.createContentBlock(Stubs, PointerJumpStub, 0, 4, 0);
  B.addEdge(Arm_MovwAbsNC, 0, Pointer, 0);
  B.addEdge(Arm_MovtAbs, 4, Pointer, 0);
  return G.addAnonymousSymbol(B, 0, sizeof(PointerJumpStub), true, false);
}

} // namespace linklab::arm

namespace linklab {
// The registry row: 32-bit Arm as every object format sees it (jitlink-check
// decodes Arm or Thumb by the symbol).
extern const ArchRow ArmArch = {.arch = Arch::Arm,
                                .name = "armv7",
                                .aliases = "arm armv7a armv7l armv7ve armv8a armhf thumb thumbv7 thumbv7a",
                                .pointerSize = 4,
                                .edgeKindName = arm::edgeKindName,
                                .edgeKindWidth = arm::edgeKindWidth,
                                .applyFixup = arm::applyFixup,
                                .ehFrame = arm::EhFrameEdgeKinds,
                                .tlsVariant = TLSVariant::BlockAfterTCB8,
                                .createPointerJumpStub = arm::createPointerJumpStub,
                                .exportedAddress = arm::exportedAddress};
} // namespace linklab
