// ELF PowerPC 64 little-endian relocations -> ppc64 edge kinds (64-bit ELF
// V2 ABI, "Relocation Types"), the ppc64le pair's row. One row per
// relocation number: its name (dumps and errors), the edge kind (Invalid: not
// linked here) and the bytes it patches (checked against the section).
#include "arch/ppc64.h"
#include "elf/elf_graph_builder.h"

namespace linklab {

extern const ArchRow PPC64LEArch;

namespace {

using namespace ppc64;

struct RelocInfo {
  uint32_t type;
  const char *name;
  EdgeKind kind;
  uint8_t width;
};

// Relocations handled by name rather than by mapping.
enum : uint32_t { R_NONE = 0, R_TLS = 67, R_TLSGD = 107, R_TLSLD = 108, R_PCREL_OPT = 123 };

constexpr EdgeKind None = edge::Invalid;
const RelocInfo Relocs[] = {
    {0, "R_PPC64_NONE", None, 0},
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
    {14, "R_PPC64_GOT16", None, 0},
    {15, "R_PPC64_GOT16_LO", None, 0},
    {16, "R_PPC64_GOT16_HI", None, 0},
    {17, "R_PPC64_GOT16_HA", None, 0},
    {19, "R_PPC64_COPY", None, 0},
    {20, "R_PPC64_GLOB_DAT", None, 0},
    {21, "R_PPC64_JMP_SLOT", None, 0},
    {22, "R_PPC64_RELATIVE", None, 0},
    {24, "R_PPC64_UADDR32", None, 0},
    {25, "R_PPC64_UADDR16", None, 0},
    {26, "R_PPC64_REL32", Delta32, 4},
    {27, "R_PPC64_PLT32", None, 0},
    {28, "R_PPC64_PLTREL32", None, 0},
    {29, "R_PPC64_PLT16_LO", None, 0},
    {30, "R_PPC64_PLT16_HI", None, 0},
    {31, "R_PPC64_PLT16_HA", None, 0},
    {33, "R_PPC64_SECTOFF", None, 0},
    {34, "R_PPC64_SECTOFF_LO", None, 0},
    {35, "R_PPC64_SECTOFF_HI", None, 0},
    {36, "R_PPC64_SECTOFF_HA", None, 0},
    {37, "R_PPC64_ADDR30", None, 0},
    {38, "R_PPC64_ADDR64", Pointer64, 8},
    {39, "R_PPC64_ADDR16_HIGHER", Pointer16HIGHER, 2},
    {40, "R_PPC64_ADDR16_HIGHERA", Pointer16HIGHERA, 2},
    {41, "R_PPC64_ADDR16_HIGHEST", Pointer16HIGHEST, 2},
    {42, "R_PPC64_ADDR16_HIGHESTA", Pointer16HIGHESTA, 2},
    {43, "R_PPC64_UADDR64", None, 0},
    {44, "R_PPC64_REL64", Delta64, 8},
    {45, "R_PPC64_PLT64", None, 0},
    {46, "R_PPC64_PLTREL64", None, 0},
    {47, "R_PPC64_TOC16", TOCDelta16, 2},
    {48, "R_PPC64_TOC16_LO", TOCDelta16LO, 2},
    {49, "R_PPC64_TOC16_HI", TOCDelta16HI, 2},
    {50, "R_PPC64_TOC16_HA", TOCDelta16HA, 2},
    {51, "R_PPC64_TOC", TOC, 8},
    {52, "R_PPC64_PLTGOT16", None, 0},
    {53, "R_PPC64_PLTGOT16_LO", None, 0},
    {54, "R_PPC64_PLTGOT16_HI", None, 0},
    {55, "R_PPC64_PLTGOT16_HA", None, 0},
    {56, "R_PPC64_ADDR16_DS", Pointer16DS, 2},
    {57, "R_PPC64_ADDR16_LO_DS", Pointer16LODS, 2},
    {58, "R_PPC64_GOT16_DS", None, 0},
    {59, "R_PPC64_GOT16_LO_DS", None, 0},
    {60, "R_PPC64_PLT16_LO_DS", None, 0},
    {61, "R_PPC64_SECTOFF_DS", None, 0},
    {62, "R_PPC64_SECTOFF_LO_DS", None, 0},
    {63, "R_PPC64_TOC16_DS", TOCDelta16DS, 2},
    {64, "R_PPC64_TOC16_LO_DS", TOCDelta16LODS, 2},
    {65, "R_PPC64_PLTGOT16_DS", None, 0},
    {66, "R_PPC64_PLTGOT16_LO_DS", None, 0},
    // TLS: general-dynamic as JITLink links it, local- and initial-exec as a
    // static linker does; local-dynamic (TLSLD, GOT_TLSLD*, DTPREL*) not.
    {67, "R_PPC64_TLS", None, 0}, // the marker on add rt, ra, x@tls: skipped by name
    {68, "R_PPC64_DTPMOD64", None, 0},
    {69, "R_PPC64_TPREL16", TPRel16, 2},
    {70, "R_PPC64_TPREL16_LO", TPRel16LO, 2},
    {71, "R_PPC64_TPREL16_HI", TPRel16HI, 2},
    {72, "R_PPC64_TPREL16_HA", TPRel16HA, 2},
    {73, "R_PPC64_TPREL64", TPRel64, 8},
    {74, "R_PPC64_DTPREL16", None, 0},
    {75, "R_PPC64_DTPREL16_LO", None, 0},
    {76, "R_PPC64_DTPREL16_HI", None, 0},
    {77, "R_PPC64_DTPREL16_HA", None, 0},
    {78, "R_PPC64_DTPREL64", None, 0},
    {79, "R_PPC64_GOT_TLSGD16", None, 0},
    {80, "R_PPC64_GOT_TLSGD16_LO", RequestTLSDescInGOTAndTransformToTOCDelta16LO, 2},
    {81, "R_PPC64_GOT_TLSGD16_HI", None, 0},
    {82, "R_PPC64_GOT_TLSGD16_HA", RequestTLSDescInGOTAndTransformToTOCDelta16HA, 2},
    {83, "R_PPC64_GOT_TLSLD16", None, 0},
    {84, "R_PPC64_GOT_TLSLD16_LO", None, 0},
    {85, "R_PPC64_GOT_TLSLD16_HI", None, 0},
    {86, "R_PPC64_GOT_TLSLD16_HA", None, 0},
    {87, "R_PPC64_GOT_TPREL16_DS", RequestGOTTPRelAndTransformToTOCDelta16DS, 2},
    {88, "R_PPC64_GOT_TPREL16_LO_DS", RequestGOTTPRelAndTransformToTOCDelta16LODS, 2},
    {89, "R_PPC64_GOT_TPREL16_HI", RequestGOTTPRelAndTransformToTOCDelta16HI, 2},
    {90, "R_PPC64_GOT_TPREL16_HA", RequestGOTTPRelAndTransformToTOCDelta16HA, 2},
    {91, "R_PPC64_GOT_DTPREL16_DS", None, 0},
    {92, "R_PPC64_GOT_DTPREL16_LO_DS", None, 0},
    {93, "R_PPC64_GOT_DTPREL16_HI", None, 0},
    {94, "R_PPC64_GOT_DTPREL16_HA", None, 0},
    {95, "R_PPC64_TPREL16_DS", TPRel16DS, 2},
    {96, "R_PPC64_TPREL16_LO_DS", TPRel16LODS, 2},
    {97, "R_PPC64_TPREL16_HIGHER", TPRel16HIGHER, 2},
    {98, "R_PPC64_TPREL16_HIGHERA", TPRel16HIGHERA, 2},
    {99, "R_PPC64_TPREL16_HIGHEST", TPRel16HIGHEST, 2},
    {100, "R_PPC64_TPREL16_HIGHESTA", TPRel16HIGHESTA, 2},
    {101, "R_PPC64_DTPREL16_DS", None, 0},
    {102, "R_PPC64_DTPREL16_LO_DS", None, 0},
    {103, "R_PPC64_DTPREL16_HIGHER", None, 0},
    {104, "R_PPC64_DTPREL16_HIGHERA", None, 0},
    {105, "R_PPC64_DTPREL16_HIGHEST", None, 0},
    {106, "R_PPC64_DTPREL16_HIGHESTA", None, 0},
    {107, "R_PPC64_TLSGD", None, 0}, // the call's marker, skipped by name
    {108, "R_PPC64_TLSLD", None, 0}, // refused by name, as by JITLink
    {109, "R_PPC64_TOCSAVE", None, 0},
    {110, "R_PPC64_ADDR16_HIGH", Pointer16HIGH, 2},
    {111, "R_PPC64_ADDR16_HIGHA", Pointer16HIGHA, 2},
    {112, "R_PPC64_TPREL16_HIGH", TPRel16HIGH, 2},
    {113, "R_PPC64_TPREL16_HIGHA", TPRel16HIGHA, 2},
    {114, "R_PPC64_DTPREL16_HIGH", None, 0},
    {115, "R_PPC64_DTPREL16_HIGHA", None, 0},
    // Power10: calls without a TOC, prefixed PC-relative and absolute immediates.
    {116, "R_PPC64_REL24_NOTOC", RequestCallNoTOC, 4},
    {117, "R_PPC64_ADDR64_LOCAL", None, 0},
    {118, "R_PPC64_ENTRY", None, 0},
    {119, "R_PPC64_PLTSEQ", None, 0},
    {120, "R_PPC64_PLTCALL", None, 0},
    {121, "R_PPC64_PLTSEQ_NOTOC", None, 0},
    {122, "R_PPC64_PLTCALL_NOTOC", None, 0},
    {123, "R_PPC64_PCREL_OPT", None, 0}, // a hint, skipped by name
    {124, "R_PPC64_REL24_P9NOTOC", None, 0},
    {128, "R_PPC64_D34", Pointer34, 8},
    {129, "R_PPC64_D34_LO", Pointer34LO, 8},
    {130, "R_PPC64_D34_HI30", Pointer34HI30, 8},
    {131, "R_PPC64_D34_HA30", Pointer34HA30, 8},
    {132, "R_PPC64_PCREL34", Delta34, 8},
    {133, "R_PPC64_GOT_PCREL34", RequestGOTAndTransformToDelta34, 8},
    {134, "R_PPC64_PLT_PCREL34", RequestGOTAndTransformToDelta34, 8},
    {135, "R_PPC64_PLT_PCREL34_NOTOC", RequestGOTAndTransformToDelta34, 8},
    {146, "R_PPC64_TPREL34", TPRel34, 8},
    {147, "R_PPC64_DTPREL34", None, 0},
    {148, "R_PPC64_GOT_TLSGD_PCREL34", RequestTLSDescInGOTAndTransformToDelta34, 8},
    {149, "R_PPC64_GOT_TLSLD_PCREL34", None, 0},
    {150, "R_PPC64_GOT_TPREL_PCREL34", RequestGOTTPRelAndTransformToDelta34, 8},
    {151, "R_PPC64_GOT_DTPREL_PCREL34", None, 0},
    {247, "R_PPC64_JMP_IREL", None, 0},
    {248, "R_PPC64_IRELATIVE", None, 0},
    {249, "R_PPC64_REL16", Delta16, 2},
    {250, "R_PPC64_REL16_LO", Delta16LO, 2},
    {251, "R_PPC64_REL16_HI", Delta16HI, 2},
    {252, "R_PPC64_REL16_HA", Delta16HA, 2},
};

const RelocInfo *findReloc(uint32_t Type) {
  static const RelocTypeIndex<RelocInfo> Index(Relocs);
  return Index.find(Type);
}

const char *relocName(uint32_t Type) {
  const RelocInfo *R = findReloc(Type);
  return R ? R->name : nullptr;
}

// st_other of ELF symbol Index (Elf64_Sym: st_name 4 bytes, st_info, st_other),
// whose bits 5-7 place a function's local entry; 0 if out of the table
// (the reader validated the index).
uint8_t symbolOther(const ElfFile &F, uint32_t Index) {
  const ElfSection &SymTab = F.sections()[F.symtabIndex()];
  size_t At = size_t(Index) * 24 + 5;
  return At < SymTab.content.size() ? uint8_t(SymTab.content[At]) : 0;
}

Error addRelocations(ElfGraphBuilder &GB, Block &Target, const ElfRelocs &Rels) {
  for (const ElfRela &R : Rels) {
    const RelocInfo *Info = findReloc(R.type);
    const char *Name = Info ? Info->name : nullptr;
    // R_PPC64_NONE; R_PPC64_PCREL_OPT only allows folding a GOT load into
    // the access after it, so the code as assembled is correct without it;
    // R_PPC64_TLSGD marks the __tls_get_addr call, which links as any call,
    // and R_PPC64_TLS the add of r13 to an initial-exec TPREL, which stays.
    if (R.type == R_NONE || R.type == R_PCREL_OPT || R.type == R_TLSGD || R.type == R_TLS)
      continue;
    // Local-dynamic, refused with JITLink's words.
    if (R.type == R_TLSLD)
      return GB.relocError(Target, R, Name, "Local-dynamic TLS model is not supported");
    if (!Info || Info->kind == edge::Invalid)
      return GB.relocError(Target, R, Name, "unsupported relocation type");
    if (Error E = GB.checkFixupInBlock(Target, R, Info->width, Name))
      return E;
    auto Sym = GB.relocTarget(Target, R);
    if (!Sym)
      return Sym.takeError();
    int64_t Addend = R.addend;
    // A call within the graph enters past the callee's TOC set-up; one
    // leaving it is routed through a stub, which drops this addend.
    if (Info->kind == RequestCall)
      Addend += int64_t(localEntryOffset(symbolOther(GB.file(), R.sym)));
    Target.addEdge(Info->kind, uint32_t(R.offset), **Sym, Addend);
  }
  return Error::success();
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return ElfGraphBuilder::build(T, std::move(Name), std::move(Buffer), addRelocations);
}

} // namespace

extern const TargetInfo ElfPPC64LETarget = {ElfFormat,   PPC64LEArch,           21 /* EM_PPC64 */, "powerpc64le-unknown-linux-gnu",
                                            createGraph, ppc64::addDefaultPasses, relocName,
                                            248 /* R_PPC64_IRELATIVE */};

} // namespace linklab
