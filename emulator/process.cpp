#include "process.h"
#include "sandbox.h"

#include "support/bits.h"
#include "target/target.h"

#include <unicorn/arm.h>
#include <unicorn/arm64.h>
#include <unicorn/riscv.h>
#include <unicorn/x86.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace linklab::emu {

using namespace executor;
using Clock = std::chrono::steady_clock;

namespace {

Error ucError(uc_err E, const std::string &What) { return makeError(formatv("%s: %s", What.c_str(), uc_strerror(E))); }

// Every uc_mem_map and every protection change inside a region adds a
// memory region; QEMU's physical map keeps a section per region and asserts
// (aborting the executor) past TARGET_PAGE_SIZE sections, 1024 on AArch64,
// and rebuilds that map in time linear in the regions on every change. So
// run-time memory comes in large chunks, and whatever the guest asks for
// beyond this budget fails like an out-of-memory.
constexpr unsigned MaxRegions = 512;
constexpr uint64_t HeapChunkMin = 1 << 20, HeapChunkMax = 32 << 20;
constexpr uint64_t MmapChunk = 16 << 20;

bool inHeap(uint64_t Addr) { return Addr >= layout::HeapBase && Addr < layout::HeapBase + layout::HeapSpan; }

// Unicorn's memory-error kinds as fault kinds.
FaultKind faultFor(uc_mem_type T) {
  switch (T) {
  case UC_MEM_READ_UNMAPPED: return FaultKind::ReadUnmapped;
  case UC_MEM_WRITE_UNMAPPED: return FaultKind::WriteUnmapped;
  case UC_MEM_FETCH_UNMAPPED: return FaultKind::FetchUnmapped;
  case UC_MEM_READ_PROT: return FaultKind::ReadProtected;
  case UC_MEM_WRITE_PROT: return FaultKind::WriteProtected;
  case UC_MEM_FETCH_PROT: return FaultKind::FetchProtected;
  default: return FaultKind::Other;
  }
}

// Semihosting (Arm "Semihosting for AArch32 and AArch64" v2; the RISC-V
// semihosting spec reuses its operation numbers and parameter blocks).
enum SemiOp : uint32_t {
  SysOpen = 0x01,
  SysClose = 0x02,
  SysWriteC = 0x03,
  SysWrite0 = 0x04,
  SysWrite = 0x05,
  SysRead = 0x06,
  SysIsTty = 0x09,
  SysSeek = 0x0a,
  SysFlen = 0x0c,
  SysClock = 0x10,
  SysTime = 0x11,
  SysErrno = 0x13,
  SysHeapInfo = 0x16,
  SysExit = 0x18,
  SysExitExtended = 0x20,
};
constexpr uint64_t AdpStoppedApplicationExit = 0x20026;

} // namespace

Expected<std::unique_ptr<Process>> Process::create(const Triple &TT, bool Debugged) {
  const ArchInfo *A = findArch(TT.arch);
  if (!A)
    return makeError(formatv("triple '%s': no emulator for architecture %s", TT.str.c_str(), archName(TT.arch)));
  uc_engine *UC = nullptr;
  if (uc_err E = uc_open(A->ucArch, A->ucMode, &UC))
    return ucError(E, formatv("uc_open(%s)", A->name));
  std::unique_ptr<Process> P(new Process(*A, UC));
  if (Error E = P->init(Debugged))
    return E;
  return P;
}

Error Process::init(bool Debugged) {
  Self = (Threads[Pid] = std::make_unique<Thread>()).get();
  Self->tid = Pid;
  NextTid = Pid + 1;
  timespec Cpu;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Cpu) == 0)
    CpuStartNs = int64_t(Cpu.tv_sec) * 1000000000 + Cpu.tv_nsec;
  Stores.useDirect(
      Debugged ? nullptr : DirectMemory::claim(A.qemuTarget),
      [this](uint64_t Addr) { return Cur && inHeap(Addr) && mapHeapOnTouch(Addr); },
      [this](uint64_t Addr, uc_mem_type T) {
        // Narrow, a direct access faults at its address's low 32 bits: those
        // at or above the stack, where no plan maps anything, are taken for
        // what a 64-bit program's small negative addresses (a null
        // pointer's p[-1]) became.
        if (A.wordSize == 8 && Stores.narrowAddresses() && Addr >= Space.stackTop && Addr >> 32 == 0)
          Addr = uint64_t(int64_t(int32_t(uint32_t(Addr))));
        fault(faultFor(T), reg(A.pc), Addr);
      });
  // The return trap: executable so that fetching it is no fault; `until`
  // stops emulation before its first instruction runs.
  // It also holds a bare return at NoOp, the _init/_fini a static link
  // makes of crti.o + crtn.o around no .init code of its own.
  if (uc_err E = Stores.map(layout::ReturnTrap, layout::PageSize, UC_PROT_READ | UC_PROT_WRITE))
    return ucError(E, "mapping the return trap");
  if (uc_err E = uc_mem_write(UC, layout::NoOp, A.retInsn.data(), A.retInsn.size()))
    return ucError(E, "writing the no-op function");
  if (uc_err E = uc_mem_write(UC, layout::ToUserMode, A.toUserMode.data(), A.toUserMode.size()))
    return ucError(E, "writing the way to user mode");
  if (uc_err E = Stores.protect(layout::ReturnTrap, layout::PageSize, UC_PROT_READ | UC_PROT_EXEC))
    return ucError(E, "protecting the return trap");
  const std::vector<uint8_t> &Tramp = A.signalFrame.trampoline;
  if (uc_err E = Stores.map(layout::SigReturn, layout::PageSize, UC_PROT_READ | UC_PROT_WRITE))
    return ucError(E, "mapping the signal return trampoline");
  if (uc_err E = uc_mem_write(UC, layout::SigReturn, Tramp.data(), Tramp.size()))
    return ucError(E, "writing the signal return trampoline");
  if (uc_err E = Stores.protect(layout::SigReturn, layout::PageSize, UC_PROT_READ | UC_PROT_EXEC))
    return ucError(E, "protecting the signal return trampoline");
  if (uc_err E = Stores.map(layout::Headers, layout::PageSize, UC_PROT_READ))
    return ucError(E, "mapping the program headers");
  if (uc_err E = Stores.map(Space.stackTop - layout::StackSize, layout::StackSize, UC_PROT_READ | UC_PROT_WRITE))
    return ucError(E, "mapping the stack");
  if (Error E = enterUserMode())
    return E;
  resetFloatingPoint();

  uc_hook H;
  auto Add = [&](int Type, auto Callback, const char *What, auto... Extra) -> Error {
    if (uc_err E = uc_hook_add(UC, &H, Type, (void *)Callback, this, 1, 0, Extra...))
      return ucError(E, What);
    Hooks.push_back(H);
    Stores.noteHook(Type);
    return Error::success();
  };
  if (Error E = Add(UC_HOOK_MEM_INVALID, onInvalidMemory, "memory hook"))
    return E;
  if (Error E = Add(UC_HOOK_INTR, onInterrupt, "interrupt hook"))
    return E;
  if (Error E = Add(UC_HOOK_INSN_INVALID, onInvalidInsn, "insn hook"))
    return E;
  if (A.syscallInsn >= 0)
    if (Error E = Add(UC_HOOK_INSN, onSyscallInsn, "syscall hook", A.syscallInsn))
      return E;
  return Error::success();
}

// As Linux starts a process (the row's initialRegs say how, per arch).
void Process::resetFloatingPoint() {
  for (const InitialReg &R : A.initialRegs)
    setReg(R.reg, (reg(R.reg) & ~R.clear) | R.set);
}

uint64_t Process::reg(int R) {
  uint64_t V = 0;
  uc_reg_read(UC, R, &V); // registers from our own table: cannot fail
  return V;
}
void Process::setReg(int R, uint64_t V) { uc_reg_write(UC, R, &V); }

// A freestanding program's sbrk may carve its heap from [__heap_start,
// __heap_end) (as picolibc's does); glibc asks brk for the same range. glibc's static start names its own ELF
// header (__ehdr_start) and calls _init/_fini, which a static link makes of
// crti.o/crtn.o: here the executor's header page and a bare return.
// Jumping to __linklab_return_trap ends a run as a return: a C runtime's
// start code that calls it as main stops there, initialised, so that calls
// can follow in the process (exec::Program::call).
// (protocol/address_plan.h, where -noexec finds them too)
std::vector<ExposedSymbol> Process::exposedSymbols() const { return executor::executorSymbols(); }

