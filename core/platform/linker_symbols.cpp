#include "platform/linker_symbols.h"

#include "platform/arm_exidx.h"
#include "platform/section_merge.h"
#include "target/target.h"

#include <algorithm>

namespace linklab {

namespace {
const char *const DSOHandle = "__dso_handle";
// __global_pointer$: RISC-V's gp, which crt1.o loads; a static linker
// points it 0x800 into small data for gp-relative relaxation, which linklab
// does not do, so no code reads through it: the end page will do.
// __ehdr_start, _init, _fini: the executor defines them in a run (its ELF
// header page, a no-op); a link without one (-noexec) names the same page,
// as nothing runs there.
const char *const EndNames[] = {"_end", "end", "__global_pointer$", "__ehdr_start", "_init", "_fini"};
} // namespace

bool LinkerDefinedSymbols::claims(std::string_view Name) const {
  return Name == DSOHandle || std::find(std::begin(EndNames), std::end(EndNames), Name) != std::end(EndNames);
}

Error LinkerDefinedSymbols::tryToGenerate(Session &S, const std::vector<std::string> &Names) {
  auto G = std::make_unique<LinkGraph>("<linker-defined symbols>", S.triple(), edgeKindNamesOf(S.triple()));
  bool Any = false;
  Block *EndBlock = nullptr;
  for (auto &N : Names) {
    if (N == DSOHandle) {
      Section &Data = G->createSection(".data", MemProt::Read | MemProt::Write);
      Block &B = G->createZeroFillBlock(Data, 8, 0, 8, 0);
      G->addDefinedSymbol(B, 0, DSOHandle, 8, Linkage::Strong, Scope::Default, false, true);
      Any = true;
    } else if (claims(N)) {
      // Alone in its segment (its own protection), page-aligned: the rest
      // of its page is the link's and unused.
      if (!EndBlock) {
        Section &End = G->createSection(".linklab.end", MemProt::Read);
        EndBlock = &G->createZeroFillBlock(End, 1, 0, PageSize, 0);
      }
      G->addDefinedSymbol(*EndBlock, 0, G->allocateString(N), 0, Linkage::Strong, Scope::Default, false, true);
      Any = true;
    }
  }
  if (!Any)
    return Error::success();
  auto Key = S.addGraph(std::move(G), ObjectKind::Runtime);
  return Key ? Error::success() : Key.takeError();
}

std::shared_ptr<IRelativeTable> addStaticLinkTables(Session &S, uint64_t PageSize) {
  auto IRelatives = std::make_shared<IRelativeTable>();
  S.addPlugin(IRelatives);
  S.addLinkEndGenerator(IRelatives);
  auto Sections = std::make_shared<SectionMerger>();
  S.addPlugin(Sections);
  S.addLinkEndGenerator(Sections);
  auto Exidx = std::make_shared<ArmExidxTable>();
  S.addPlugin(Exidx);
  S.addLinkEndGenerator(Exidx);
  S.addLinkEndGenerator(std::make_shared<LinkerDefinedSymbols>(PageSize));
  return IRelatives;
}

} // namespace linklab
