// Static links relax general- and local-dynamic TLS to local-exec: the
// fixup rewrites the code, and the sequence's call to __tls_get_addr
// vanishes, so its edge goes before pruning and the external is never
// looked up. Each arch describes its sequences as rows of this table; a
// kind may have several rows (the call through the PLT, or, compiled with
// -fno-plt, through the GOT), adjacent in the table.
#pragma once

#include "graph/link_graph.h"
#include "support/error.h"

#include <cstdint>
#include <span>

namespace linklab {

struct DynamicTLSSequence {
  EdgeKind kind;                 // the relaxable edge, on the sequence's 4-byte TLS operand
  std::span<const uint8_t> head; // the bytes just before that operand
  std::span<const uint8_t> call; // the bytes after it, up to the call's 4-byte target
  const char *name;              // "general-dynamic TLS code sequence (...)", for errors
};

// Checks every relaxable edge's code against its kind's rows and drops the
// edges of the calls those sequences make; an error names the kind's first row.
Error dropDynamicTLSCalls(LinkGraph &G, std::span<const DynamicTLSSequence> Sequences);

} // namespace linklab
