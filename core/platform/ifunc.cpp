#include "platform/ifunc.h"

namespace linklab {

namespace {
// [0]: RELA, [1]: REL.
const char *const TableStart[2] = {"__rela_iplt_start", "__rel_iplt_start"};
const char *const TableEnd[2] = {"__rela_iplt_end", "__rel_iplt_end"};
} // namespace

void IRelativeTable::modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) {
  if (!G.findSectionByName(IFuncSlotsSectionName))
    return;
  // Slots and resolvers have addresses once allocated; pruning has dropped
  // the unused ones.
  Config.postAllocationPasses.push_back([this](LinkGraph &G) -> Error {
    Section *Slots = G.findSectionByName(IFuncSlotsSectionName);
    for (Block *B : Slots ? Slots->blocks : std::vector<Block *>{})
      for (const Edge &E : B->edges) // the one edge naming the resolver
        Records.push_back({B->address, E.target->address()});
    return Error::success();
  });
}

bool IRelativeTable::claims(std::string_view Name) const {
  for (int Rel = 0; Rel < 2; ++Rel)
    if (Name == TableStart[Rel] || Name == TableEnd[Rel])
      return true;
  return false;
}

Error IRelativeTable::tryToGenerate(Session &S, const std::vector<std::string> &Names) {
  if (LaidOut)
    return Error::success();
  const Triple &TT = S.triple();
  const TargetInfo *T = findTarget(TT);
  if (!T || !T->irelativeType)
    return makeError(formatv("%s: IRELATIVE records (__rela_iplt_start) are not supported", fullTriple(TT).c_str()));
  LaidOut = true;
  Covered = Records.size();
  // ElfN_Rela {r_offset, r_info = ELFN_R_INFO(0, type), r_addend}, or
  // ElfN_Rel without the addend: the addresses are final, so the table
  // needs no edges.
  const int Rel = T->irelativeRel ? 1 : 0;
  const unsigned Word = T->arch.pointerSize;
  std::vector<char> Bytes;
  auto Put = [&](uint64_t V) {
    for (unsigned I = 0; I < Word; ++I)
      Bytes.push_back(char(V >> (8 * I)));
  };
  for (size_t I = 0; I < Covered; ++I) {
    Put(Records[I].slot), Put(T->irelativeType);
    if (!Rel)
      Put(Records[I].resolver);
  }
  auto G = std::make_unique<LinkGraph>("<IRELATIVE records>", TT, T->arch.edgeKindName);
  Section &Sec = G->createSection(Rel ? ".rel.iplt" : ".rela.iplt", MemProt::Read);
  size_t Size = Bytes.size();
  Bytes.resize(std::max<size_t>(Size, Word)); // a block needs a byte to have an address
  Block &B = G->createContentBlock(Sec, G->allocateContent(Bytes), 0, Word, 0);
  G->addDefinedSymbol(B, 0, TableStart[Rel], 0, Linkage::Strong, Scope::Default, false, true);
  G->addDefinedSymbol(B, Size, TableEnd[Rel], 0, Linkage::Strong, Scope::Default, false, true);
  auto Key = S.addGraph(std::move(G), ObjectKind::Runtime);
  return Key ? Error::success() : Key.takeError();
}

std::vector<IRelative> IRelativeTable::takeUncovered() {
  size_t From = std::max(Covered, Taken);
  Taken = Records.size();
  return {Records.begin() + std::min(From, Records.size()), Records.end()};
}

} // namespace linklab
