// ELF i386 relocations -> i386 edge kinds (System V i386 psABI, "Relocation
// Types"). SHT_REL only: each addend is read from the bytes it relocates.
#include "arch/i386.h"
#include "elf/elf_graph_builder.h"

namespace linklab {

extern const ArchRow I386Arch;

namespace {

using namespace i386;

struct RelocMapping {
  uint32_t type;
  const char *name;
  EdgeKind kind; // edge::Invalid: not linked here
  unsigned width;
};

const RelocMapping Mappings[] = {
    {0, "R_386_NONE", None, 0},
    {1, "R_386_32", Pointer32, 4},
    {2, "R_386_PC32", PCRel32, 4},
    {3, "R_386_GOT32", RequestGOTAndTransformToDelta32FromGOT, 4},
    {4, "R_386_PLT32", BranchPCRel32, 4},
    {5, "R_386_COPY", edge::Invalid, 0},
    {6, "R_386_GLOB_DAT", edge::Invalid, 0},
    {7, "R_386_JUMP_SLOT", edge::Invalid, 0},
    {8, "R_386_RELATIVE", edge::Invalid, 0},
    {9, "R_386_GOTOFF", Delta32FromGOT, 4},
    {10, "R_386_GOTPC", Delta32, 4},
    {14, "R_386_TLS_TPOFF", edge::Invalid, 0},
    {15, "R_386_TLS_IE", RequestTPOffGOTAndTransformToPointer32, 4},
    {16, "R_386_TLS_GOTIE", RequestTPOffGOTAndTransformToDelta32FromGOT, 4},
    {17, "R_386_TLS_LE", TPOff32, 4},
    // General- and local-dynamic TLS, relaxed to local-exec (i386.h).
    {18, "R_386_TLS_GD", TLSGDToLocalExec, 4},
    {19, "R_386_TLS_LDM", TLSLDMToLocalExec, 4},
    {20, "R_386_16", Pointer16, 2},
    {21, "R_386_PC16", PCRel16, 2},
    {22, "R_386_8", edge::Invalid, 0},
    {23, "R_386_PC8", edge::Invalid, 0},
    // The symbol's offset in the module's TLS block: relaxed with its
    // TLS_LDM to local-exec, so its offset from the thread pointer.
    {32, "R_386_TLS_LDO_32", TPOff32, 4},
    {34, "R_386_TLS_LE_32", NegTPOff32, 4},
    {35, "R_386_TLS_DTPMOD32", edge::Invalid, 0},
    {36, "R_386_TLS_DTPOFF32", edge::Invalid, 0},
    {37, "R_386_TLS_TPOFF32", edge::Invalid, 0},
    {38, "R_386_SIZE32", Size32, 4},
    {39, "R_386_TLS_GOTDESC", edge::Invalid, 0},
    {40, "R_386_TLS_DESC_CALL", edge::Invalid, 0},
    {41, "R_386_TLS_DESC", edge::Invalid, 0},
    {42, "R_386_IRELATIVE", edge::Invalid, 0},
    // A GOT32 the linker may relax; linked as GOT32 (the load stays).
    {43, "R_386_GOT32X", RequestGOTAndTransformToDelta32FromGOT, 4},
};

const RelocTypeIndex<RelocMapping> MappingsIndex(Mappings);

const RelocMapping *findMapping(uint32_t Type) { return MappingsIndex.find(Type); }

const char *relocName(uint32_t Type) {
  const RelocMapping *M = findMapping(Type);
  return M ? M->name : nullptr;
}

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Relocs) {
  for (const ElfRela &R : Relocs) {
    const RelocMapping *M = findMapping(R.type);
    if (M && M->kind == None)
      continue;
    if (!M || M->kind == edge::Invalid)
      return GB.relocError(Target, R, M ? M->name : nullptr, "unsupported relocation type");
    if (Error E = GB.checkFixupInBlock(Target, R, M->width, M->name))
      return E;
    auto Sym = GB.relocTarget(Target, R);
    if (!Sym)
      return Sym.takeError();
    Target.addEdge(M->kind, uint32_t(R.offset), **Sym, GB.addendOf(Target, R, M->width));
  }
  return Error::success();
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations, /*AcceptsRel=*/true);
}

} // namespace

extern const TargetInfo ElfI386Target = {
    ElfFormat, I386Arch, 3 /* EM_386 */, "i386-unknown-linux-gnu",
    createGraph, i386::addDefaultPasses, relocName, 42 /* R_386_IRELATIVE */, /*irelativeRel=*/true};

} // namespace linklab
