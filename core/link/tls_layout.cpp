#include "link/tls_layout.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace linklab {

namespace {
// The first TP-relative byte of the image for variant I (after any TCB).
int64_t imageStart(TLSVariant V) {
  return V == TLSVariant::BlockAfterTCB16 ? 16 : V == TLSVariant::BlockAfterTCB8 ? 8 : 0;
}
bool isTBss(std::string_view N) { return N == ".tbss" || N.starts_with(".tbss."); }
} // namespace

bool isTLSSection(std::string_view N) { return isTBss(N) || N == ".tdata" || N.starts_with(".tdata."); }

TLSLayout::TLSLayout(TLSVariant V) : Variant(V), Low(imageStart(V)), High(imageStart(V)) {}

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

// Places G's TLS blocks (.tdata before .tbss, as in a PT_TLS segment; blocks
// in creation order) after [Low, High), calling Place(block, TP offset).
template <typename Fn>
static Error placeBlocks(const LinkGraph &G, TLSVariant V, int64_t &Low, int64_t &High, uint64_t &Alignment,
                         Fn Place) {
  for (bool Bss : {false, true})
    for (auto &S : G.sections()) {
      if (!isTLSSection(S->name) || isTBss(S->name) != Bss)
        continue;
      std::vector<Block *> Bs(S->blocks.begin(), S->blocks.end());
      std::sort(Bs.begin(), Bs.end(), [](Block *L, Block *R) { return L->ordinal < R->ordinal; });
      for (Block *B : Bs) {
        uint64_t A = B->alignment;
        if (B->alignmentOffset)
          return makeError(formatv("%s: %.*s: TLS block at %s has an alignment offset, which a TLS image cannot honour",
                                   G.name().c_str(), int(S->name.size()), S->name.data(), hex(B->address).c_str()));
        int64_t Off;
        if (V == TLSVariant::BlockBelowTP) {
          Off = -int64_t(alignTo(uint64_t(-Low) + B->size, A));
          Low = Off;
        } else {
          Off = int64_t(alignTo(uint64_t(High), A));
          High = Off + int64_t(B->size);
        }
        Alignment = std::max(Alignment, A);
        Place(*B, Off);
      }
    }
  return Error::success();
}

Error TLSLayout::place(LinkGraph &G) {
  if (Sealed)
    for (auto &S : G.sections())
      if (isTLSSection(S->name) && !S->blocks.empty())
        return makeError(formatv("%s: has thread-local data but was linked after the program's TLS image was "
                                 "installed (an archive member pulled in late)",
                                 G.name().c_str()));
  return placeBlocks(G, Variant, Low, High, Alignment,
                     [this](Block &B, int64_t Off) { Blocks[B.address] = {B.size, Off}; });
}

TLSVariant tlsVariantOf(Arch A) { return archRow(A).tlsVariant; }

std::function<Expected<int64_t>(const Symbol &)> graphTLSLayout(const LinkGraph &G) {
  // Laid out on the first lookup, once: a graph without TLS fixups never
  // pays, nor sees an error of a layout it does not use.
  struct Layout {
    bool Placed = false;
    std::string Failed; // the layout's error, repeated to every lookup
    std::unordered_map<const Block *, int64_t> Offsets;
  };
  auto L = std::make_shared<Layout>();
  return [L, &G](const Symbol &S) -> Expected<int64_t> {
    if (!L->Placed) {
      L->Placed = true;
      TLSVariant V = tlsVariantOf(G.triple().arch);
      int64_t Low = imageStart(V), High = imageStart(V);
      uint64_t Alignment = 1;
      if (Error E = placeBlocks(G, V, Low, High, Alignment, [&](Block &B, int64_t Off) { L->Offsets[&B] = Off; }))
        L->Failed = E.message();
    }
    if (!L->Failed.empty())
      return makeError(L->Failed);
    auto It = S.isDefined() ? L->Offsets.find(&S.block()) : L->Offsets.end();
    if (It == L->Offsets.end())
      return makeError(formatv("TLS symbol %s is not in a .tdata/.tbss section of this object, and no session TLS "
                               "layout spans objects (a session without one lays out each object's TLS alone)",
                               S.hasName() ? std::string(S.name).c_str() : "<anonymous>"));
    return It->second + int64_t(S.offset);
  };
}

void useGraphTLSLayout(LinkGraph &G) {
  if (!G.tpOffsetOf)
    G.tpOffsetOf = graphTLSLayout(G);
}

void TLSLayout::capture(LinkGraph &G) {
  for (auto &S : G.sections())
    if (isTLSSection(S->name) && !isTBss(S->name))
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
  int64_t Begin = Variant == TLSVariant::BlockBelowTP ? Low : imageStart(Variant);
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
