// ELF Arm relocations -> Arm edge kinds (AAELF32, "Relocation codes"; the
// Linux choices for the platform-defined TARGET1/TARGET2). SHT_REL: each
// addend is decoded from the instruction or word it relocates.
#include "arch/arm.h"
#include "elf/elf_graph_builder.h"

namespace linklab {

extern const ArchRow ArmArch;

namespace {

using namespace arm;

constexpr EdgeKind Unsupported = UnsupportedReloc;

// Widths come from the edge kinds (edgeKindWidth).
const ElfRelocType RelocTypes[] = {
    // An edge that only makes its target needed (EHABI's compact-model
    // personality routines), as JITLink's None edges.
    {0, "R_ARM_NONE", None},
    {1, "R_ARM_PC24", Unsupported},
    {2, "R_ARM_ABS32", Data_Pointer32},
    {3, "R_ARM_REL32", Data_Delta32},
    {4, "R_ARM_LDR_PC_G0", Unsupported},
    {5, "R_ARM_ABS16", Unsupported},
    {6, "R_ARM_ABS12", Unsupported},
    {7, "R_ARM_THM_ABS5", Unsupported},
    {8, "R_ARM_ABS8", Unsupported},
    {9, "R_ARM_SBREL32", Unsupported},
    {10, "R_ARM_THM_CALL", Thumb_Call},
    {11, "R_ARM_THM_PC8", Unsupported},
    {17, "R_ARM_TLS_DTPMOD32", Unsupported},
    {18, "R_ARM_TLS_DTPOFF32", Unsupported},
    {19, "R_ARM_TLS_TPOFF32", Unsupported},
    {20, "R_ARM_COPY", Unsupported},
    {21, "R_ARM_GLOB_DAT", Unsupported},
    {22, "R_ARM_JUMP_SLOT", Unsupported},
    {23, "R_ARM_RELATIVE", Unsupported},
    {24, "R_ARM_GOTOFF32", Data_Delta32FromGOT},
    // B(S) is the GOT's origin when S is _GLOBAL_OFFSET_TABLE_, its only use.
    {25, "R_ARM_BASE_PREL", Data_Delta32},
    {26, "R_ARM_GOT_BREL", Data_RequestGOTAndTransformToDelta32FromGOT},
    {27, "R_ARM_PLT32", Unsupported},
    {28, "R_ARM_CALL", Arm_Call},
    {29, "R_ARM_JUMP24", Arm_Jump24},
    {30, "R_ARM_THM_JUMP24", Thumb_Jump24},
    // Linux: TARGET1 is ABS32 (as lld's default), TARGET2 is GOT_PREL.
    {38, "R_ARM_TARGET1", Data_Pointer32},
    // Marks BX rm for linkers that rewrite it for Armv4 (not here): no edge.
    {40, "R_ARM_V4BX", NoEdgeReloc},
    {41, "R_ARM_TARGET2", Data_RequestGOTAndTransformToDelta32},
    {42, "R_ARM_PREL31", Data_PRel31},
    {43, "R_ARM_MOVW_ABS_NC", Arm_MovwAbsNC},
    {44, "R_ARM_MOVT_ABS", Arm_MovtAbs},
    {45, "R_ARM_MOVW_PREL_NC", Arm_MovwPrelNC},
    {46, "R_ARM_MOVT_PREL", Arm_MovtPrel},
    {47, "R_ARM_THM_MOVW_ABS_NC", Thumb_MovwAbsNC},
    {48, "R_ARM_THM_MOVT_ABS", Thumb_MovtAbs},
    {49, "R_ARM_THM_MOVW_PREL_NC", Thumb_MovwPrelNC},
    {50, "R_ARM_THM_MOVT_PREL", Thumb_MovtPrel},
    {51, "R_ARM_THM_JUMP19", Thumb_Jump19},
    // TLS descriptors (-mtls-dialect=gnu2): not linked.
    {90, "R_ARM_TLS_GOTDESC", Unsupported},
    {91, "R_ARM_TLS_CALL", Unsupported},
    {92, "R_ARM_TLS_DESCSEQ", Unsupported},
    {93, "R_ARM_THM_TLS_CALL", Unsupported},
    {96, "R_ARM_GOT_PREL", Data_RequestGOTAndTransformToDelta32},
    {102, "R_ARM_THM_JUMP11", Unsupported},
    {103, "R_ARM_THM_JUMP8", Unsupported},
    // TLS: local-exec, initial-exec, general- and local-dynamic.
    {104, "R_ARM_TLS_GD32", Data_RequestTLSGDPairAndTransformToDelta32},
    {105, "R_ARM_TLS_LDM32", Data_RequestTLSLDMPairAndTransformToDelta32},
    {106, "R_ARM_TLS_LDO32", Data_DTPOff32},
    {107, "R_ARM_TLS_IE32", Data_RequestTPOffGOTAndTransformToDelta32},
    {108, "R_ARM_TLS_LE32", Data_TPOff32},
    {160, "R_ARM_IRELATIVE", Unsupported},
};

const ElfRelocTable Table(RelocTypes);

const char *relocName(uint32_t Type) { return Table.name(Type); }

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Relocs) {
  // Unwind index entries live as long as the graph, as in JITLink (which
  // keeps each .ARM.exidx section alive through an anonymous symbol).
  if (Target.section->name.starts_with(".ARM.exidx"))
    GB.graph().addAnonymousSymbol(Target, 0, 0, false, true);
  return ElfGraphBuilder::forEachReloc(Relocs.size(), [&](size_t I) -> Error {
    const ElfRela &R = Relocs[I];
    auto M = GB.linkedType(Table, Target, R);
    if (!M)
      return M.takeError();
    if ((*M)->kind == NoEdgeReloc)
      return Error::success();
    const char *Name = (*M)->name;
    if (Error E = GB.checkFixupInBlock(Target, R, edgeKindWidth((*M)->kind), Name))
      return E;
    int64_t Addend = R.addend;
    if (R.implicitAddend) {
      if (Target.isZeroFill())
        return GB.relocError(Target, R, Name, "relocation in a zero-fill section");
      auto A = implicitAddend((*M)->kind, Target.content().data() + R.offset);
      if (!A)
        return GB.relocError(Target, R, Name, A.takeError().message());
      Addend = *A;
    }
    auto Sym = GB.relocTarget(Target, R);
    if (!Sym)
      return Sym.takeError();
    Target.addEdge((*M)->kind, uint32_t(R.offset), **Sym, Addend);
    return Error::success();
  });
}

// A function's (or an IFUNC resolver's) bit 0 says it is Thumb code
// (AAELF32 5.5.3); other symbols' values are plain offsets.
uint8_t symbolFlags(const ElfSymbol &S, uint64_t &Value) {
  if ((S.type != elf::STT_FUNC && S.type != elf::STT_GNU_IFUNC) || !(Value & 1))
    return 0;
  Value &= ~uint64_t(1);
  return ThumbSymbol;
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations, /*AcceptsRel=*/true,
                                symbolFlags);
}

} // namespace

extern const TargetInfo ElfArmTarget = {ElfFormat,
                                        ArmArch,
                                        40 /* EM_ARM */,
                                        "armv7-unknown-linux-gnueabihf",
                                        createGraph,
                                        arm::addDefaultPasses,
                                        relocName,
                                        160 /* R_ARM_IRELATIVE */,
                                        /*irelativeRel=*/true};

} // namespace linklab
