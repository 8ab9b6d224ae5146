#include "arch/i386.h"

#include "arch/edge_kind_names.h"
#include "link/table_manager.h"
#include "link/tls_relax.h"

#include <algorithm>
#include <cstring>

namespace linklab::i386 {

LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_I386_EDGE_KINDS)

Error applyFixup(LinkGraph &G, Block &B, const Edge &E) {
  FixupContext X(G, B, E);
  const int64_t S = X.S, A = X.A, P = X.P;
  auto Write32 = [&](int64_t V, int64_t Lo, int64_t Hi) { return X.putData<uint32_t>(V, Lo, Hi); };
  auto Write16 = [&](int64_t V, int64_t Lo, int64_t Hi) { return X.putData<uint16_t>(V, Lo, Hi); };
  switch (E.kind) {
  case None: return Error::success();
  case Pointer32: return Write32(S + A, INT32_MIN, UINT32_MAX);
  case Pointer16: return Write16(S + A, 0, UINT16_MAX);
  case PCRel16: return Write16(S + A - P, INT16_MIN, INT16_MAX);
  case PCRel32:
  case Delta32:
  case BranchPCRel32:
  case BranchPCRel32ToPtrJumpStub:
  case BranchPCRel32ToPtrJumpStubBypassable: return Write32(S + A - P, INT32_MIN, INT32_MAX);
  case NegDelta32: return Write32(P - S + A, INT32_MIN, INT32_MAX);
  case Delta32FromGOT: return Write32(S + A - int64_t(gotBase(G)), INT32_MIN, INT32_MAX);
  case Size32: return Write32(int64_t(E.target->size) + A, 0, UINT32_MAX);
  case TPOff32:
  case NegTPOff32: {
    auto Off = edgeTPOffset(G, B, E);
    if (!Off)
      return Off.takeError();
    return Write32(E.kind == TPOff32 ? *Off : -*Off, INT32_MIN, INT32_MAX);
  }
  case TLSGDToLocalExec: {
    // The 12 bytes from the lea (3 before the fixup) become movl %gs:0,%eax;
    // subl $imm32,%eax (i386 psABI TLS, GD -> LE, as ld writes it).
    auto Off = edgeTPOffset(G, B, E);
    if (!Off)
      return Off.takeError();
    static const uint8_t LE[8] = {0x65, 0xa1, 0, 0, 0, 0, 0x81, 0xe8};
    std::memcpy(X.Loc - 3, LE, sizeof LE);
    X.Loc += 5; // the subl's immediate
    return Write32(-*Off, INT32_MIN, INT32_MAX);
  }
  case TLSLDMToLocalExec: {
    // The 11 bytes from the lea (2 before the fixup) load the thread
    // pointer, which the module's TLS_LDO_32 offsets (TPOff32 here) are
    // relative to (i386 psABI TLS, LD -> LE, as ld writes it).
    static const uint8_t LE[11] = {0x65, 0xa1, 0, 0, 0, 0, 0x90, 0x8d, 0x74, 0x26, 0x00};
    std::memcpy(X.Loc - 2, LE, sizeof LE);
    return Error::success();
  }
  default: return X.fail("edge kind was not lowered before fixup");
  }
}

namespace {

// A 4-byte GOT entry (8-aligned, as JITLink's) holding Target's address or
// its TP offset.
Symbol &createEntry(LinkGraph &G, Section &GOT, Symbol &Target, EdgeKind K) {
  static const char Zero[4] = {};
  Block &B = G.createContentBlock(GOT, {Zero, 4}, 0, 8, 0);
  B.addEdge(K, 0, Target, 0);
  return G.addAnonymousSymbol(B, 0, 4, false, false);
}
Symbol &createGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) { return createEntry(G, GOT, Target, Pointer32); }
Symbol &createTPOffGOTEntry(LinkGraph &G, Section &GOT, Symbol &Target) { return createEntry(G, GOT, Target, TPOff32); }

// jmp *<entry> : ff 25 <abs32>
const char PointerJumpStubContent[6] = {char(0xff), 0x25, 0, 0, 0, 0};

Symbol &createPointerJumpStub(LinkGraph &G, Section &Stubs, Symbol &Entry) {
  Block &B = G.createContentBlock(Stubs, {PointerJumpStubContent, 6}, 0, 8, 0);
  B.addEdge(Pointer32, 2, Entry, 0);
  return G.addAnonymousSymbol(B, 0, 6, true, false);
}

