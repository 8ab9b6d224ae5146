// One definition of `const char *edgeKindName(EdgeKind)` per architecture,
// generated from that architecture's X(Name, Doc) edge-kind list, so the
// names cannot drift from the enum. Use inside the arch's namespace:
//   LINKLAB_DEFINE_EDGE_KIND_NAME(LINKLAB_AARCH64_EDGE_KINDS)
// Kinds outside the list (the generic edge::* ones) give null; the caller
// names those.
#pragma once

#define LINKLAB_EDGE_KIND_NAME_CASE(N, D)                                                                             \
  case N:                                                                                                              \
    return #N;

#define LINKLAB_DEFINE_EDGE_KIND_NAME(KINDS)                                                                           \
  const char *edgeKindName(EdgeKind K) {                                                                               \
    switch (K) { KINDS(LINKLAB_EDGE_KIND_NAME_CASE) }                                                                  \
    return nullptr;                                                                                                    \
  }
