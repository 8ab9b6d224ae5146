#include "platform/tls_layout.h"

#include <algorithm>

namespace linklab {

TLSLayout::TLSLayout(TLSVariant V) : Variant(V), Low(tlsImageStart(V)), High(tlsImageStart(V)) {}

void TLSLayout::modifyPassConfig(const MaterializationInfo &, LinkGraph &G, PassConfiguration &Config) {
  G.tpOffsetOf = [this](const Symbol &S) { return tpOffset(S.address()); };
  // Blocks have addresses after allocation; TLS fixups (ours or another
  // graph's, which must wait for our symbols to resolve) all come later.
  Config.postAllocationPasses.push_back([this](LinkGraph &G) { return place(G); });
  Config.postFixupPasses.push_back([this](LinkGraph &G) {
    capture(G);
    return Error::success();
  });
}

Error TLSLayout::place(LinkGraph &G) {
  if (Sealed)
    for (auto &S : G.sections())
      if (isTLSSection(S->name) && !S->blocks.empty())
        return makeError(formatv("%s: has thread-local data but was linked after the program's TLS image was "
                                 "installed (an archive member pulled in late)",
                                 G.name().c_str()));
  return placeTLSBlocks(G, Variant, Low, High, Alignment, [this](Block &B, int64_t Off) {
    Blocks[B.address] = {B.size, Off};
  });
}

void TLSLayout::capture(LinkGraph &G) {
  for (auto &S : G.sections())
    if (isTLSSection(S->name) && !isTBssSection(S->name))
      for (Block *B : S->blocks)
        if (auto It = Blocks.find(B->address); It != Blocks.end() && !B->isZeroFill())
          Init[It->second.tpOffset].assign(B->content().begin(), B->content().end());
}

Expected<int64_t> TLSLayout::tpOffset(Addr A) const {
  auto It = Blocks.upper_bound(A);
  if (It != Blocks.begin()) {
    --It;
    // One past the end is a valid address for an empty block or an end symbol.
    if (A - It->first <= It->second.size)
      return It->second.tpOffset + int64_t(A - It->first);
  }
  return makeError(formatv("TLS reference to address %s, which is in no linked .tdata/.tbss block", hex(A).c_str()));
}

Expected<TLSImage> TLSLayout::image() const {
  TLSImage I;
  int64_t Begin = Variant == TLSVariant::BlockBelowTP ? Low : tlsImageStart(Variant);
  int64_t End = Variant == TLSVariant::BlockBelowTP ? 0 : High;
  I.alignment = Alignment;
  if (Variant == TLSVariant::BlockBelowTP) {
    // TP is aligned, so the block must span a multiple of the alignment.
    Begin = -int64_t(alignTo(uint64_t(-Begin), Alignment));
  } else if (Begin && uint64_t(Alignment) > uint64_t(Begin)) {
    // The executor (and glibc) put the block at TP + alignTo(TCB, alignment);
    // offsets handed out from TP + TCB would be wrong.
    return makeError(formatv("a TLS block needs %llu-byte alignment; %s TLS images are laid out from TP+%lld and "
                             "support at most %lld",
                             (unsigned long long)Alignment, Variant == TLSVariant::BlockAfterTCB16 ? "AArch64" : "Arm",
                             (long long)Begin, (long long)Begin));
  }
  I.memSize = uint64_t(End - Begin);
  I.bytes.assign(I.memSize, 0);
  for (auto &[Off, Bytes] : Init)
    std::copy(Bytes.begin(), Bytes.end(), I.bytes.begin() + (Off - Begin));
  return I;
}

} // namespace linklab
