#include "link/tls_relax.h"

#include "target/target.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace linklab {

Error dropDynamicTLSCalls(LinkGraph &G, std::span<const DynamicTLSSequence> Sequences) {
  // Rows by edge kind: every edge of the graph is looked up.
  std::array<const DynamicTLSSequence *, 256> ByKind{};
  for (const DynamicTLSSequence &R : Sequences)
    ByKind[R.kind] = &R;
  for (auto &Sec : G.sections())
    for (Block *B : Sec->blocks) {
      std::vector<uint32_t> DeadCalls;
      for (const Edge &E : B->edges) {
        const DynamicTLSSequence *Row = ByKind[E.kind];
        if (!Row)
          continue;
        auto C = B->content();
        uint64_t Head = Row->head.size(), Call = Row->call.size();
        bool Fits = E.offset >= Head && uint64_t(E.offset) + 4 + Call + 4 <= C.size();
        if (!Fits || std::memcmp(C.data() + E.offset - Head, Row->head.data(), Head) ||
            std::memcmp(C.data() + E.offset + 4, Row->call.data(), Call))
          return makeError(describeEdge(G, *B, E) + ": not the " + Row->name + " that can be relaxed");
        DeadCalls.push_back(uint32_t(E.offset + 4 + Call));
      }
      if (DeadCalls.empty())
        continue;
      // Sorted for a binary search per edge: a large block has thousands.
      std::sort(DeadCalls.begin(), DeadCalls.end());
      std::erase_if(B->edges, [&](const Edge &E) {
        return std::binary_search(DeadCalls.begin(), DeadCalls.end(), E.offset);
      });
    }
  return Error::success();
}

} // namespace linklab
