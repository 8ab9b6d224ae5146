// ELF i386 relocations -> i386 edge kinds (System V i386 psABI, "Relocation
// Types"). SHT_REL only: each addend is read from the bytes it relocates.
#include "arch/i386.h"
#include "elf/elf_graph_builder.h"

namespace linklab {

extern const ArchRow I386Arch;

namespace {

using namespace i386;

constexpr EdgeKind Unsupported = UnsupportedReloc;

const ElfRelocType RelocTypes[] = {
    {0, "R_386_NONE", NoEdgeReloc, 0},
    {1, "R_386_32", Pointer32, 4},
    {2, "R_386_PC32", PCRel32, 4},
    {3, "R_386_GOT32", RequestGOTAndTransformToDelta32FromGOT, 4},
    {4, "R_386_PLT32", BranchPCRel32, 4},
    {5, "R_386_COPY", Unsupported, 0},
    {6, "R_386_GLOB_DAT", Unsupported, 0},
    {7, "R_386_JUMP_SLOT", Unsupported, 0},
    {8, "R_386_RELATIVE", Unsupported, 0},
    {9, "R_386_GOTOFF", Delta32FromGOT, 4},
    {10, "R_386_GOTPC", Delta32, 4},
    {14, "R_386_TLS_TPOFF", Unsupported, 0},
    {15, "R_386_TLS_IE", RequestTPOffGOTAndTransformToPointer32, 4},
    {16, "R_386_TLS_GOTIE", RequestTPOffGOTAndTransformToDelta32FromGOT, 4},
    {17, "R_386_TLS_LE", TPOff32, 4},
    // General- and local-dynamic TLS, relaxed to local-exec (i386.h).
    {18, "R_386_TLS_GD", TLSGDToLocalExec, 4},
    {19, "R_386_TLS_LDM", TLSLDMToLocalExec, 4},
    {20, "R_386_16", Pointer16, 2},
    {21, "R_386_PC16", PCRel16, 2},
    {22, "R_386_8", Unsupported, 0},
    {23, "R_386_PC8", Unsupported, 0},
    // The symbol's offset in the module's TLS block: relaxed with its
    // TLS_LDM to local-exec, so its offset from the thread pointer.
    {32, "R_386_TLS_LDO_32", TPOff32, 4},
    {34, "R_386_TLS_LE_32", NegTPOff32, 4},
    {35, "R_386_TLS_DTPMOD32", Unsupported, 0},
    {36, "R_386_TLS_DTPOFF32", Unsupported, 0},
    {37, "R_386_TLS_TPOFF32", Unsupported, 0},
    {38, "R_386_SIZE32", Size32, 4},
    {39, "R_386_TLS_GOTDESC", Unsupported, 0},
    {40, "R_386_TLS_DESC_CALL", Unsupported, 0},
    {41, "R_386_TLS_DESC", Unsupported, 0},
    {42, "R_386_IRELATIVE", Unsupported, 0},
    // A GOT32 the linker may relax; linked as GOT32 (the load stays).
    {43, "R_386_GOT32X", RequestGOTAndTransformToDelta32FromGOT, 4},
};

const ElfRelocTable Table(RelocTypes);

const char *relocName(uint32_t Type) { return Table.name(Type); }

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Relocs) {
  return GB.addTableEdges(Table, Target, Relocs);
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations, /*AcceptsRel=*/true);
}

} // namespace

extern const TargetInfo ElfI386Target = {ElfFormat,
                                         I386Arch,
                                         3 /* EM_386 */,
                                         "i386-unknown-linux-gnu",
                                         createGraph,
                                         i386::addDefaultPasses,
                                         relocName,
                                         42 /* R_386_IRELATIVE */,
                                         /*irelativeRel=*/true};

} // namespace linklab
