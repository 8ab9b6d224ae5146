// Guest memory that translated code reaches with one host instruction, as
// qemu-user's does, instead of through QEMU's software TLB (direct_memory.cpp
// says why and how).
#pragma once

#include <unicorn/unicorn.h>

#include <cstdint>
#include <map>
#include <memory>

namespace linklab::emu {

class DirectMemory {
public:
  // Guest addresses mirrored at the same host address: the executor's whole
  // address-space plan (process.h, layout) lies below WindowEnd.
  static constexpr unsigned AddressBits = 38;
  // Until something is mapped at or above 2^NarrowBits, translated code
  // takes an address's low 32 bits (one host instruction) rather than
  // sign-extending its low 39 (three): see direct_memory.cpp.
  static constexpr unsigned NarrowBits = 32;
  static constexpr uint64_t HostPage = 0x1000; // the mirror's protection granule
  static constexpr uint64_t WindowLo = 0x10000, WindowEnd = uint64_t(1) << AddressBits;

  // The one mirror a host process can have (its window is at fixed host
  // addresses) for a Unicorn target ("x86_64", "aarch64", "riscv64", "arm"); null
  // when it is in use, when this Unicorn or host is not the one the code
  // generation below was written for, when the window cannot be reserved, or
  // when LINKLAB_EXECUTOR_SOFTMMU is set (every access then takes QEMU's TLB).
  static std::unique_ptr<DirectMemory> claim(const char *Target);
  ~DirectMemory();
  DirectMemory(const DirectMemory &) = delete;
  DirectMemory &operator=(const DirectMemory &) = delete;

  // Like uc_mem_map, with the memory shared between Unicorn's view and the
  // mirror at host address Base (inaccessible until setAccess). Mapping
  // the first memory at or above 2^NarrowBits widens the address mask:
  // Widened is then set, and the caller must drop every translation made
  // so far before guest code runs again.
  uc_err map(uc_engine *UC, uint64_t Base, uint64_t Size, uint32_t Prot, bool &Widened);
  uc_err unmap(uc_engine *UC, uint64_t Base, uint64_t Size);
  // What direct loads and stores may do in the mapped parts of [Lo, Hi).
  void setAccess(uint64_t Lo, uint64_t Hi, bool Read, bool Write);
  bool mapped(uint64_t Addr) const;
  // Whether translated code still takes addresses' low 32 bits (NarrowBits).
  bool narrow() const;
  // Unicorn's own view of [Addr, Addr+Size), writable whatever the guest's
  // protection, when one region maps all of it; null otherwise.
  void *hostView(uint64_t Addr, uint64_t Size) const;
  bool overlaps(uint64_t Base, uint64_t Size) const;
  // Makes [Addr, Addr+Size) read as zeros by giving its pages back to the
  // host (memory never touched stays untouched), when one region maps all
  // of it; false otherwise.
  bool zero(uint64_t Addr, uint64_t Size);
  // Copies Size bytes of file Fd from Offset into [Addr, Addr+Size), in the
  // kernel (no page of the shared memory is faulted in here): 0, an errno
  // (ENODATA: the file ends first), or -1 when one region does not map it all.
  int copyFromFile(uint64_t Addr, int Fd, uint64_t Offset, uint64_t Size);

  // A faulting direct access is retried after retry() returns true (it made
  // the access valid); otherwise fatal() records the fault and must end the
  // run: restoreState() then exitLoop(), which does not return.
  class Faults {
  public:
    virtual bool retry(uint64_t Addr, bool Write) = 0;
    // Whether a block translated at Pc may store into its own code (its
    // pages are writable and executable): its stores keep QEMU's path.
    virtual bool mayRewriteItself(uint64_t Pc) const = 0;
    virtual void fatal(uint64_t Addr, bool Write, uintptr_t HostPc) = 0;

  protected:
    ~Faults() = default;
  };
  // While one is alive, blocks translated on this thread access memory
  // directly and faults in them go to F.
  class Running {
  public:
    explicit Running(Faults *F);
    ~Running();
    Running(const Running &) = delete;
    Running &operator=(const Running &) = delete;

  private:
    Faults *Outer;
  };
  // Sets the guest state to the instruction of the access at HostPc.
  void restoreState(void *Cpu, uintptr_t HostPc) const;
  [[noreturn]] void exitLoop(void *Cpu) const;

private:
  using RestoreFn = bool (*)(void *Cpu, uintptr_t HostPc, bool WillExit);
  using ExitFn = void (*)(void *Cpu);
  DirectMemory(int Fd, RestoreFn Restore, ExitFn Exit) : Fd(Fd), Restore(Restore), Exit(Exit) {}

  struct Region {
    uint64_t size, offset; // in the shared-memory file
    void *unicornView;
  };
  std::map<uint64_t, Region> Regions; // mirrored guest base -> region
  // The region mapping all of [Addr, Addr+Size), with Addr's offset in it.
  const Region *region(uint64_t Addr, uint64_t Size, uint64_t &Off) const;
  int Fd; // memfd holding every region
  uint64_t NextOffset = 0;
  RestoreFn Restore;
  ExitFn Exit;
};

} // namespace linklab::emu
