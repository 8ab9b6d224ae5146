#include "support/huge_heap.h"

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace linklab {

// This is glibc's glibc.malloc.hugetlb=1 tunable for the heap, done through
// mallopt and madvise because glibc reads tunables only as a process starts
// (restarting the command with it set cost 3-6 ms of start-up).
void backHeapWithHugePages() {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  if (const char *T = std::getenv("GLIBC_TUNABLES"); T && std::strstr(T, "glibc.malloc"))
    return;
  constexpr size_t Huge = 2 << 20, Step = 64 << 20;
  mallopt(M_MMAP_THRESHOLD, int(Step / 2));
  mallopt(M_TRIM_THRESHOLD, int(Step * 2));
  mallopt(M_TOP_PAD, int(Step));
  // Only an aligned 2 MiB that nothing touched before madvise can become a
  // huge page, so malloc's top (whose header it writes at once) first moves
  // to the page below the next boundary; the new heap above it starts
  // untouched. (malloc takes such a foreign sbrk in its stride.)
  uintptr_t End = reinterpret_cast<uintptr_t>(sbrk(0));
  uintptr_t Below = ((End + 4096 + Huge - 1) & ~(Huge - 1)) - 4096;
  if (sbrk(intptr_t(Below - End)) == reinterpret_cast<void *>(-1))
    return;
  uintptr_t From = Below;
  // More than the heap has left: it grows by Step. (Used, or the compiler
  // drops a malloc that is only freed.)
  auto *Grow = static_cast<volatile char *>(std::malloc(Huge));
  uintptr_t To = reinterpret_cast<uintptr_t>(sbrk(0));
  if (Grow)
    Grow[0] = 0;
  std::free(const_cast<char *>(Grow));
  if (To <= From)
    return;
  madvise(reinterpret_cast<void *>(From), To - From, MADV_HUGEPAGE);
  // Growing wrote malloc's top header near the first huge page's end, a 4 KiB
  // fault before madvise: that 2 MiB would fault page by page (400 faults in
  // a hello world) unless collapsed now (Linux 6.1; older kernels refuse it).
  constexpr int MadvCollapse = 25; // MADV_COLLAPSE: in <linux/mman.h>, not in glibc 2.36's <sys/mman.h>
  madvise(reinterpret_cast<void *>(From + 4096), Huge, MadvCollapse);
#endif
}

} // namespace linklab
