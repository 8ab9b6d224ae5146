#include "link/tls_blocks.h"

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace linklab {

int64_t tlsImageStart(TLSVariant V) {
  return V == TLSVariant::BlockAfterTCB16 ? 16 : V == TLSVariant::BlockAfterTCB8 ? 8 : 0;
}
bool isTBssSection(std::string_view N) { return N == ".tbss" || N.starts_with(".tbss."); }
bool isTLSSection(std::string_view N) { return isTBssSection(N) || N == ".tdata" || N.starts_with(".tdata."); }

Error placeTLSBlocks(const LinkGraph &G, TLSVariant V, int64_t &Low, int64_t &High, uint64_t &Alignment,
                     const std::function<void(Block &, int64_t)> &Place) {
  for (bool Bss : {false, true})
    for (auto &S : G.sections()) {
      if (!isTLSSection(S->name) || isTBssSection(S->name) != Bss)
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
      TLSVariant V = archRow(G.triple().arch).tlsVariant;
      int64_t Low = tlsImageStart(V), High = tlsImageStart(V);
      uint64_t Alignment = 1;
      if (Error E = placeTLSBlocks(G, V, Low, High, Alignment, [&](Block &B, int64_t Off) { L->Offsets[&B] = Off; }))
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

} // namespace linklab
