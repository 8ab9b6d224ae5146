#include "elf/elf_ifunc.h"

#include "target/target.h"

#include <map>

namespace linklab {

Error lowerIndirectFunctions(LinkGraph &G, const TargetInfo &T, std::span<Symbol *const> IFuncs) {
  const ArchRow &A = T.arch;
  if (IFuncs.empty())
    return Error::success();
  if (!A.createPointerJumpStub)
    return makeError(formatv("%s: symbol %s: STT_GNU_IFUNC is not supported on %s", G.name().c_str(),
                             std::string(IFuncs[0]->name).c_str(), A.name));
  Section *Slots = nullptr, *Stubs = nullptr;
  std::map<std::pair<Block *, uint64_t>, Symbol *> StubAt; // resolver address -> stub
  for (Symbol *F : IFuncs) {
    Symbol *&Stub = StubAt[{&F->block(), F->offset}];
    if (!Stub) {
      if (!Slots) {
        Slots = &G.createSection(IFuncSlotsSectionName, MemProt::Read | MemProt::Write);
        Stubs = &G.createSection(IFuncStubsSectionName, MemProt::Read | MemProt::Exec);
      }
      Symbol &Resolver = G.addAnonymousSymbol(F->block(), F->offset, 0, true, false);
      Resolver.targetFlags = F->targetFlags; // Arm: a Thumb resolver's slot value has bit 0 set
      static const char Zero[8] = {};
      const uint8_t Size = A.pointerSize;
      Block &Slot = G.createContentBlock(*Slots, {Zero, Size}, 0, Size, 0);
      // The record's r_addend, or for REL records the slot's first value.
      EdgeKind K = !T.irelativeRel ? EdgeKind(edge::KeepAlive) : Size == 8 ? A.ehFrame.pointer64 : A.ehFrame.pointer32;
      Slot.addEdge(K, 0, Resolver, 0);
      Stub = &A.createPointerJumpStub(G, *Stubs, G.addAnonymousSymbol(Slot, 0, Size, false, false));
    }
    G.transferDefinedSymbol(*F, Stub->block(), Stub->offset, Stub->size);
    F->callable = true;
    F->targetFlags = Stub->targetFlags;
  }
  return Error::success();
}

} // namespace linklab
