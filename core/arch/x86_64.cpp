#include "arch/x86_64.h"

#include "arch/edge_kind_names.h"
#include "link/table_manager.h"
#include "link/tls_relax.h"
#include "target/target.h"

namespace linklab::x86_64 {

LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_X86_64_EDGE_KINDS)

Error applyFixup(LinkGraph &G, Block &B, const Edge &E) {
  FixupContext X(G, B, E); // X.Loc moves for the rewritten TLS sequences
  const int64_t S = X.S, A = X.A, P = X.P;
  auto Int32 = [&](int64_t V) { return X.putData<int32_t>(V, INT32_MIN, INT32_MAX); };
  switch (E.kind) {
  case Pointer64: return X.putData<uint64_t>(S + A);
  case Pointer32: return X.putData<uint32_t>(S + A, 0, UINT32_MAX);
  case Pointer32Signed: return Int32(S + A);
  case Pointer16: return X.putData<uint16_t>(S + A, 0, UINT16_MAX);
  case Pointer8: return X.putData<uint8_t>(S + A, 0, UINT8_MAX);
  case Delta64: return X.putData<int64_t>(S - P + A);
  case Delta32:
  case PCRel32GOTLoadRelaxable:
  case PCRel32GOTLoadREXRelaxable: return Int32(S - P + A);
  case Delta16: return X.putData<int16_t>(S - P + A, INT16_MIN, INT16_MAX);
  case Delta8: return X.putData<int8_t>(S - P + A, INT8_MIN, INT8_MAX);
  case NegDelta64: return X.putData<int64_t>(P - S + A);
  case NegDelta32: return Int32(P - S + A);
  case Delta64FromGOT: return X.putData<int64_t>(S - int64_t(gotBase(G)) + A);
  case Size64: return X.putData<uint64_t>(int64_t(E.target->size) + A);
  case Size32: return X.putData<uint32_t>(int64_t(E.target->size) + A, 0, UINT32_MAX);
  case BranchPCRel32:
  case BranchPCRel32ToPtrJumpStub:
  case BranchPCRel32ToPtrJumpStubBypassable:
  case PCRel32TLVPLoadREXRelaxable:
  case PCRel32: return Int32(S - (P + 4) + A);
  case TPOffGOTLoadRelaxable: return Int32(S - P + A);
  case TPOff32:
  case TPOff64:
  case TLSGDToLocalExec: {
    auto TP = edgeTPOffset(G, B, E);
    if (!TP)
      return TP.takeError();
    if (E.kind == TPOff64)
      return X.putData<int64_t>(*TP);
    if (E.kind == TPOff32)
      return Int32(*TP);
    // data16 leaq x@tlsgd(%rip),%rdi; data16 data16 rex64 call __tls_get_addr
    //   -> movq %fs:0,%rax; leaq x@tpoff(%rax),%rax   (psABI TLS, GD -> LE)
    static const uint8_t LE[12] = {0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0, 0x48, 0x8d, 0x80};
    std::memcpy(X.Loc - 4, LE, sizeof LE);
    X.Loc += 8;
    return Int32(*TP + 4); // the lea's -4 PC adjustment does not apply
  }
  case TLSLDToLocalExec: {
    // leaq x@tlsld(%rip),%rdi; call __tls_get_addr -> padded movq %fs:0,%rax;
    // the call through the GOT (ff 15, -fno-plt) is a byte longer: one more pad.
    static const uint8_t LE[12] = {0x66, 0x66, 0x66, 0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0};
    bool ViaGOT = uint8_t(X.Loc[4]) == 0xff;
    X.Loc[-3] = 0x66;
    std::memcpy(X.Loc - 3 + ViaGOT, LE, sizeof LE);
    return Error::success();
  }
  default: return makeError(formatv("%s: edge kind was not lowered before fixup", describeEdge(G, B, E).c_str()));
  }
}

Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, Pointer64);
}

// jmp *<entry>(%rip) : ff 25 <rel32>
static const char PointerJumpStubContent[6] = {char(0xff), 0x25, 0, 0, 0, 0};

Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Pointer) {
  Block &B = G.createContentBlock(Stubs, {PointerJumpStubContent, 6}, 0, 1, 0);
  B.addEdge(BranchPCRel32, 2, Pointer, 0);
  return G.addAnonymousSymbol(B, 0, 6, true, false);
}

namespace {

// Builds the GOT and PLT stubs edges ask for, then retargets those edges.
// An 8-byte GOT entry holding Target's thread-pointer offset (initial-exec).
Symbol &createTPOffGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) {
  return createPointerEntry(G, GOT, Target, TPOff64);
}

