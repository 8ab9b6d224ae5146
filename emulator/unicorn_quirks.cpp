// Work-arounds for Unicorn defects that cost the executor real speed.
//
// 1. Page collections. Unicorn 2.0.x (Debian bookworm ships 2.0.1) never
// marks RAM dirty, so every TLB entry of a writable page keeps QEMU's
// TLB_NOTDIRTY bit and every guest store leaves the inline fast path for notdirty_write(), which looks
// for translated code to invalidate on the written page. Before looking it
// calls page_collection_lock(), whose page locks are compiled out in
// Unicorn: all that is left is a malloc'd set and a GTree built and freed per
// store, 70-80% of the time of a store-heavy loop (measured: a byte
// read-modify-write loop over 64 KiB, 10.3 s -> 2.7 s). Unicorn upstream
// dropped that bookkeeping (PR #1838).
//
// The library calls these functions through its PLT, so definitions in the
// executable take their place (ELF symbol interposition). The collection is
// only ever handed back to page_collection_unlock() and, inside QEMU's
// invalidation, passed along to it again, so "no collection" is a complete
// answer. Any other Unicorn version gets its own functions, found with
// RTLD_NEXT, in case a future one gives the collection meaning again.
//
// 2. Fast stores. Even with (1), every store still leaves the inline fast
// path: TLB_NOTDIRTY stays set because QEMU's "is this page clean?" check is
// compiled to "yes" and cpu_physical_memory_test_and_clear_dirty() to
// "nothing to clear" (unicorn #1970; 2.1 sets the bit only on pages with
// code, later only on executable ones, #2337). On 2.0.x we do the same from
// outside, interposing tlb_set_page_with_attrs (also called through the
// PLT): after the real fill, tlb_set_dirty() clears the bit when the page
// cannot hold code a store would have to invalidate. FastStores decides that from its own record of
// the permissions the executor gave each page:
//  - writable and not executable now: a non-executable page cannot be
//    translated, and a store to a read-only page must still reach the slow
//    path, which is where Unicorn 2.0 checks write permission;
//  - never executable since the engine started: code translated while a
//    page was executable survives a later RW period (QEMU looks translated
//    blocks up by physical address), and stores during that period must
//    invalidate it as before;
//  - identity-mapped (vaddr == paddr, as on every arch the executor runs),
//    because the record is by guest address and translated code by physical;
//  - no memory hooks, which the fast path would bypass.
// Marked entries must not outlive those conditions: every change that takes
// a page out of them flushes the TLB. Upstream had exactly this bug when a
// page turned executable at run time (unicorn #2367, fixed by flushing in
// uc_mem_protect/uc_mem_map, #2414).
//
// 3. TLB growth. QEMU sizes each MMU mode's TLB only when that TLB is
// flushed (cputlb.c: one more than 70% in use doubles), starting from 256
// entries. Unicorn flushes only when the executor changes mappings, so a run
// whose working set exceeds 256 pages refills the same entries for good.
// AArch64 is hit hardest: Unicorn 2.0.x gives it 1 KiB target pages (its
// page-size control is ARM-only there), so 256 KiB of data thrash; the
// exec benchmark's 1 MiB sieve made 2.9 million fills, 0.46 s -> 0.12 s.
// The fill interposer of (2) therefore flushes the TLB, before the real fill,
// once a run has made as many fills since the last flush as four times the
// size the TLB can have grown to (256 << flushes): flush cost grows with the
// size, so spacing flushes geometrically keeps it a small constant per fill,
// and a TLB that holds the working set stops filling and so stops flushing.
// Flushing inside a fill is what QEMU's own fills may do: every caller looks
// its entry up again afterwards ("tlb_fill may have resized the TLB").
//
// 4. Exit checks. Unicorn 2.0 ends the code of every guest load and store
// (and of every code hook) with check_exit_request(): a load of the CPU's
// exit flag and a branch out of the block, so that a memory hook calling
// uc_emu_stop stops at once. Every block already checks the flag on entry
// (QEMU's own check, which uc_emu_stop and the executor's watchdog rely on),
// and the executor's only memory hook either faults, which leaves the block
// through an exception, or maps heap and lets the access go on. So the
// per-access checks only cost time: three host instructions per access and
// a branch that ends TCG's basic block. The generator calls the function
// through the PLT, so an interposer leaves them out while an ExitChecks
// says so (Process::run: in runs without the instruction counter, whose
// code hook stops mid-block on the budget's last instruction). Translated
// code keeps what it was generated with; the executor flushes the
// translation cache whenever the counter comes or goes.
//
// 5. Dropping translations. uc_ctl_flush_tlb (tb_flush) on Unicorn 2.0.x
// ends in tcg_region_assign, which memsets the whole translation buffer
// (Unicorn's own addition to QEMU): 1 GiB of transparent huge pages
// faulted in and zeroed, about a second of system time and 1 GiB of
// resident memory each time, and, in the middle of a run, the code of the
// block that made the system call (x86's syscall returns into it) is gone.
// The executor drops all translations when its counting hook comes and
// goes, when the process gets a second thread (the slice hook), and when
// direct memory widens its address mask. FastStores::dropAllTranslations()
// instead removes the translations of every executable page, the only
// places code is translated from (a page that stops being executable loses
// its translations then), page by page with uc_ctl_remove_cache, which
// finds the RAM a guest page is backed by (QEMU indexes translations by
// RAM offset, not guest address).
//
// 6. Leaked temporaries. A block's TCG temporaries live in a fixed array of
// TCG_MAX_TEMPS (512) in the TCGContext, checked only in QEMU's debug
// builds: the next one is written past the array, over the context's op
// list. QEMU 5.0's x86 translator leaks one or two per x87 instruction
// (gen_helper_fp_arith_STN_ST0, fxch, fld/fst st(i), fcom ... pass a
// tcg_const_i32 to their helper and never free it), so a straight-line block
// of x87 arithmetic (clang's unrolled matrix products on i386) corrupted the
// translator: a "write to address 0x0" fault in the guest, or the executor
// killed by SIGSEGV. QEMU's own rule is that an instruction frees what it
// allocates (its debug builds count the temporaries from the first
// instruction on and report leaks): only the block's set-up, before its
// first instruction, allocates temporaries for the whole block. So the
// executor records the temporaries allocated during each instruction and
// not freed by it (the library allocates and frees through its PLT), and
// frees them when the next instruction starts (its insn_start op). A record
// may also name a temporary that was freed outside the interposer (the
// executor's own generators free through dlsym); at an instruction boundary
// every temporary but the block's own is free or leaked, so freeing it
// again changes nothing.
#include "unicorn_quirks.h"

