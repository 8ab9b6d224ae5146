#include "link/tls_relax.h"
#include "link/fixup.h"

#include "target/target.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace linklab {

Error dropDynamicTLSCalls(LinkGraph &G, std::span<const DynamicTLSSequence> Sequences) {
  // Each edge kind's rows (adjacent in the table): every edge of the graph is looked up.
  std::array<std::span<const DynamicTLSSequence>, 256> ByKind{};
  for (size_t I = 0; I < Sequences.size(); ++I)
    if (ByKind[Sequences[I].kind].empty()) {
      size_t End = I;
      while (End < Sequences.size() && Sequences[End].kind == Sequences[I].kind)
        ++End;
      ByKind[Sequences[I].kind] = Sequences.subspan(I, End - I);
    }
  auto Matches = [](std::span<const char> C, uint32_t Offset, const DynamicTLSSequence &Row) {
    uint64_t Head = Row.head.size(), Call = Row.call.size();
    return Offset >= Head && uint64_t(Offset) + 4 + Call + 4 <= C.size() &&
           !std::memcmp(C.data() + Offset - Head, Row.head.data(), Head) &&
           !std::memcmp(C.data() + Offset + 4, Row.call.data(), Call);
  };
  for (auto &Sec : G.sections())
    for (Block *B : Sec->blocks) {
      std::vector<uint32_t> DeadCalls;
      for (const Edge &E : B->edges) {
        std::span<const DynamicTLSSequence> Rows = ByKind[E.kind];
        if (Rows.empty())
          continue;
        auto Row = std::find_if(Rows.begin(), Rows.end(),
                                [&](const DynamicTLSSequence &R) { return Matches(B->content(), E.offset, R); });
        if (Row == Rows.end())
          return makeError(describeEdge(G, *B, E) + ": not the " + Rows.front().name + " that can be relaxed");
        DeadCalls.push_back(uint32_t(E.offset + 4 + Row->call.size()));
      }
      if (DeadCalls.empty())
        continue;
      // Sorted for a binary search per edge: a large block has thousands.
      std::sort(DeadCalls.begin(), DeadCalls.end());
      std::erase_if(B->edges,
                    [&](const Edge &E) { return std::binary_search(DeadCalls.begin(), DeadCalls.end(), E.offset); });
    }
  return Error::success();
}

} // namespace linklab
