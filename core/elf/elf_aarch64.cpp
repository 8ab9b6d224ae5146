// ELF AArch64 relocations -> AArch64 edge kinds ("ELF for the Arm 64-bit
// Architecture (AArch64)", section "Relocation", tables of static relocations).
#include "arch/aarch64.h"
#include "elf/elf_graph_builder.h"

namespace linklab {
namespace {

using namespace aarch64;

constexpr EdgeKind Unsupported = UnsupportedReloc;
constexpr EdgeKind NoEdge = NoEdgeReloc;

const ElfRelocType RelocTypes[] = {
    {0, "R_AARCH64_NONE", NoEdge, 0},
    {256, "R_AARCH64_NONE", NoEdge, 0}, // the psABI's alternative "withdrawn" NONE
    // Data.
    {257, "R_AARCH64_ABS64", Pointer64, 8},
    {258, "R_AARCH64_ABS32", Pointer32, 4},
    {259, "R_AARCH64_ABS16", Pointer16, 2},
    {260, "R_AARCH64_PREL64", Delta64, 8},
    {261, "R_AARCH64_PREL32", Delta32, 4},
    {262, "R_AARCH64_PREL16", Delta16, 2},
    // Absolute MOVW sequences: G3 needs no check (it is the top of the value).
    {263, "R_AARCH64_MOVW_UABS_G0", MoveWide16Checked, 4},
    {264, "R_AARCH64_MOVW_UABS_G0_NC", MoveWide16, 4},
    {265, "R_AARCH64_MOVW_UABS_G1", MoveWide16Checked, 4},
    {266, "R_AARCH64_MOVW_UABS_G1_NC", MoveWide16, 4},
    {267, "R_AARCH64_MOVW_UABS_G2", MoveWide16Checked, 4},
    {268, "R_AARCH64_MOVW_UABS_G2_NC", MoveWide16, 4},
    {269, "R_AARCH64_MOVW_UABS_G3", MoveWide16, 4},
    {270, "R_AARCH64_MOVW_SABS_G0", Unsupported, 4},
    {271, "R_AARCH64_MOVW_SABS_G1", Unsupported, 4},
    {272, "R_AARCH64_MOVW_SABS_G2", Unsupported, 4},
    // PC-relative addresses, loads and branches.
    {273, "R_AARCH64_LD_PREL_LO19", LDRLiteral19, 4},
    {274, "R_AARCH64_ADR_PREL_LO21", ADRLiteral21, 4},
    {275, "R_AARCH64_ADR_PREL_PG_HI21", Page21, 4},
    {276, "R_AARCH64_ADR_PREL_PG_HI21_NC", Page21NoCheck, 4},
    {277, "R_AARCH64_ADD_ABS_LO12_NC", PageOffset12, 4},
    {278, "R_AARCH64_LDST8_ABS_LO12_NC", PageOffset12, 4},
    {279, "R_AARCH64_TSTBR14", TestAndBranch14PCRel, 4},
    {280, "R_AARCH64_CONDBR19", CondBranch19PCRel, 4},
    {282, "R_AARCH64_JUMP26", Branch26PCRel, 4},
    {283, "R_AARCH64_CALL26", Branch26PCRel, 4},
    {284, "R_AARCH64_LDST16_ABS_LO12_NC", PageOffset12, 4},
    {285, "R_AARCH64_LDST32_ABS_LO12_NC", PageOffset12, 4},
    {286, "R_AARCH64_LDST64_ABS_LO12_NC", PageOffset12, 4},
    {287, "R_AARCH64_MOVW_PREL_G0", Unsupported, 4},
    {288, "R_AARCH64_MOVW_PREL_G0_NC", Unsupported, 4},
    {289, "R_AARCH64_MOVW_PREL_G1", Unsupported, 4},
    {290, "R_AARCH64_MOVW_PREL_G1_NC", Unsupported, 4},
    {291, "R_AARCH64_MOVW_PREL_G2", Unsupported, 4},
    {292, "R_AARCH64_MOVW_PREL_G2_NC", Unsupported, 4},
    {293, "R_AARCH64_MOVW_PREL_G3", Unsupported, 4},
    {299, "R_AARCH64_LDST128_ABS_LO12_NC", PageOffset12, 4},
    // GOT.
    {300, "R_AARCH64_MOVW_GOTOFF_G0", Unsupported, 4},
    {301, "R_AARCH64_MOVW_GOTOFF_G0_NC", Unsupported, 4},
    {302, "R_AARCH64_MOVW_GOTOFF_G1", Unsupported, 4},
    {303, "R_AARCH64_MOVW_GOTOFF_G1_NC", Unsupported, 4},
    {304, "R_AARCH64_MOVW_GOTOFF_G2", Unsupported, 4},
    {305, "R_AARCH64_MOVW_GOTOFF_G2_NC", Unsupported, 4},
    {306, "R_AARCH64_MOVW_GOTOFF_G3", Unsupported, 4},
    {307, "R_AARCH64_GOTREL64", Unsupported, 8},
    {308, "R_AARCH64_GOTREL32", Unsupported, 4},
    {309, "R_AARCH64_GOT_LD_PREL19", RequestGOTAndTransformToLDRLiteral19, 4},
    {310, "R_AARCH64_LD64_GOTOFF_LO15", Unsupported, 4},
    {311, "R_AARCH64_ADR_GOT_PAGE", RequestGOTAndTransformToPage21, 4},
    {312, "R_AARCH64_LD64_GOT_LO12_NC", RequestGOTAndTransformToPageOffset12, 4},
    {313, "R_AARCH64_LD64_GOTPAGE_LO15", RequestGOTAndTransformToPageOffset15, 4},
    {314, "R_AARCH64_PLT32", Unsupported, 4},
    {315, "R_AARCH64_GOTPCREL32", RequestGOTAndTransformToDelta32, 4},
    // TLS general and local dynamic: need a dynamic TLS model linklab lacks.
    {512, "R_AARCH64_TLSGD_ADR_PREL21", Unsupported, 4},
    {513, "R_AARCH64_TLSGD_ADR_PAGE21", Unsupported, 4},
    {514, "R_AARCH64_TLSGD_ADD_LO12_NC", Unsupported, 4},
    {515, "R_AARCH64_TLSGD_MOVW_G1", Unsupported, 4},
    {516, "R_AARCH64_TLSGD_MOVW_G0_NC", Unsupported, 4},
    {517, "R_AARCH64_TLSLD_ADR_PREL21", Unsupported, 4},
    {518, "R_AARCH64_TLSLD_ADR_PAGE21", Unsupported, 4},
    {519, "R_AARCH64_TLSLD_ADD_LO12_NC", Unsupported, 4},
    {520, "R_AARCH64_TLSLD_MOVW_G1", Unsupported, 4},
    {521, "R_AARCH64_TLSLD_MOVW_G0_NC", Unsupported, 4},
    {522, "R_AARCH64_TLSLD_LD_PREL19", Unsupported, 4},
    {523, "R_AARCH64_TLSLD_MOVW_DTPREL_G2", Unsupported, 4},
    {524, "R_AARCH64_TLSLD_MOVW_DTPREL_G1", Unsupported, 4},
    {525, "R_AARCH64_TLSLD_MOVW_DTPREL_G1_NC", Unsupported, 4},
    {526, "R_AARCH64_TLSLD_MOVW_DTPREL_G0", Unsupported, 4},
    {527, "R_AARCH64_TLSLD_MOVW_DTPREL_G0_NC", Unsupported, 4},
    {528, "R_AARCH64_TLSLD_ADD_DTPREL_HI12", Unsupported, 4},
    {529, "R_AARCH64_TLSLD_ADD_DTPREL_LO12", Unsupported, 4},
    {530, "R_AARCH64_TLSLD_ADD_DTPREL_LO12_NC", Unsupported, 4},
    {531, "R_AARCH64_TLSLD_LDST8_DTPREL_LO12", Unsupported, 4},
    {532, "R_AARCH64_TLSLD_LDST8_DTPREL_LO12_NC", Unsupported, 4},
    {533, "R_AARCH64_TLSLD_LDST16_DTPREL_LO12", Unsupported, 4},
    {534, "R_AARCH64_TLSLD_LDST16_DTPREL_LO12_NC", Unsupported, 4},
    {535, "R_AARCH64_TLSLD_LDST32_DTPREL_LO12", Unsupported, 4},
    {536, "R_AARCH64_TLSLD_LDST32_DTPREL_LO12_NC", Unsupported, 4},
    {537, "R_AARCH64_TLSLD_LDST64_DTPREL_LO12", Unsupported, 4},
    {538, "R_AARCH64_TLSLD_LDST64_DTPREL_LO12_NC", Unsupported, 4},
    // TLS initial exec: a GOT entry holding the TP offset.
    {539, "R_AARCH64_TLSIE_MOVW_GOTTPREL_G1", Unsupported, 4},
    {540, "R_AARCH64_TLSIE_MOVW_GOTTPREL_G0_NC", Unsupported, 4},
    {541, "R_AARCH64_TLSIE_ADR_GOTTPREL_PAGE21", RequestTLVPAndTransformToPage21, 4},
    {542, "R_AARCH64_TLSIE_LD64_GOTTPREL_LO12_NC", RequestTLVPAndTransformToPageOffset12, 4},
    {543, "R_AARCH64_TLSIE_LD_GOTTPREL_PREL19", Unsupported, 4},
    // TLS local exec: the TP offset itself.
    {544, "R_AARCH64_TLSLE_MOVW_TPREL_G2", TPOffMoveWide16Checked, 4},
    {545, "R_AARCH64_TLSLE_MOVW_TPREL_G1", TPOffMoveWide16Checked, 4},
    {546, "R_AARCH64_TLSLE_MOVW_TPREL_G1_NC", TPOffMoveWide16, 4},
    {547, "R_AARCH64_TLSLE_MOVW_TPREL_G0", TPOffMoveWide16Checked, 4},
    {548, "R_AARCH64_TLSLE_MOVW_TPREL_G0_NC", TPOffMoveWide16, 4},
    {549, "R_AARCH64_TLSLE_ADD_TPREL_HI12", TPOffAddHi12, 4},
    {550, "R_AARCH64_TLSLE_ADD_TPREL_LO12", TPOffAddLo12, 4},
    {551, "R_AARCH64_TLSLE_ADD_TPREL_LO12_NC", TPOffAddLo12NoCheck, 4},
    {552, "R_AARCH64_TLSLE_LDST8_TPREL_LO12", Unsupported, 4},
    {553, "R_AARCH64_TLSLE_LDST8_TPREL_LO12_NC", Unsupported, 4},
    {554, "R_AARCH64_TLSLE_LDST16_TPREL_LO12", Unsupported, 4},
    {555, "R_AARCH64_TLSLE_LDST16_TPREL_LO12_NC", Unsupported, 4},
    {556, "R_AARCH64_TLSLE_LDST32_TPREL_LO12", Unsupported, 4},
    {557, "R_AARCH64_TLSLE_LDST32_TPREL_LO12_NC", Unsupported, 4},
    {558, "R_AARCH64_TLSLE_LDST64_TPREL_LO12", Unsupported, 4},
    {559, "R_AARCH64_TLSLE_LDST64_TPREL_LO12_NC", Unsupported, 4},
    // TLS descriptors: resolved statically to {resolver, TP offset}.
    {560, "R_AARCH64_TLSDESC_LD_PREL19", Unsupported, 4},
    {561, "R_AARCH64_TLSDESC_ADR_PREL21", Unsupported, 4},
    {562, "R_AARCH64_TLSDESC_ADR_PAGE21", RequestTLSDescEntryAndTransformToPage21, 4},
    {563, "R_AARCH64_TLSDESC_LD64_LO12", RequestTLSDescEntryAndTransformToPageOffset12, 4},
    {564, "R_AARCH64_TLSDESC_ADD_LO12", RequestTLSDescEntryAndTransformToPageOffset12, 4},
    {565, "R_AARCH64_TLSDESC_OFF_G1", Unsupported, 4},
    {566, "R_AARCH64_TLSDESC_OFF_G0_NC", Unsupported, 4},
    {567, "R_AARCH64_TLSDESC_LDR", NoEdge, 0},
    {568, "R_AARCH64_TLSDESC_ADD", NoEdge, 0},
    {569, "R_AARCH64_TLSDESC_CALL", NoEdge, 0}, // marks the blr for relaxation; nothing to write
    {570, "R_AARCH64_TLSLE_LDST128_TPREL_LO12", Unsupported, 4},
    {571, "R_AARCH64_TLSLE_LDST128_TPREL_LO12_NC", Unsupported, 4},
    {572, "R_AARCH64_TLSLD_LDST128_DTPREL_LO12", Unsupported, 4},
    {573, "R_AARCH64_TLSLD_LDST128_DTPREL_LO12_NC", Unsupported, 4},
    // Dynamic relocations never appear in relocatable objects.
    {1024, "R_AARCH64_COPY", Unsupported, 0},
    {1025, "R_AARCH64_GLOB_DAT", Unsupported, 0},
    {1026, "R_AARCH64_JUMP_SLOT", Unsupported, 0},
    {1027, "R_AARCH64_RELATIVE", Unsupported, 0},
    {1028, "R_AARCH64_TLS_DTPMOD64", Unsupported, 0},
    {1029, "R_AARCH64_TLS_DTPREL64", Unsupported, 0},
    {1030, "R_AARCH64_TLS_TPREL64", Unsupported, 0},
    {1031, "R_AARCH64_TLSDESC", Unsupported, 0},
    {1032, "R_AARCH64_IRELATIVE", Unsupported, 0},
};

const ElfRelocTable Table(RelocTypes);

const char *relocName(uint32_t Type) { return Table.name(Type); }

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Relocs) {
  return GB.addTableEdges(Table, Target, Relocs);
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace

extern const TargetInfo ElfAArch64Target = {
    ElfFormat, AArch64Arch, elf::EM_AARCH64, "aarch64-unknown-linux-gnu", createGraph, aarch64::addDefaultPasses,
    relocName, 1032 /* R_AARCH64_IRELATIVE */};
// Big-endian objects (ELFDATA2MSB): the same relocations; the reader and the
// fixups follow the file's and the graph's byte order.
extern const TargetInfo ElfAArch64BETarget = {
    ElfFormat, AArch64BEArch, elf::EM_AARCH64, "aarch64_be-unknown-linux-gnu", createGraph, aarch64::addDefaultPasses,
    relocName};

} // namespace linklab