uint64_t Process::lookup(std::string_view Name) const {
  for (const ExposedSymbol &S : exposedSymbols())
    if (S.name == Name)
      return S.address;
  return 0;
}

// ---- memory -----------------------------------------------------------------

Expected<uint64_t> Process::reserve(uint64_t Size, uint64_t Align, executor::Region R) {
  executor::ReservationPlan Plan = Reserved; // moves on only when the mapping is made
  auto Base = Plan.take(Size, Align, R);
  if (!Base)
    return Base.takeError();
  Size = alignTo(Size, layout::PageSize);
  if (Error E = roomForRegions(1, "reserve"))
    return E;
  if (uc_err E = Stores.map(*Base, Size, UC_PROT_NONE))
    return ucError(E, formatv("reserving %s bytes at %s", hex(Size).c_str(), hex(*Base).c_str()));
  Reservations[*Base] = Size;
  Untouched.insert(*Base);
  Reserved = Plan;
  return *Base;
}

Error Process::finalize(const std::vector<SegmentWrite> &Segs) {
  return finalizeEach(
      Segs.size(),
      [&](size_t I) {
        return SegmentInfo{Segs[I].address, Segs[I].content.size(), Segs[I].zeroFill, Segs[I].prot};
      },
      [&](size_t I, const std::string &Where) -> Error {
        if (uc_err E = Stores.write(Segs[I].address, Segs[I].content.data(), Segs[I].content.size()))
          return ucError(E, Where);
        return Error::success();
      });
}

Error Process::mapFile(int Fd, uint64_t FileSize, const std::vector<FileSegment> &Segs) {
  for (const FileSegment &S : Segs)
    if (S.offset > FileSize || S.size > FileSize - S.offset)
      return makeError(formatv("segment %s: file bytes %s+%s are not inside the file (%s bytes)",
                               hex(S.address).c_str(), hex(S.offset).c_str(), hex(S.size).c_str(),
                               hex(FileSize).c_str()));
  return finalizeEach(
      Segs.size(),
      [&](size_t I) {
        return SegmentInfo{Segs[I].address, Segs[I].size, Segs[I].zeroFill, Segs[I].prot};
      },
      [&](size_t I, const std::string &Where) -> Error {
        const FileSegment &S = Segs[I];
        auto Failed = [&](uint64_t At, uint64_t Want, int Errno) {
          return makeError(formatv("%s: reading file bytes %s+%s: %s", Where.c_str(), hex(At).c_str(),
                                   hex(Want).c_str(), Errno == ENODATA ? "the file ends there" : std::strerror(Errno)));
        };
        // The kernel copies into the mirror's memory; else through a buffer.
        int Copied = Stores.writeFromFile(S.address, Fd, S.offset, S.size);
        if (Copied >= 0)
          return Copied ? Failed(S.offset, S.size, Copied) : Error::success();
        std::vector<uint8_t> Buf(std::min<uint64_t>(S.size, 1 << 16));
        for (uint64_t Done = 0; Done < S.size;) {
          uint64_t Want = std::min<uint64_t>(Buf.size(), S.size - Done);
          ssize_t N = pread(Fd, Buf.data(), Want, off_t(S.offset + Done));
          if (N < 0 && errno == EINTR)
            continue;
          if (N <= 0) // the file shrank since it was checked, or cannot be read
            return Failed(S.offset + Done, Want, N ? errno : ENODATA);
          if (uc_err E = Stores.write(S.address + Done, Buf.data(), size_t(N)))
            return ucError(E, Where);
          Done += uint64_t(N);
        }
        return Error::success();
      });
}

Error Process::finalizeEach(size_t Count, const std::function<SegmentInfo(size_t)> &Info,
                            const std::function<Error(size_t, const std::string &Where)> &Content) {
  std::vector<uint64_t> Touched;
  for (size_t I = 0; I < Count; ++I) {
    SegmentInfo S = Info(I);
    uint64_t Size = S.contentSize + S.zeroFill;
    std::string Where = formatv("segment %s+%s", hex(S.address).c_str(), hex(Size).c_str());
    if (S.zeroFill > layout::ReservationEnd || S.contentSize > layout::ReservationEnd ||
        S.prot & ~(ProtRead | ProtWrite | ProtExec))
      return makeError(Where + ": invalid size or protection");
    auto It = Reservations.upper_bound(S.address);
    if (It == Reservations.begin() || Size == 0)
      return makeError(Where + ": not inside a reservation");
    --It;
    if (S.address + Size > It->first + It->second || S.address + Size < S.address)
      return makeError(Where + ": not inside a reservation");
    // Protection is per page: a segment sharing a page with another would
    // silently change its neighbour's rights.
    if (S.address % layout::PageSize)
      return makeError(Where + ": not page-aligned");
    uint64_t Span = alignTo(Size, layout::PageSize);
    if (uc_err E = Stores.protect(S.address, Span, UC_PROT_READ | UC_PROT_WRITE))
      return ucError(E, Where);
    if (Error E = Content(I, Where))
      return E;
    if (!Untouched.count(It->first))
      if (uc_err E = Stores.zero(S.address + S.contentSize, Span - S.contentSize))
        return ucError(E, Where);
    Touched.push_back(It->first);
    if (uc_err E = Stores.protect(S.address, Span, S.prot)) // ProtBits equal UC_PROT_* bits
      return ucError(E, Where);
  }
  for (uint64_t Base : Touched)
    Untouched.erase(Base);
  return Error::success();
}

Error Process::deallocate(uint64_t Base) {
  auto It = Reservations.find(Base);
  if (It == Reservations.end())
    return makeError(formatv("no reservation at %s", hex(Base).c_str()));
  if (uc_err E = Stores.unmap(Base, It->second))
    return ucError(E, formatv("releasing %s", hex(Base).c_str()));
  Reservations.erase(It);
  return Error::success();
}

Expected<std::vector<uint8_t>> Process::read(uint64_t Addr, uint64_t Size) {
  if (Size > MaxTransfer)
    return makeError(
        formatv("read of %s bytes exceeds the %s-byte limit", hex(Size).c_str(), hex(MaxTransfer).c_str()));
  std::vector<uint8_t> Buf(Size);
  if (uc_err E = uc_mem_read(UC, Addr, Buf.data(), Size))
    return ucError(E, formatv("reading %s bytes at %s", hex(Size).c_str(), hex(Addr).c_str()));
  return Buf;
}

Error Process::write(uint64_t Addr, std::span<const uint8_t> Bytes) {
  if (auto It = Reservations.upper_bound(Addr); It != Reservations.begin())
    Untouched.erase(std::prev(It)->first);
  if (uc_err E = Stores.write(Addr, Bytes.data(), Bytes.size()))
    return ucError(E, formatv("writing %s bytes at %s", hex(Bytes.size()).c_str(), hex(Addr).c_str()));
  return Error::success();
}

Error Process::write(const std::vector<WritePiece> &Pieces) {
  for (const WritePiece &W : Pieces) {
    // zeroFill is bounded first, so that the sum cannot wrap.
    uint64_t Size = W.content.size() + std::min<uint64_t>(W.zeroFill, layout::ReservationEnd);
    auto It = Reservations.upper_bound(W.address);
    if (W.zeroFill > layout::ReservationEnd || Size == 0 || It == Reservations.begin() ||
        W.address + Size < W.address || W.address + Size > std::prev(It)->first + std::prev(It)->second)
      return makeError(formatv("write: %s bytes and %s zeros at %s: not inside a reservation",
                               hex(W.content.size()).c_str(), hex(W.zeroFill).c_str(), hex(W.address).c_str()));
  }
  for (const WritePiece &W : Pieces) {
    Untouched.erase(std::prev(Reservations.upper_bound(W.address))->first);
    std::string Where =
        formatv("writing %s bytes at %s", hex(W.content.size() + W.zeroFill).c_str(), hex(W.address).c_str());
    if (uc_err E = Stores.write(W.address, W.content.data(), W.content.size()))
      return ucError(E, Where);
    if (W.zeroFill)
      if (uc_err E = Stores.zero(W.address + W.content.size(), W.zeroFill))
        return ucError(E, Where);
  }
  return Error::success();
}

