// A graph's thread-local blocks placed at offsets from the thread pointer,
// in its arch's ELF TLS variant: the arithmetic the session's TLS image
// (platform/tls_layout.h) and a lone graph's own layout share.
#pragma once

#include "graph/link_graph.h"
#include "target/target.h"

#include <functional>

namespace linklab {

// The first TP-relative byte of a variant's image (after any TCB).
int64_t tlsImageStart(TLSVariant V);
bool isTLSSection(std::string_view SectionName);
bool isTBssSection(std::string_view SectionName);

// Places G's TLS blocks (.tdata before .tbss, as in a PT_TLS segment; blocks
// in creation order) after [Low, High), calling Place(block, TP offset).
Error placeTLSBlocks(const LinkGraph &G, TLSVariant V, int64_t &Low, int64_t &High, uint64_t &Alignment,
                     const std::function<void(Block &, int64_t)> &Place);

// TLS fixups take their target's TP offset from LinkGraph::tpOffsetOf: the
// session's layout when one is installed (TLSLayout), else what this
// installs, run by the linker before fixups: a layout of this graph's TLS
// sections alone (a -noexec link of one object), in the variant of G's arch.
void useGraphTLSLayout(LinkGraph &G);
std::function<Expected<int64_t>(const Symbol &)> graphTLSLayout(const LinkGraph &G);

} // namespace linklab
