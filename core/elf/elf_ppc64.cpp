// ELF PowerPC 64 relocations -> ppc64 edge kinds (64-bit ELF V2 ABI,
// "Relocation Types"), the ppc64le and ppc64 (big-endian) pairs' rows. One row per
// relocation number: its name (dumps and errors), the edge kind (Invalid: not
// linked here) and the bytes it patches (checked against the section).
#include "arch/ppc64.h"
#include "elf/elf_graph_builder.h"

namespace linklab {

extern const ArchRow PPC64LEArch, PPC64Arch;

namespace {

using namespace ppc64;

// A relocation refused by name, with JITLink's words.
enum : uint32_t { R_TLSLD = 108 };

constexpr EdgeKind Unsupported = UnsupportedReloc;
const ElfRelocType RelocTypes[] = {
    {0, "R_PPC64_NONE", NoEdgeReloc, 0},
    {1, "R_PPC64_ADDR32", Pointer32, 4},
    {2, "R_PPC64_ADDR24", Pointer24, 4},
    {3, "R_PPC64_ADDR16", Pointer16, 2},
    {4, "R_PPC64_ADDR16_LO", Pointer16LO, 2},
    {5, "R_PPC64_ADDR16_HI", Pointer16HI, 2},
    {6, "R_PPC64_ADDR16_HA", Pointer16HA, 2},
    {7, "R_PPC64_ADDR14", Pointer14, 4},
    // The _BRTAKEN/_BRNTAKEN branch hints leave the instruction's
    // prediction bits as assembled (as lld does).
    {8, "R_PPC64_ADDR14_BRTAKEN", Pointer14, 4},
    {9, "R_PPC64_ADDR14_BRNTAKEN", Pointer14, 4},
    {10, "R_PPC64_REL24", RequestCall, 4},
    {11, "R_PPC64_REL14", Delta14, 4},
    {12, "R_PPC64_REL14_BRTAKEN", Delta14, 4},
    {13, "R_PPC64_REL14_BRNTAKEN", Delta14, 4},
    {14, "R_PPC64_GOT16", Unsupported, 0},
    {15, "R_PPC64_GOT16_LO", Unsupported, 0},
    {16, "R_PPC64_GOT16_HI", Unsupported, 0},
    {17, "R_PPC64_GOT16_HA", Unsupported, 0},
    {19, "R_PPC64_COPY", Unsupported, 0},
    {20, "R_PPC64_GLOB_DAT", Unsupported, 0},
    {21, "R_PPC64_JMP_SLOT", Unsupported, 0},
    {22, "R_PPC64_RELATIVE", Unsupported, 0},
    {24, "R_PPC64_UADDR32", Unsupported, 0},
    {25, "R_PPC64_UADDR16", Unsupported, 0},
    {26, "R_PPC64_REL32", Delta32, 4},
    {27, "R_PPC64_PLT32", Unsupported, 0},
    {28, "R_PPC64_PLTREL32", Unsupported, 0},
    {29, "R_PPC64_PLT16_LO", Unsupported, 0},
    {30, "R_PPC64_PLT16_HI", Unsupported, 0},
    {31, "R_PPC64_PLT16_HA", Unsupported, 0},
    {33, "R_PPC64_SECTOFF", Unsupported, 0},
    {34, "R_PPC64_SECTOFF_LO", Unsupported, 0},
    {35, "R_PPC64_SECTOFF_HI", Unsupported, 0},
    {36, "R_PPC64_SECTOFF_HA", Unsupported, 0},
    {37, "R_PPC64_ADDR30", Unsupported, 0},
    {38, "R_PPC64_ADDR64", Pointer64, 8},
    {39, "R_PPC64_ADDR16_HIGHER", Pointer16HIGHER, 2},
    {40, "R_PPC64_ADDR16_HIGHERA", Pointer16HIGHERA, 2},
    {41, "R_PPC64_ADDR16_HIGHEST", Pointer16HIGHEST, 2},
    {42, "R_PPC64_ADDR16_HIGHESTA", Pointer16HIGHESTA, 2},
    {43, "R_PPC64_UADDR64", Unsupported, 0},
    {44, "R_PPC64_REL64", Delta64, 8},
    {45, "R_PPC64_PLT64", Unsupported, 0},
    {46, "R_PPC64_PLTREL64", Unsupported, 0},
    {47, "R_PPC64_TOC16", TOCDelta16, 2},
    {48, "R_PPC64_TOC16_LO", TOCDelta16LO, 2},
    {49, "R_PPC64_TOC16_HI", TOCDelta16HI, 2},
    {50, "R_PPC64_TOC16_HA", TOCDelta16HA, 2},
    {51, "R_PPC64_TOC", TOC, 8},
    {52, "R_PPC64_PLTGOT16", Unsupported, 0},
    {53, "R_PPC64_PLTGOT16_LO", Unsupported, 0},
    {54, "R_PPC64_PLTGOT16_HI", Unsupported, 0},
    {55, "R_PPC64_PLTGOT16_HA", Unsupported, 0},
    {56, "R_PPC64_ADDR16_DS", Pointer16DS, 2},
    {57, "R_PPC64_ADDR16_LO_DS", Pointer16LODS, 2},
    {58, "R_PPC64_GOT16_DS", Unsupported, 0},
    {59, "R_PPC64_GOT16_LO_DS", Unsupported, 0},
    {60, "R_PPC64_PLT16_LO_DS", Unsupported, 0},
    {61, "R_PPC64_SECTOFF_DS", Unsupported, 0},
    {62, "R_PPC64_SECTOFF_LO_DS", Unsupported, 0},
    {63, "R_PPC64_TOC16_DS", TOCDelta16DS, 2},
    {64, "R_PPC64_TOC16_LO_DS", TOCDelta16LODS, 2},
    {65, "R_PPC64_PLTGOT16_DS", Unsupported, 0},
    {66, "R_PPC64_PLTGOT16_LO_DS", Unsupported, 0},
    // TLS: general-dynamic as JITLink links it, local- and initial-exec as a
    // static linker does; local-dynamic (TLSLD, GOT_TLSLD*, DTPREL*) not.
    {67, "R_PPC64_TLS", NoEdgeReloc, 0}, // the add of r13 to an initial-exec TPREL, which stays
    {68, "R_PPC64_DTPMOD64", Unsupported, 0},
    {69, "R_PPC64_TPREL16", TPRel16, 2},
    {70, "R_PPC64_TPREL16_LO", TPRel16LO, 2},
    {71, "R_PPC64_TPREL16_HI", TPRel16HI, 2},
    {72, "R_PPC64_TPREL16_HA", TPRel16HA, 2},
    {73, "R_PPC64_TPREL64", TPRel64, 8},
    {74, "R_PPC64_DTPREL16", Unsupported, 0},
    {75, "R_PPC64_DTPREL16_LO", Unsupported, 0},
    {76, "R_PPC64_DTPREL16_HI", Unsupported, 0},
    {77, "R_PPC64_DTPREL16_HA", Unsupported, 0},
    {78, "R_PPC64_DTPREL64", Unsupported, 0},
    {79, "R_PPC64_GOT_TLSGD16", Unsupported, 0},
    {80, "R_PPC64_GOT_TLSGD16_LO", RequestTLSDescInGOTAndTransformToTOCDelta16LO, 2},
    {81, "R_PPC64_GOT_TLSGD16_HI", Unsupported, 0},
    {82, "R_PPC64_GOT_TLSGD16_HA", RequestTLSDescInGOTAndTransformToTOCDelta16HA, 2},
    {83, "R_PPC64_GOT_TLSLD16", Unsupported, 0},
    {84, "R_PPC64_GOT_TLSLD16_LO", Unsupported, 0},
    {85, "R_PPC64_GOT_TLSLD16_HI", Unsupported, 0},
    {86, "R_PPC64_GOT_TLSLD16_HA", Unsupported, 0},
    {87, "R_PPC64_GOT_TPREL16_DS", RequestGOTTPRelAndTransformToTOCDelta16DS, 2},
    {88, "R_PPC64_GOT_TPREL16_LO_DS", RequestGOTTPRelAndTransformToTOCDelta16LODS, 2},
    {89, "R_PPC64_GOT_TPREL16_HI", RequestGOTTPRelAndTransformToTOCDelta16HI, 2},
    {90, "R_PPC64_GOT_TPREL16_HA", RequestGOTTPRelAndTransformToTOCDelta16HA, 2},
    {91, "R_PPC64_GOT_DTPREL16_DS", Unsupported, 0},
    {92, "R_PPC64_GOT_DTPREL16_LO_DS", Unsupported, 0},
    {93, "R_PPC64_GOT_DTPREL16_HI", Unsupported, 0},
    {94, "R_PPC64_GOT_DTPREL16_HA", Unsupported, 0},
    {95, "R_PPC64_TPREL16_DS", TPRel16DS, 2},
    {96, "R_PPC64_TPREL16_LO_DS", TPRel16LODS, 2},
    {97, "R_PPC64_TPREL16_HIGHER", TPRel16HIGHER, 2},
    {98, "R_PPC64_TPREL16_HIGHERA", TPRel16HIGHERA, 2},
    {99, "R_PPC64_TPREL16_HIGHEST", TPRel16HIGHEST, 2},
    {100, "R_PPC64_TPREL16_HIGHESTA", TPRel16HIGHESTA, 2},
    {101, "R_PPC64_DTPREL16_DS", Unsupported, 0},
    {102, "R_PPC64_DTPREL16_LO_DS", Unsupported, 0},
    {103, "R_PPC64_DTPREL16_HIGHER", Unsupported, 0},
    {104, "R_PPC64_DTPREL16_HIGHERA", Unsupported, 0},
    {105, "R_PPC64_DTPREL16_HIGHEST", Unsupported, 0},
    {106, "R_PPC64_DTPREL16_HIGHESTA", Unsupported, 0},
    {107, "R_PPC64_TLSGD", NoEdgeReloc, 0}, // marks the __tls_get_addr call, which links as any call
    {108, "R_PPC64_TLSLD", Unsupported, 0}, // refused by name, as by JITLink
    {109, "R_PPC64_TOCSAVE", Unsupported, 0},
    {110, "R_PPC64_ADDR16_HIGH", Pointer16HIGH, 2},
    {111, "R_PPC64_ADDR16_HIGHA", Pointer16HIGHA, 2},
    {112, "R_PPC64_TPREL16_HIGH", TPRel16HIGH, 2},
    {113, "R_PPC64_TPREL16_HIGHA", TPRel16HIGHA, 2},
    {114, "R_PPC64_DTPREL16_HIGH", Unsupported, 0},
    {115, "R_PPC64_DTPREL16_HIGHA", Unsupported, 0},
    // Power10: calls without a TOC, prefixed PC-relative and absolute immediates.
    {116, "R_PPC64_REL24_NOTOC", RequestCallNoTOC, 4},
    {117, "R_PPC64_ADDR64_LOCAL", Unsupported, 0},
    {118, "R_PPC64_ENTRY", Unsupported, 0},
    {119, "R_PPC64_PLTSEQ", Unsupported, 0},
    {120, "R_PPC64_PLTCALL", Unsupported, 0},
    {121, "R_PPC64_PLTSEQ_NOTOC", Unsupported, 0},
    {122, "R_PPC64_PLTCALL_NOTOC", Unsupported, 0},
    {123, "R_PPC64_PCREL_OPT", NoEdgeReloc, 0}, // allows folding a GOT load: the code is right without it
    {124, "R_PPC64_REL24_P9NOTOC", Unsupported, 0},
    {128, "R_PPC64_D34", Pointer34, 8},
    {129, "R_PPC64_D34_LO", Pointer34LO, 8},
    {130, "R_PPC64_D34_HI30", Pointer34HI30, 8},
    {131, "R_PPC64_D34_HA30", Pointer34HA30, 8},
    {132, "R_PPC64_PCREL34", Delta34, 8},
    {133, "R_PPC64_GOT_PCREL34", RequestGOTAndTransformToDelta34, 8},
    {134, "R_PPC64_PLT_PCREL34", RequestGOTAndTransformToDelta34, 8},
    {135, "R_PPC64_PLT_PCREL34_NOTOC", RequestGOTAndTransformToDelta34, 8},
    {146, "R_PPC64_TPREL34", TPRel34, 8},
    {147, "R_PPC64_DTPREL34", Unsupported, 0},
    {148, "R_PPC64_GOT_TLSGD_PCREL34", RequestTLSDescInGOTAndTransformToDelta34, 8},
    {149, "R_PPC64_GOT_TLSLD_PCREL34", Unsupported, 0},
    {150, "R_PPC64_GOT_TPREL_PCREL34", RequestGOTTPRelAndTransformToDelta34, 8},
    {151, "R_PPC64_GOT_DTPREL_PCREL34", Unsupported, 0},
    {247, "R_PPC64_JMP_IREL", Unsupported, 0},
    {248, "R_PPC64_IRELATIVE", Unsupported, 0},
    {249, "R_PPC64_REL16", Delta16, 2},
    {250, "R_PPC64_REL16_LO", Delta16LO, 2},
    {251, "R_PPC64_REL16_HI", Delta16HI, 2},
    {252, "R_PPC64_REL16_HA", Delta16HA, 2},
};

const ElfRelocTable Table(RelocTypes);

const char *relocName(uint32_t Type) { return Table.name(Type); }

// st_other of ELF symbol Index (Elf64_Sym: st_name 4 bytes, st_info, st_other),
// whose bits 5-7 place a function's local entry; 0 if out of the table
// (the reader validated the index).
uint8_t symbolOther(const ElfFile &F, uint32_t Index) {
  const ElfSection &SymTab = F.sections()[F.symtabIndex()];
  size_t At = size_t(Index) * 24 + 5;
  return At < SymTab.content.size() ? uint8_t(SymTab.content[At]) : 0;
}

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Rels) {
  return ElfGraphBuilder::forEachReloc(Rels.size(), [&](size_t I) -> Error {
    const ElfRela &R = Rels[I];
    if (R.type == R_TLSLD)
      return GB.relocError(Target, R, Table.name(R.type), "Local-dynamic TLS model is not supported");
    auto Info = GB.linkedType(Table, Target, R);
    if (!Info)
      return Info.takeError();
    if ((*Info)->kind == NoEdgeReloc)
      return Error::success();
    if (Error E = GB.checkFixupInBlock(Target, R, (*Info)->width, (*Info)->name))
      return E;
    auto Sym = GB.relocTarget(Target, R);
    if (!Sym)
      return Sym.takeError();
    int64_t Addend = R.addend;
    // A call within the graph enters past the callee's TOC set-up; one
    // leaving it is routed through a stub, which drops this addend.
    if ((*Info)->kind == RequestCall)
      Addend += int64_t(localEntryOffset(symbolOther(GB.file(), R.sym)));
    Target.addEdge((*Info)->kind, uint32_t(R.offset), **Sym, Addend);
    return Error::success();
  });
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace

extern const TargetInfo ElfPPC64LETarget = {
    ElfFormat, PPC64LEArch, 21 /* EM_PPC64 */, "powerpc64le-unknown-linux-gnu", createGraph, ppc64::addDefaultPasses,
    relocName, 248 /* R_PPC64_IRELATIVE */};
// Big-endian objects (ELFDATA2MSB): the same relocations; the fixups write
// instruction words and data in the graph's byte order.
extern const TargetInfo ElfPPC64Target = {
    ElfFormat, PPC64Arch, 21 /* EM_PPC64 */, "powerpc64-unknown-linux-gnu", createGraph, ppc64::addDefaultPasses,
    relocName, 248 /* R_PPC64_IRELATIVE */};

} // namespace linklab