bool Process::chargeMemory(uint64_t Bytes) {
  if (Cur && RuntimeBytes + Bytes > Cur->memCap)
    return false;
  RuntimeBytes += Bytes;
  return true;
}

Error Process::overCap(uint64_t Size) const {
  if (!Cur || RuntimeBytes + Size <= Cur->memCap)
    return Error::success();
  return makeError(formatv("mapping %s bytes exceeds the memory cap of %s bytes (%s in use)", hex(Size).c_str(),
                           hex(Cur->memCap).c_str(), hex(RuntimeBytes).c_str()));
}

Error Process::roomForRegions(unsigned Regions, const char *What) {
  uc_mem_region *List = nullptr;
  uint32_t Count = 0;
  if (uc_err E = uc_mem_regions(UC, &List, &Count))
    return ucError(E, "counting memory regions");
  uc_free(List);
  if (Count + Regions > MaxRegions)
    return makeError(formatv("%s: the emulator's limit of %u memory regions is reached", What, MaxRegions));
  return Error::success();
}

Error Process::mapHeapAround(uint64_t Addr) {
  // The chunk: the MiB-aligned window at Addr, as large as what is already
  // mapped (so a growing heap needs few regions), clipped to the gap
  // between neighbouring chunks.
  uint64_t Page = Addr & ~(layout::PageSize - 1);
  uint64_t Size = std::clamp<uint64_t>(alignTo(HeapMapped, HeapChunkMin), HeapChunkMin, HeapChunkMax);
  uint64_t Lo = layout::HeapBase, Hi = layout::HeapBase + layout::HeapSpan;
  auto Next = HeapChunks.upper_bound(Addr);
  if (Next != HeapChunks.end())
    Hi = Next->first;
  if (Next != HeapChunks.begin())
    Lo = std::prev(Next)->first + std::prev(Next)->second;
  uint64_t Start = std::max(Lo, Page / Size * Size);
  uint64_t End = std::min(Hi, Start + Size);
  if (End <= Page) // the aligned window lies below a neighbour's end: start at the page instead
    Start = Page, End = std::min(Hi, Page + Size);
  // The cap is charged for the whole chunk; when little is left, map only
  // that much starting at the touched page, so the cap is reached exactly.
  uint64_t Left = Cur->memCap - std::min(RuntimeBytes, Cur->memCap);
  if (End - Start > Left)
    Start = Page, End = Page + std::min(End - Page, Left & ~(layout::PageSize - 1));
  if (End <= Page || !chargeMemory(End - Start))
    return makeError(formatv("memory cap of %s bytes reached touching heap address %s", hex(Cur->memCap).c_str(),
                             hex(Addr).c_str()));
  Error Room = roomForRegions(1, "heap");
  uc_err E = Room ? UC_ERR_NOMEM : Stores.map(Start, End - Start, UC_PROT_READ | UC_PROT_WRITE);
  if (E) {
    RuntimeBytes -= End - Start;
    return Room ? std::move(Room)
                : ucError(E, formatv("mapping heap %s+%s", hex(Start).c_str(), hex(End - Start).c_str()));
  }
  HeapChunks[Start] = End - Start;
  HeapMapped += End - Start;
  return Error::success();
}

// The heap is mapped on first touch, so the memory cap counts what the
// program uses, not what it reserved.
bool Process::mapHeapOnTouch(uint64_t Addr) {
  Error E = mapHeapAround(Addr);
  if (!E)
    return true;
  stop(RunStatus::MemoryLimit, 0, E.message());
  return false;
}

Expected<uint64_t> Process::mapAnonymous(uint64_t Size, uint32_t Prot) {
  Size = alignTo(Size, layout::PageSize);
  if (Size == 0 || Size > Space.mmapSpan())
    return makeError(formatv("bad mapping size %s", hex(Size).c_str()));
  // An inaccessible mapping reserves address space (glibc's malloc arenas,
  // stack guards): the memory cap counts it as the program makes it
  // accessible (chargeAccess).
  const uint64_t Charged = Prot == UC_PROT_NONE ? 0 : Size;
  if (Error E = overCap(Charged))
    return E;
  chargeMemory(Charged);
  auto Fail = [&](Error E) -> Expected<uint64_t> {
    RuntimeBytes -= Charged;
    return E;
  };
  auto Fit = std::find_if(MmapFree.begin(), MmapFree.end(), [&](auto &F) { return F.second >= Size; });
  if (Fit == MmapFree.end()) {
    uint64_t Chunk = std::max(alignTo(Size, HeapChunkMin), MmapChunk);
    const layout::Upper::Area &Below = Space.mmap[0], &Above = Space.mmap[1];
    bool InAbove = Above.end > Above.base && NextMmap >= Above.base;
    if (!InAbove && NextMmap + Chunk > Below.end && Above.end - Above.base >= Chunk)
      NextMmap = Above.base, InAbove = true; // the rest below stays unused
    if (NextMmap + Chunk > (InAbove ? Above.end : Below.end))
      return Fail(makeError(formatv("mmap area exhausted mapping %s bytes", hex(Size).c_str())));
    if (Error E = roomForRegions(1, "mmap"))
      return Fail(std::move(E));
    if (uc_err E = Stores.map(NextMmap, Chunk, UC_PROT_READ | UC_PROT_WRITE))
      return Fail(ucError(E, "mmap"));
    Fit = MmapFree.emplace(NextMmap, Chunk).first;
    NextMmap += Chunk + layout::PageSize; // a guard page between chunks
  }
  uint64_t Base = Fit->first, Rest = Fit->second - Size;
  MmapFree.erase(Fit);
  if (Rest)
    MmapFree[Base + Size] = Rest;
  if (Prot != (UC_PROT_READ | UC_PROT_WRITE)) {
    // Protecting part of a chunk splits its region: counted against the budget.
    Error E = roomForRegions(2, "mmap");
    if (!E && Stores.protect(Base, Size, Prot) != UC_ERR_OK)
      E = makeError(formatv("mmap: cannot protect %s+%s", hex(Base).c_str(), hex(Size).c_str()));
    if (E) {
      MmapFree[Base] = Size; // neighbours stay separate entries: first-fit copes
      return Fail(std::move(E));
    }
    MmapReprotected.insert(Base);
  }
  Mmaps[Base] = Size;
  if (!Charged)
    MmapCharged[Base] = 0;
  return Base;
}

Error Process::chargeAccess(uint64_t Base, uint64_t End) {
  auto It = MmapCharged.find(Base);
  if (It == MmapCharged.end() || End - Base <= It->second)
    return Error::success();
  uint64_t More = End - Base - It->second;
  if (Error E = overCap(More))
    return E;
  chargeMemory(More);
  It->second = End - Base;
  return Error::success();
}

Error Process::unmapAnonymous(uint64_t Base, uint64_t Size) {
  auto It = Mmaps.find(Base);
  // Whole mappings only: musl's allocators free what they mapped.
  if (It == Mmaps.end() || It->second != Size)
    return makeError(formatv("munmap %s+%s: not a whole mapping", hex(Base).c_str(), hex(Size).c_str()));
  if (MmapReprotected.erase(Base) && Stores.protect(Base, Size, UC_PROT_READ | UC_PROT_WRITE))
    return makeError(formatv("munmap %s: cannot restore its protection", hex(Base).c_str()));
  // Zeroed now, so the next mapping of these pages reads as zero without
  // touching (and committing) fresh arena pages.
  Stores.zero(Base, Size);
  Mmaps.erase(It);
  auto Charged = MmapCharged.find(Base);
  RuntimeBytes -= Charged == MmapCharged.end() ? Size : Charged->second;
  if (Charged != MmapCharged.end())
    MmapCharged.erase(Charged);
  auto [Free, _] = MmapFree.emplace(Base, Size);
  if (auto N = std::next(Free); N != MmapFree.end() && Free->first + Free->second == N->first)
    Free->second += N->second, MmapFree.erase(N);
  if (Free != MmapFree.begin())
    if (auto P = std::prev(Free); P->first + P->second == Free->first)
      P->second += Free->second, MmapFree.erase(Free);
  return Error::success();
}