// Gives GOT-relative and TLS GOT edges their entries, routes calls to
// symbols outside the graph through stubs, and defines _GLOBAL_OFFSET_TABLE_.
struct GOTAndStubsBuilder {
  TableManager GOT{GOTSectionName, MemProt::Read, createGOTEntry};
  TableManager TPOffGOT{GOTSectionName, MemProt::Read, createTPOffGOTEntry};
  TableManager Stubs{StubsSectionName, MemProt::Read | MemProt::Exec};

  Error operator()(LinkGraph &G) {
    static const EntryRequest<GOTAndStubsBuilder> Rows[] = {
        {RequestGOTAndTransformToDelta32FromGOT, Delta32FromGOT, &GOTAndStubsBuilder::GOT},
        {RequestTPOffGOTAndTransformToPointer32, Pointer32, &GOTAndStubsBuilder::TPOffGOT},
        {RequestTPOffGOTAndTransformToDelta32FromGOT, Delta32FromGOT, &GOTAndStubsBuilder::TPOffGOT},
    };
    static const EntryRequests<GOTAndStubsBuilder> Requests(Rows);
    bool GOTRelative = false; // GOTOFF measures from the GOT even when no entry was asked for
    forEachEdgeOnce(G, [&](Edge &E) {
      if (!Requests.retarget(*this, G, E))
        addStub(G, E);
      GOTRelative |= E.kind == Delta32FromGOT;
    });
    defineGOTSymbol(G, GOTRelative, {MemProt::Read, 8, false, true}); // defined after pruning: dead
    return Error::success();
  }

  void addStub(LinkGraph &G, Edge &E) {
    if (E.kind != BranchPCRel32 || E.target->isDefined())
      return;
    E.target = &Stubs.getEntryForTarget(G, *E.target, [&](LinkGraph &G, Section &S, Symbol &T) -> Symbol & {
      return createPointerJumpStub(G, S, GOT.getEntryForTarget(G, T));
    });
    E.kind = BranchPCRel32ToPtrJumpStubBypassable;
  }
};

// A stub call whose real target is within a rel32 goes straight there.
Error bypassStubs(LinkGraph &G) {
  G.forEachBlock([&](Block &B) {
    for (Edge &E : B.edges) {
      if (E.kind != BranchPCRel32ToPtrJumpStubBypassable)
        continue;
      // stub -> its GOT entry -> the real target
      Symbol &Target = *E.target->block().edges.front().target->block().edges.front().target;
      int64_t Disp = int64_t(Target.address() + uint64_t(E.addend) - B.fixupAddress(E)); // mod 2^64, as the fixup
      if (Disp >= INT32_MIN && Disp <= INT32_MAX) {
        E.kind = BranchPCRel32;
        E.target = &Target;
      }
    }
  });
  return Error::success();
}

} // namespace

namespace {
// 8d 04 1d <x@tlsgd> e8 <___tls_get_addr@PLT>; 8d 83 <x@tlsldm> e8 <...>
const uint8_t GDHead[] = {0x8d, 0x04, 0x1d}, LDMHead[] = {0x8d, 0x83}, TLSCall[] = {0xe8};
const DynamicTLSSequence DynamicTLSSequences[] = {
    {TLSGDToLocalExec, GDHead, TLSCall,
     "general-dynamic TLS code sequence (leal x@tlsgd(,%ebx,1),%eax; call ___tls_get_addr@PLT)"},
    {TLSLDMToLocalExec, LDMHead, TLSCall,
     "local-dynamic TLS code sequence (leal x@tlsldm(%ebx),%eax; call ___tls_get_addr@PLT)"},
};
Error relaxDynamicTLS(LinkGraph &G) { return dropDynamicTLSCalls(G, DynamicTLSSequences); }
} // namespace

void addDefaultPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.prePrunePasses.push_back(relaxDynamicTLS);
  Config.postPrunePasses.push_back(GOTAndStubsBuilder());
  Config.preFixupPasses.push_back(bypassStubs);
}

} // namespace linklab::i386

namespace linklab {
// The registry row: i386 as every object format sees it.
extern const ArchRow I386Arch = {.arch = Arch::I386,
                                 .name = "i386",
                                 .aliases = "i486 i586 i686 x86",
                                 .pointerSize = 4,
                                 .edgeKindName = i386::edgeKindName,
                                 .edgeKindWidth = i386::edgeKindWidth,
                                 .applyFixup = i386::applyFixup,
                                 .ehFrame = i386::EhFrameEdgeKinds,
                                 .tlsVariant = TLSVariant::BlockBelowTP,
                                 .createPointerJumpStub = i386::createPointerJumpStub};
} // namespace linklab
