// ELF x86-64 relocations -> x86-64 edge kinds (psABI, "Relocation Types").
#include "arch/x86_64.h"
#include "elf/elf_graph_builder.h"

namespace linklab {
namespace {

using namespace x86_64;

struct RelocMapping {
  uint32_t type;
  const char *name;
  EdgeKind kind;
  unsigned width;
  int64_t addendAdjust; // BranchPCRel32 folds the -4 into the kind
};

// Absent types (GOTPLT64, TLS descriptors, dynamic-only types) are errors.
const RelocMapping Mappings[] = {
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
};

// Types a relocatable object may carry that linklab does not link, named in
// errors (dynamic-only types and TLS descriptors).
const struct {
  uint32_t type;
  const char *name;
} Unsupported[] = {
    {3, "R_X86_64_GOT32"},          {5, "R_X86_64_COPY"},          {6, "R_X86_64_GLOB_DAT"},
    {7, "R_X86_64_JUMP_SLOT"},      {8, "R_X86_64_RELATIVE"},      {16, "R_X86_64_DTPMOD64"},
    {18, "R_X86_64_TPOFF64"},       {30, "R_X86_64_GOTPLT64"},     {31, "R_X86_64_PLTOFF64"},
    {34, "R_X86_64_GOTPC32_TLSDESC"}, {35, "R_X86_64_TLSDESC_CALL"}, {36, "R_X86_64_TLSDESC"},
    {37, "R_X86_64_IRELATIVE"},
};

const RelocTypeIndex<RelocMapping> MappingsIndex(Mappings);

const RelocMapping *findMapping(uint32_t Type) { return MappingsIndex.find(Type); }

const char *relocName(uint32_t Type) {
  if (const RelocMapping *M = findMapping(Type))
    return M->name;
  for (auto &U : Unsupported)
    if (U.type == Type)
      return U.name;
  return nullptr;
}

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Relocs) {
  for (const ElfRela &R : Relocs) {
    if (R.type == 0) // R_X86_64_NONE
      continue;
    const RelocMapping *M = findMapping(R.type);
    if (!M)
      return GB.relocError(Target, R, relocName(R.type), "unsupported relocation type");
    if (Error E = GB.checkFixupInBlock(Target, R, M->width, M->name))
      return E;
    auto Sym = GB.relocTarget(Target, R);
    if (!Sym)
      return Sym.takeError();
    // Addends are modular (a wrapped value is what the field ends up holding).
    Target.addEdge(M->kind, uint32_t(R.offset), **Sym, int64_t(uint64_t(R.addend) + uint64_t(M->addendAdjust)));
  }
  return Error::success();
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace

extern const TargetInfo ElfX86_64Target = {
    ElfFormat, X86_64Arch, elf::EM_X86_64, "x86_64-unknown-linux-gnu",
    createGraph, x86_64::addDefaultPasses, relocName, 37 /* R_X86_64_IRELATIVE */};

} // namespace linklab
