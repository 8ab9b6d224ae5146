// Work-arounds for Unicorn defects that cost the executor real speed.
//
// Unicorn 2.0.x (Debian bookworm ships 2.0.1) never marks RAM dirty, so
// every TLB entry of a writable page keeps QEMU's TLB_NOTDIRTY bit and every
// guest store leaves the inline fast path for notdirty_write(), which looks
// for translated code to invalidate on the written page. Before looking it
// calls page_collection_lock(), whose page locks are compiled out in
// Unicorn: all that is left is a malloc'd set and a GTree built and freed per
// store, 70-80% of the time of a store-heavy loop (measured: a byte
// read-modify-write loop over 64 KiB, 10.3 s -> 2.7 s). Unicorn upstream
// dropped that bookkeeping (PR #1838), and 2.1 stops setting TLB_NOTDIRTY on
// pages without code, which needs no help from us.
//
// The library calls these functions through its PLT, so definitions in the
// executable take their place (ELF symbol interposition). The collection is
// only ever handed back to page_collection_unlock() and, inside QEMU's
// invalidation, passed along to it again, so "no collection" is a complete
// answer. Any other Unicorn version gets its own functions, found with
// RTLD_NEXT, in case a future one gives the collection meaning again.
#include <unicorn/unicorn.h>

#include <cstdint>
#include <dlfcn.h>

namespace {

bool collectionIsBookkeepingOnly() {
  static const bool Yes = [] {
    unsigned Major = 0, Minor = 0;
    uc_version(&Major, &Minor);
    return Major == 2 && Minor == 0;
  }();
  return Yes;
}

using LockFn = void *(*)(void *, uint64_t, uint64_t);
using UnlockFn = void (*)(void *);

} // namespace

// One pair per QEMU target the executor runs (the library suffixes every
// target's copy of QEMU with its name).
#define LINKLAB_PAGE_COLLECTION(TARGET)                                                                      \
  extern "C" void *page_collection_lock_##TARGET(void *UC, uint64_t Start, uint64_t End) {                   \
    if (collectionIsBookkeepingOnly())                                                                       \
      return nullptr;                                                                                        \
    static const auto Real = reinterpret_cast<LockFn>(dlsym(RTLD_NEXT, "page_collection_lock_" #TARGET));    \
    return Real ? Real(UC, Start, End) : nullptr;                                                            \
  }                                                                                                          \
  extern "C" void page_collection_unlock_##TARGET(void *Set) {                                               \
    if (collectionIsBookkeepingOnly())                                                                       \
      return;                                                                                                \
    static const auto Real = reinterpret_cast<UnlockFn>(dlsym(RTLD_NEXT, "page_collection_unlock_" #TARGET)); \
    if (Real)                                                                                                \
      Real(Set);                                                                                             \
  }
LINKLAB_PAGE_COLLECTION(x86_64)
LINKLAB_PAGE_COLLECTION(aarch64)
LINKLAB_PAGE_COLLECTION(riscv64)
#undef LINKLAB_PAGE_COLLECTION
