// STT_GNU_IFUNC symbols of an ELF graph, lowered as a static linker lowers
// them: every reference reaches one PLT-style stub jumping through a pointer
// slot, which an IRELATIVE record fills at run time (platform/ifunc.h
// gathers the records into the process's table).
#pragma once

#include "graph/link_graph.h"

#include <span>

namespace linklab {

struct TargetInfo;

inline constexpr const char *IFuncSlotsSectionName = "$__IFUNC_GOT";
inline constexpr const char *IFuncStubsSectionName = "$__IFUNC_STUBS";

// Moves each IFUNC symbol (defined at its resolver) to a stub jumping through
// a new slot whose KeepAlive edge names the resolver. Symbols at one address
// (aliases) share a stub.
Error lowerIndirectFunctions(LinkGraph &G, const TargetInfo &T, std::span<Symbol *const> IFuncs);

} // namespace linklab
