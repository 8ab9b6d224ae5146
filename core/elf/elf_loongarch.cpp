// ELF LoongArch relocations -> LoongArch edge kinds (LoongArch ELF psABI,
// "Relocations"), the LA64 pair's row. One row per relocation number: its
// name (dumps and errors), the edge kind (Invalid: not linked here) and the
// bytes it patches (checked against the section). LA32 and LA64 objects
// share the table (the LA32-only pcaddu12i forms are numbered past LA64's).
#include "arch/loongarch.h"
#include "elf/elf_graph_builder.h"

namespace linklab {

extern const ArchRow LoongArch64Arch, LoongArch32Arch;

namespace {

using namespace loongarch;

// Pseudo-relocations handled by name rather than by mapping.
enum : uint32_t { R_NONE = 0, R_RELAX = 100, R_ALIGN = 102 };

constexpr EdgeKind Unsupported = UnsupportedReloc;
const ElfRelocType RelocTypes[] = {
    {0, "R_LARCH_NONE", NoEdgeReloc, 0},
    {1, "R_LARCH_32", Pointer32, 4},
    {2, "R_LARCH_64", Pointer64, 8},
    // Dynamic relocations: never in relocatable objects.
    {3, "R_LARCH_RELATIVE", Unsupported, 0},
    {4, "R_LARCH_COPY", Unsupported, 0},
    {5, "R_LARCH_JUMP_SLOT", Unsupported, 0},
    {6, "R_LARCH_TLS_DTPMOD32", Unsupported, 0},
    {7, "R_LARCH_TLS_DTPMOD64", Unsupported, 0},
    {8, "R_LARCH_TLS_DTPREL32", Unsupported, 0},
    {9, "R_LARCH_TLS_DTPREL64", Unsupported, 0},
    {10, "R_LARCH_TLS_TPREL32", Unsupported, 0},
    {11, "R_LARCH_TLS_TPREL64", Unsupported, 0},
    {12, "R_LARCH_IRELATIVE", Unsupported, 0},
    {13, "R_LARCH_TLS_DESC32", Unsupported, 0},
    {14, "R_LARCH_TLS_DESC64", Unsupported, 0},
    // The stack-machine relocations of old (pre-2.0 psABI) toolchains.
    {20, "R_LARCH_MARK_LA", Unsupported, 0},
    {21, "R_LARCH_MARK_PCREL", Unsupported, 0},
    {22, "R_LARCH_SOP_PUSH_PCREL", Unsupported, 0},
    {23, "R_LARCH_SOP_PUSH_ABSOLUTE", Unsupported, 0},
    {24, "R_LARCH_SOP_PUSH_DUP", Unsupported, 0},
    {25, "R_LARCH_SOP_PUSH_GPREL", Unsupported, 0},
    {26, "R_LARCH_SOP_PUSH_TLS_TPREL", Unsupported, 0},
    {27, "R_LARCH_SOP_PUSH_TLS_GOT", Unsupported, 0},
    {28, "R_LARCH_SOP_PUSH_TLS_GD", Unsupported, 0},
    {29, "R_LARCH_SOP_PUSH_PLT_PCREL", Unsupported, 0},
    {30, "R_LARCH_SOP_ASSERT", Unsupported, 0},
    {31, "R_LARCH_SOP_NOT", Unsupported, 0},
    {32, "R_LARCH_SOP_SUB", Unsupported, 0},
    {33, "R_LARCH_SOP_SL", Unsupported, 0},
    {34, "R_LARCH_SOP_SR", Unsupported, 0},
    {35, "R_LARCH_SOP_ADD", Unsupported, 0},
    {36, "R_LARCH_SOP_AND", Unsupported, 0},
    {37, "R_LARCH_SOP_IF_ELSE", Unsupported, 0},
    {38, "R_LARCH_SOP_POP_32_S_10_5", Unsupported, 0},
    {39, "R_LARCH_SOP_POP_32_U_10_12", Unsupported, 0},
    {40, "R_LARCH_SOP_POP_32_S_10_12", Unsupported, 0},
    {41, "R_LARCH_SOP_POP_32_S_10_16", Unsupported, 0},
    {42, "R_LARCH_SOP_POP_32_S_10_16_S2", Unsupported, 0},
    {43, "R_LARCH_SOP_POP_32_S_5_20", Unsupported, 0},
    {44, "R_LARCH_SOP_POP_32_S_0_5_10_16_S2", Unsupported, 0},
    {45, "R_LARCH_SOP_POP_32_S_0_10_10_16_S2", Unsupported, 0},
    {46, "R_LARCH_SOP_POP_32_U", Unsupported, 0},
    {47, "R_LARCH_ADD8", Add8, 1},
    {48, "R_LARCH_ADD16", Add16, 2},
    {49, "R_LARCH_ADD24", Unsupported, 0},
    {50, "R_LARCH_ADD32", Add32, 4},
    {51, "R_LARCH_ADD64", Add64, 8},
    {52, "R_LARCH_SUB8", Sub8, 1},
    {53, "R_LARCH_SUB16", Sub16, 2},
    {54, "R_LARCH_SUB24", Unsupported, 0},
    {55, "R_LARCH_SUB32", Sub32, 4},
    {56, "R_LARCH_SUB64", Sub64, 8},
    {57, "R_LARCH_GNU_VTINHERIT", Unsupported, 0},
    {58, "R_LARCH_GNU_VTENTRY", Unsupported, 0},
    {64, "R_LARCH_B16", Branch16PCRel, 4},
    {65, "R_LARCH_B21", Branch21PCRel, 4},
    {66, "R_LARCH_B26", Branch26PCRel, 4},
    // Absolute addresses built in pieces (-mcmodel=extreme, non-PIC):
    // JITLink does not link them either.
    {67, "R_LARCH_ABS_HI20", Unsupported, 0},
    {68, "R_LARCH_ABS_LO12", Unsupported, 0},
    {69, "R_LARCH_ABS64_LO20", Unsupported, 0},
    {70, "R_LARCH_ABS64_HI12", Unsupported, 0},
    {71, "R_LARCH_PCALA_HI20", Page20, 4},
    {72, "R_LARCH_PCALA_LO12", PageOffset12, 4},
    {73, "R_LARCH_PCALA64_LO20", Unsupported, 0},
    {74, "R_LARCH_PCALA64_HI12", Unsupported, 0},
    {75, "R_LARCH_GOT_PC_HI20", RequestGOTAndTransformToPage20, 4},
    {76, "R_LARCH_GOT_PC_LO12", RequestGOTAndTransformToPageOffset12, 4},
    {77, "R_LARCH_GOT64_PC_LO20", Unsupported, 0},
    {78, "R_LARCH_GOT64_PC_HI12", Unsupported, 0},
    {79, "R_LARCH_GOT_HI20", Unsupported, 0},
    {80, "R_LARCH_GOT_LO12", Unsupported, 0},
    {81, "R_LARCH_GOT64_LO20", Unsupported, 0},
    {82, "R_LARCH_GOT64_HI12", Unsupported, 0},
    // TLS needs a LoongArch TLS layout in an executor: none runs LA64.
    {83, "R_LARCH_TLS_LE_HI20", Unsupported, 0},
    {84, "R_LARCH_TLS_LE_LO12", Unsupported, 0},
    {85, "R_LARCH_TLS_LE64_LO20", Unsupported, 0},
    {86, "R_LARCH_TLS_LE64_HI12", Unsupported, 0},
    {87, "R_LARCH_TLS_IE_PC_HI20", Unsupported, 0},
    {88, "R_LARCH_TLS_IE_PC_LO12", Unsupported, 0},
    {89, "R_LARCH_TLS_IE64_PC_LO20", Unsupported, 0},
    {90, "R_LARCH_TLS_IE64_PC_HI12", Unsupported, 0},
    {91, "R_LARCH_TLS_IE_HI20", Unsupported, 0},
    {92, "R_LARCH_TLS_IE_LO12", Unsupported, 0},
    {93, "R_LARCH_TLS_IE64_LO20", Unsupported, 0},
    {94, "R_LARCH_TLS_IE64_HI12", Unsupported, 0},
    {95, "R_LARCH_TLS_LD_PC_HI20", Unsupported, 0},
    {96, "R_LARCH_TLS_LD_HI20", Unsupported, 0},
    {97, "R_LARCH_TLS_GD_PC_HI20", Unsupported, 0},
    {98, "R_LARCH_TLS_GD_HI20", Unsupported, 0},
    {99, "R_LARCH_32_PCREL", Delta32, 4},
    {100, "R_LARCH_RELAX", Unsupported, 0},
    {101, "R_LARCH_DELETE", Unsupported, 0},
    {102, "R_LARCH_ALIGN", AlignRelaxable, 0}, // width: the padding
    {103, "R_LARCH_PCREL20_S2", Unsupported, 0},
    {104, "R_LARCH_CFA", Unsupported, 0},
    {105, "R_LARCH_ADD6", Add6, 1},
    {106, "R_LARCH_SUB6", Sub6, 1},
    {107, "R_LARCH_ADD_ULEB128", AddUleb128, 1},
    {108, "R_LARCH_SUB_ULEB128", SubUleb128, 1},
    // Not linked by JITLink (llvm-jitlink-22 refuses it); the eh_frame kind.
    {109, "R_LARCH_64_PCREL", Delta64, 8},
    {110, "R_LARCH_CALL36", Call36PCRel, 8},
    {111, "R_LARCH_TLS_DESC_PC_HI20", Unsupported, 0},
    {112, "R_LARCH_TLS_DESC_PC_LO12", Unsupported, 0},
    {113, "R_LARCH_TLS_DESC64_PC_LO20", Unsupported, 0},
    {114, "R_LARCH_TLS_DESC64_PC_HI12", Unsupported, 0},
    {115, "R_LARCH_TLS_DESC_HI20", Unsupported, 0},
    {116, "R_LARCH_TLS_DESC_LO12", Unsupported, 0},
    {117, "R_LARCH_TLS_DESC64_LO20", Unsupported, 0},
    {118, "R_LARCH_TLS_DESC64_HI12", Unsupported, 0},
    {119, "R_LARCH_TLS_DESC_LD", Unsupported, 0},
    {120, "R_LARCH_TLS_DESC_CALL", Unsupported, 0},
    {121, "R_LARCH_TLS_LE_HI20_R", Unsupported, 0},
    {122, "R_LARCH_TLS_LE_ADD_R", Unsupported, 0},
    {123, "R_LARCH_TLS_LE_LO12_R", Unsupported, 0},
    {124, "R_LARCH_TLS_LD_PCREL20_S2", Unsupported, 0},
    {125, "R_LARCH_TLS_GD_PCREL20_S2", Unsupported, 0},
    {126, "R_LARCH_TLS_DESC_PCREL20_S2", Unsupported, 0},
    {127, "R_LARCH_CALL30", Call30PCRel, 8},
    {128, "R_LARCH_PCADD_HI20", PCAddHi20, 4},
    {129, "R_LARCH_PCADD_LO12", PCAddLo12, 4},
    {130, "R_LARCH_GOT_PCADD_HI20", RequestGOTAndTransformToPCAddHi20, 4},
    // Names the pcaddu12i, whose edge was turned to the GOT entry.
    {131, "R_LARCH_GOT_PCADD_LO12", PCAddLo12, 4},
};

const ElfRelocTable Table(RelocTypes);

const char *relocName(uint32_t Type) { return Table.name(Type); }

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Rels) {
  bool HasPrevious = false; // for R_LARCH_RELAX
  return ElfGraphBuilder::forEachReloc(Rels.size(), [&](size_t I) -> Error {
    const ElfRela &R = Rels[I];
    if (R.type == R_NONE)
      return Error::success();
    if (R.type == R_RELAX) {
      // Marks the previous relocation as relaxable; nothing is relaxed
      // here (as in JITLink), so the code stays as assembled.
      if (!HasPrevious)
        return GB.relocError(Target, R, Table.name(R.type), "no preceding relocation to relax");
      return Error::success();
    }
    auto Info = GB.linkedType(Table, Target, R);
    if (!Info)
      return Info.takeError();
    const char *Name = (*Info)->name;
    auto Sym = GB.relocTarget(Target, R);
    if (!Sym)
      return Sym.takeError();
    unsigned Width = (*Info)->width;
    if (R.type == R_ALIGN) {
      int64_t Pad = alignPadding(Edge{*Sym, R.addend, 0, AlignRelaxable});
      if (Pad < 0)
        return GB.relocError(Target, R, Name,
                             formatv("malformed addend %s (padding bytes, or log2(alignment) | max << 8 with a "
                                     "symbol)",
                                     hex(uint64_t(R.addend)).c_str()));
      Width = unsigned(Pad);
    }
    if (Error E = GB.checkFixupInBlock(Target, R, Width, Name))
      return E;
    Target.addEdge((*Info)->kind, uint32_t(R.offset), **Sym, R.addend);
    HasPrevious = true;
    return Error::success();
  });
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace

extern const TargetInfo ElfLoongArch32Target = {ElfFormat,
                                                LoongArch32Arch,
                                                258 /* EM_LOONGARCH */,
                                                "loongarch32-unknown-linux-gnu",
                                                createGraph,
                                                loongarch::addDefaultPasses,
                                                relocName,
                                                12 /* R_LARCH_IRELATIVE */};
extern const TargetInfo ElfLoongArch64Target = {ElfFormat,
                                                LoongArch64Arch,
                                                258 /* EM_LOONGARCH */,
                                                "loongarch64-unknown-linux-gnu",
                                                createGraph,
                                                loongarch::addDefaultPasses,
                                                relocName,
                                                12 /* R_LARCH_IRELATIVE */};

} // namespace linklab
