// ELF RISC-V relocations -> RISC-V edge kinds (RISC-V ELF psABI,
// "Relocations"), for RV32 and RV64 alike; the RV64 pair's row. One row per relocation number: its name (for dumps and
// errors), the edge kind it becomes (Invalid: not supported by this JIT
// linker) and the bytes it patches (checked against the section).
#include "elf/elf_riscv.h"

#include "arch/riscv64.h"

namespace linklab::elf_riscv {
using namespace riscv64;

namespace {

// Pseudo-relocations handled by name rather than by mapping.
enum : uint32_t { R_NONE = 0, R_ALIGN = 43, R_RELAX = 51, R_SET_ULEB128 = 60, R_SUB_ULEB128 = 61 };

constexpr EdgeKind Unsupported = UnsupportedReloc;
const ElfRelocType RelocTypes[] = {
    {0, "R_RISCV_NONE", NoEdgeReloc, 0},
    {1, "R_RISCV_32", R_RISCV_32, 4},
    {2, "R_RISCV_64", R_RISCV_64, 8},
    // Dynamic relocations: never in relocatable objects.
    {3, "R_RISCV_RELATIVE", Unsupported, 0},
    {4, "R_RISCV_COPY", Unsupported, 0},
    {5, "R_RISCV_JUMP_SLOT", Unsupported, 0},
    {6, "R_RISCV_TLS_DTPMOD32", Unsupported, 0},
    {7, "R_RISCV_TLS_DTPMOD64", Unsupported, 0},
    {8, "R_RISCV_TLS_DTPREL32", R_RISCV_TLS_DTPREL32, 4},
    {9, "R_RISCV_TLS_DTPREL64", R_RISCV_TLS_DTPREL64, 8},
    {10, "R_RISCV_TLS_TPREL32", Unsupported, 0},
    {11, "R_RISCV_TLS_TPREL64", Unsupported, 0},
    {12, "R_RISCV_TLSDESC", Unsupported, 0},
    {16, "R_RISCV_BRANCH", R_RISCV_BRANCH, 4},
    {17, "R_RISCV_JAL", R_RISCV_JAL, 4},
    {18, "R_RISCV_CALL", R_RISCV_CALL, 8},
    {19, "R_RISCV_CALL_PLT", R_RISCV_CALL_PLT, 8},
    {20, "R_RISCV_GOT_HI20", R_RISCV_GOT_HI20, 4},
    {21, "R_RISCV_TLS_GOT_HI20", R_RISCV_TLS_GOT_HI20, 4},
    {22, "R_RISCV_TLS_GD_HI20", R_RISCV_TLS_GD_HI20, 4},
    {23, "R_RISCV_PCREL_HI20", R_RISCV_PCREL_HI20, 4},
    {24, "R_RISCV_PCREL_LO12_I", R_RISCV_PCREL_LO12_I, 4},
    {25, "R_RISCV_PCREL_LO12_S", R_RISCV_PCREL_LO12_S, 4},
    {26, "R_RISCV_HI20", R_RISCV_HI20, 4},
    {27, "R_RISCV_LO12_I", R_RISCV_LO12_I, 4},
    {28, "R_RISCV_LO12_S", R_RISCV_LO12_S, 4},
    {29, "R_RISCV_TPREL_HI20", R_RISCV_TPREL_HI20, 4},
    {30, "R_RISCV_TPREL_LO12_I", R_RISCV_TPREL_LO12_I, 4},
    {31, "R_RISCV_TPREL_LO12_S", R_RISCV_TPREL_LO12_S, 4},
    {32, "R_RISCV_TPREL_ADD", R_RISCV_TPREL_ADD, 4},
    {33, "R_RISCV_ADD8", R_RISCV_ADD8, 1},
    {34, "R_RISCV_ADD16", R_RISCV_ADD16, 2},
    {35, "R_RISCV_ADD32", R_RISCV_ADD32, 4},
    {36, "R_RISCV_ADD64", R_RISCV_ADD64, 8},
    {37, "R_RISCV_SUB8", R_RISCV_SUB8, 1},
    {38, "R_RISCV_SUB16", R_RISCV_SUB16, 2},
    {39, "R_RISCV_SUB32", R_RISCV_SUB32, 4},
    {40, "R_RISCV_SUB64", R_RISCV_SUB64, 8},
    {41, "R_RISCV_GOT32_PCREL", Unsupported, 0},
    {43, "R_RISCV_ALIGN", AlignRelaxable, 0}, // width: the addend
    {44, "R_RISCV_RVC_BRANCH", R_RISCV_RVC_BRANCH, 2},
    {45, "R_RISCV_RVC_JUMP", R_RISCV_RVC_JUMP, 2},
    {46, "R_RISCV_RVC_LUI", Unsupported, 0},
    {47, "R_RISCV_GPREL_I", Unsupported, 0},
    {48, "R_RISCV_GPREL_S", Unsupported, 0},
    {49, "R_RISCV_TPREL_I", Unsupported, 0},
    {50, "R_RISCV_TPREL_S", Unsupported, 0},
    {51, "R_RISCV_RELAX", Unsupported, 0},
    {52, "R_RISCV_SUB6", R_RISCV_SUB6, 1},
    {53, "R_RISCV_SET6", R_RISCV_SET6, 1},
    {54, "R_RISCV_SET8", R_RISCV_SET8, 1},
    {55, "R_RISCV_SET16", R_RISCV_SET16, 2},
    {56, "R_RISCV_SET32", R_RISCV_SET32, 4},
    {57, "R_RISCV_32_PCREL", R_RISCV_32_PCREL, 4},
    {58, "R_RISCV_IRELATIVE", Unsupported, 0},
    {59, "R_RISCV_PLT32", Unsupported, 0},
    {60, "R_RISCV_SET_ULEB128", R_RISCV_SET_ULEB128, 1},
    {61, "R_RISCV_SUB_ULEB128", R_RISCV_SUB_ULEB128, 1},
    // TLS descriptors need a resolver function in the executor: not yet.
    {62, "R_RISCV_TLSDESC_HI20", Unsupported, 0},
    {63, "R_RISCV_TLSDESC_LOAD_LO12", Unsupported, 0},
    {64, "R_RISCV_TLSDESC_ADD_LO12", Unsupported, 0},
    {65, "R_RISCV_TLSDESC_CALL", Unsupported, 0},
    {191, "R_RISCV_VENDOR", Unsupported, 0},
};

} // namespace

const ElfRelocTable Table(RelocTypes);

const char *relocName(uint32_t Type) { return Table.name(Type); }

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Rels) {
  // Relaxation may emit compressed instructions only where the object allows them.
  if (GB.file().flags() & EF_RISCV_RVC)
    GB.graph().targetFeatures |= EF_RISCV_RVC;
  // The edge the previous relocation added, for R_RISCV_RELAX (an index:
  // adding edges may move them).
  size_t Prev = SIZE_MAX;
  return ElfGraphBuilder::forEachReloc(Rels.size(), [&](size_t I) -> Error {
    const ElfRela &R = Rels[I];
    if (R.type == R_NONE) {
      Prev = SIZE_MAX;
      return Error::success();
    }
    if (R.type == R_RELAX) {
      // Marks the previous relocation, at the same offset, as relaxable. Only
      // calls are relaxed; other hints are dropped (the code stays valid).
      if (Prev == SIZE_MAX || Target.edges[Prev].offset != R.offset)
        return GB.relocError(Target, R, Table.name(R.type), "no preceding relocation at the same offset to relax");
      Edge &P = Target.edges[Prev];
      if (P.kind == R_RISCV_CALL || P.kind == R_RISCV_CALL_PLT)
        P.kind = CallRelaxable;
      Prev = SIZE_MAX;
      return Error::success();
    }
    auto Info = GB.linkedType(Table, Target, R);
    if (!Info)
      return Info.takeError();
    const char *Name = (*Info)->name;
    unsigned Width = (*Info)->width;
    if (R.type == R_ALIGN) {
      if (R.addend < 0 || R.addend % 2)
        return GB.relocError(
            Target, R, Name,
            formatv("padding size %lld is not a non-negative even number of bytes", (long long)R.addend));
      Width = unsigned(R.addend);
    }
    if (R.type == R_SET_ULEB128 &&
        (I + 1 == Rels.size() || Rels[I + 1].type != R_SUB_ULEB128 || Rels[I + 1].offset != R.offset))
      return GB.relocError(Target, R, Name, "not followed by R_RISCV_SUB_ULEB128 at the same offset");
    if (R.type == R_SUB_ULEB128 && (I == 0 || Rels[I - 1].type != R_SET_ULEB128 || Rels[I - 1].offset != R.offset))
      return GB.relocError(Target, R, Name, "not preceded by R_RISCV_SET_ULEB128 at the same offset");
    if (Error E = GB.checkFixupInBlock(Target, R, Width, Name))
      return E;
    auto Sym = GB.relocTarget(Target, R);
    if (!Sym)
      return Sym.takeError();
    Target.addEdge((*Info)->kind, uint32_t(R.offset), **Sym, R.addend);
    Prev = Target.edges.size() - 1;
    return Error::success();
  });
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace linklab::elf_riscv

namespace linklab {
extern const TargetInfo ElfRISCV64Target = {ElfFormat,
                                            RISCV64Arch,
                                            elf::EM_RISCV,
                                            "riscv64-unknown-linux-gnu",
                                            elf_riscv::createGraph,
                                            riscv64::addDefaultPasses,
                                            elf_riscv::relocName,
                                            58 /* R_RISCV_IRELATIVE */};

} // namespace linklab
