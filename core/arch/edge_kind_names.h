// The per-kind facts of an architecture, generated from its X(Name, Width,
// Doc) edge-kind list so they cannot drift from the enum. Use inside the
// arch's namespace:
//   LINKLAB_DEFINE_EDGE_KIND_FACTS(LINKLAB_AARCH64_EDGE_KINDS)
// defines `const char *edgeKindName(EdgeKind)` and `unsigned
// edgeKindWidth(EdgeKind)`. Kinds outside the list (the generic edge::*
// ones) give null and 0; the caller names those.
#pragma once

// Unformatted: clang-format 14 joins the next #define into a short case label.
// clang-format off
#define LINKLAB_EDGE_KIND_NAME_CASE(N, W, D) case N: return #N;
#define LINKLAB_EDGE_KIND_WIDTH_CASE(N, W, D) case N: return W;
// clang-format on

#define LINKLAB_DEFINE_EDGE_KIND_FACTS(KINDS)                                                                          \
  const char *edgeKindName(EdgeKind K) {                                                                               \
    switch (K) { KINDS(LINKLAB_EDGE_KIND_NAME_CASE) }                                                                  \
    return nullptr;                                                                                                    \
  }                                                                                                                    \
  unsigned edgeKindWidth(EdgeKind K) {                                                                                 \
    switch (K) { KINDS(LINKLAB_EDGE_KIND_WIDTH_CASE) }                                                                 \
    return 0;                                                                                                          \
  }
