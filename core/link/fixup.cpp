#include "link/fixup.h"

#include "link/tls_blocks.h"

namespace linklab {

static std::string symbolLabel(const Symbol &S) {
  if (S.hasName())
    return std::string(S.name);
  if (S.isDefined())
    return formatv("%s+%s", std::string(S.section().name).c_str(), hex(S.address() - S.section().address()).c_str());
  return "<anonymous>";
}

std::string describeEdge(const LinkGraph &G, const Block &B, const Edge &E) {
  Addr SecStart = B.section->address();
  return formatv("%s: %s+%s: %s against %s", G.name().c_str(), std::string(B.section->name).c_str(),
                 hex(B.address - SecStart + E.offset).c_str(), G.edgeKindName(E.kind), symbolLabel(*E.target).c_str());
}

// llvm-jitlink's wording (JITLink's makeTargetOutOfRangeError), which
// LLVM's tests match, including its quirk of printing the target's address
// after "fixup at address"; the block is named by its best-scoped, then
// strongest, named symbol at offset 0.
static std::string llvmOutOfRangeText(const LinkGraph &G, const Block &B, const Edge &E) {
  const Symbol &T = *E.target;
  std::string Out = formatv("In graph %s, section %s: relocation target %s (%s", G.name().c_str(),
                            std::string(B.section->name).c_str(), hex(T.address() + uint64_t(E.addend)).c_str(),
                            T.hasName() ? std::string(T.name).c_str() : "<anonymous symbol>");
  if (E.addend)
    Out += formatv(":%s + %s", hex(T.address()).c_str(), hex(uint64_t(E.addend)).c_str());
  const Symbol *Best = nullptr;
  for (const Symbol *S : B.section->symbols)
    if (&S->block() == &B && S->hasName() && S->offset == 0 &&
        (!Best || S->scope < Best->scope || S->linkage < Best->linkage))
      Best = S;
  Out += formatv(") is out of range of %s fixup at address %s (%s%s + %s)", G.edgeKindName(E.kind),
                 hex(T.address()).c_str(), Best ? (std::string(Best->name) + ", ").c_str() : "<anonymous block> @ ",
                 hex(B.address).c_str(), hex(E.offset).c_str());
  return Out;
}

Error makeOutOfRangeError(const LinkGraph &G, const Block &B, const Edge &E, int64_t Value, int64_t Lo, int64_t Hi) {
  return makeError(formatv("%s; %s: value %s out of range [%s, %s] (fixup at %s, target at %s)",
                           llvmOutOfRangeText(G, B, E).c_str(), describeEdge(G, B, E).c_str(), signedHex(Value).c_str(),
                           signedHex(Lo).c_str(), signedHex(Hi).c_str(), hex(B.fixupAddress(E)).c_str(),
                           hex(E.target->address()).c_str()));
}

Error makeAlignmentError(const LinkGraph &G, const Block &B, const Edge &E, uint64_t Value, unsigned Align) {
  return makeError(formatv("%s: value %s is not aligned to %u bytes (fixup at %s)", describeEdge(G, B, E).c_str(),
                           hex(Value).c_str(), Align, hex(B.fixupAddress(E)).c_str()));
}

Expected<int64_t> edgeTPOffset(const LinkGraph &G, const Block &B, const Edge &E) {
  // Outside a linker run (fixups applied by hand) nothing installed a layout.
  auto Off = G.tpOffsetOf ? G.tpOffsetOf(*E.target) : graphTLSLayout(G)(*E.target);
  if (!Off)
    return makeError(describeEdge(G, B, E) + ": " + Off.takeError().message());
  return *Off + E.addend;
}

} // namespace linklab