Expected<TLSResultMsg> Process::setupTLS(const SetupTLSMsg &M) {
  uint64_t Align = std::max<uint64_t>(M.alignment, 16);
  if ((Align & (Align - 1)) || Align > layout::PageSize)
    return makeError(formatv("TLS alignment %s is not a power of two up to the page size", hex(M.alignment).c_str()));
  if (M.image.size() > M.memSize || M.memSize > (256u << 20))
    return makeError(
        formatv("TLS image of %zu bytes does not fit a %s-byte block", M.image.size(), hex(M.memSize).c_str()));
  // Room for the block, alignment slack, and a zeroed thread control block:
  // musl keeps `struct pthread` (errno among it) at the thread pointer.
  constexpr uint64_t TcbBytes = 512;
  uint64_t Block = alignTo(M.memSize, Align);
  auto Base = mapAnonymous(Block + 2 * Align + TcbBytes, UC_PROT_READ | UC_PROT_WRITE);
  if (!Base)
    return Base.takeError();
  TLSResultMsg R;
  switch (archRow(A.arch).tlsVariant) {
  case TLSVariant::BlockBelowTP:
    // The block ends at TP: the linker's offsets count back from TP over
    // memSize bytes (a multiple of the image's own alignment). The TCB's
    // first word points to itself (%fs:0 / %gs:0 is the thread pointer).
    R.threadPointer = alignTo(*Base + Block, Align);
    R.block = R.threadPointer - M.memSize;
    if (Error E = writeWords(R.threadPointer, std::array{R.threadPointer}))
      return E;
    break;
  case TLSVariant::BlockAfterTCB16:
  case TLSVariant::BlockAfterTCB8:
    R.threadPointer = alignTo(*Base, Align);
    R.block = R.threadPointer + alignTo(archRow(A.arch).tlsVariant == TLSVariant::BlockAfterTCB16 ? 16 : 8,
                                        std::max<uint64_t>(M.alignment, 1));
    break;
  case TLSVariant::BlockAtTP: R.threadPointer = R.block = alignTo(*Base, Align); break;
  }
  if (Error E = write(R.block, M.image))
    return E;
  if (Error E = setThreadPointer(R.threadPointer))
    return E;
  TlsPhdr = {R.block, M.image.size(), M.memSize, std::max<uint64_t>(M.alignment, 1)};
  return R;
}

// ---- running ----------------------------------------------------------------

void Process::stop(RunStatus S, int64_t Value, std::string Message) {
  if (!Cur || Cur->stopped)
    return;
  Cur->stopped = true;
  Cur->result.status = uint8_t(S);
  Cur->result.value = Value;
  Cur->result.pc = reg(A.pc);
  // What one thread ran into names it (PROTOCOL.md, run-result).
  bool OfThread = S != RunStatus::Exited && S != RunStatus::Returned && S != RunStatus::Error;
  Cur->result.message = std::move(Message) + (OfThread ? threadTag() : "");
  uc_emu_stop(UC);
}

void Process::fault(FaultKind K, uint64_t Pc, uint64_t Addr) {
  if (!Cur || Cur->stopped)
    return;
  if (Debug && Debug->attached() && !std::exchange(Cur->faultDebugged, false)) {
    Cur->debugFault = RunState::DebugFault{K, Pc, Addr}; // the run loop asks gdb
    uc_emu_stop(UC);
    return;
  }
  // The signal Linux sends for it (si_code SEGV_MAPERR 1, SEGV_ACCERR 2,
  // the arch's for SIGILL), if the program has a handler.
  constexpr int SigIll = 4, SigSegv = 11;
  bool Unmapped = K == FaultKind::ReadUnmapped || K == FaultKind::WriteUnmapped || K == FaultKind::FetchUnmapped;
  bool Protected = K == FaultKind::ReadProtected || K == FaultKind::WriteProtected || K == FaultKind::FetchProtected;
  if (K == FaultKind::IllegalInstruction ? faultSignal(SigIll, A.illegalCode, Pc, Pc)
                                         : (Unmapped || Protected) && faultSignal(SigSegv, Unmapped ? 1 : 2, Pc, Addr))
    return;
  stop(RunStatus::Fault, 0, formatv("%s at pc %s, address %s", faultKindName(K), hex(Pc).c_str(), hex(Addr).c_str()));
  Cur->result.faultKind = uint8_t(K);
  Cur->result.pc = Pc;
  Cur->result.address = Addr;
}

bool Process::onInvalidMemory(uc_engine *, uc_mem_type T, uint64_t Addr, int Size, int64_t, void *User) {
  auto *P = static_cast<Process *>(User);
  bool Unmapped = T == UC_MEM_READ_UNMAPPED || T == UC_MEM_WRITE_UNMAPPED;
  if (Unmapped && inHeap(Addr))
    return P->mapHeapOnTouch(Addr);
  // Unicorn syncs the PC register only at translation-block starts; a
  // budgeted run's counting hook knows the exact instruction.
  bool Fetch = T == UC_MEM_FETCH_UNMAPPED || T == UC_MEM_FETCH_PROT;
  P->fault(faultFor(T), Fetch ? Addr : P->Cur->budget ? P->Cur->lastPc : P->reg(P->A.pc), Addr);
  return false;
}

void Process::onSyscallInsn(uc_engine *, void *User) { static_cast<Process *>(User)->syscall(); }

void Process::onInterrupt(uc_engine *, uint32_t IntNo, void *User) {
  constexpr uint8_t SiKernel = 0x80;
  auto *P = static_cast<Process *>(User);
  uint64_t Pc = P->reg(P->A.pc);
  for (const TrapRule &R : P->A.traps) {
    if (R.intno != IntNo && R.intno != AnyVector)
      continue;
    switch (R.trap) {
    case Trap::Syscall: return P->syscall();
    case Trap::SemihostOrIllegal:
      if (P->semihosting(Pc)) {
        if (!P->Cur->stopped)
          P->setReg(P->A.pc, Pc + 4);
        return;
      }
      if (P->emulateIdRegisterRead(Pc))
        return;
      [[fallthrough]];
    case Trap::Illegal: return P->fault(FaultKind::IllegalInstruction, Pc - R.pcBack, Pc - R.pcBack);
    case Trap::SoftwareInterrupt: {
      auto Insn = P->read(Pc - R.pcBack, 2);
      bool IntN = Insn && (*Insn)[0] == 0xcd && (*Insn)[1] == IntNo;
      if (!Insn)
        consumeError(Insn.takeError());
      if (!IntN)
        continue;
      [[fallthrough]];
    }
    case Trap::Signal:
      // SIGFPE for x86's divide error, SIGTRAP for int3, SIGSEGV for a gate
      // user mode may not use: the handler's, or the end of the run as
      // Linux's default action, reported at the instruction it names. A
      // signal the kernel itself raises (SI_KERNEL) names no address.
      if (!P->faultSignal(R.signal, R.code, Pc - R.pcBack, R.code == SiKernel ? 0 : Pc - R.pcBack) && P->Cur &&
          !P->Cur->stopped) {
        P->stop(RunStatus::Signaled, R.signal, formatv("killed by %s", signalName(R.signal)));
        P->Cur->result.pc = Pc - R.pcBack;
      }
      return;
    }
  }
  P->stop(RunStatus::Fault, IntNo, formatv("unhandled CPU exception %u at pc %s", IntNo, hex(Pc).c_str()));
  P->Cur->result.faultKind = uint8_t(FaultKind::Other);
}

// Unicorn stops at instructions it considers invalid, RISC-V `ebreak`
// included; a semihosting ebreak is handled and the run resumed after it,
// another is a breakpoint (SIGTRAP TRAP_BRKPT), as Linux delivers it.
bool Process::onInvalidInsn(uc_engine *, void *User) {
  auto *P = static_cast<Process *>(User);
  uint64_t Pc = P->reg(P->A.pc);
  if (P->semihosting(Pc)) {
    P->Cur->resume = !P->Cur->stopped;
    P->Cur->resumePc = Pc + 4;
    return true;
  }
  if (P->isBreakInsn(Pc)) {
    constexpr int SigTrap = 5, TrapBrkpt = 1;
    if (!P->faultSignal(SigTrap, TrapBrkpt, Pc, Pc) && P->Cur && !P->Cur->stopped) {
      P->stop(RunStatus::Signaled, SigTrap, "killed by SIGTRAP");
      P->Cur->result.pc = Pc;
    }
    return false;
  }
  P->fault(FaultKind::IllegalInstruction, Pc, Pc);
  return false;
}

