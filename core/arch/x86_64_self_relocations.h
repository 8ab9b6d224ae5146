// llvm-jitlink's -add-self-relocations on x86-64: a function that forms a
// pointer to itself with `leaq f(%rip)` needs no relocation in its object
// (the assembler resolved it), so nothing would move the pointer if the
// function's bytes were placed elsewhere than the object laid them out.
// The pass walks every callable symbol's instructions and gives each such
// LEA a Delta32 edge to the function, as LLVM's
// addFunctionPointerRelocationsToCurrentSymbol does.
#pragma once

#include "graph/link_graph.h"

#include <cstdint>
#include <optional>
#include <span>

namespace linklab::x86_64 {

// An instruction's length and, when its memory operand is RIP-relative, where
// its 32-bit displacement starts; lea64 is LEA with a 64-bit destination
// (LLVM's LEA64r). Covers the one-, two- and three-byte opcode maps and the
// VEX and EVEX encodings in 64-bit mode; nullopt for bytes that are no
// instruction there (or run past the span).
struct InstructionShape {
  unsigned length = 0;
  std::optional<unsigned> ripDisplacement;
  bool lea64 = false;
};
std::optional<InstructionShape> instructionShape(std::span<const uint8_t> Bytes);

// The pass: run it after pruning, while blocks still have the addresses the
// object gave them (the LEAs' displacements were computed against those).
Error addSelfRelocations(LinkGraph &G);

} // namespace linklab::x86_64
