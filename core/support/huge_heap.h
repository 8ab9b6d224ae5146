// A process's fresh heap backed by transparent huge pages: malloc's heap
// grows in 64 MiB steps (address space until touched), and its first 2 MiB
// page is collapsed at once, so that a heap of a few MB costs a few page
// faults rather than one per 4 KiB (5-10 us each on a VM). The linklab
// command uses it when it links a C runtime; the executor for the engine's
// tables. Does nothing when GLIBC_TUNABLES sets glibc.malloc (the user's
// choice), or where there is no sbrk heap (the wasm build).
#pragma once

namespace linklab {

void backHeapWithHugePages();

} // namespace linklab