bool Process::isBreakInsn(uint64_t Pc) {
  for (uint32_t W : A.breakInsns) {
    uint64_t Size = (W & 3) == 3 ? 4 : 2;
    auto Bytes = read(Pc, Size);
    if (!Bytes) {
      consumeError(Bytes.takeError());
      continue;
    }
    uint32_t Got = 0;
    for (uint64_t I = 0; I < Size; ++I) // instruction bytes are little-endian on every arch
      Got |= uint32_t((*Bytes)[I]) << (8 * I);
    if (Got == W)
      return true;
  }
  return false;
}

void Process::onCode(uc_engine *, uint64_t Addr, uint32_t Size, void *User) {
  auto *P = static_cast<Process *>(User);
  P->Cur->lastPc = Addr;
  if (P->Debug && P->Debug->check(Addr, Size)) {
    P->Cur->debugStop = true; // before the instruction runs
    uc_emu_stop(P->UC);
    return;
  }
  if (++P->Cur->executed > P->Cur->budget && P->Cur->budget)
    P->stop(RunStatus::InstructionLimit, 0,
            formatv("instruction budget of %llu spent", (unsigned long long)P->Cur->budget));
}

// The wall-time limit. Unicorn's own (uc_emu_start's timeout) runs a thread
// that polls the clock in a microsecond-sleep loop: measured, an eighth of
// the executor's CPU samples in the exec benchmark, taken from the
// emulating thread on a busy machine. This one sleeps until the deadline, then stops the
// engine, and again every millisecond until the run ends: a stop that lands
// between two uc_emu_start calls is dropped (the next start clears it), and
// the run loop checks expired() before each start.
class Process::Watchdog {
public:
  Watchdog(uc_engine *UC, Clock::time_point Deadline)
      : Thread([this, UC, Deadline] {
          std::unique_lock<std::mutex> Lock(M);
          if (Wake.wait_until(Lock, Deadline, [&] { return Done; }))
            return;
          Expired = true;
          do
            uc_emu_stop(UC);
          while (!Wake.wait_for(Lock, std::chrono::milliseconds(1), [&] { return Done; }));
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> Lock(M);
      Done = true;
    }
    Wake.notify_one();
    Thread.join();
  }
  bool expired() const { return Expired; }

private:
  std::mutex M;
  std::condition_variable Wake;
  bool Done = false;
  std::atomic<bool> Expired{false};
  std::thread Thread; // last: starts once the members it uses exist
};

RunResultMsg Process::run(uint64_t Entry, const Limits &L, OutputFn Out, InputFn In, bool MainRun) {
  Untouched.clear(); // the program may write anywhere writable
  RunState S;
  S.out = std::move(Out);
  S.in = std::move(In);
  S.budget = L.instructions;
  S.memCap = L.memory();
  uint32_t WallMs = L.wall();
  sandbox::limitRun(WallMs, S.memCap);
  Cur = &S;
  // A debugged run stops before chosen instructions: the same code hook as
  // the counter's. The first waits for gdb to connect, before its clock starts.
  bool Debugging = Debug && MainRun && Debug->runStarts();
  auto Deadline = Clock::now() + std::chrono::milliseconds(WallMs);
  S.deadline = Deadline;
  S.wallMs = WallMs;
  // Counting costs a callback per instruction, so only budgeted runs pay it.
  // Our own counter (not uc_emu_start's `count`) survives the restarts a
  // semihosting trap needs.
  // Translated blocks carry the hooks present when they were translated, so
  // the cache is flushed whenever the counting hook comes or goes.
  uc_hook CountHook = 0;
  if (S.budget || Debugging) {
    if (uc_hook_add(UC, &CountHook, UC_HOOK_CODE, (void *)onCode, this, 1, 0) == UC_ERR_OK)
      Stores.dropAllTranslations();
    else
      stop(RunStatus::Error, 0, "cannot install the instruction counter");
  }
  if (uc_err E = Stores.settle())
    stop(RunStatus::Error, 0, std::string("cannot apply memory protections: ") + uc_strerror(E));
  FastStores::Running Emulating(Stores);
  ExitChecks Checks(/*Skip=*/!CountHook);
  HostX87 Fpu(UC);
  std::optional<Watchdog> Timer(std::in_place, UC, Deadline);
  // While gdb holds the process stopped, its wall time does not pass.
  auto DebugStop = [&](uint64_t At) {
    Timer.reset();
    auto Paused = Clock::now();
    bool Go = Debug->stopped(At);
    Deadline += Clock::now() - Paused;
    S.deadline = Deadline;
    Timer.emplace(UC, Deadline);
    return Go ? resumePc() : At;
  };
  if (Debugging)
    S.stopInCall = [&] {
      Timer.reset();
      auto Paused = Clock::now();
      bool Go = Debug->stopInCall();
      Deadline += Clock::now() - Paused;
      S.deadline = Deadline;
      Timer.emplace(UC, Deadline);
      return Go;
    };
  uint64_t Pc = Entry;
  if (Debugging && !S.stopped) {
    setReg(A.pc, Entry); // gdb sees the process at its first instruction
    Pc = DebugStop(Entry);
  }
  while (!S.stopped) {
    if (Timer->expired() || Clock::now() >= Deadline) {
      stop(RunStatus::TimeLimit, 0, formatv("wall-time limit of %u ms reached", WallMs));
      break;
    }
    uc_err E = uc_emu_start(UC, Pc, layout::ReturnTrap, 0, 0);
    if (auto F = std::exchange(S.debugFault, std::nullopt)) {
      setReg(A.pc, F->pc | (A.arch == Arch::Arm && (reg(UC_ARM_REG_CPSR) & 0x20)));
      Timer.reset();
      auto Paused = Clock::now();
      Debugger::FaultCourse Course = Debug->faulted(F->kind, F->pc, F->address);
      Deadline += Clock::now() - Paused;
      S.deadline = Deadline;
      Timer.emplace(UC, Deadline);
      if (Course == Debugger::FaultCourse::Ignore) {
        Pc = resumePc(); // where gdb left the pc
        continue;
      }
      if (Course == Debugger::FaultCourse::Kill) {
        stop(RunStatus::Signaled, 9, "killed by the debugger");
        break;
      }
      S.faultDebugged = true;
      fault(F->kind, F->pc, F->address); // a handler runs, or the process ends
    }
    if (S.stopped) {
      break;
    }
    if (S.debugStop) {
      S.debugStop = false;
      Pc = DebugStop(reg(A.pc));
      continue;
    }
    // A new thread starts where its parent's clone returns.
    bool Cloned = S.cloned;
    if (Cloned)
      startThread(resumePc());
    if (S.stopped)
      break;
    if (Cloned || S.signalsDue || S.sigreturnDue || S.fault || S.resume || S.switchDue) {
      Pc = S.signalsDue || S.sigreturnDue || S.fault ? handleSignals(S.fault ? S.faultPc : resumePc())
           : S.resume                                ? S.resumePc
                                                     : resumePc();
      S.resume = false;
      if (S.switchDue && !S.stopped)
        Pc = switchThread(Pc);
      continue;
    }
    uint64_t Now = reg(A.pc);
    if (E == UC_ERR_INSN_INVALID)
      fault(FaultKind::IllegalInstruction, Now, Now);
    else if (E != UC_ERR_OK)
      stop(RunStatus::Error, 0, formatv("emulation failed at pc %s: %s", hex(Now).c_str(), uc_strerror(E)));
    else if (Now == layout::ReturnTrap)
      stop(RunStatus::Returned, A.wordSize == 4 ? int64_t(int32_t(reg(A.ret))) : int64_t(reg(A.ret)));
    else if (Timer->expired())
      stop(RunStatus::TimeLimit, 0, formatv("wall-time limit of %u ms reached at pc %s", WallMs, hex(Now).c_str()));
    else
      stop(RunStatus::Error, 0, formatv("emulation stopped at pc %s for no known reason", hex(Now).c_str()));
  }
  if (Debugging)
    Debug->runEnded(S.result);
  for (uc_hook H : {CountHook, S.sliceHook})
    if (H) {
      uc_hook_del(UC, H);
      Stores.dropAllTranslations();
    }
  endThreads();
  S.result.instructions = S.executed;
  Cur = nullptr;
  return std::move(S.result);
}

