// MachO unwind information: __LD,__compact_unwind records kept with their
// functions, and the __TEXT,__unwind_info table built from them.
//
// JITLink splits __compact_unwind into 32-byte records (function, length,
// encoding, personality, LSDA) and makes each function keep its record alive.
// llvm-jitlink then registers unwind info with libunwind the way a MachO
// platform does: it writes a mach header for the graph (the base that
// __unwind_info offsets count from) and an __unwind_info section (a header,
// one index page and regular second-level pages). linklab builds the same
// sections, so its graphs and layouts equal llvm-jitlink's.
#pragma once

#include "graph/link_graph.h"
#include "link/linker.h"

namespace linklab {

// Pre-prune: one block per __compact_unwind record, with a Keep-Alive edge
// from the record's function to it.
Error splitCompactUnwind(LinkGraph &G);
// The __unwind_info passes: before pruning, records tied to their functions
// (or to the FDE their encoding defers to); after pruning, the header and a
// reserved __unwind_info block; after allocation, its contents.
void addUnwindInfoPasses(PassConfiguration &Config);

} // namespace linklab