struct GOTAndStubsBuilder {
  TableManager GOT{GOTSectionName, MemProt::Read, createGOTEntry};
  TableManager TPOffGOT{"$__TLSGOT", MemProt::Read, createTPOffGOTEntry};
  TableManager Stubs{StubsSectionName, MemProt::Read | MemProt::Exec};
  bool DefineGOTSymbol = true;

  Error operator()(LinkGraph &G) {
    static const EntryRequest<GOTAndStubsBuilder> Rows[] = {
        {RequestGOTAndTransformToDelta32, Delta32, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToDelta64, Delta64, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToDelta64FromGOT, Delta64FromGOT, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToPCRel32GOTLoadRelaxable, PCRel32GOTLoadRelaxable, &GOTAndStubsBuilder::GOT},
        {RequestGOTAndTransformToPCRel32GOTLoadREXRelaxable, PCRel32GOTLoadREXRelaxable, &GOTAndStubsBuilder::GOT},
        {RequestTLVPAndTransformToPCRel32TLVPLoadREXRelaxable, PCRel32TLVPLoadREXRelaxable, &GOTAndStubsBuilder::GOT},
        {RequestTPOffGOTAndTransformToTPOffGOTLoadRelaxable, TPOffGOTLoadRelaxable, &GOTAndStubsBuilder::TPOffGOT},
    };
    static const EntryRequests<GOTAndStubsBuilder> Requests(Rows);
    bool GOTRelative = false; // GOTOFF64 measures from the GOT even when no entry was asked for
    forEachEdgeOnce(G, [&](Edge &E) {
      if (!Requests.retarget(*this, G, E))
        addStub(G, E);
      GOTRelative |= E.kind == Delta64FromGOT;
    });
    if (DefineGOTSymbol)
      defineGOTSymbol(G, GOTRelative, {MemProt::Read, 8, true, true}); // GOTPC32, GOTOFF64
    return Error::success();
  }

  // Calls to symbols outside the graph go through a stub, which the
  // relaxation pass bypasses when the target turns out to be in range.
  void addStub(LinkGraph &G, Edge &E) {
    if (E.kind == BranchPCRel32 && !E.target->isDefined()) {
      Symbol &Entry = GOT.getEntryForTarget(G, *E.target);
      Symbol &Stub = Stubs.getEntryForTarget(G, *E.target, [&](LinkGraph &G, Section &S, Symbol &) -> Symbol & {
        return createPointerJumpStub(G, S, Entry);
      });
      E.kind = BranchPCRel32ToPtrJumpStubBypassable;
      E.target = &Stub;
    }
  }
};

// The GOT entry's target: the symbol its single Pointer64 edge points to.
static Symbol &gotEntryTarget(Symbol &Entry) { return *Entry.block().edges.front().target; }

static bool fitsInt32(int64_t V) { return V >= INT32_MIN && V <= INT32_MAX; }

} // namespace