#include <algorithm>
#include <cstring>
#include <dlfcn.h>
#include <iterator>
#include <string>
#include <vector>

bool linklab::emu::isUnicorn20() {
  static const bool Yes = [] {
    unsigned Major = 0, Minor = 0;
    uc_version(&Major, &Minor);
    return Major == 2 && Minor == 0;
  }();
  return Yes;
}

namespace {

using linklab::emu::isUnicorn20;
using LockFn = void *(*)(void *, uint64_t, uint64_t);
using UnlockFn = void (*)(void *);

} // namespace

// ---- 1. page collections ------------------------------------------------------

// One pair per QEMU target the executor runs (the library suffixes every
// target's copy of QEMU with its name).
#define LINKLAB_PAGE_COLLECTION(TARGET)                                                                                \
  extern "C" void *page_collection_lock_##TARGET(void *UC, uint64_t Start, uint64_t End) {                             \
    if (isUnicorn20())                                                                                                 \
      return nullptr;                                                                                                  \
    static const auto Real = reinterpret_cast<LockFn>(dlsym(RTLD_NEXT, "page_collection_lock_" #TARGET));              \
    return Real ? Real(UC, Start, End) : nullptr;                                                                      \
  }                                                                                                                    \
  extern "C" void page_collection_unlock_##TARGET(void *Set) {                                                         \
    if (isUnicorn20())                                                                                                 \
      return;                                                                                                          \
    static const auto Real = reinterpret_cast<UnlockFn>(dlsym(RTLD_NEXT, "page_collection_unlock_" #TARGET));          \
    if (Real)                                                                                                          \
      Real(Set);                                                                                                       \
  }
LINKLAB_INTERPOSED_QEMU_TARGETS(LINKLAB_PAGE_COLLECTION)
#undef LINKLAB_PAGE_COLLECTION

// ---- 2. fast stores -------------------------------------------------------------

namespace linklab::emu {
namespace {

thread_local FastStores *Current = nullptr;
constexpr uint64_t HostPage = DirectMemory::HostPage;

// QEMU's MemTxAttrs: a struct of bit-fields in 32 bits, passed by value
// exactly like this one.
struct MemTxAttrs {
  uint32_t Bits;
};
using FillFn = void (*)(void *Cpu, uint64_t Vaddr, uint64_t Paddr, MemTxAttrs, int Prot, int MmuIdx, uint64_t Size);
using SetDirtyFn = void (*)(void *Cpu, uint64_t Vaddr);

// One QEMU target's functions in the library (its own fill; the other two
// are null in a Unicorn that does not export them, and then nothing changes).
struct TargetTlb {
  FillFn Fill;
  SetDirtyFn SetDirty;
  FastStores::FlushFn Flush;
  explicit TargetTlb(const std::string &Target)
      : Fill(reinterpret_cast<FillFn>(dlsym(RTLD_NEXT, ("tlb_set_page_with_attrs_" + Target).c_str()))),
        SetDirty(reinterpret_cast<SetDirtyFn>(dlsym(RTLD_NEXT, ("tlb_set_dirty_" + Target).c_str()))),
        Flush(reinterpret_cast<FastStores::FlushFn>(dlsym(RTLD_NEXT, ("tlb_flush_" + Target).c_str()))) {}

  void fill(void *Cpu, uint64_t Vaddr, uint64_t Paddr, MemTxAttrs Attrs, int Prot, int MmuIdx, uint64_t Size) const {
    bool Ours = Flush && Current && isUnicorn20();
    if (Ours)
      Current->beforeFill(Cpu, Flush);
    Fill(Cpu, Vaddr, Paddr, Attrs, Prot, MmuIdx, Size); // present: the library called us in its place
    if (Ours && SetDirty && Vaddr == Paddr && Current->fillMayBeDirty(Vaddr))
      SetDirty(Cpu, Vaddr);
    if (Ours)
      Current->afterFill(Vaddr);
  }
};

} // namespace

void FastStores::dropAllTranslations() {
  if (!Cpu) // as for write: nothing is translated yet
    return;
  // A state runs to the next key (the last key starts the unmapped rest).
  for (auto It = Pages.begin(); It != Pages.end() && std::next(It) != Pages.end(); ++It)
    if (It->second & Executable)
      dropTranslations(It->first, std::next(It)->first);
}

// Memory hooks see only accesses on QEMU's path: with one, direct accesses stay off.
FastStores::Running::Running(FastStores &F)
    : Self(F), Outer(Current), DirectFaults(F.Direct && !F.Disabled ? &F : nullptr) {
  Current = &F;
  ++F.Runs;
}
FastStores::Running::~Running() {
  --Self.Runs;
  Current = Outer;
}

void FastStores::beforeFill(void *C, FlushFn F) {
  Cpu = C, Flush = F;
  if (++FillsSinceFlush < (uint64_t(1024) << Growths))
    return;
  Flush(Cpu);
  FillsSinceFlush = 0;
  Growths += Growths < MaxGrowths;
}

bool FastStores::fillMayBeDirty(uint64_t Page) const { return !Disabled && stateAt(Page) == Writable; }

void FastStores::useDirect(std::unique_ptr<DirectMemory> D, TouchFn T, FaultFn F) {
  Direct = std::move(D), Touch = std::move(T), Fault = std::move(F);
}

void FastStores::afterFill(uint64_t Vaddr) {
  uint64_t Page = Vaddr & ~(HostPage - 1);
  if (!CodePagesOpen.empty() && CodePagesOpen.erase(Page))
    Direct->setAccess(Page, Page + HostPage, true, false);
}

// Drops the code translated from the executable pages of [Lo, Hi) while
// they are still executable (Unicorn looks the pages up as code).
void FastStores::dropTranslations(uint64_t Lo, uint64_t Hi) {
  for (uint64_t Page = Lo; Page < Hi; Page += HostPage)
    if (stateAt(Page) & Executable)
      uc_ctl_remove_cache(UC, Page, Page + HostPage);
}

// In the SIGSEGV handler, for a direct access in translated code.
bool FastStores::retry(uint64_t Addr, bool Write) {
  uint64_t Page = Addr & ~(HostPage - 1);
  if (Write && Direct->mapped(Addr) && (stateAt(Page) & (Writable | Executable)) == (Writable | Executable)) {
    // A store to code: as QEMU's not-dirty path would, drop what was
    // translated from the page; the page refaults once code is translated
    // from it again (afterFill), which needs a fresh TLB fill.
    dropTranslations(Page, Page + HostPage);
    Direct->setAccess(Page, Page + HostPage, true, true);
    CodePagesOpen.insert(Page);
    flush();
    return true;
  }
  return !Direct->mapped(Addr) && Touch && Touch(Addr) && Direct->mapped(Addr);
}

bool FastStores::mayRewriteItself(uint64_t Pc) const {
  auto WX = [&](uint64_t A) { return (stateAt(A) & (Writable | Executable)) == (Writable | Executable); };
  return WX(Pc) || WX(Pc + HostPage); // a block may run into the next page
}

void FastStores::fatal(uint64_t Addr, bool Write, uintptr_t HostPc) {
  if (!Cpu)
    return; // no translated code has run yet: cannot be ours
  Direct->restoreState(Cpu, HostPc);
  // Unicorn's map, not the mirror's: pages below the window are mapped for
  // the guest without a mirror.
  bool Mapped = false;
  uc_mem_region *Regions = nullptr;
  uint32_t Count = 0;
  if (uc_mem_regions(UC, &Regions, &Count) == UC_ERR_OK)
    for (uint32_t I = 0; I < Count; ++I)
      Mapped |= Addr >= Regions[I].begin && Addr <= Regions[I].end;
  uc_free(Regions);
  Fault(Addr, Mapped ? (Write ? UC_MEM_WRITE_PROT : UC_MEM_READ_PROT)
                     : (Write ? UC_MEM_WRITE_UNMAPPED : UC_MEM_READ_UNMAPPED));
  Direct->exitLoop(Cpu);
}

uint8_t FastStores::stateAt(uint64_t Addr) const {
  auto It = Pages.upper_bound(Addr);
  return It == Pages.begin() ? 0 : std::prev(It)->second;
}

bool FastStores::guestWritable(uint64_t Addr, uint64_t Size) const {
  if (Size == 0)
    return true;
  if (Addr + Size < Addr)
    return false;
  if (!(stateAt(Addr) & Writable))
    return false;
  for (auto It = Pages.upper_bound(Addr); It != Pages.end() && It->first < Addr + Size; ++It)
    if (!(It->second & Writable))
      return false;
  return true;
}

// Sets the state of [Lo, Hi) page range by range, flushing the TLB when a
// page that may have marked entries stops qualifying.
void FastStores::update(uint64_t Lo, uint64_t Hi, uint32_t Prot) {
  const uint8_t New = (Prot & UC_PROT_WRITE ? Writable : 0) | (Prot & UC_PROT_EXEC ? Executable : 0);
  Pages.emplace(Hi, stateAt(Hi)); // no-ops where a boundary exists already
  Pages.emplace(Lo, stateAt(Lo));
  bool Leaves = false;
  for (auto It = Pages.find(Lo); It->first < Hi; ++It) {
    Leaves |= It->second == Writable && New != Writable;
    It->second = New;
  }
  for (auto It = Pages.find(Lo); It != Pages.end() && It->first <= Hi;) // merge equal neighbours
    It = It->second == (It == Pages.begin() ? 0 : std::prev(It)->second) ? Pages.erase(It) : std::next(It);
  if (Leaves)
    flush();
  if (Direct) {
    // Direct stores never see translated code: pages that can hold some
    // stay read-only in the mirror and fault into retry().
    Direct->setAccess(Lo, Hi, Prot & (UC_PROT_READ | UC_PROT_WRITE), (Prot & UC_PROT_WRITE) && !(Prot & UC_PROT_EXEC));
    for (auto It = CodePagesOpen.lower_bound(Lo); It != CodePagesOpen.end() && *It < Hi;)
      It = CodePagesOpen.erase(It);
  }
}

void FastStores::flush() {
  if (Cpu)
    Flush(Cpu);
}

uc_err FastStores::map(uint64_t Base, uint64_t Size, uint32_t Prot) {
  bool Widened = false;
  uc_err Err = Direct ? Direct->map(UC, Base, Size, Prot, Widened) : uc_mem_map(UC, Base, Size, unicornProt(Prot));
  if (Err == UC_ERR_OK) {
    deferred(Base, Size, Prot);
    update(Base, Base + Size, Prot);
  }
  // Code translated with the narrow address mask would reach this mapping
  // at its address's low 32 bits.
  if (Err == UC_ERR_OK && Widened)
    dropAllTranslations();
  return Err;
}

uc_err FastStores::write(uint64_t Addr, const void *Bytes, size_t Size) {
  void *Host = Direct && Size ? Direct->hostView(Addr, Size) : nullptr;
  if (!Host)
    return uc_mem_write(UC, Addr, Bytes, Size);
  // Nothing is translated before the first run's first fill (Cpu). Dropping
  // then would make Unicorn fill the code TLB outside a run, and the run
  // would never learn Cpu, which faults in direct accesses need.
  if (Cpu)
    dropTranslations(Addr & ~(HostPage - 1), Addr + Size);
  std::memcpy(Host, Bytes, Size);
  return UC_ERR_OK;
}

int FastStores::writeFromFile(uint64_t Addr, int Fd, uint64_t Offset, uint64_t Size) {
  if (!Direct || !Size || !Direct->hostView(Addr, Size))
    return -1;
  if (Cpu) // as for write
    dropTranslations(Addr & ~(HostPage - 1), Addr + Size);
  return Direct->copyFromFile(Addr, Fd, Offset, Size);
}

uc_err FastStores::zero(uint64_t Addr, uint64_t Size) {
  if (Direct && Size && Direct->zero(Addr, Size)) {
    if (Cpu) // as for write
      dropTranslations(Addr & ~(HostPage - 1), Addr + Size);
    return UC_ERR_OK;
  }
  static const uint8_t Zeros[1 << 16] = {};
  for (uint64_t Off = 0; Off < Size; Off += sizeof(Zeros))
    if (uc_err E = write(Addr + Off, Zeros, std::min<uint64_t>(sizeof(Zeros), Size - Off)))
      return E;
  return UC_ERR_OK;
}

uc_err FastStores::protect(uint64_t Base, uint64_t Size, uint32_t Prot) {
  // Direct stores to a page made writable do not look for translated code,
  // so none may survive from its executable period; nor may any survive on a
  // page no longer executable, which a chained jump (block_chaining.cpp)
  // would still enter.
  if ((Direct && (Prot & UC_PROT_WRITE)) || (Cpu && !(Prot & UC_PROT_EXEC)))
    dropTranslations(Base, Base + Size);
  uc_err Err = uc_mem_protect(UC, Base, Size, unicornProt(Prot));
  if (Err == UC_ERR_OK) {
    deferred(Base, Size, Prot);
    update(Base, Base + Size, Prot);
  }
  return Err;
}

void FastStores::deferred(uint64_t Base, uint64_t Size, uint32_t Prot) {
  // Once one waits, every later one does too: the order decides.
  if (unicornProt(Prot) != Prot || !Pending.empty())
    Pending.push_back({Base, Size, Prot});
}

uc_err FastStores::settle() {
  for (const Protection &P : Pending)
    if (uc_err Err = uc_mem_protect(UC, P.base, P.size, P.prot))
      return Err;
  Pending.clear();
  return UC_ERR_OK;
}

uc_err FastStores::unmap(uint64_t Base, uint64_t Size) {
  if (uc_err Err = settle()) // what waits may cover what goes
    return Err;
  if (Cpu) // as for protect: no chained jump may enter unmapped code
    dropTranslations(Base, Base + Size);
  uc_err Err = Direct ? Direct->unmap(UC, Base, Size) : uc_mem_unmap(UC, Base, Size);
  if (Err == UC_ERR_OK)
    update(Base, Base + Size, 0);
  return Err;
}

void FastStores::noteHook(int Type) {
  if (Type & (UC_HOOK_MEM_VALID | UC_HOOK_MEM_READ_AFTER)) {
    Disabled = true;
    flush();
  }
}

} // namespace linklab::emu

// One interposer per QEMU target the executor runs.
#define LINKLAB_TLB_FILL(TARGET)                                                                                       \
  extern "C" void tlb_set_page_with_attrs_##TARGET(void *Cpu, uint64_t Vaddr, uint64_t Paddr,                          \
                                                   linklab::emu::MemTxAttrs Attrs, int Prot, int MmuIdx,               \
                                                   uint64_t Size) {                                                    \
    static const linklab::emu::TargetTlb T(#TARGET);                                                                   \
    T.fill(Cpu, linklab::emu::targetAddress(#TARGET, Vaddr), Paddr, Attrs, Prot, MmuIdx, Size);                        \
  }
LINKLAB_INTERPOSED_QEMU_TARGETS(LINKLAB_TLB_FILL)
#undef LINKLAB_TLB_FILL

// ---- 4. exit checks --------------------------------------------------------------

namespace {
thread_local bool SkipExitChecks = false;
using CheckFn = void (*)(void *Tcg);
} // namespace

linklab::emu::ExitChecks::ExitChecks(bool Skip) : Outer(SkipExitChecks) { SkipExitChecks = Skip; }
linklab::emu::ExitChecks::~ExitChecks() { SkipExitChecks = Outer; }

// One interposer per QEMU target the executor runs; other Unicorn versions
// (whose function may differ) always get theirs.
#define LINKLAB_EXIT_CHECK(TARGET)                                                                                     \
  extern "C" void check_exit_request_##TARGET(void *Tcg) {                                                             \
    if (SkipExitChecks && isUnicorn20())                                                                               \
      return;                                                                                                          \
    static const auto Real = reinterpret_cast<CheckFn>(dlsym(RTLD_NEXT, "check_exit_request_" #TARGET));               \
    if (Real)                                                                                                          \
      Real(Tcg);                                                                                                       \
  }
LINKLAB_INTERPOSED_QEMU_TARGETS(LINKLAB_EXIT_CHECK)
#undef LINKLAB_EXIT_CHECK

// Every engine's translated-block hash table starts with room for 32768
// blocks: 2 MB of buckets written at uc_open, 100 of a -runtime=none run's
// 900 page faults. A table that resizes itself (QHT_MODE_AUTO_RESIZE, Unicorn's
// only mode) can start small; a program translates a few hundred blocks.
extern "C" void qht_init(void *Table, void *Compare, size_t Entries, unsigned Mode) {
  using InitFn = void (*)(void *, void *, size_t, unsigned);
  static const auto Real = reinterpret_cast<InitFn>(dlsym(RTLD_NEXT, "qht_init"));
  constexpr unsigned AutoResize = 0x1;
  Real(Table, Compare, (Mode & AutoResize) ? std::min<size_t>(Entries, 1024) : Entries, Mode);
}

// ---- 6. leaked temporaries -----------------------------------------------------

namespace {

// QEMU 5.0's INDEX_op_insn_start (i386_tr_insn_start emits it with tcg_gen_op2).
constexpr unsigned InsnStart = 0x81;
using TempNewFn = void *(*)(void *S, int Type, bool Local);
using TempFreeFn = void (*)(void *S, void *Temp);

thread_local struct {
  bool inInstruction = false;    // after the block's first insn_start
  std::vector<void *> allocated; // during the current instruction, not freed
} Leaks;

TempFreeFn realTempFree() {
  static const auto Real = reinterpret_cast<TempFreeFn>(dlsym(RTLD_NEXT, "tcg_temp_free_internal_x86_64"));
  return Real;
}

} // namespace

void linklab::emu::translationStarts() {
  Leaks.inInstruction = false;
  Leaks.allocated.clear();
}

void linklab::emu::beforeX86Op2(void *S, unsigned Opc) {
  if (Opc != InsnStart || !isUnicorn20())
    return;
  std::sort(Leaks.allocated.begin(), Leaks.allocated.end());
  Leaks.allocated.erase(std::unique(Leaks.allocated.begin(), Leaks.allocated.end()), Leaks.allocated.end());
  for (void *Temp : Leaks.allocated)
    realTempFree()(S, Temp);
  Leaks.allocated.clear();
  Leaks.inInstruction = true;
}

extern "C" void *tcg_temp_new_internal_x86_64(void *S, int Type, bool Local) {
  static const auto Real = reinterpret_cast<TempNewFn>(dlsym(RTLD_NEXT, "tcg_temp_new_internal_x86_64"));
  void *Temp = Real(S, Type, Local);
  if (Leaks.inInstruction)
    Leaks.allocated.push_back(Temp);
  return Temp;
}

extern "C" void tcg_temp_free_internal_x86_64(void *S, void *Temp) {
  auto &A = Leaks.allocated;
  if (auto It = std::find(A.rbegin(), A.rend(), Temp); It != A.rend())
    A.erase(std::next(It).base());
  realTempFree()(S, Temp);
}