// The ELF header and program headers of the running program, where a loaded
// executable has them: PT_PHDR, a PT_LOAD for this page, PT_TLS describing
// the TLS image set up last (glibc's and musl's static start build the
// initial thread's block from it), and PT_GNU_STACK (not executable), in
// the process's ELF class. System V gABI, "ELF Header" and "Program Header".
Expected<uint64_t> Process::writeHeaders(uint64_t Entry) {
  struct Phdr {
    uint32_t type, flags;
    uint64_t offset, vaddr, filesz, memsz, align;
  };
  enum : uint32_t { PtLoad = 1, PtPhdr = 6, PtTls = 7, PtGnuStack = 0x6474e551, R = 4, W = 2 };
  const bool Is64 = A.wordSize == 8;
  const uint64_t EhSize = Is64 ? 64 : 52, PhEnt = phdrSize();
  std::vector<Phdr> Ph = {{PtPhdr, R, EhSize, layout::Headers + EhSize, 0, 0, A.wordSize}};
  Ph.push_back({PtLoad, R, 0, layout::Headers, layout::PageSize, layout::PageSize, layout::PageSize});
  if (TlsPhdr.memSize)
    Ph.push_back({PtTls, R, 0, TlsPhdr.vaddr, TlsPhdr.fileSize, TlsPhdr.memSize, TlsPhdr.align});
  Ph.push_back({PtGnuStack, R | W, 0, 0, 0, 0, 16});
  Ph[0].filesz = Ph[0].memsz = Ph.size() * PhEnt;
  uint8_t Page[layout::PageSize] = {0x7f, 'E', 'L', 'F', uint8_t(Is64 ? 2 : 1), uint8_t(A.bigEndian ? 2 : 1),
                                    1 /* version */};
  auto Put = [&](size_t Off, uint64_t V, size_t N) { storeGuest(Page + Off, V, unsigned(N)); };
  const size_t W0 = A.wordSize; // e_entry, e_phoff, e_shoff and the phdr addresses are words
  Put(16, 2 /* ET_EXEC */, 2), Put(18, A.elfMachine, 2), Put(20, 1, 4), Put(24, Entry, W0), Put(24 + W0, EhSize, W0);
  size_t Flags = 24 + 3 * W0; // after e_shoff
  Put(Flags, A.elfFlags, 4), Put(Flags + 4, EhSize, 2), Put(Flags + 6, PhEnt, 2), Put(Flags + 8, Ph.size(), 2);
  for (size_t I = 0; I < Ph.size(); ++I) {
    const Phdr &P = Ph[I];
    size_t At = EhSize + I * PhEnt;
    // Elf64_Phdr puts p_flags second; Elf32_Phdr puts it after p_memsz.
    uint64_t Fields[] = {P.offset, P.vaddr, P.vaddr, P.filesz, P.memsz};
    Put(At, P.type, 4);
    size_t F = Is64 ? At + 8 : At + 4;
    if (Is64)
      Put(At + 4, P.flags, 4);
    for (uint64_t V : Fields)
      Put(F, V, W0), F += W0;
    if (!Is64)
      Put(F, P.flags, 4), F += 4;
    Put(F, P.align, W0);
  }
  if (uc_err E = Stores.protect(layout::Headers, layout::PageSize, UC_PROT_READ | UC_PROT_WRITE))
    return ucError(E, "writing the program headers");
  uc_err E = uc_mem_write(UC, layout::Headers, Page, sizeof Page);
  Stores.protect(layout::Headers, layout::PageSize, UC_PROT_READ); // only ever lowers rights back
  if (E)
    return ucError(E, "writing the program headers");
  return Ph.size();
}

// The initial stack as exec leaves it (System V ABI, "Process Initialization";
// the Linux AArch64 and RISC-V ports use the same picture): argc, argv[],
// NULL, envp[], NULL, auxv pairs ending in AT_NULL, then the strings and the
// 16 AT_RANDOM bytes above.
Error Process::pushArgv(const RunMainMsg &M, uint64_t &Sp, uint64_t &Argv, uint64_t &Envp) {
  uint64_t Top = Space.stackTop;
  size_t Total = 0;
  for (auto *List : {&M.args, &M.env})
    for (const std::string &S : *List)
      Total += S.size() + 1 + 8;
  if (Total > layout::StackSize / 2)
    return makeError(formatv("arguments and environment take %zu bytes, more than half the stack", Total));
  auto PushString = [&](const std::string &S) -> Expected<uint64_t> {
    Top -= S.size() + 1;
    if (Error E = write(Top, {reinterpret_cast<const uint8_t *>(S.c_str()), S.size() + 1}))
      return E;
    return Top;
  };
  ExecFn = M.args.empty() ? std::string() : M.args[0];
  auto ExecFnAt = PushString(ExecFn);
  if (!ExecFnAt)
    return ExecFnAt.takeError();
  std::vector<uint64_t> Ptrs[2];
  for (int L = 0; L < 2; ++L)
    for (const std::string &S : L == 0 ? M.args : M.env) {
      auto At = PushString(S);
      if (!At)
        return At.takeError();
      Ptrs[L].push_back(*At);
    }
  uint64_t Platform = 0;
  if (A.platform) {
    auto At = PushString(A.platform);
    if (!At)
      return At.takeError();
    Platform = *At;
  }
  // AT_RANDOM: 16 bytes libc seeds its stack protector and pointer guard
  // from; fixed so runs are reproducible.
  Top = (Top - 16) & ~uint64_t(15);
  static const uint8_t Random[16] = {0x6c, 0x69, 0x6e, 0x6b, 0x6c, 0x61, 0x62, 0x21,
                                     0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15};
  if (Error E = write(Top, Random))
    return E;
  auto Phnum = writeHeaders(M.entry);
  if (!Phnum)
    return Phnum.takeError();
  // include/uapi/linux/auxvec.h; AT_UID..AT_EGID as getuid() answers.
  enum : uint64_t {
    AT_NULL = 0,
    AT_PHDR = 3,
    AT_PHENT = 4,
    AT_PHNUM = 5,
    AT_PAGESZ = 6,
    AT_BASE = 7,
    AT_FLAGS = 8,
    AT_ENTRY = 9,
    AT_UID = 11,
    AT_EUID = 12,
    AT_GID = 13,
    AT_EGID = 14,
    AT_PLATFORM = 15,
    AT_HWCAP = 16,
    AT_CLKTCK = 17,
    AT_SECURE = 23,
    AT_RANDOM = 25,
    AT_HWCAP2 = 26,
    AT_EXECFN = 31,
  };
  std::vector<uint64_t> Aux = {AT_PHDR,   layout::Headers + (A.wordSize == 8 ? 64 : 52),
                               AT_PHENT,  phdrSize(),
                               AT_PHNUM,  *Phnum,
                               AT_PAGESZ, layout::PageSize,
                               AT_BASE,   0,
                               AT_FLAGS,  0,
                               AT_ENTRY,  M.entry,
                               AT_UID,    1000,
                               AT_EUID,   1000,
                               AT_GID,    1000,
                               AT_EGID,   1000,
                               AT_HWCAP,  A.hwcap,
                               AT_HWCAP2, A.hwcap2,
                               AT_CLKTCK, 100,
                               AT_SECURE, 0,
                               AT_RANDOM, Top,
                               AT_EXECFN, *ExecFnAt};
  if (Platform)
    Aux.insert(Aux.end(), {AT_PLATFORM, Platform});
  Aux.insert(Aux.end(), {AT_NULL, 0});
  AuxVector = Aux;
  std::vector<uint64_t> Words = {M.args.size()};
  for (int L = 0; L < 2; ++L) {
    Words.insert(Words.end(), Ptrs[L].begin(), Ptrs[L].end());
    Words.push_back(0); // argv / envp terminator
  }
  Words.insert(Words.end(), Aux.begin(), Aux.end());
  Sp = (Top - A.wordSize * Words.size()) & ~uint64_t(15);
  CallStackTop = Sp;
  Argv = Sp + A.wordSize;
  Envp = Argv + A.wordSize * (M.args.size() + 1);
  return writeWords(Sp, Words);
}

Error Process::writeWords(uint64_t Addr, std::span<const uint64_t> Words) {
  std::vector<uint8_t> Bytes(Words.size() * A.wordSize);
  for (size_t I = 0; I < Words.size(); ++I)
    storeGuest(Bytes.data() + I * A.wordSize, Words[I], A.wordSize);
  return write(Addr, Bytes);
}

void Process::storeGuest(uint8_t *P, uint64_t V, unsigned N) const {
  for (unsigned I = 0; I < N; ++I)
    P[A.bigEndian ? N - 1 - I : I] = uint8_t(V >> (8 * I));
}