// Relaxes GOT loads and stub calls whose real target is within reach
// (x86-64 psABI, "Optimize GOTPCRELX Relocations").
Error optimizeGOTAndStubAccesses(LinkGraph &G) {
  for (auto &Sec : G.sections())
    for (Block *B : Sec->blocks)
      for (Edge &E : B->edges) {
        if (E.kind == PCRel32GOTLoadRelaxable || E.kind == PCRel32GOTLoadREXRelaxable) {
          if (E.offset < 2)
            continue;
          Symbol &Target = gotEntryTarget(*E.target);
          int64_t Disp = int64_t(Target.address() + uint64_t(E.addend) - B->fixupAddress(E)); // mod 2^64, as the fixup
          char *Code = B->mutableContent(G).data() + E.offset;
          uint8_t Op = uint8_t(Code[-2]), ModRM = uint8_t(Code[-1]);
          if (Op == 0x8b && fitsInt32(Disp)) { // mov foo@GOTPCREL(%rip) -> lea foo(%rip)
            Code[-2] = char(0x8d);
            E.kind = Delta32;
            E.target = &Target;
          } else if (Op == 0xff && ModRM == 0x15 && fitsInt32(Disp) && E.kind == PCRel32GOTLoadRelaxable) {
            Code[-2] = 0x67; // call *foo@GOTPCREL(%rip) -> addr32 call foo
            Code[-1] = char(0xe8);
            E.kind = Delta32;
            E.target = &Target;
          } else if (Op == 0xff && ModRM == 0x25 && fitsInt32(Disp + 1) && E.kind == PCRel32GOTLoadRelaxable &&
                     E.offset + 4 < B->size) { // jmp *foo@GOTPCREL(%rip) -> jmp foo; nop
            Code[-2] = char(0xe9);
            Code[3] = char(0x90);
            E.offset -= 1;
            E.kind = Delta32;
            E.target = &Target;
          }
        } else if (E.kind == TPOffGOTLoadRelaxable && E.offset >= 3) {
          // movq x@gottpoff(%rip),%reg -> movq $tpoff,%reg; addq likewise
          // (psABI TLS, IE -> LE): REX.R moves to REX.B, reg to r/m.
          char *Code = B->mutableContent(G).data() + E.offset;
          uint8_t Rex = uint8_t(Code[-3]), Op = uint8_t(Code[-2]), ModRM = uint8_t(Code[-1]);
          if ((Rex & 0xf8) != 0x48 || (Op != 0x8b && Op != 0x03) || (ModRM & 0xc7) != 0x05)
            continue;
          Code[-3] = char(0x48 | ((Rex & 4) ? 1 : 0));
          Code[-2] = char(Op == 0x8b ? 0xc7 : 0x81);
          Code[-1] = char(0xc0 | ((ModRM >> 3) & 7));
          E.kind = TPOff32;
          E.target = &gotEntryTarget(*E.target);
          E.addend = 0;
        } else if (E.kind == BranchPCRel32ToPtrJumpStubBypassable) {
          Symbol &GOTEntry = *E.target->block().edges.front().target;
          Symbol &Target = gotEntryTarget(GOTEntry);
          int64_t Disp = int64_t(Target.address() + uint64_t(E.addend) - (B->fixupAddress(E) + 4));
          if (fitsInt32(Disp)) {
            E.kind = BranchPCRel32;
            E.target = &Target;
          }
        }
      }
  return Error::success();
}

namespace {

// GD: 66 48 8d 3d <x@tlsgd> 66 66 48 e8 <call>; LD: 48 8d 3d <x@tlsld> e8 <call>.
// Compiled with -fno-plt the call goes through the GOT: 66 48 ff 15 <GOT
// entry> (GD, the same length), ff 15 <GOT entry> (LD, one byte longer).
const uint8_t GDHead[] = {0x66, 0x48, 0x8d, 0x3d}, GDCall[] = {0x66, 0x66, 0x48, 0xe8},
              GDCallViaGOT[] = {0x66, 0x48, 0xff, 0x15};
const uint8_t LDHead[] = {0x48, 0x8d, 0x3d}, LDCall[] = {0xe8}, LDCallViaGOT[] = {0xff, 0x15};
const DynamicTLSSequence DynamicTLSSequences[] = {
    {TLSGDToLocalExec, GDHead, GDCall,
     "general-dynamic TLS code sequence (data16 lea; call __tls_get_addr@PLT or *__tls_get_addr@GOTPCREL)"},
    {TLSGDToLocalExec, GDHead, GDCallViaGOT, ""},
    {TLSLDToLocalExec, LDHead, LDCall,
     "local-dynamic TLS code sequence (lea; call __tls_get_addr@PLT or *__tls_get_addr@GOTPCREL)"},
    {TLSLDToLocalExec, LDHead, LDCallViaGOT, ""},
};
Error relaxDynamicTLS(LinkGraph &G) { return dropDynamicTLSCalls(G, DynamicTLSSequences); }

} // namespace

LinkGraphPass createGOTAndStubsPass(bool DefineGOTSymbol) {
  GOTAndStubsBuilder B;
  B.DefineGOTSymbol = DefineGOTSymbol;
  return B;
}

void addDefaultPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.prePrunePasses.push_back(relaxDynamicTLS);
  Config.postPrunePasses.push_back(createGOTAndStubsPass(true));
  Config.preFixupPasses.push_back(optimizeGOTAndStubAccesses);
}

} // namespace linklab::x86_64

namespace linklab {
// The registry row: x86_64 as every object format sees it.
const ArchRow X86_64Arch = {.arch = Arch::X86_64,
                            .name = "x86_64",
                            .aliases = "amd64",
                            .pointerSize = 8,
                            .edgeKindName = x86_64::edgeKindName,
                            .edgeKindWidth = x86_64::edgeKindWidth,
                            .applyFixup = x86_64::applyFixup,
                            .ehFrame = x86_64::EhFrameEdgeKinds,
                            .tlsVariant = TLSVariant::BlockBelowTP,
                            .createPointerJumpStub = x86_64::createPointerJumpStub};
} // namespace linklab
