#include "link/linker.h"
#include "link/fixup.h"

#include "link/eh_frame.h"
#include "link/tls_blocks.h"
#include "target/target.h"

#include <algorithm>
#include <utility>

namespace linklab {

Error markAllSymbolsLive(LinkGraph &G) {
  G.forEachDefinedSymbol([](Symbol &S) { S.live = true; });
  return Error::success();
}

void prune(LinkGraph &G) {
  std::vector<Symbol *> Worklist;
  G.forEachDefinedSymbol([&](Symbol &S) {
    if (S.live)
      Worklist.push_back(&S);
  });
  // Visited blocks, by ordinal: one byte each instead of a hash-set node.
  std::vector<uint8_t> Visited(G.blockOrdinalBound());
  while (!Worklist.empty()) {
    Symbol *S = Worklist.back();
    Worklist.pop_back();
    Block &B = S->block();
    if (std::exchange(Visited[B.ordinal], 1))
      continue;
    for (Edge &E : B.edges) {
      Symbol &T = *E.target;
      if (!T.live && T.isDefined())
        Worklist.push_back(&T);
      T.live = true;
    }
  }
  // Bulk filtering keeps pruning linear in the graph size.
  for (auto &Sec : G.sections()) {
    std::erase_if(Sec->symbols, [](Symbol *S) { return !S->live; });
    std::erase_if(Sec->blocks, [&](Block *B) { return !Visited[B->ordinal]; });
  }
  G.removeExternalSymbolsIf([](Symbol *S) { return !S->live; });
}

constexpr int64_t MaxFixupAddend = int64_t(1) << 62;

Error applyFixups(LinkGraph &G) {
  if (G.triple().arch == Arch::Unknown)
    return makeError(formatv("graph %s: no backend for triple %s", G.name().c_str(), G.triple().str.c_str()));
  const ArchRow &A = archRow(G.triple().arch);
  useGraphTLSLayout(G);
  // NoAlloc sections (debug info) are fixed up too, in working memory, as
  // JITLink does: a debugger plugin reads them, and an edge no fixup can
  // apply there fails the link.
  for (auto &Sec : G.sections()) {
    for (Block *B : Sec->blocks) {
      if (B->edges.empty())
        continue;
      if (B->isZeroFill())
        return makeError(formatv("graph %s: section %s: zero-fill block at %s has fixups", G.name().c_str(),
                                 std::string(Sec->name).c_str(), hex(B->address).c_str()));
      B->mutableContent(G);
      for (const Edge &E : B->edges) {
        if (!E.isRelocation())
          continue;
        // Fixups compute S + A - P in 64-bit signed arithmetic, exact for any
        // address below 2^62 while |A| stays below it too; only a malformed
        // object names a wilder addend.
        if (E.addend > MaxFixupAddend || E.addend < -MaxFixupAddend)
          return makeError(describeEdge(G, *B, E) + ": addend " + signedHex(E.addend) +
                           " is beyond the +-2^62 a fixup can compute with");
        if (Error Err = A.applyFixup(G, *B, E))
          return Err;
      }
    }
  }
  return Error::success();
}

namespace {

static Error runPasses(std::vector<LinkGraphPass> &Passes, LinkGraph &G) {
  for (auto &P : Passes)
    if (Error Err = P(G))
      return Err;
  return Error::success();
}

class Linker : public std::enable_shared_from_this<Linker> {
public:
  Linker(std::unique_ptr<LinkGraph> G, std::unique_ptr<LinkContext> Ctx) : G(std::move(G)), Ctx(std::move(Ctx)) {}

