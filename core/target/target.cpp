#include "target/target.h"

#include "link/tls_layout.h"

namespace linklab {

static const TargetInfo *const Targets[] = {&X86_64Target, &RISCV64Target, &AArch64Target};

const TargetInfo *findTarget(const Triple &TT) {
  for (const TargetInfo *T : Targets)
    if (T->arch == TT.arch)
      return T;
  return nullptr;
}

const TargetInfo *findTargetByElfMachine(uint16_t Machine) {
  for (const TargetInfo *T : Targets)
    if (T->elfMachine == Machine)
      return T;
  return nullptr;
}

static std::string symbolLabel(const Symbol &S) {
  if (S.hasName())
    return std::string(S.name);
  if (S.isDefined())
    return formatv("%s+%s", std::string(S.section().name).c_str(), hex(S.address() - S.section().address()).c_str());
  return "<anonymous>";
}

Expected<int64_t> edgeTPOffset(const LinkGraph &G, const Block &B, const Edge &E) {
  // Outside a linker run (fixups applied by hand) nothing installed a layout.
  auto Off = G.tpOffsetOf ? G.tpOffsetOf(*E.target) : graphTLSLayout(G)(*E.target);
  if (!Off)
    return makeError(describeEdge(G, B, E) + ": " + Off.takeError().message());
  return *Off + E.addend;
}

std::string describeEdge(const LinkGraph &G, const Block &B, const Edge &E) {
  Addr SecStart = B.section->address();
  return formatv("%s: %s+%s: %s against %s", G.name().c_str(), std::string(B.section->name).c_str(),
                 hex(B.address - SecStart + E.offset).c_str(), G.edgeKindName(E.kind),
                 symbolLabel(*E.target).c_str());
}

static std::string signedHex(int64_t V) { return V < 0 ? "-" + hex(uint64_t(-V)) : hex(uint64_t(V)); }

Error makeOutOfRangeError(const LinkGraph &G, const Block &B, const Edge &E, int64_t Value, int64_t Lo, int64_t Hi) {
  return makeError(formatv("%s: value %s out of range [%s, %s] (fixup at %s, target at %s)",
                           describeEdge(G, B, E).c_str(), signedHex(Value).c_str(), signedHex(Lo).c_str(),
                           signedHex(Hi).c_str(), hex(B.fixupAddress(E)).c_str(), hex(E.target->address()).c_str()));
}

Error makeAlignmentError(const LinkGraph &G, const Block &B, const Edge &E, uint64_t Value, unsigned Align) {
  return makeError(formatv("%s: value %s is not aligned to %u bytes (fixup at %s)", describeEdge(G, B, E).c_str(),
                           hex(Value).c_str(), Align, hex(B.fixupAddress(E)).c_str()));
}

} // namespace linklab
