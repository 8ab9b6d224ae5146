// ELF x86-64 relocations -> x86-64 edge kinds (psABI, "Relocation Types").
#include "arch/x86_64.h"
#include "elf/elf_graph_builder.h"

namespace linklab {
namespace {

using namespace x86_64;

constexpr EdgeKind Unsupported = UnsupportedReloc;

// BranchPCRel32 folds PLT32's -4 into the kind (the addend adjustment).
const ElfRelocType RelocTypes[] = {
    {0, "R_X86_64_NONE", NoEdgeReloc},
    {1, "R_X86_64_64", Pointer64, 8, 0},
    {19, "R_X86_64_TLSGD", TLSGDToLocalExec, 4, 0},
    {20, "R_X86_64_TLSLD", TLSLDToLocalExec, 4, 0},
    {21, "R_X86_64_DTPOFF32", TPOff32, 4, 0}, // after LD -> LE the base is TP
    {17, "R_X86_64_DTPOFF64", TPOff64, 8, 0},
    {22, "R_X86_64_GOTTPOFF", RequestTPOffGOTAndTransformToTPOffGOTLoadRelaxable, 4, 0},
    {23, "R_X86_64_TPOFF32", TPOff32, 4, 0},
    {2, "R_X86_64_PC32", Delta32, 4, 0},
    {4, "R_X86_64_PLT32", BranchPCRel32, 4, 4},
    {9, "R_X86_64_GOTPCREL", RequestGOTAndTransformToDelta32, 4, 0}, // only GOTPCRELX may be relaxed
    {10, "R_X86_64_32", Pointer32, 4, 0},
    {11, "R_X86_64_32S", Pointer32Signed, 4, 0},
    {12, "R_X86_64_16", Pointer16, 2, 0},
    {13, "R_X86_64_PC16", Delta16, 2, 0},
    {14, "R_X86_64_8", Pointer8, 1, 0},
    {15, "R_X86_64_PC8", Delta8, 1, 0},
    {24, "R_X86_64_PC64", Delta64, 8, 0},
    {25, "R_X86_64_GOTOFF64", Delta64FromGOT, 8, 0},
    {26, "R_X86_64_GOTPC32", Delta32, 4, 0},
    {27, "R_X86_64_GOT64", RequestGOTAndTransformToDelta64FromGOT, 8, 0},
    {28, "R_X86_64_GOTPCREL64", RequestGOTAndTransformToDelta64, 8, 0},
    {29, "R_X86_64_GOTPC64", Delta64, 8, 0},
    {32, "R_X86_64_SIZE32", Size32, 4, 0},
    {33, "R_X86_64_SIZE64", Size64, 8, 0},
    {41, "R_X86_64_GOTPCRELX", RequestGOTAndTransformToPCRel32GOTLoadRelaxable, 4, 0},
    {42, "R_X86_64_REX_GOTPCRELX", RequestGOTAndTransformToPCRel32GOTLoadREXRelaxable, 4, 0},
    // Types a relocatable object may carry that linklab does not link (dynamic-only
    // types and TLS descriptors).
    {3, "R_X86_64_GOT32", Unsupported},
    {5, "R_X86_64_COPY", Unsupported},
    {6, "R_X86_64_GLOB_DAT", Unsupported},
    {7, "R_X86_64_JUMP_SLOT", Unsupported},
    {8, "R_X86_64_RELATIVE", Unsupported},
    {16, "R_X86_64_DTPMOD64", Unsupported},
    {18, "R_X86_64_TPOFF64", Unsupported},
    {30, "R_X86_64_GOTPLT64", Unsupported},
    {31, "R_X86_64_PLTOFF64", Unsupported},
    {34, "R_X86_64_GOTPC32_TLSDESC", Unsupported},
    {35, "R_X86_64_TLSDESC_CALL", Unsupported},
    {36, "R_X86_64_TLSDESC", Unsupported},
    {37, "R_X86_64_IRELATIVE", Unsupported},
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

extern const TargetInfo ElfX86_64Target = {
    ElfFormat, X86_64Arch, elf::EM_X86_64, "x86_64-unknown-linux-gnu", createGraph, x86_64::addDefaultPasses,
    relocName, 37 /* R_X86_64_IRELATIVE */};

} // namespace linklab
