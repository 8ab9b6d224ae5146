#pragma once

#include "graph/link_graph.h"
#include "target/target.h"

namespace linklab {

// Splits .eh_frame into one block per CIE/FDE record and adds the edges the
// records imply: FDE -> CIE (NegDelta32 on the CIE pointer) and function ->
// FDE (Keep-Alive), so an FDE lives exactly as long as the function it
// describes. Appends the null terminator record unwinders expect. A
// pre-prune pass; a no-op for graphs without .eh_frame.
Error splitEHFrame(LinkGraph &G, const EhFrameKinds &Kinds);

} // namespace linklab