uint64_t Process::loadGuest(const uint8_t *P, unsigned N) const {
  uint64_t V = 0;
  for (unsigned I = 0; I < N; ++I)
    V |= uint64_t(P[A.bigEndian ? N - 1 - I : I]) << (8 * I);
  return V;
}

Error Process::setReturnAddress(uint64_t &Sp) {
  if (A.link >= 0) {
    setReg(A.link, layout::ReturnTrap);
    return Error::success();
  }
  Sp -= A.wordSize; // as `call` would: the callee sees sp = -word mod 16
  return writeWords(Sp, std::array{layout::ReturnTrap});
}

Error Process::passArguments(std::span<const uint64_t> Args, uint64_t &Sp) {
  size_t InRegs = std::min(Args.size(), A.args.size());
  for (size_t I = 0; I < InRegs; ++I)
    setReg(A.args[I], Args[I]);
  if (InRegs == Args.size())
    return Error::success();
  // The rest in order from the lowest address, which the call leaves 16-aligned.
  Sp = (Sp - A.wordSize * (Args.size() - InRegs)) & ~uint64_t(15);
  return writeWords(Sp, Args.subspan(InRegs));
}

// At EL0 an MRS of the CPU's ID registers is undefined; Linux emulates those
// of op0 3, op1 0, CRn 0, CRm 0 or 2-7 (its cpu-feature-registers.rst),
// which glibc reads at start-up when AT_HWCAP has HWCAP_CPUID: MIDR_EL1 as
// the CPU has it, MPIDR_EL1 as bit 31 alone, the rest of CRm 0 as 0, the
// feature registers as the CPU has them. Any other MRS stays SIGILL.
bool Process::emulateIdRegisterRead(uint64_t Pc) {
  uint32_t Insn = 0;
  if (A.ucArch != UC_ARCH_ARM64 || uc_mem_read(UC, Pc, &Insn, 4) != UC_ERR_OK) // instructions: little-endian
    return false;
  if ((Insn & 0xfffff000) != 0xd5380000) // MRS, op0 3, op1 0, CRn 0
    return false;
  unsigned CRm = Insn >> 8 & 0xf, Op2 = Insn >> 5 & 7, Rt = Insn & 31;
  if (CRm == 1 || CRm > 7)
    return false;
  uc_arm64_cp_reg R = {0, CRm, 3, 0, CRm == 0 ? 0 : Op2, 0};
  if (uc_reg_read(UC, UC_ARM64_REG_CP_REG, &R) != UC_ERR_OK)
    R.val = 0;
  uint64_t V = CRm != 0 || Op2 == 0 ? R.val : Op2 == 5 ? uint64_t(1) << 31 : 0;
  if (Rt < 31)
    setReg(Rt == 29 ? UC_ARM64_REG_X29 : Rt == 30 ? UC_ARM64_REG_X30 : UC_ARM64_REG_X0 + int(Rt), V);
  setReg(A.pc, Pc + 4);
  return true;
}

// Before any hook exists: the way down is no guest event.
Error Process::enterUserMode() {
  if (A.toUserMode.empty())
    return Error::success();
  if (!A.userGdt.empty())
    if (Error E = mapGdt())
      return E;
  setReg(A.sp, Space.stackTop); // x86's iret frame goes there
  if (uc_err E = Stores.settle())
    return makeError(formatv("entering user mode: %s", uc_strerror(E)));
  uc_err E = uc_emu_start(UC, layout::ToUserMode, layout::ReturnTrap, 0, 0);
  if (E != UC_ERR_OK || reg(A.pc) != layout::ReturnTrap)
    return makeError(
        formatv("entering user mode: %s at pc %s", E ? uc_strerror(E) : "stopped early", hex(reg(A.pc)).c_str()));
  return Error::success();
}

// x86: Linux's user segments (ArchInfo::userGdt), in the page after the
// program headers (read-only to the program), where set_thread_area's
// entries go too.
Error Process::mapGdt() {
  constexpr uint64_t Gdt = layout::Headers + layout::PageSize;
  if (uc_err E = Stores.map(Gdt, layout::PageSize, UC_PROT_READ))
    return ucError(E, "mapping the GDT");
  for (auto [Entry, Descriptor] : A.userGdt)
    if (uc_err E = uc_mem_write(UC, Gdt + 8 * Entry, &Descriptor, 8))
      return ucError(E, "writing a GDT entry");
  uc_x86_mmr Gdtr = {0, Gdt, uint32_t(layout::PageSize - 1), 0};
  if (uc_err E = uc_reg_write(UC, UC_X86_REG_GDTR, &Gdtr))
    return ucError(E, "loading the GDT");
  // i386: a flat 32-bit stack segment before any other segment load
  // (x86's toUserMode) recomputes the stack's width from it.
  uint64_t SsSelector = 2 * 8;
  if (A.wordSize == 4)
    if (uc_err E = uc_reg_write(UC, UC_X86_REG_SS, &SsSelector))
      return ucError(E, "loading the stack segment");
  return Error::success();
}

// A flat 4 GiB data segment of base Tp, user-accessible (DPL 3), in GDT
// entry Entry, loaded into the thread-pointer segment register: what Linux's
// set_thread_area and then glibc's `mov %ax, %gs` make of it, in the GDT
// mapGdt made.
Error Process::setThreadPointer(uint64_t Tp, uint32_t Entry) {
  if (A.tpKind == ThreadPointer::Register) {
    setReg(A.threadPointer, Tp);
    return Error::success();
  }
  constexpr uint64_t Gdt = layout::Headers + layout::PageSize;
  // Segment descriptor (Intel SDM vol. 3, 3.4.5): limit 0xfffff in 4 KiB
  // pages, type 3 (read/write, accessed), S, present, 32-bit.
  auto Descriptor = [](uint64_t Base, uint64_t Dpl) {
    return 0xffff | (Base & 0xffffff) << 16 | (0x93 | Dpl << 5) << 40 | uint64_t(0xcf) << 48 |
           (Base >> 24 & 0xff) << 56;
  };
  uint64_t D = Descriptor(Tp, 3);
  if (uc_err E = uc_mem_write(UC, Gdt + 8 * Entry, &D, 8))
    return ucError(E, "writing a GDT entry");
  uint64_t Selector = 8 * Entry + 3; // RPL 3
  if (uc_err E = uc_reg_write(UC, A.threadPointer, &Selector))
    return ucError(E, "loading the thread-pointer segment");
  return Error::success();
}

static RunResultMsg errorResult(Error E) {
  RunResultMsg R;
  R.status = uint8_t(RunStatus::Error);
  R.message = E.message();
  return R;
}

RunResultMsg Process::runMain(const RunMainMsg &M, OutputFn Out, InputFn In, std::unique_ptr<DebugFrontEnd> Front) {
  if (M.startup > uint8_t(Startup::ProcessEntry))
    return errorResult(makeError(formatv("unknown startup kind %u", M.startup)));
  if (M.debug > 1)
    return errorResult(makeError(formatv("run-main: debug is %u, not 0 or 1", M.debug)));
  if (M.debug && (Debug || !Front))
    return errorResult(makeError(Debug ? "run-main: this executor is debugged by gdb (linklab -gdb); a run cannot be "
                                         "debugged over the protocol too"
                                       : "run-main: this executor cannot debug runs here"));
  for (const executor::InputFile &F : M.files)
    if (std::string Why = Fs.addInput(F.path, F.bytes); !Why.empty())
      return errorResult(makeError(Why));
  // Input files live in the executor's memory: what the run may hold bounds them.
  if (uint64_t Cap = M.limits.memory(); Fs.bytes() > Cap)
    return errorResult(makeError(formatv("input files of %s bytes exceed the memory cap of %s bytes",
                                         hex(Fs.bytes()).c_str(), hex(Cap).c_str())));
  uint64_t Sp, Argv, Envp;
  resetFloatingPoint();
  if (Error E = pushArgv(M, Sp, Argv, Envp))
    return errorResult(std::move(E));
  if (Startup(M.startup) == Startup::CallMain) {
    if (Error E = passArguments(std::array{uint64_t(M.args.size()), Argv, Envp}, Sp))
      return errorResult(std::move(E));
    if (Error E = setReturnAddress(Sp))
      return errorResult(std::move(E));
  } else {
    // As exec leaves it: the ABI's "atexit function" register holds 0, no
    // return address.
    setReg(A.atExit, 0);
    if (A.link >= 0 || !A.args.empty())
      setReg(A.link >= 0 ? A.link : A.args[0], layout::ReturnTrap);
  }
  setReg(A.sp, Sp);
  if (!M.debug)
    return run(M.entry, M.limits, std::move(Out), std::move(In), /*MainRun=*/true);
  // Debugged over the protocol: a debugger for this run alone.
  Debug = std::make_unique<Debugger>(*this, std::move(Front));
  RunResultMsg R = run(M.entry, M.limits, std::move(Out), std::move(In), /*MainRun=*/true);
  Debug.reset();
  return R;
}

