// The generic link algorithm (JITLink's JITLinkerBase), independent of
// object format and architecture:
//
//   phase 1: pre-prune passes (mark-live last) -> prune -> post-prune passes
//            -> allocate (async)
//   phase 2: post-allocation passes -> notify resolved -> look up externals (async)
//   phase 3: apply lookup results -> pre-fixup passes -> copy content and
//            apply fixups -> post-fixup passes -> finalize (async)
//   phase 4: notify finalized
//
// Each asynchronous step continues in a callback that may run before the call
// returns (native) or later (browser event loop); the linker keeps itself
// alive through those callbacks. A failure at any point abandons the
// allocation and reports to the context exactly once.
#pragma once

#include "graph/link_graph.h"
#include "link/memory_manager.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace linklab {

using LinkGraphPass = std::function<Error(LinkGraph &)>;

struct PassConfiguration {
  // Addresses not yet assigned; dead-stripping still to come. The context's
  // mark-live pass is appended last.
  std::vector<LinkGraphPass> prePrunePasses;
  // Dead blocks and symbols are gone; addresses not assigned. GOT/PLT/stub
  // builders run here.
  std::vector<LinkGraphPass> postPrunePasses;
  // Blocks have addresses and working memory; externals not yet resolved.
  std::vector<LinkGraphPass> postAllocationPasses;
  // Every symbol has its final address; content not yet fixed up (relaxation).
  std::vector<LinkGraphPass> preFixupPasses;
  // Content fixed up in working memory, not yet in the executor.
  std::vector<LinkGraphPass> postFixupPasses;
};

struct LookupRequest {
  std::string_view name;
  bool weaklyReferenced; // may resolve to "not found" (address 0)
};
// Addresses in request order; 0 for a missing weakly referenced symbol.
using LookupResult = std::vector<Addr>;
using OnLookupFn = std::function<void(Expected<LookupResult>)>;

class LinkContext {
public:
  virtual ~LinkContext() = default;
  virtual MemoryManager &memoryManager() = 0;
  virtual const void *dylib() const { return nullptr; }
  virtual void notifyFailed(Error Err) = 0;
  // Resolves the graph's external symbols; calls OnResult exactly once.
  virtual void lookup(std::vector<LookupRequest> Names, OnLookupFn OnResult) = 0;
  // Every defined symbol now has its final address.
  virtual Error notifyResolved(LinkGraph &G) = 0;
  // The graph's memory is in the executor, protected. The graph is the
  // context's now: freed when it drops it.
  virtual void notifyFinalized(std::unique_ptr<LinkGraph> G, FinalizedAlloc Alloc) = 0;
  virtual bool shouldAddDefaultTargetPasses(const Triple &TT) const { return true; }
  // An empty pass means "mark every defined symbol live".
  virtual LinkGraphPass markLivePass(const Triple &TT) const { return {}; }
  virtual Error modifyPassConfig(LinkGraph &G, PassConfiguration &Config) { return Error::success(); }
};

// Links G in the context's executor. Results arrive through Ctx.
void link(std::unique_ptr<LinkGraph> G, std::unique_ptr<LinkContext> Ctx);

Error markAllSymbolsLive(LinkGraph &G);
// Dead-strips blocks and symbols not reachable from live symbols.
void prune(LinkGraph &G);
// Applies every relocation edge of every allocated block, via the target.
Error applyFixups(LinkGraph &G);

} // namespace linklab
