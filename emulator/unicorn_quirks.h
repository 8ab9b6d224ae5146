// Work-arounds for Unicorn defects that need the executor's cooperation
// (the rest, which need none, live in unicorn_quirks.cpp alone).
#pragma once

#include "direct_memory.h"

#include <unicorn/unicorn.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string_view>

namespace linklab::emu {

// The QEMU targets inside Unicorn whose code generator and TLB the executor
// interposes on (block chaining, direct memory, page collection, TLB fill,
// exit checks): X(TARGET) each.
#define LINKLAB_INTERPOSED_QEMU_TARGETS(X) X(x86_64) X(aarch64) X(riscv64) X(arm)

// The width of a QEMU target's guest addresses (target_ulong): 32 bits for
// Arm, whose addresses and PC are TCG i32 values and whose functions take
// them as uint32_t (the upper half of the register that passes one is
// undefined); 64 for the others (x86_64 runs i386 with 64-bit ones).
constexpr unsigned targetAddressBits(std::string_view Target) { return Target == "arm" ? 32 : 64; }
// A target_ulong argument received as uint64_t.
constexpr uint64_t targetAddress(std::string_view Target, uint64_t V) {
  return targetAddressBits(Target) == 32 ? uint32_t(V) : V;
}

// The Unicorn these work-arounds were written against (2.0.x); every
// interposer leaves other versions alone.
bool isUnicorn20();

// Lets guest stores to plain data pages take QEMU's inline fast path on
// Unicorn 2.0.x, and lets QEMU grow a TLB the working set outgrows
// (unicorn_quirks.cpp, 2 and 3, says why and how). It keeps its own
// record of every page's Unicorn permissions, so a Process makes every map,
// protect and unmap through it; elsewhere it does nothing.
// Given a DirectMemory, it also keeps the mirror's host protections in step
// with the guest's and answers the mirror's faults (direct_memory.cpp).
class FastStores : private DirectMemory::Faults {
public:
  // On a direct access to an address nothing maps: whether the run mapped
  // memory there (the heap, on first touch).
  using TouchFn = std::function<bool(uint64_t Addr)>;
  // On a direct access that is a guest fault, with the guest state at the
  // faulting instruction: records it (as Unicorn's memory error T) and stops
  // the run.
  using FaultFn = std::function<void(uint64_t Addr, uc_mem_type T)>;
  explicit FastStores(uc_engine *UC) : UC(UC) {}
  // Before the first map; a null Direct leaves every access on QEMU's TLB.
  void useDirect(std::unique_ptr<DirectMemory> Direct, TouchFn Touch, FaultFn Fault);

  uc_err map(uint64_t Base, uint64_t Size, uint32_t Prot);
  uc_err protect(uint64_t Base, uint64_t Size, uint32_t Prot);
  uc_err unmap(uint64_t Base, uint64_t Size);
  // A debugger's write, whatever the protection: into the shared memory when
  // the mirror maps it all (dropping code translated from it), else through
  // uc_mem_write, which makes a read-only region writable and back again,
  // rebuilding QEMU's memory map twice: most of a glibc start-up's time was
  // that, once per linked segment.
  uc_err write(uint64_t Addr, const void *Bytes, size_t Size);
  // write's, with the bytes from file Fd at Offset, copied by the kernel
  // into the mirror's memory: 0, an errno (ENODATA: the file ends first),
  // or -1 without one region mapping it all (then use write).
  int writeFromFile(uint64_t Addr, int Fd, uint64_t Offset, uint64_t Size);
  // Without the mirror, between runs, Unicorn maps every page writable and
  // the protections asked for wait here until the next run: a link writes
  // each graph's segments into reservations already protected, and each
  // such uc_mem_write would rebuild QEMU's memory map twice (most of a
  // debugged glibc start-up). Applies them; Process::run calls it first.
  uc_err settle();
  // Whether the guest itself may store to all of [Addr, Addr+Size): what a
  // system call checks before it writes there for the guest (the kernel's
  // copy_to_user fails with EFAULT on a read-only or unmapped page).
  bool guestWritable(uint64_t Addr, uint64_t Size) const;
  // Makes [Addr, Addr+Size) read as zeros: in the mirror's memory without
  // touching it (a 1 GiB mapping the program never used stays unused when
  // it is unmapped), else by writing zeros.
  uc_err zero(uint64_t Addr, uint64_t Size);
  // Every hook the Process adds, by type: memory hooks see only the stores
  // that take the slow path, so any of them turns fast stores off.
  void noteHook(int Type);
  // Whether direct accesses fault at an address's low 32 bits
  // (direct_memory.h, NarrowBits).
  bool narrowAddresses() const { return Direct && Direct->narrow(); }
  // Drops all translated code, as uc_ctl_flush_tlb does, which on Unicorn
  // 2.0.x also zero-fills the whole translation buffer (unicorn_quirks.cpp,
  // 5): only executable pages hold any.
  void dropAllTranslations();