void Process::debugWith(int ListenFd, int PeerFd) { Debug = std::make_unique<Debugger>(*this, ListenFd, PeerFd); }

RunResultMsg Process::call(const CallMsg &M, OutputFn Out, InputFn In) {
  auto Find = [&](uint16_t Dwarf) -> const DwarfReg * {
    for (const DwarfReg &R : A.regs)
      if (R.dwarf == Dwarf)
        return &R;
    return nullptr;
  };
  if (M.stack.size() > layout::StackSize / 2)
    return errorResult(makeError(formatv("%zu stack bytes exceed half the stack", M.stack.size())));
  for (const RegValue &V : M.registers) {
    const DwarfReg *R = Find(V.dwarf);
    if (!R)
      return errorResult(makeError(formatv("%s has no register with DWARF number %u", A.name, V.dwarf)));
    if (R->uc == A.sp || V.value.empty() || V.value.size() > R->bytes)
      return errorResult(makeError(formatv("register %u: %zu value bytes for a %u-byte register%s", V.dwarf,
                                           V.value.size(), R->bytes, R->uc == A.sp ? " (the stack pointer)" : "")));
    uint8_t Buf[16] = {};
    std::memcpy(Buf, V.value.data(), V.value.size());
    if (uc_err E = uc_reg_write(UC, R->uc, Buf))
      return errorResult(ucError(E, formatv("writing register %u", V.dwarf)));
  }
  for (uint16_t D : M.results)
    if (!Find(D))
      return errorResult(makeError(formatv("%s has no register with DWARF number %u", A.name, D)));
  uint64_t Sp = (CallStackTop - M.stack.size()) & ~uint64_t(15);
  if (Error E = write(Sp, M.stack))
    return errorResult(std::move(E));
  if (Error E = setReturnAddress(Sp))
    return errorResult(std::move(E));
  setReg(A.sp, Sp);
  RunResultMsg R = run(M.entry, M.limits, std::move(Out), std::move(In));
  if (R.runStatus() == RunStatus::Returned)
    for (uint16_t D : M.results) {
      const DwarfReg *Reg = Find(D);
      uint8_t Buf[16] = {};
      uc_reg_read(UC, Reg->uc, Buf);
      R.results.push_back({D, std::vector<uint8_t>(Buf, Buf + Reg->bytes)});
    }
  return R;
}

// ---- semihosting (picolibc's host interface) ----------------------------

bool Process::semihosting(uint64_t Pc) {
  bool IsTrap = !A.semiTrap.empty();
  for (size_t I = 0; I < A.semiTrap.size() && IsTrap; ++I) {
    uint32_t W = 0;
    IsTrap = uc_mem_read(UC, Pc - 4 * A.semiTrapPc + 4 * I, &W, 4) == UC_ERR_OK && W == A.semiTrap[I];
  }
  if (!IsTrap || !Cur)
    return false;
  uint32_t Op = uint32_t(reg(A.semiOp));
  uint64_t Param = reg(A.semiParam);
  auto Field = [&](unsigned I) -> uint64_t {
    uint8_t B[8] = {};
    uc_mem_read(UC, Param + 8 * I, B, 8);
    return loadGuest(B, 8);
  };
  auto Emit = [&](Stream S, uint64_t Ptr, uint64_t Len) -> bool {
    auto Bytes = read(Ptr, std::min(Len, MaxTransfer));
    if (!Bytes)
      return consumeError(Bytes.takeError()), false;
    Cur->out(S, *Bytes);
    return true;
  };
  int64_t R = -1;
  switch (Op) {
  case SysOpen: {
    // Only the console exists: ":tt" opened for reading is stdin, for
    // writing stdout, for appending stderr (mode 0-3, 4-7, 8-11).
    // ":semihosting-features" (read-only) announces SH_EXT_EXIT_EXTENDED
    // (exit codes) and SH_EXT_STDOUT_STDERR (separate streams); picolibc
    // reads it before choosing how to exit.
    auto Name = read(Field(0), std::min<uint64_t>(Field(2), 32));
    bool Features = Name && Field(2) == 21 && std::memcmp(Name->data(), ":semihosting-features", 21) == 0;
    if (Name &&
        ((Field(2) == 3 && std::memcmp(Name->data(), ":tt", 3) == 0 && Field(1) < 12) || (Features && Field(1) < 4))) {
      R = 1;
      while (SemiHandles.count(uint64_t(R)))
        ++R;
      SemiHandles[R] = Features ? 3 : Field(1) / 4;
      SemiFeaturesPos = 0;
    } else if (!Name) {
      consumeError(Name.takeError());
    }
    break;
  }
  case SysClose: R = SemiHandles.erase(Field(0)) ? 0 : -1; break;
  case SysWriteC: R = Emit(Stream::Stdout, Param, 1) ? 0 : -1; break;
  case SysWrite0: {
    uint64_t Len = 0;
    for (uint8_t C = 1; C && Len < MaxTransfer; ++Len)
      if (uc_mem_read(UC, Param + Len, &C, 1) != UC_ERR_OK || !C)
        break;
    R = Emit(Stream::Stdout, Param, Len) ? 0 : -1;
    break;
  }
  case SysWrite: { // answers the number of bytes NOT written
    auto It = SemiHandles.find(Field(0));
    bool Out = It != SemiHandles.end() && (It->second == 1 || It->second == 2);
    R = Out && Emit(It->second == 1 ? Stream::Stdout : Stream::Stderr, Field(1), Field(2)) ? 0 : int64_t(Field(2));
    break;
  }
  case SysRead: { // answers the number of bytes NOT read; stdin is empty
    static const uint8_t FeatureBytes[] = {'S', 'H', 'F', 'B', 0x3};
    auto It = SemiHandles.find(Field(0));
    R = int64_t(Field(2));
    if (It != SemiHandles.end() && It->second == 3 && SemiFeaturesPos < sizeof FeatureBytes) {
      uint64_t N = std::min<uint64_t>(Field(2), sizeof FeatureBytes - SemiFeaturesPos);
      if (!write(Field(1), {FeatureBytes + SemiFeaturesPos, size_t(N)})) {
        SemiFeaturesPos += N;
        R -= int64_t(N);
      }
    }
    break;
  }
  case SysIsTty: {
    auto It = SemiHandles.find(Field(0));
    R = It != SemiHandles.end() && It->second != 3 ? 1 : 0;
    break;
  }
  case SysSeek:
  case SysFlen: {
    auto It = SemiHandles.find(Field(0));
    if (It == SemiHandles.end() || It->second != 3)
      break; // the console has no length or position
    if (Op == SysSeek)
      SemiFeaturesPos = Field(1);
    R = Op == SysFlen ? 5 : 0;
    break;
  }
  case SysClock:
    R = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count() / 10;
    break;
  case SysTime:
    R = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    break;
  case SysErrno: R = 0; break;
  case SysHeapInfo: {
    uint64_t Info[4] = {layout::HeapBase, layout::HeapBase + layout::HeapSpan, Space.stackTop,
                        Space.stackTop - layout::StackSize};
    R = write(Field(0), {reinterpret_cast<const uint8_t *>(Info), 32}) ? -1 : 0;
    break;
  }
  case SysExit:
  case SysExitExtended:
    // 64-bit semihosting passes a block {reason, subcode}.
    stop(RunStatus::Exited, Field(0) == AdpStoppedApplicationExit ? int64_t(Field(1)) : 1,
         Field(0) == AdpStoppedApplicationExit ? "" : formatv("semihosting exit, reason %s", hex(Field(0)).c_str()));
    return true;
  default: break;
  }
  setReg(A.semiOp, uint64_t(R));
  return true;
}

} // namespace linklab::emu
