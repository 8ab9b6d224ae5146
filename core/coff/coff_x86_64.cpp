// COFF x86-64 relocations -> x86-64 edge kinds (PE/COFF specification,
// "x64 Processors" relocation types).
//
// Addends live in the fixup's bytes. REL32_N says N immediate bytes follow
// the 4-byte field, so the instruction ends N bytes after it. ADDR32NB is an
// image-relative address (RVA, from __ImageBase) and SECREL an offset into
// the target's section: both are lowered to Pointer32 once addresses are
// known. SECTION is the target's 1-based section number, which JITLink
// models as an absolute symbol "secidx" and we do too.
#include "arch/x86_64.h"
#include "coff/coff_graph_builder.h"
#include "link/fixup.h"

namespace linklab {
namespace {

using namespace x86_64;

enum : uint16_t {
  ABSOLUTE,
  ADDR64,
  ADDR32,
  ADDR32NB,
  REL32,
  REL32_1,
  REL32_2,
  REL32_3,
  REL32_4,
  REL32_5,
  SECTION,
  SECREL,
  SECREL7,
  TOKEN,
  SREL32,
  PAIR,
  SSPAN32,
};

const char *const RelocNames[] = {
    "IMAGE_REL_AMD64_ABSOLUTE", "IMAGE_REL_AMD64_ADDR64",  "IMAGE_REL_AMD64_ADDR32",  "IMAGE_REL_AMD64_ADDR32NB",
    "IMAGE_REL_AMD64_REL32",    "IMAGE_REL_AMD64_REL32_1", "IMAGE_REL_AMD64_REL32_2", "IMAGE_REL_AMD64_REL32_3",
    "IMAGE_REL_AMD64_REL32_4",  "IMAGE_REL_AMD64_REL32_5", "IMAGE_REL_AMD64_SECTION", "IMAGE_REL_AMD64_SECREL",
    "IMAGE_REL_AMD64_SECREL7",  "IMAGE_REL_AMD64_TOKEN",   "IMAGE_REL_AMD64_SREL32",  "IMAGE_REL_AMD64_PAIR",
    "IMAGE_REL_AMD64_SSPAN32",
};

const char *relocName(uint32_t Type) { return Type < std::size(RelocNames) ? RelocNames[Type] : nullptr; }

Error addRelocation(COFFGraphBuilder &GB, Block &B, const COFFRelocation &R) {
  if (R.type == ABSOLUTE) // no-op
    return Error::success();
  unsigned Width = R.type == ADDR64 ? 8 : R.type == SECTION ? 2 : 4;
  if (R.type > SECREL)
    return GB.relocError(B, R, "unsupported relocation type");
  if (Error E = GB.checkFixup(B, R, Width))
    return E;
  auto T = GB.target(B, R);
  if (!T)
    return T.takeError();
  const char *Loc = B.content().data() + R.offset;
  int64_t Stored = Width == 8 ? int64_t(readLE<uint64_t>(Loc)) : Width == 4 ? readLE<int32_t>(Loc) : 0;
  switch (R.type) {
  case ADDR64: B.addEdge(Pointer64, R.offset, **T, Stored); break;
  case ADDR32: B.addEdge(Pointer32, R.offset, **T, int64_t(uint32_t(Stored))); break;
  case ADDR32NB: GB.imageBase(), B.addEdge(Pointer32NB, R.offset, **T, Stored); break;
  case SECREL: B.addEdge(SectionOffset32, R.offset, **T, Stored); break;
  case SECTION: {
    if (!(*T)->isDefined())
      return GB.relocError(B, R, "the target is not defined in a section of this object");
    Symbol &Index = GB.graph().addAbsoluteSymbol("secidx", GB.sectionNumber((*T)->block()), 2, Linkage::Strong,
                                                 Scope::Local, false);
    B.addEdge(Pointer16, R.offset, Index, 0);
    break;
  }
  default: B.addEdge(PCRel32, R.offset, **T, Stored - (R.type - REL32)); break; // REL32, REL32_1..5
  }
  return Error::success();
}

// Keeps each .pdata record (a function's unwind entry) alive with the
// function and unwind data it describes.
Error keepPDataAlive(LinkGraph &G) {
  Section *PData = G.findSectionByName(".pdata");
  if (!PData)
    return Error::success();
  for (Block *B : PData->blocks) {
    Symbol &Rec = G.addAnonymousSymbol(*B, 0, 0, false, false);
    std::vector<Block *> Targets;
    for (const Edge &E : B->edges)
      if (E.target->isDefined() && std::find(Targets.begin(), Targets.end(), &E.target->block()) == Targets.end())
        Targets.push_back(&E.target->block());
    for (Block *T : Targets)
      T->addEdge(edge::KeepAlive, 0, Rec, 0);
  }
  return Error::success();
}

// Addresses are known: image-relative and section-relative fields become
// plain 32-bit values.
Error lowerRelativeEdges(LinkGraph &G) {
  Addr ImageBase = 0;
  for (Symbol *S : G.externalSymbols())
    if (S->name == "__ImageBase")
      ImageBase = S->address();
  for (auto &Sec : G.sections())
    for (Block *B : Sec->blocks)
      for (Edge &E : B->edges) {
        if (E.kind == Pointer32NB)
          E.addend -= int64_t(ImageBase);
        else if (E.kind == SectionOffset32 && E.target->isDefined())
          E.addend -= int64_t(E.target->section().address());
        else if (E.kind == SectionOffset32)
          return makeError(describeEdge(G, *B, E) + ": a section-relative offset needs a target defined here");
        else
          continue;
        E.kind = Pointer32;
      }
  return Error::success();
}

void addPasses(LinkGraph &G, PassConfiguration &Config) {
  Config.prePrunePasses.push_back(keepPDataAlive);
  Config.preFixupPasses.push_back(lowerRelativeEdges);
}

Expected<std::unique_ptr<LinkGraph>> createGraph(const TargetInfo &T, std::string Name, GraphBuffer Buffer) {
  return COFFGraphBuilder::build(T, "x86_64---coff", std::move(Name), std::move(Buffer), addRelocation);
}

} // namespace

extern const TargetInfo COFFX86_64Target = {COFFFormat,  X86_64Arch, 0x8664,   "x86_64-pc-windows-msvc",
                                            createGraph, addPasses,  relocName};

} // namespace linklab