  // While one is alive, QEMU's TLB fills on this thread are this record's
  // (one per uc_emu_start loop; the engine runs on the caller's thread).
  class Running {
  public:
    explicit Running(FastStores &F);
    ~Running();
    Running(const Running &) = delete;
    Running &operator=(const Running &) = delete;

  private:
    FastStores &Self;
    FastStores *Outer;
    DirectMemory::Running DirectFaults;
  };

  using FlushFn = void (*)(void *Cpu);
  // From the TLB-fill interposer, before the real fill: remembers the
  // engine's CPU and its target's tlb_flush, and flushes when the TLB has
  // been refilled often enough that QEMU should grow it.
  void beforeFill(void *Cpu, FlushFn Flush);
  // After the fill: whether stores to Page may skip the not-dirty check.
  bool fillMayBeDirty(uint64_t Page) const;
  // After the fill: code may be translated from Vaddr's page now, so stores
  // to it must fault in the mirror again.
  void afterFill(uint64_t Vaddr);

private:
  enum State : uint8_t { Writable = 1, Executable = 2 };
  bool retry(uint64_t Addr, bool Write) override;
  bool mayRewriteItself(uint64_t Pc) const override;
  void fatal(uint64_t Addr, bool Write, uintptr_t HostPc) override;
  void dropTranslations(uint64_t Lo, uint64_t Hi);
  uint8_t stateAt(uint64_t Addr) const;
  void update(uint64_t Lo, uint64_t Hi, uint32_t Prot);
  void flush();
  // What Unicorn is asked to map or protect with for Prot (settle()).
  uint32_t unicornProt(uint32_t Prot) const { return Direct || Runs ? Prot : Prot | UC_PROT_WRITE; }
  void deferred(uint64_t Base, uint64_t Size, uint32_t Prot);

  // Page state from each key up to the next key (0 below the first): the
  // current write and execute permissions.
  std::map<uint64_t, uint8_t> Pages;
  uc_engine *UC;
  bool Disabled = false;
  std::unique_ptr<DirectMemory> Direct;
  TouchFn Touch;
  FaultFn Fault;
  // Writable and executable pages whose mirror a store made writable; each
  // is protected again when code may next be translated from it.
  std::set<uint64_t> CodePagesOpen;
  // Maps and protections made writable for Unicorn (unicornProt), in the
  // order asked: replayed as protections, they give what was asked.
  struct Protection {
    uint64_t base, size;
    uint32_t prot;
  };
  std::vector<Protection> Pending;
  unsigned Runs = 0;   // Running records alive
  void *Cpu = nullptr; // known after the first TLB fill of a run
  FlushFn Flush = nullptr;
  // TLB growth (unicorn_quirks.cpp, 3): fills since the last flush made to
  // let QEMU resize, and how many such flushes (capped: QEMU's own size cap
  // is 2^22 entries, reached long before the spacing would overflow).
  static constexpr unsigned MaxGrowths = 24;
  uint64_t FillsSinceFlush = 0;
  unsigned Growths = 0;
};

// While one is alive with Skip set, blocks translated on this thread leave
// out Unicorn 2.0's stop-request check after every guest load and store
// (unicorn_quirks.cpp, 4). Skip only when no hook may stop the engine in the
// middle of a block: a code hook (the instruction counter) does.
class ExitChecks {
public:
  explicit ExitChecks(bool Skip);
  ~ExitChecks();
  ExitChecks(const ExitChecks &) = delete;
  ExitChecks &operator=(const ExitChecks &) = delete;

private:
  bool Outer;
};

// While one is alive, the x87 instructions QEMU 5.0 computes through host
// doubles (fyl2x, f2xm1, fsin, fprem, ...) run on the host's x87 unit for
// this engine's registers (x86_helpers.cpp, 3), as a real CPU computes them.
// x86: the translator loads Offset (a field of the CPU state, Base) with
// opcode Opc; x86_helpers.cpp emits what must come first (stmxcsr sees the
// SSE exception flags softfloat gathered, 4).
void beforeX86StateLoad(void *S, unsigned Opc, uintptr_t Base, uintptr_t Offset);

// The x86 translator's leaked temporaries (unicorn_quirks.cpp, 6): a block's
// translation starts (any target); x86's translator emits a two-argument op
// (an instruction starts with one), before it is emitted.
void translationStarts();
void beforeX86Op2(void *S, unsigned Opc);

class HostX87 {
public:
  explicit HostX87(uc_engine *UC);
  ~HostX87();
  HostX87(const HostX87 &) = delete;
  HostX87 &operator=(const HostX87 &) = delete;

private:
  void *Outer;
};

} // namespace linklab::emu
