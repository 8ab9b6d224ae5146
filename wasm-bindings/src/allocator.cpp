// operator new/delete for the wasm module: free lists of small blocks in
// front of Emscripten's dlmalloc, as glibc's tcache is in front of its
// malloc natively. A link allocates and frees ~170k small blocks (graph
// vectors, names, std::function state); dlmalloc coalesces every freed chunk
// with its neighbours and bins it, about 100 instructions a free, where a
// free list takes a few. Blocks stay dlmalloc chunks (a list only holds them
// for reuse), so free() and malloc_usable_size() keep working on any of them.
// The module is single-threaded: the lists need no locks.
#include <cstddef>
#include <cstdlib>
#include <malloc.h>
#include <new>

namespace {

constexpr size_t Step = 8;      // dlmalloc's chunk granularity (MALLOC_ALIGNMENT, and new's alignment)
constexpr size_t Classes = 128; // blocks up to 1 KiB are kept
// What the lists may hold in all: past it a freed block goes back to
// dlmalloc, so a link that freed many blocks of one size does not keep that
// memory from the next one's other sizes.
constexpr size_t CacheLimit = size_t(16) << 20;

struct FreeBlock {
  FreeBlock *next;
};
FreeBlock *Lists[Classes + 1];
size_t CachedBytes = 0;

void *allocate(size_t N) {
  size_t C = (N + Step - 1) / Step;
  if (C <= Classes) {
    if (FreeBlock *B = Lists[C]) {
      Lists[C] = B->next;
      CachedBytes -= C * Step;
      return B;
    }
    // Rounded up to its class, so that its usable size names the class again when freed.
    N = C ? C * Step : Step;
  }
  for (;;) {
    if (void *P = std::malloc(N))
      return P;
    std::new_handler H = std::get_new_handler();
    if (!H)
      throw std::bad_alloc();
    H();
  }
}

void release(void *P) {
  if (!P)
    return;
  // A block's usable size is at least what was asked for, so class C
  // (usable size >= C * Step) serves any request of that class.
  size_t C = malloc_usable_size(P) / Step;
  if (C == 0 || C > Classes || CachedBytes + C * Step > CacheLimit) {
    std::free(P);
    return;
  }
  FreeBlock *B = static_cast<FreeBlock *>(P);
  B->next = Lists[C];
  Lists[C] = B;
  CachedBytes += C * Step;
}

} // namespace

void *operator new(size_t N) { return allocate(N); }
void *operator new[](size_t N) { return allocate(N); }
void *operator new(size_t N, const std::nothrow_t &) noexcept { return std::malloc(N ? N : 1); }
void *operator new[](size_t N, const std::nothrow_t &) noexcept { return std::malloc(N ? N : 1); }
void operator delete(void *P) noexcept { release(P); }
void operator delete[](void *P) noexcept { release(P); }
void operator delete(void *P, size_t) noexcept { release(P); }
void operator delete[](void *P, size_t) noexcept { release(P); }
void operator delete(void *P, const std::nothrow_t &) noexcept { release(P); }
void operator delete[](void *P, const std::nothrow_t &) noexcept { release(P); }