  void phase1() {
    if (Error Err = configure())
      return fail(std::move(Err));
    if (Error Err = runPasses(Passes.prePrunePasses, *G))
      return fail(std::move(Err));
    prune(*G);
    if (Error Err = runPasses(Passes.postPrunePasses, *G))
      return fail(std::move(Err));
    auto Self = shared_from_this();
    Ctx->memoryManager().allocate(Ctx->dylib(), *G,
                                  [Self](Expected<std::unique_ptr<InFlightAlloc>> A) { Self->phase2(std::move(A)); });
  }

private:
  Error configure() {
    const TargetInfo *T = findTarget(G->triple());
    if (!T)
      return makeError(formatv("%s: unsupported target triple '%s'", G->name().c_str(), G->triple().str.c_str()));
    if (Ctx->shouldAddDefaultTargetPasses(G->triple())) {
      // .eh_frame into CIE/FDE records first, in the target's edge kinds.
      Passes.prePrunePasses.push_back([Kinds = T->arch.ehFrame](LinkGraph &G) { return splitEHFrame(G, Kinds); });
      if (T->addDefaultPasses)
        T->addDefaultPasses(*G, Passes);
    }
    if (LinkGraphPass MarkLive = Ctx->markLivePass(G->triple()))
      Passes.prePrunePasses.push_back(std::move(MarkLive));
    else
      Passes.prePrunePasses.push_back(markAllSymbolsLive);
    return Ctx->modifyPassConfig(*G, Passes);
  }

  void phase2(Expected<std::unique_ptr<InFlightAlloc>> A) {
    if (!A)
      return fail(A.takeError());
    Alloc = std::move(*A);
    if (Error Err = runPasses(Passes.postAllocationPasses, *G))
      return fail(std::move(Err));
    if (Error Err = Ctx->notifyResolved(*G))
      return fail(std::move(Err));
    std::vector<LookupRequest> Names;
    Names.reserve(G->externalSymbols().size());
    for (Symbol *S : G->externalSymbols())
      Names.push_back({S->name, S->weaklyReferenced});
    auto Self = shared_from_this();
    Ctx->lookup(std::move(Names), [Self](Expected<LookupResult> R) { Self->phase3(std::move(R)); });
  }

  void phase3(Expected<LookupResult> R) {
    if (!R)
      return fail(R.takeError());
    const auto &Externals = G->externalSymbols();
    if (R->size() != Externals.size())
      return fail(
          makeError(formatv("%s: lookup answered %zu of %zu symbols", G->name().c_str(), R->size(), Externals.size())));
    for (size_t I = 0; I < Externals.size(); ++I)
      Externals[I]->base->address = (*R)[I];
    if (Error Err = runPasses(Passes.preFixupPasses, *G))
      return fail(std::move(Err));
    if (Error Err = applyFixups(*G))
      return fail(std::move(Err));
    if (Error Err = runPasses(Passes.postFixupPasses, *G))
      return fail(std::move(Err));
    auto Self = shared_from_this();
    Alloc->finalize([Self](Expected<FinalizedAlloc> F) { Self->phase4(std::move(F)); });
  }

  void phase4(Expected<FinalizedAlloc> F) {
    if (!F)
      return fail(F.takeError(), /*Abandon=*/false);
    Alloc.reset();
    Ctx->notifyFinalized(std::move(G), *F);
  }

  void fail(Error Err, bool Abandon = true) {
    if (Alloc && Abandon) {
      auto Self = shared_from_this();
      auto *A = Alloc.get();
      auto Shared = std::make_shared<Error>(std::move(Err));
      A->abandon([Self, Shared](Error AbandonErr) {
        Self->Alloc.reset();
        if (AbandonErr) // report both: the link's failure first
          *Shared = makeError(Shared->message() + "; then freeing its memory failed: " + AbandonErr.message());
        Self->Ctx->notifyFailed(std::move(*Shared));
      });
      return;
    }
    Ctx->notifyFailed(std::move(Err));
  }

  std::unique_ptr<LinkGraph> G;
  std::unique_ptr<LinkContext> Ctx;
  PassConfiguration Passes;
  std::unique_ptr<InFlightAlloc> Alloc;
};

} // namespace

void link(std::unique_ptr<LinkGraph> G, std::unique_ptr<LinkContext> Ctx) {
  std::make_shared<Linker>(std::move(G), std::move(Ctx))->phase1();
}

} // namespace linklab
