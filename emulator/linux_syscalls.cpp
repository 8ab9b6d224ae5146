// The Linux system calls of the emulated process, as qemu-user's linux-user
// answers them, but for a process that reaches nothing outside itself: one
// table, a row per call with its number in each numbering (x86-64; the
// generic table AArch64 and RISC-V share, include/uapi/asm-generic/unistd.h;
// i386, arch/x86/entry/syscalls/syscall_32.tbl; Arm EABI,
// arch/arm/tools/syscall.tbl, and Arm's private calls at 0xf0000) and its
// handler. A row without a handler answers -ENOSYS; `refuse` answers -EPERM
// for whatever would reach a host file, process or network. Both name the
// call in a one-line note on the program's stderr, the first time each is
// made. SYSCALLS.md documents what each supported call does here.
//
// Errno values, signal numbers and most structures written (utsname,
// statx, rlimit64) are Linux's, the same on every arch; `struct stat`'s
// x86-64 layout differs from the generic one, and structures of `long`s
// (timespec, timeval, iovec, rlimit) follow the process's word size.
#include "process.h"
#include "sandbox.h"

#include "support/bits.h"

#include <unicorn/x86.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <thread>
#include <unordered_map>

namespace linklab::emu {

using namespace executor;

struct Linux {
  struct Call {
    uint64_t nr;
    const char *name;
    uint64_t a[6];
  };
  using Handler = int64_t (*)(Process &, const Call &);
  struct Row {
    const char *name;
    int32_t nr[4]; // per SyscallAbi: x86-64, generic, i386, Arm EABI; -1: not on that ABI
    Handler fn;    // null: -ENOSYS with a note
  };
  static const Row Table[];
  static const Row *find(SyscallAbi Abi, uint64_t Nr);

  // ---- helpers --------------------------------------------------------------
  // As the kernel's copy_to_user: only where the guest may write itself
  // (P.write, the linker's, writes anywhere).
  static bool put(Process &P, uint64_t Addr, const void *Bytes, size_t N) {
    return P.Stores.guestWritable(Addr, N) && !P.write(Addr, {static_cast<const uint8_t *>(Bytes), N});
  }
  template <typename T> static bool put(Process &P, uint64_t Addr, const T &V) { return put(P, Addr, &V, sizeof V); }
  // Words of Size bytes (the process's `long` unless given), as the kernel's
  // structures of longs (timespec, timeval, iovec, rlimit) are.
  static bool putWords(Process &P, uint64_t Addr, std::initializer_list<uint64_t> Vs, unsigned Size = 0) {
    Size = Size ? Size : P.A.wordSize;
    std::vector<uint8_t> Bytes(Vs.size() * Size);
    size_t At = 0;
    for (uint64_t V : Vs)
      P.storeGuest(Bytes.data() + At, V, Size), At += Size;
    return put(P, Addr, Bytes.data(), Bytes.size());
  }
  // A NUL-terminated guest string, at most Max bytes; nullopt if unreadable.
  static std::optional<std::string> string(Process &P, uint64_t Addr, size_t Max = 4096) {
    std::string S;
    for (char C; S.size() < Max; S += C)
      if (uc_mem_read(P.UC, Addr + S.size(), &C, 1) != UC_ERR_OK)
        return std::nullopt;
      else if (!C)
        return S;
    return S;
  }
  // fd 1 and 2 (or what dup made of them): the program's output; an open
  // file: its bytes at its position (or At).
  static int64_t output(Process &P, uint64_t Fd, uint64_t Ptr, uint64_t Len, std::optional<uint64_t> At = {}) {
    auto S = P.Fs.stream(int64_t(Fd));
    if (!P.Fs.isOpen(int64_t(Fd)) || S == 0)
      return -EBADF;
    if (S && At)
      return -ESPIPE;
    auto Bytes = P.read(Ptr, std::min(Len, MaxTransfer));
    if (!Bytes)
      return consumeError(Bytes.takeError()), -EFAULT;
    if (!S)
      return P.Fs.write(int64_t(Fd), *Bytes, At);
    P.Cur->out(*S == 1 ? Stream::Stdout : Stream::Stderr, *Bytes);
    return int64_t(Bytes->size());
  }
  static constexpr uint64_t Pid = 1000, Uid = 1000;
  static const char *const RefusedWhy;

  // ---- the handlers ---------------------------------------------------------
  static int64_t refuse(Process &P, const Call &C) {
    P.noteSyscall(C.nr, C.name, RefusedWhy);
    return -EPERM;
  }
  static int64_t noSysQuiet(Process &, const Call &) { return -ENOSYS; } // glibc copes; not worth a note
  static int64_t zero(Process &, const Call &) { return 0; }
  // fd 0: what the client sends (PROTOCOL.md, input-request), asked for
  // when nothing is buffered; a pipe's read returns what is there.
  static int64_t readStdin(Process &P, uint64_t Ptr, uint64_t Len) {
    if (!Len)
      return 0;
    if (P.StdinPos == P.Stdin.size()) {
      P.Stdin.clear(), P.StdinPos = 0;
      if (!P.Cur->in)
        return 0;
      // gdb's ^C while the read waits (or came before it): stopped in it,
      // as Linux stops a traced process in a system call; it waits on when
      // gdb lets it go on.
      auto Wait = [&P, Len](int &Wake) -> std::optional<std::vector<uint8_t>> {
        Wake = P.Debug ? P.Debug->wakeFd() : -1;
        if (Wake >= 0 && P.Debug->interruptPending())
          return std::nullopt;
        return P.Cur->in(std::min<uint64_t>(Len, 1 << 20), P.Cur->deadline, Wake);
      };
      int Wake;
      auto Got = Wait(Wake);
      while (!Got && Wake >= 0 && std::chrono::steady_clock::now() < P.Cur->deadline) {
        if (!P.Cur->stopInCall || !P.Cur->stopInCall())
          return -EINTR; // the debugger ended the run
        Got = Wait(Wake);
      }
      if (!Got) {
        P.stop(RunStatus::TimeLimit, 0, formatv("wall-time limit of %u ms reached waiting for stdin", P.Cur->wallMs));
        return -EINTR;
      }
      P.StdinEnded = Got->empty();
      P.Stdin = std::move(*Got);
    }
    size_t N = size_t(std::min<uint64_t>(Len, P.Stdin.size() - P.StdinPos));
    if (N && !put(P, Ptr, P.Stdin.data() + P.StdinPos, N))
      return -EFAULT;
    P.StdinPos += N;
    return int64_t(N);
  }
  // An open file's (or device's) bytes from its position on (or At).
  static int64_t readFile(Process &P, uint64_t Fd, uint64_t Ptr, uint64_t Len, std::optional<uint64_t> At) {
    std::vector<uint8_t> Bytes;
    int64_t N = P.Fs.read(int64_t(Fd), std::min(Len, MaxTransfer), Bytes, At);
    if (N > 0 && !put(P, Ptr, Bytes.data(), Bytes.size()))
      return -EFAULT;
    return N;
  }
  // fd 0 (or what dup made of it): the client's stdin; fds 1 and 2 are
  // the write ends of pipes.
  static int64_t input(Process &P, uint64_t Fd, uint64_t Ptr, uint64_t Len, std::optional<uint64_t> At = {}) {
    auto S = P.Fs.stream(int64_t(Fd));
    if (!S)
      return readFile(P, Fd, Ptr, Len, At);
    if (*S != 0)
      return -EBADF;
    return At ? -ESPIPE : readStdin(P, Ptr, Len);
  }
  static int64_t read(Process &P, const Call &C) { return input(P, C.a[0], C.a[1], C.a[2]); }
  static int64_t write(Process &P, const Call &C) { return output(P, C.a[0], C.a[1], C.a[2]); }
  // pread64/pwrite64(fd, buf, count, offset): the 64-bit offset in one
  // register, or on i386 in two (low, high), on Arm in an aligned pair
  // (r4, r5).
  static uint64_t offset64(Process &P, const Call &C, size_t At) {
    if (P.A.wordSize == 8)
      return C.a[At];
    size_t Lo = P.A.syscallAbi == SyscallAbi::Arm ? alignTo(At, 2) : At;
    return uint32_t(C.a[Lo]) | C.a[Lo + 1] << 32;
  }
  static int64_t positioned(Process &P, const Call &C, bool Write) {
    int64_t Off = int64_t(offset64(P, C, 3));
    if (Off < 0)
      return -EINVAL;
    return Write ? output(P, C.a[0], C.a[1], C.a[2], uint64_t(Off)) : input(P, C.a[0], C.a[1], C.a[2], uint64_t(Off));
  }
  static int64_t pread64(Process &P, const Call &C) { return positioned(P, C, false); }
  static int64_t pwrite64(Process &P, const Call &C) { return positioned(P, C, true); }
  static int64_t vector(Process &P, const Call &C, bool Write) {
    uint64_t Fd = C.a[0];
    if (!P.Fs.isOpen(int64_t(Fd)))
      return -EBADF;
    if (C.a[2] > 1024)
      return -EINVAL;
    int64_t R = 0;
    const unsigned W = P.A.wordSize; // struct iovec: base, length
    for (uint64_t I = 0; I < C.a[2]; ++I) {
      uint8_t Iov[16];
      if (uc_mem_read(P.UC, C.a[1] + 2 * W * I, Iov, 2 * W) != UC_ERR_OK)
        return -EFAULT;
      uint64_t Base = P.loadGuest(Iov, W), Len = P.loadGuest(Iov + W, W);
      int64_t N = !Len ? 0 : Write ? output(P, Fd, Base, Len) : input(P, Fd, Base, Len);
      if (N < 0)
        return R ? R : N;
      R += N;
      if (!Write &&
          (P.Fs.stream(int64_t(Fd)) ? N != 0 : uint64_t(N) < Len)) // one read's worth, as from a pipe; a file's end
        return R;
    }
    return R;
  }
  static int64_t readv(Process &P, const Call &C) { return vector(P, C, false); }
  static int64_t writev(Process &P, const Call &C) { return vector(P, C, true); }
  static int64_t close(Process &P, const Call &C) { return P.Fs.close(int64_t(int32_t(C.a[0]))); }
  static int64_t exit(Process &P, const Call &C) {
    P.stop(RunStatus::Exited, int64_t(int32_t(C.a[0])));
    return 0;
  }
  // One thread ends; the last one's status is the process's.
  static int64_t exitThread(Process &P, const Call &C) {
    if (P.liveThreads() == 1)
      return exit(P, C);
    P.exitThread();
    return 0;
  }
  static int64_t gettid(Process &P, const Call &) { return int64_t(P.Self->tid); }
  static int64_t setTidAddress(Process &P, const Call &C) {
    P.Self->clearChildTid = C.a[0];
    return int64_t(P.Self->tid);
  }
  // Per thread: its exit releases the robust mutexes on the list (Process::releaseRobustList).
  static int64_t setRobustList(Process &P, const Call &C) {
    if (C.a[1] != 3 * P.A.wordSize) // sizeof(struct robust_list_head)
      return -EINVAL;
    P.Self->robustList = C.a[0];
    return 0;
  }
  static int64_t schedYield(Process &P, const Call &) {
    if (P.liveThreads() > 1)
      P.yield();
    return 0;
  }
  // i386's struct user_desc {entry_number, base_addr, limit, flags}: the
  // GDT entry and base a thread pointer is set from; entry -1 asks for a
  // free TLS entry, which is written back (set_thread_area, CLONE_SETTLS).
  static int64_t userDesc(Process &P, uint64_t Addr, uint64_t &Base, uint32_t &Entry) {
    uint32_t Desc[4];
    if (uc_mem_read(P.UC, Addr, Desc, sizeof Desc) != UC_ERR_OK)
      return -EFAULT;
    Entry = Desc[0] == ~0u ? Process::GdtTlsEntry : Desc[0];
    Base = Desc[1];
    if (Entry < Process::GdtTlsEntry || Entry > Process::GdtTlsEntry + 2)
      return -EINVAL;
    if (Desc[0] == ~0u && !put(P, Addr, Entry))
      return -EFAULT;
    return 0;
  }
  // A thread, as pthread_create makes one: CLONE_VM | CLONE_SIGHAND |
  // CLONE_THREAD and the flags below. A new process (no CLONE_THREAD: fork,
  // vfork, posix_spawn) is refused. The new thread starts in the run loop
  // (Process::startThread) with the parent's registers, a return value of
  // 0, the given stack and thread pointer, and the parent's signal mask.
  static int64_t clone(Process &P, const Call &C) {
    enum : uint64_t {
      Vm = 0x100,
      Fs = 0x200,
      Files = 0x400,
      Sighand = 0x800,
      Thread = 0x10000,
      SysVSem = 0x40000,
      SetTls = 0x80000,
      ParentSetTid = 0x100000,
      ChildClearTid = 0x200000,
      Detached = 0x400000,
      ChildSetTid = 0x1000000,
    };
    constexpr uint64_t Needed = Vm | Sighand | Thread;
    constexpr uint64_t Known =
        Needed | Fs | Files | SysVSem | SetTls | ParentSetTid | ChildClearTid | Detached | ChildSetTid;
    uint64_t Flags = C.a[0];
    if (!(Flags & Thread))
      return refuse(P, C);
    if ((Flags & Needed) != Needed || (Flags & ~Known)) { // namespaces, vfork, ptrace, an exit signal...
      P.noteSyscall(C.nr, C.name, "not supported with these flags (only threads as pthread_create makes them)");
      return -EINVAL;
    }
    // x86-64 passes (flags, stack, parent_tid, child_tid, tls); the others
    // have CONFIG_CLONE_BACKWARDS: (flags, stack, parent_tid, tls, child_tid).
    bool X86_64 = P.A.syscallAbi == SyscallAbi::X86_64;
    uint64_t ChildTid = C.a[X86_64 ? 3 : 4], Tls = C.a[X86_64 ? 4 : 3];
    auto T = std::make_unique<Process::Thread>();
    T->tid = P.NextTid;
    T->stack = C.a[1];
    T->SigMask = P.Self->SigMask;
    if (Flags & SetTls) {
      T->tls = Tls;
      if (P.A.tpKind == ThreadPointer::GdtSegment)
        if (int64_t R = userDesc(P, Tls, *T->tls, T->tlsEntry))
          return R;
    }
    uint8_t Tid[4];
    P.storeGuest(Tid, T->tid, 4);
    if (((Flags & ParentSetTid) && !put(P, C.a[2], Tid)) || ((Flags & ChildSetTid) && !put(P, ChildTid, Tid)))
      return -EFAULT;
    if (Flags & ChildClearTid)
      T->clearChildTid = ChildTid;
    // Its host memory counts against the cap (threadCost); past it clone
    // fails as Linux's does when the memory for a task runs out.
    if (!P.chargeMemory(P.threadCost()))
      return -ENOMEM;
    T->charged = P.threadCost();
    P.Cur->cloned = T.get();
    P.Threads[P.NextTid++] = std::move(T);
    uc_emu_stop(P.UC);
    return int64_t(P.NextTid - 1);
  }
  static int64_t brk(Process &P, const Call &C) {
    uint64_t Want = C.a[0];
    if (Want >= layout::HeapBase && Want <= layout::HeapBase + layout::HeapSpan) {
      uint64_t InMmaps = P.RuntimeBytes - P.HeapMapped;
      if (Want - layout::HeapBase + InMmaps > P.Cur->memCap) {
        P.stop(RunStatus::MemoryLimit, 0,
               formatv("brk to %s exceeds the memory cap of %s bytes", hex(Want).c_str(), hex(P.Cur->memCap).c_str()));
        return -ENOMEM;
      }
      P.Brk = Want;
    }
    return int64_t(P.Brk); // Linux brk answers the (possibly unchanged) break
  }
  static int64_t mmap(Process &P, const Call &C) {
    constexpr uint64_t MapFixed = 0x10, MapAnonymous = 0x20, MapFixedNoReplace = 0x100000;
    if (!(C.a[3] & MapAnonymous))
      return mapFile(P, C);
    if (C.a[3] & (MapFixed | MapFixedNoReplace))
      return -EINVAL; // the executor places every mapping
    // A size the mmap area could hold but the memory cap cannot ends the
    // run; every other failure is ENOMEM, as for a real process.
    if (uint64_t Size = alignTo(C.a[1], layout::PageSize); Size && Size <= P.Space.mmapSpan() && (C.a[2] & 7))
      if (Error E = P.overCap(Size)) {
        P.stop(RunStatus::MemoryLimit, 0, E.message());
        return -ENOMEM;
      }
    auto Base = P.mapAnonymous(C.a[1], uint32_t(C.a[2] & 7));
    if (!Base)
      return consumeError(Base.takeError()), -ENOMEM;
    return int64_t(*Base);
  }
  // A private copy of an open file's bytes (MAP_SHARED too: nothing can
  // write the file), the rest of the last page zero; mmap2's offset is in
  // pages.
  static int64_t mapFile(Process &P, const Call &C) {
    constexpr uint64_t Shared = 1, Write = UC_PROT_WRITE;
    uint64_t Offset = std::string_view(C.name) == "mmap2" ? C.a[5] * layout::PageSize : C.a[5];
    std::span<const uint8_t> Bytes;
    if (int64_t R = P.Fs.mapSource(int64_t(int32_t(C.a[4])), Bytes))
      return R;
    if ((C.a[3] & Shared) && (C.a[2] & Write))
      return -EACCES; // a shared writable mapping would have to write the file back
    if (Offset % layout::PageSize)
      return -EINVAL;
    Call M{C.nr, C.name, {0, C.a[1], uint64_t(UC_PROT_READ | UC_PROT_WRITE), 0x22 /* private anonymous */}};
    int64_t Base = mmap(P, M);
    if (Base < 0)
      return Base;
    if (Offset < Bytes.size())
      if (Error E = P.write(uint64_t(Base), Bytes.subspan(Offset, std::min<uint64_t>(C.a[1], Bytes.size() - Offset))))
        return consumeError(std::move(E)), -EFAULT;
    if ((C.a[2] & 7) != (UC_PROT_READ | UC_PROT_WRITE))
      if (int64_t R = mprotect(P, Call{C.nr, C.name, {uint64_t(Base), C.a[1], C.a[2]}}))
        return R;
    return Base;
  }
  static int64_t munmap(Process &P, const Call &C) {
    return P.unmapAnonymous(C.a[0], alignTo(C.a[1], layout::PageSize)) ? -EINVAL : 0;
  }
  static int64_t mprotect(Process &P, const Call &C) {
    auto It = P.Mmaps.upper_bound(C.a[0]);
    bool Inside = It != P.Mmaps.begin() && (--It, C.a[0] + C.a[1] <= It->first + It->second);
    if (!Inside)
      return -ENOMEM;
    if (Error Room = P.roomForRegions(2, "mprotect"))
      return -ENOMEM;
    if (C.a[2] & 7)
      if (Error E = P.chargeAccess(It->first, alignTo(C.a[0] + C.a[1], layout::PageSize))) {
        P.stop(RunStatus::MemoryLimit, 0, E.message());
        return -ENOMEM;
      }
    if (P.Stores.protect(C.a[0], alignTo(C.a[1], layout::PageSize), uint32_t(C.a[2] & 7)) != UC_ERR_OK)
      return -ENOMEM;
    P.MmapReprotected.insert(It->first);
    return 0;
  }
  // Whole mappings move: a new one, the bytes copied, the old one unmapped
  // (glibc's realloc of a large block). Without MREMAP_MAYMOVE nothing can
  // grow in place.
  static int64_t mremap(Process &P, const Call &C) {
    constexpr uint64_t MayMove = 1;
    uint64_t Old = C.a[0], OldSize = alignTo(C.a[1], layout::PageSize), NewSize = alignTo(C.a[2], layout::PageSize);
    auto It = P.Mmaps.find(Old);
    if (It == P.Mmaps.end() || It->second != OldSize || !NewSize || (C.a[3] & ~MayMove))
      return -EINVAL;
    if (NewSize == OldSize)
      return int64_t(Old);
    if (!(C.a[3] & MayMove))
      return -ENOMEM;
    Call M{C.nr, C.name, {0, NewSize, uint64_t(UC_PROT_READ | UC_PROT_WRITE), 0x22 /* private anonymous */}};
    int64_t New = mmap(P, M);
    if (New < 0)
      return New;
    std::vector<uint8_t> Buf(1 << 16);
    for (uint64_t Off = 0; Off < std::min(OldSize, NewSize); Off += Buf.size()) {
      size_t N = size_t(std::min<uint64_t>(Buf.size(), std::min(OldSize, NewSize) - Off));
      uc_mem_read(P.UC, Old + Off, Buf.data(), N);
      uc_mem_write(P.UC, uint64_t(New) + Off, Buf.data(), N);
    }
    consumeError(P.unmapAnonymous(Old, OldSize)); // the data moved; a range left mapped only costs address space
    return New;
  }
  static int64_t ioctl(Process &P, const Call &C) {
    return P.Fs.isOpen(int64_t(int32_t(C.a[0]))) ? -ENOTTY : -EBADF;
  } // no terminal
  static int64_t getpid(Process &, const Call &) { return Pid; }
  static int64_t getppid(Process &, const Call &) { return 1; }
  static int64_t getuid(Process &, const Call &) { return Uid; }
  static int64_t archPrctl(Process &P, const Call &C) {
    constexpr uint64_t SetFs = 0x1002, GetFs = 0x1003;
    if (C.a[0] == SetFs)
      return P.setReg(UC_X86_REG_FS_BASE, C.a[1]), 0;
    if (C.a[0] == GetFs)
      return put(P, C.a[1], P.reg(UC_X86_REG_FS_BASE)) ? 0 : -EFAULT;
    return -EINVAL;
  }
  // Size: bytes of each rlim_t (prlimit64's are 64-bit on every arch).
  static int64_t prlimit(Process &P, uint64_t Resource, uint64_t New, uint64_t Old, unsigned Size) {
    constexpr uint64_t Infinity = ~uint64_t(0), Stack = 3, NoFile = 7;
    if (Resource >= 16)
      return -EINVAL;
    if (New)
      return -EPERM;
    uint64_t Lim[2] = {Infinity, Infinity};
    if (Resource == Stack)
      Lim[0] = layout::StackSize;
    if (Resource == NoFile)
      Lim[0] = 1024, Lim[1] = 4096;
    return !Old || putWords(P, Old, {Lim[0], Lim[1]}, Size) ? 0 : -EFAULT;
  }
  static int64_t prlimit64(Process &P, const Call &C) {
    return C.a[0] && C.a[0] != Pid ? -ESRCH : prlimit(P, C.a[1], C.a[2], C.a[3], 8);
  }
  static int64_t getrlimit(Process &P, const Call &C) { return prlimit(P, C.a[0], 0, C.a[1], P.A.wordSize); }
  // i386 set_thread_area: the thread pointer from a struct user_desc.
  static int64_t setThreadArea(Process &P, const Call &C) {
    uint64_t Base;
    uint32_t Entry;
    if (int64_t R = userDesc(P, C.a[0], Base, Entry))
      return R;
    if (Error E = P.setThreadPointer(Base, Entry))
      return consumeError(std::move(E)), -EINVAL;
    return 0;
  }
  // Arm's private set_tls: TPIDRURO, which `mrc p15, 0, rN, c13, c0, 3` reads.
  static int64_t setTls(Process &P, const Call &C) {
    if (Error E = P.setThreadPointer(C.a[0]))
      return consumeError(std::move(E)), -EINVAL;
    return 0;
  }
  // Reproducible bytes (splitmix64), as AT_RANDOM's are.
  static int64_t getrandom(Process &P, const Call &C) {
    uint64_t Len = std::min<uint64_t>(C.a[1], 1 << 20);
    std::vector<uint8_t> Bytes(Len);
    for (uint64_t I = 0; I < Len; I += 8) {
      uint64_t Z = (P.RandomState += 0x9e3779b97f4a7c15);
      Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9;
      Z = (Z ^ (Z >> 27)) * 0x94d049bb133111eb;
      Z ^= Z >> 31;
      std::memcpy(Bytes.data() + I, &Z, std::min<uint64_t>(8, Len - I));
    }
    return put(P, C.a[0], Bytes.data(), Bytes.size()) ? int64_t(Len) : -EFAULT;
  }
  static int64_t uname(Process &P, const Call &C) {
    char U[6][65] = {};
    const char *Fields[6] = {"Linux", "linklab", "6.1.0", "#1 SMP linklab-executor", P.A.name, "(none)"};
    for (int I = 0; I < 6; ++I)
      std::strncpy(U[I], Fields[I], 64);
    return put(P, C.a[0], U) ? 0 : -EFAULT;
  }
  // Linux's struct sysinfo of longs (112 bytes on 64-bit ABIs, 64 on
  // 32-bit ones): the memory is the run's cap (glibc's qsort sizes its
  // buffer from it), one process.
  static int64_t sysinfo(Process &P, const Call &C) {
    const unsigned W = P.A.wordSize;
    uint8_t Info[112] = {};
    uint64_t Free = P.Cur->memCap > P.RuntimeBytes ? P.Cur->memCap - P.RuntimeBytes : 0;
    uint64_t Total = W == 4 ? std::min<uint64_t>(P.Cur->memCap, 0xffffffff) : P.Cur->memCap;
    P.storeGuest(Info, uint64_t(hostNs(CLOCK_MONOTONIC) / NsPerSec), W); // uptime
    P.storeGuest(Info + 4 * W, Total, W);                                // totalram
    Free = std::min(Free, Total);
    P.storeGuest(Info + 5 * W, Free, W);                       // freeram
    P.storeGuest(Info + 10 * W, 1, 2);                         // procs
    P.storeGuest(Info + alignTo(10 * W + 4, W) + 2 * W, 1, 4); // mem_unit, after totalhigh and freehigh
    return put(P, C.a[0], Info, W == 8 ? 112 : 64) ? 0 : -EFAULT;
  }
  // Nanoseconds on clock Id (include/uapi/linux/time.h): the host's clock
  // of that id, except the CPU-time clocks, which count the emulating
  // thread's CPU time since the process was created (the host's own would
  // count the executor's). Negative: an id Linux rejects (SGI_CYCLE, the
  // per-process clocks clock_getcpuclockid makes), -EINVAL.
  static int64_t nowNs(const Process &P, uint64_t Id) {
    enum : uint64_t { ProcessCpu = 2, ThreadCpu = 3, SgiCycle = 10, Tai = 11 };
    if (Id > Tai || Id == SgiCycle)
      return -EINVAL;
    if (Id == ProcessCpu || Id == ThreadCpu)
      return hostNs(CLOCK_THREAD_CPUTIME_ID) - P.CpuStartNs;
    int64_t Ns = hostNs(clockid_t(Id));
    return Ns < 0 ? -EINVAL : Ns;
  }
  static int64_t hostNs(clockid_t Id) {
    timespec T;
    return ::clock_gettime(Id, &T) ? -1 : int64_t(T.tv_sec) * 1000000000 + T.tv_nsec;
  }
  static constexpr int64_t NsPerSec = 1000000000;
  // Words of Size bytes (0: the process's long) at Addr, sign-extended (a
  // 32-bit time_t is signed); nullopt if unreadable.
  static std::optional<std::vector<int64_t>> getWords(Process &P, uint64_t Addr, size_t N, unsigned Size = 0) {
    Size = Size ? Size : P.A.wordSize;
    std::vector<uint8_t> Bytes(N * Size);
    if (uc_mem_read(P.UC, Addr, Bytes.data(), Bytes.size()) != UC_ERR_OK)
      return std::nullopt;
    std::vector<int64_t> Ws;
    for (size_t I = 0; I < N; ++I) {
      uint64_t V = P.loadGuest(Bytes.data() + I * Size, Size);
      Ws.push_back(Size == 4 ? int64_t(int32_t(V)) : int64_t(V));
    }
    return Ws;
  }
  // struct timespec of longs, or (the 32-bit arches' *_time64 calls) of 64-bit fields.
  static int64_t clockGettimeOf(Process &P, const Call &C, unsigned Size) {
    int64_t Ns = nowNs(P, C.a[0]);
    if (Ns < 0)
      return Ns;
    return putWords(P, C.a[1], {uint64_t(Ns / NsPerSec), uint64_t(Ns % NsPerSec)}, Size) ? 0 : -EFAULT;
  }
  static int64_t clockGetresOf(Process &P, const Call &C, unsigned Size) {
    int64_t Ns = nowNs(P, C.a[0]);
    return Ns < 0 ? Ns : !C.a[1] || putWords(P, C.a[1], {0, 1}, Size) ? 0 : -EFAULT;
  }
  static int64_t clockGettime(Process &P, const Call &C) { return clockGettimeOf(P, C, 0); }
  static int64_t clockGettime64(Process &P, const Call &C) { return clockGettimeOf(P, C, 8); }
  static int64_t clockGetres(Process &P, const Call &C) { return clockGetresOf(P, C, 0); }
  static int64_t clockGetres64(Process &P, const Call &C) { return clockGetresOf(P, C, 8); }
  static int64_t gettimeofday(Process &P, const Call &C) {
    int64_t Us = hostNs(CLOCK_REALTIME) / 1000;
    if ((C.a[0] && !putWords(P, C.a[0], {uint64_t(Us / 1000000), uint64_t(Us % 1000000)})) ||
        (C.a[1] && !putWords(P, C.a[1], {0}, 8)))
      return -EFAULT; // struct timezone: two ints
    return 0;
  }
  static int64_t time(Process &P, const Call &C) {
    uint64_t S = uint64_t(hostNs(CLOCK_REALTIME) / NsPerSec);
    return !C.a[0] || putWords(P, C.a[0], {S}) ? int64_t(S) : -EFAULT;
  }
  // The thread waits Ns nanoseconds (others run meanwhile; with none, the
  // executor sleeps), not past the run's wall-time limit: reaching it ends
  // the run with the time-limit report. A signal ends the wait (-EINTR).
  static int64_t sleepFor(Process &P, int64_t Ns, const Call &C) { return P.wait(C.name, false, fromNow(Ns), 0); }
  static std::chrono::steady_clock::time_point fromNow(int64_t Ns) {
    return std::chrono::steady_clock::now() + std::chrono::nanoseconds(std::max<int64_t>(Ns, 0));
  }
  // A struct timespec (Micro: timeval) at Addr, Size bytes a field, in
  // nanoseconds, or -EFAULT / -EINVAL when it cannot be read or is not one.
  static int64_t timespecNs(Process &P, uint64_t Addr, unsigned Size, bool Micro = false) {
    auto T = getWords(P, Addr, 2, Size);
    if (!T)
      return -EFAULT;
    int64_t Unit = Micro ? 1000 : 1;
    if ((*T)[0] < 0 || (*T)[1] < 0 || (*T)[1] >= NsPerSec / Unit)
      return -EINVAL;
    return std::min<int64_t>((*T)[0], INT64_MAX / NsPerSec - 1) * NsPerSec + (*T)[1] * Unit;
  }
  // clock_nanosleep(clock, flags, request, remain): relative, or with
  // TIMER_ABSTIME until the clock reads the request. Size: of each field.
  // A relative sleep a signal cuts short writes the time left at Remain.
  static int64_t nanosleepOn(Process &P, const Call &C, uint64_t Clock, uint64_t Flags, uint64_t Req, uint64_t Remain,
                             unsigned Size) {
    constexpr uint64_t AbsTime = 1, ThreadCpu = 3;
    int64_t Now = nowNs(P, Clock);
    if (Now < 0 || Clock == ThreadCpu)
      return -EINVAL;
    int64_t Ns = timespecNs(P, Req, Size);
    if (Ns < 0)
      return Ns;
    int64_t R = sleepFor(P, Flags & AbsTime ? Ns - Now : Ns, C);
    if (!(Flags & AbsTime) && P.Self->state == Process::Thread::State::Waiting)
      P.Self->remain = Remain, P.Self->remainSize = uint8_t(Size ? Size : P.A.wordSize);
    return R;
  }
  static int64_t nanosleep(Process &P, const Call &C) {
    return nanosleepOn(P, C, CLOCK_MONOTONIC, 0, C.a[0], C.a[1], 0);
  }
  static int64_t clockNanosleep(Process &P, const Call &C) {
    return nanosleepOn(P, C, C.a[0], C.a[1], C.a[2], C.a[3], 0);
  }
  static int64_t clockNanosleep64(Process &P, const Call &C) {
    return nanosleepOn(P, C, C.a[0], C.a[1], C.a[2], C.a[3], 8);
  }
  // struct rusage: user and system time (timevals of longs), then 14
  // longs, of which ru_maxrss (KiB) is what the program has mapped. The
  // user time is the process's CPU clock; children never ran.
  static int64_t getrusage(Process &P, const Call &C) {
    constexpr int64_t Self = 0, Children = -1, Thread = 1;
    int64_t Who = int32_t(C.a[0]); // an int: the register's upper half is not the program's
    if (Who != Self && Who != Children && Who != Thread)
      return -EINVAL;
    uint64_t Us = Who == Children ? 0 : uint64_t(nowNs(P, 2) / 1000);
    uint64_t MaxRss = Who == Children ? 0 : (P.RuntimeBytes + layout::StackSize) / 1024;
    return putWords(P, C.a[1], {Us / 1000000, Us % 1000000, 0, 0, MaxRss, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
               ? 0
               : -EFAULT;
  }
  // struct tms of clock_t (longs) in AT_CLKTCK ticks (100 Hz); the answer:
  // ticks of the monotonic clock.
  static int64_t times(Process &P, const Call &C) {
    uint64_t User = uint64_t(nowNs(P, 2) / 10000000);
    if (C.a[0] && !putWords(P, C.a[0], {User, 0, 0, 0}))
      return -EFAULT;
    uint64_t Ticks = uint64_t(hostNs(CLOCK_MONOTONIC) / 10000000);
    return P.A.wordSize == 4 ? int64_t(int32_t(Ticks)) : int64_t(Ticks);
  }
  // The kernel's struct sigaction (handler, flags, [restorer,] mask), as
  // the row sizes it; delivery reads it (signals.cpp).
  static size_t sigactionSize(const Process &P) { return P.A.sigactionSize; }
  static int64_t rtSigaction(Process &P, const Call &C) {
    uint64_t Sig = C.a[0];
    if (Sig < 1 || Sig > 64 || C.a[3] != 8 || (C.a[1] && (Sig == 9 || Sig == 19)))
      return -EINVAL;
    std::vector<uint8_t> Old = P.SigActions.count(Sig) ? P.SigActions[Sig] : std::vector<uint8_t>(sigactionSize(P));
    if (C.a[1]) {
      auto New = P.read(C.a[1], sigactionSize(P));
      if (!New)
        return consumeError(New.takeError()), -EFAULT;
      P.SigActions[Sig] = *New;
      // Setting SIG_IGN discards a pending instance (as Linux does).
      if (P.action(int(Sig)).handler == 1) {
        for (auto &[Tid, T] : P.Threads)
          T->SigPending &= ~(1ull << (Sig - 1));
        P.SharedPending &= ~(1ull << (Sig - 1));
      }
    }
    return !C.a[2] || put(P, C.a[2], Old.data(), Old.size()) ? 0 : -EFAULT;
  }
  static constexpr uint64_t Unblockable = 1ull << 8 | 1ull << 18; // SIGKILL, SIGSTOP
  // rt_sigprocmask(how, set, oldset, size): a signal it unblocks is
  // delivered as the call returns (Process::syscall).
  static int64_t rtSigprocmask(Process &P, const Call &C) {
    enum : uint64_t { Block = 0, Unblock = 1, SetMask = 2 };
    if (C.a[3] != 8)
      return -EINVAL;
    uint64_t Old = P.Self->SigMask;
    if (C.a[1]) {
      auto Set = getWords(P, C.a[1], 1, 8);
      if (!Set)
        return -EFAULT;
      uint64_t S = uint64_t((*Set)[0]);
      if (C.a[0] > SetMask)
        return -EINVAL;
      P.Self->SigMask = (C.a[0] == Block ? Old | S : C.a[0] == Unblock ? Old & ~S : S) & ~Unblockable;
    }
    return !C.a[2] || putWords(P, C.a[2], {Old}, 8) ? 0 : -EFAULT;
  }
  static int64_t rtSigpending(Process &P, const Call &C) {
    return C.a[1] > 8 ? -EINVAL : putWords(P, C.a[0], {P.pendingFor(*P.Self) & P.Self->SigMask}, 8) ? 0 : -EFAULT;
  }
  // Until a signal another thread sends (no timers exist): with every
  // thread waiting, a deadlock.
  static int64_t waitForever(Process &P, const Call &, const char *What) {
    return P.wait(What, true, std::nullopt, -EINTR);
  }
  static int64_t rtSigsuspend(Process &P, const Call &C) {
    auto Set = getWords(P, C.a[0], 1, 8);
    if (C.a[1] != 8)
      return -EINVAL;
    if (!Set)
      return -EFAULT;
    // The handler runs under the temporary mask; its frame restores the old one.
    P.Self->SuspendMask = P.Self->SigMask;
    P.Self->SigMask = uint64_t((*Set)[0]) & ~Unblockable;
    return waitForever(P, C, "sigsuspend");
  }
  static int64_t pause(Process &P, const Call &C) { return waitForever(P, C, "pause"); }
  // rt_sigtimedwait(set, info, timeout, size): takes a pending signal of
  // the set, or waits for one with the set unblocked (Process::finishSigwait
  // takes it); -EAGAIN when the timeout ends first.
  static int64_t sigtimedwaitOf(Process &P, const Call &C, unsigned Size) {
    auto Set = getWords(P, C.a[0], 1, 8);
    if (C.a[3] != 8)
      return -EINVAL;
    if (!Set)
      return -EFAULT;
    int64_t Ns = C.a[2] ? timespecNs(P, C.a[2], Size) : -1;
    if (C.a[2] && Ns < 0)
      return Ns;
    Process::Thread &T = *P.Self;
    T.sigwaitSet = uint64_t((*Set)[0]) & ~Unblockable;
    T.sigwaitMask = T.SigMask;
    T.sigwaitInfo = C.a[1];
    P.finishSigwait(T); // one pending already?
    if (T.answer || Ns == 0)
      return T.answer ? *std::exchange(T.answer, std::nullopt) : -EAGAIN;
    T.sigwaitSet = uint64_t((*Set)[0]) & ~Unblockable;
    T.SigMask &= ~T.sigwaitSet;
    int64_t R = P.wait(C.name, true, Ns < 0 ? std::nullopt : std::optional(fromNow(Ns)), -EAGAIN);
    if (T.state != Process::Thread::State::Waiting)
      T.SigMask = T.sigwaitMask, T.sigwaitSet = 0; // another signal is due: -EINTR
    return R;
  }
  static int64_t sigtimedwait(Process &P, const Call &C) { return sigtimedwaitOf(P, C, 0); }
  static int64_t sigtimedwait64(Process &P, const Call &C) { return sigtimedwaitOf(P, C, 8); }
  // poll/ppoll: fd 0 is readable (a read answers at once: data or end of
  // file; once a read found the end and all is read, POLLHUP, as a pipe
  // whose writer closed), 1 and 2 writable, an open file both, others POLLNVAL. With
  // nothing ready the call sleeps out its timeout, or, with none, waits
  // for a signal. TimeoutNs < 0: none.
  static int64_t pollOn(Process &P, const Call &C, uint64_t Fds, uint64_t N, int64_t TimeoutNs) {
    constexpr uint16_t In = 1, Out = 4, Hup = 0x10, Nval = 0x20;
    if (N > 1024)
      return -EINVAL;
    int64_t Ready = 0;
    for (uint64_t I = 0; I < N; ++I) {
      uint8_t Pfd[8];
      if (uc_mem_read(P.UC, Fds + 8 * I, Pfd, 8) != UC_ERR_OK)
        return -EFAULT;
      int32_t Fd = int32_t(P.loadGuest(Pfd, 4));
      uint16_t Events = uint16_t(P.loadGuest(Pfd + 4, 2)), Revents = 0;
      auto S = P.Fs.stream(Fd);
      bool Hangup = S == 0 && P.StdinEnded && P.StdinPos == P.Stdin.size(); // the writer closed
      if (Fd >= 0)
        Revents = Hangup ? Hup : S == 0 ? Events & In : S ? Events & Out : P.Fs.isOpen(Fd) ? Events & (In | Out) : Nval;
      P.storeGuest(Pfd + 6, Revents, 2);
      if (!put(P, Fds + 8 * I, Pfd, 8))
        return -EFAULT;
      Ready += Revents != 0;
    }
    if (Ready || TimeoutNs == 0)
      return Ready;
    if (TimeoutNs < 0)
      return waitForever(P, C, C.name);
    return sleepFor(P, TimeoutNs, C);
  }
  // select's fd_sets (bit N of a bitmap of longs: fd N), read, write and
  // exception, with poll's readiness: fd 0 readable, 1 and 2 writable, an
  // open file both, nothing exceptional; a set bit for a closed fd inside
  // the fd table is EBADF. The ready
  // bits are written back, and with nothing ready the timeout is slept out
  // (TimeoutNs < 0: none, a wait for a signal). Timeout: where the
  // remaining time goes (0 left when slept out), Size bytes a field; Micro:
  // a timeval's microseconds rather than a timespec's nanoseconds.
  static int64_t selectOn(Process &P, const Call &C, int64_t N, const uint64_t (&Sets)[3], uint64_t Timeout,
                          unsigned Size, bool Micro) {
    if (N < 0)
      return -EINVAL;
    // Bits past the fd table are ignored: 64 fds, doubled as open ones need.
    int64_t Table = 64;
    while (P.Fs.highestFd() >= Table)
      Table *= 2;
    N = std::min(N, Table);
    const size_t Bytes = alignTo(uint64_t(N + 7) / 8, P.A.wordSize);
    int64_t TimeoutNs = Timeout ? timespecNs(P, Timeout, Size, Micro) : -1;
    if (Timeout && TimeoutNs < 0)
      return TimeoutNs;
    std::vector<uint8_t> Bits[3];
    int64_t Ready = 0;
    for (int S = 0; S < 3; ++S) {
      if (!Sets[S])
        continue;
      auto In = P.read(Sets[S], Bytes);
      if (!In)
        return consumeError(In.takeError()), -EFAULT;
      Bits[S].assign(In->begin(), In->end());
      for (int64_t Fd = 0; Fd < N; ++Fd) {
        uint8_t &Byte = Bits[S][size_t(Fd / 8)], Bit = uint8_t(1 << (Fd % 8));
        if (!(Byte & Bit))
          continue;
        if (!P.Fs.isOpen(Fd))
          return -EBADF;
        auto Stream = P.Fs.stream(Fd);
        bool Is = S == 0 ? !Stream || Stream == 0 : S == 1 ? Stream != 0 : false;
        Byte = Is ? Byte : uint8_t(Byte & ~Bit);
        Ready += Is;
      }
    }
    if (!Ready && TimeoutNs) {
      if (TimeoutNs < 0)
        return waitForever(P, C, C.name);
      int64_t R = sleepFor(P, TimeoutNs, C);
      if (P.Self->state != Process::Thread::State::Waiting)
        return R; // a signal came first
      if (!putWords(P, Timeout, {0, 0}, Size))
        return -EFAULT;
    }
    for (int S = 0; S < 3; ++S)
      if (Sets[S] && !put(P, Sets[S], Bits[S].data(), Bytes))
        return -EFAULT;
    return Ready;
  }
  // pselect6(n, in, out, ex, timespec, {sigmask, size}): the mask it
  // waits under is not applied.
  static int64_t pselect6(Process &P, const Call &C) {
    return selectOn(P, C, int64_t(int32_t(C.a[0])), {C.a[1], C.a[2], C.a[3]}, C.a[4], 0, false);
  }
  static int64_t pselect6Time64(Process &P, const Call &C) {
    return selectOn(P, C, int64_t(int32_t(C.a[0])), {C.a[1], C.a[2], C.a[3]}, C.a[4], 8, false);
  }
  // select and _newselect: a timeval; i386's old select (82) has its five
  // arguments in memory.
  static int64_t select(Process &P, const Call &C) {
    uint64_t A[5] = {C.a[0], C.a[1], C.a[2], C.a[3], C.a[4]};
    if (P.A.syscallAbi == SyscallAbi::I386 && C.nr == 82) {
      auto Args = getWords(P, C.a[0], 5, 4);
      if (!Args)
        return -EFAULT;
      for (int I = 0; I < 5; ++I)
        A[I] = uint32_t((*Args)[size_t(I)]);
    }
    return selectOn(P, C, int64_t(int32_t(A[0])), {A[1], A[2], A[3]}, A[4], 0, true);
  }
  // The process never has children.
  static int64_t noChild(Process &, const Call &) { return -ECHILD; }
  // fcntl: the descriptor flag (FD_CLOEXEC) and the file status flags, the
  // access mode (a standard stream's a pipe's, an open file's O_RDONLY,
  // without O_LARGEFILE) plus O_APPEND and O_NONBLOCK as set (the flags
  // F_SETFL changes that are the same on every arch); fdopen asks for them.
  // Duplicating, locks and the rest are not supported.
  static int64_t fcntl(Process &P, const Call &C) {
    enum : uint64_t { DupFd = 0, GetFd = 1, SetFd = 2, GetFl = 3, SetFl = 4, DupFdCloexec = 1030 };
    int64_t Fd = int32_t(C.a[0]);
    if (C.a[1] > SetFl && C.a[1] != DupFdCloexec) {
      P.noteSyscall(C.nr, C.name, formatv("command %llu not supported", (unsigned long long)C.a[1]).c_str());
      return -EINVAL;
    }
    switch (C.a[1]) {
    case DupFd:
    case DupFdCloexec: return P.Fs.dup(Fd, int64_t(int32_t(C.a[2])), C.a[1] == DupFdCloexec);
    case GetFd: return P.Fs.getCloseOnExec(Fd);
    case SetFd: return P.Fs.setCloseOnExec(Fd, C.a[2] & 1);
    case GetFl: return P.Fs.getStatus(Fd);
    default: return P.Fs.setStatus(Fd, uint32_t(C.a[2]));
    }
  }
  static int64_t poll(Process &P, const Call &C) {
    int32_t Ms = int32_t(C.a[2]);
    return pollOn(P, C, C.a[0], C.a[1], Ms < 0 ? -1 : int64_t(Ms) * 1000000);
  }
  static int64_t ppollOf(Process &P, const Call &C, unsigned Size) {
    int64_t Ns = C.a[2] ? timespecNs(P, C.a[2], Size) : -1;
    if (C.a[2] && Ns < 0)
      return Ns;
    return pollOn(P, C, C.a[0], C.a[1], Ns);
  }
  static int64_t ppoll(Process &P, const Call &C) { return ppollOf(P, C, 0); }
  static int64_t ppoll64(Process &P, const Call &C) { return ppollOf(P, C, 8); }
  // stack_t {ss_sp, ss_flags, ss_size}; an alternate stack SA_ONSTACK
  // handlers run on.
  static int64_t sigaltstack(Process &P, const Call &C) {
    constexpr uint64_t OnStack = 1, Disable = 2, MinSize = 2048;
    const unsigned W = P.A.wordSize;
    uint64_t Sp = P.reg(P.A.sp);
    bool On = P.Self->AltStackSize && Sp - P.Self->AltStackSp < P.Self->AltStackSize;
    std::optional<std::vector<int64_t>> New;
    if (C.a[0] && !(New = getWords(P, C.a[0], 3)))
      return -EFAULT;
    if (C.a[1]) {
      uint64_t Flags = P.Self->AltStackSize ? (On ? OnStack : 0) : Disable;
      if (!putWords(P, C.a[1], {P.Self->AltStackSp, 0, P.Self->AltStackSize}) || !putWords(P, C.a[1] + W, {Flags}, 4))
        return -EFAULT;
    }
    if (!New)
      return 0;
    if (On)
      return -EPERM;
    uint64_t Flags = uint64_t((*New)[1]) & 0xffffffff, Size = uint64_t((*New)[2]);
    if (Flags & Disable)
      return P.Self->AltStackSp = P.Self->AltStackSize = 0, 0;
    if (Flags & ~uint64_t(OnStack | 0x80000000 /* SS_AUTODISARM */))
      return -EINVAL;
    if (Size < MinSize)
      return -ENOMEM;
    P.Self->AltStackSp = uint64_t((*New)[0]), P.Self->AltStackSize = Size;
    return 0;
  }
  // Its frame's context back (signals.cpp); the return register is the
  // restored one, which the answer leaves as it is.
  static int64_t sigreturnOf(Process &P, uint8_t Kind) {
    P.Cur->sigreturnDue = Kind;
    uc_emu_stop(P.UC);
    return int64_t(P.reg(P.A.ret));
  }
  static int64_t rtSigreturn(Process &P, const Call &) { return sigreturnOf(P, 1); }
  static int64_t sigreturn(Process &P, const Call &) { return sigreturnOf(P, 2); }
  // A signal the process sends itself, to the process (kill: si_code
  // SI_USER) or one of its threads (tkill/tgkill: SI_TKILL, what raise()
  // and pthread_kill use).
  static int64_t signalSelf(Process &P, uint64_t Sig, int Code, Process::Thread *To = nullptr) {
    if (Sig > 64)
      return -EINVAL;
    if (Sig)
      P.raise(int(Sig), Code, To);
    return 0;
  }
  static constexpr int SiUser = 0, SiTkill = -6;
  static int64_t kill(Process &P, const Call &C) {
    return C.a[0] == Pid || C.a[0] == 0 ? signalSelf(P, C.a[1], SiUser) : refuse(P, C);
  }
  static int64_t signalThread(Process &P, uint64_t Tid, uint64_t Sig) {
    Process::Thread *T = P.findThread(Tid);
    return T ? signalSelf(P, Sig, SiTkill, T) : -ESRCH;
  }
  static int64_t tkill(Process &P, const Call &C) { return signalThread(P, C.a[0], C.a[1]); }
  static int64_t tgkill(Process &P, const Call &C) {
    return C.a[0] != Pid ? refuse(P, C) : signalThread(P, C.a[1], C.a[2]);
  }

  // ---- files (guest_fs.h: the process's private file system) ---------------
  static int64_t fdArg(uint64_t V) { return int32_t(V); } // an int: AT_FDCWD is -100
  // A path argument, at most PATH_MAX bytes (longer: the file system
  // answers ENAMETOOLONG).
  static int64_t pathArg(Process &P, uint64_t Addr, std::string &Out) {
    auto S = string(P, Addr, GuestFs::PathMax);
    if (!S)
      return -EFAULT;
    Out = std::move(*S);
    return 0;
  }
  // open(2) flags in the generic encoding (guest_fs.h, oflag): Arm and
  // AArch64 number O_DIRECTORY, O_NOFOLLOW, O_DIRECT and O_LARGEFILE
  // otherwise.
  static uint32_t openFlags(const Process &P, uint64_t Raw) {
    uint32_t F = uint32_t(Raw);
    if (P.A.syscallAbi != SyscallAbi::Arm && P.A.arch != Arch::AArch64)
      return F;
    constexpr std::pair<uint32_t, uint32_t> Arm[] = {
        {040000, oflag::Directory}, {0100000, oflag::NoFollow}, {0200000, oflag::Direct}, {0400000, oflag::LargeFile}};
    uint32_t Out = F & ~0740000u;
    for (auto [Theirs, Ours] : Arm)
      Out |= F & Theirs ? Ours : 0;
    return Out;
  }
  static int64_t openAt(Process &P, int64_t Dir, uint64_t PathAddr, uint32_t Flags, uint64_t Mode) {
    std::string Path;
    if (int64_t R = pathArg(P, PathAddr, Path))
      return R;
    return P.Fs.open(Dir, Path, Flags, uint32_t(Mode));
  }
  static int64_t open(Process &P, const Call &C) {
    return openAt(P, GuestFs::AtFdCwd, C.a[0], openFlags(P, C.a[1]), C.a[2]);
  }
  static int64_t openat(Process &P, const Call &C) {
    return openAt(P, fdArg(C.a[0]), C.a[1], openFlags(P, C.a[2]), C.a[3]);
  }
  static int64_t creat(Process &P, const Call &C) {
    return openAt(P, GuestFs::AtFdCwd, C.a[0], oflag::Create | oflag::WriteOnly | oflag::Truncate, C.a[1]);
  }
  // struct stat as the ABI lays it out: x86-64's, the generic one (AArch64,
  // RISC-V), or the 32-bit arches' struct stat64 (i386 packed, Arm with
  // its 64-bit fields aligned).
  static int64_t putStat(Process &P, const GuestFs::Stat &S, uint64_t Buf) {
    uint8_t St[144] = {};
    auto Set = [&](size_t Off, uint64_t V, unsigned N) { P.storeGuest(St + Off, V, N); };
    uint64_t Sec = uint64_t(S.mtimeNs / NsPerSec), Nsec = uint64_t(S.mtimeNs % NsPerSec), Blocks = (S.size + 511) / 512;
    auto Times = [&](size_t Off, unsigned N) {
      for (int I = 0; I < 3; ++I)
        Set(Off + 2 * N * I, Sec, N), Set(Off + 2 * N * I + N, Nsec, N);
    };
    size_t Size;
    Set(0, S.dev, 8);
    switch (P.A.syscallAbi) {
    case SyscallAbi::X86_64:
      Set(8, S.ino, 8), Set(16, S.nlink, 8), Set(24, S.mode, 4), Set(28, S.uid, 4), Set(32, S.gid, 4);
      Set(40, S.rdev, 8), Set(48, S.size, 8), Set(56, 4096, 8), Set(64, Blocks, 8), Times(72, 8), Size = 144;
      break;
    case SyscallAbi::Generic:
      Set(8, S.ino, 8), Set(16, S.mode, 4), Set(20, S.nlink, 4), Set(24, S.uid, 4), Set(28, S.gid, 4);
      Set(32, S.rdev, 8), Set(48, S.size, 8), Set(56, 4096, 4), Set(64, Blocks, 8), Times(72, 8), Size = 128;
      break;
    default: {
      size_t Pad = P.A.syscallAbi == SyscallAbi::Arm ? 4 : 0; // st_size aligned to 8 on Arm EABI
      Set(12, S.ino, 4), Set(16, S.mode, 4), Set(20, S.nlink, 4), Set(24, S.uid, 4), Set(28, S.gid, 4);
      Set(32, S.rdev, 8), Set(44 + Pad, S.size, 8), Set(52 + Pad, 4096, 4), Set(56 + 2 * Pad, Blocks, 8);
      Times(64 + 2 * Pad, 4), Set(88 + 2 * Pad, S.ino, 8), Size = 96 + 2 * Pad;
    }
    }
    return put(P, Buf, St, Size) ? 0 : -EFAULT;
  }
  static int64_t statAt(Process &P, int64_t Dir, uint64_t PathAddr, uint64_t Flags, GuestFs::Stat &S) {
    constexpr uint64_t EmptyPath = 0x1000;
    std::string Path;
    if (int64_t R = pathArg(P, PathAddr, Path))
      return R;
    return P.Fs.stat(Dir, Path, Flags & EmptyPath, S);
  }
  static int64_t statInto(Process &P, int64_t Dir, uint64_t PathAddr, uint64_t Flags, uint64_t Buf) {
    GuestFs::Stat S;
    int64_t R = statAt(P, Dir, PathAddr, Flags, S);
    return R ? R : putStat(P, S, Buf);
  }
  static int64_t fstat(Process &P, const Call &C) {
    GuestFs::Stat S;
    int64_t R = P.Fs.stat(fdArg(C.a[0]), S);
    return R ? R : putStat(P, S, C.a[1]);
  }
  // newfstatat and the 32-bit arches' fstatat64 (dirfd, path, buf, flags).
  static int64_t newfstatat(Process &P, const Call &C) { return statInto(P, fdArg(C.a[0]), C.a[1], C.a[3], C.a[2]); }
  // stat/lstat (path, buf): x86-64's, and the 32-bit arches' stat64/lstat64
  // (no symbolic links exist, so lstat is stat). The 32-bit arches' old
  // stat/lstat, of the old struct stat, are not supported.
  static int64_t stat(Process &P, const Call &C) {
    if (P.A.wordSize == 4 && !std::string_view(C.name).ends_with("64")) {
      P.noteSyscall(C.nr, C.name, "not supported");
      return -ENOSYS;
    }
    return statInto(P, GuestFs::AtFdCwd, C.a[0], 0, C.a[1]);
  }
  // statx(dirfd, path, flags, mask, buf): the one stat call the 32-bit
  // arches' glibc makes; its struct is the same everywhere.
  static int64_t statx(Process &P, const Call &C) {
    GuestFs::Stat S;
    if (int64_t R = statAt(P, fdArg(C.a[0]), C.a[1], C.a[2], S))
      return R;
    uint8_t St[256] = {};
    auto Set = [&](size_t Off, uint64_t V, unsigned N) { P.storeGuest(St + Off, V, N); };
    Set(0, 0x7ff /* STATX_BASIC_STATS */, 4), Set(4, 4096, 4), Set(16, S.nlink, 4), Set(20, S.uid, 4),
        Set(24, S.gid, 4);
    Set(28, S.mode, 2), Set(32, S.ino, 8), Set(40, S.size, 8), Set(48, (S.size + 511) / 512, 8);
    for (size_t Time : {64, 96, 112}) // atime, ctime, mtime (no birth time)
      Set(Time, uint64_t(S.mtimeNs / NsPerSec), 8), Set(Time + 8, uint64_t(S.mtimeNs % NsPerSec), 4);
    Set(128, S.rdev >> 8, 4), Set(132, S.rdev & 0xff, 4), Set(136, S.dev >> 8, 4), Set(140, S.dev & 0xff, 4);
    return put(P, C.a[4], St) ? 0 : -EFAULT;
  }
  static int64_t lseek(Process &P, const Call &C) { // off_t: a long
    return P.Fs.seek(fdArg(C.a[0]), P.A.wordSize == 4 ? int64_t(int32_t(C.a[1])) : int64_t(C.a[1]), C.a[2]);
  }
  // _llseek(fd, offset high, offset low, loff_t *result, whence)
  static int64_t llseek(Process &P, const Call &C) {
    int64_t R = P.Fs.seek(fdArg(C.a[0]), int64_t(C.a[1] << 32 | uint32_t(C.a[2])), C.a[4]);
    return R < 0 ? R : putWords(P, C.a[3], {uint64_t(R)}, 8) ? 0 : -EFAULT;
  }
  static int64_t access(Process &P, const Call &C, int64_t Dir, uint64_t PathAddr, uint64_t Mode) {
    std::string Path;
    if (int64_t R = pathArg(P, PathAddr, Path))
      return R;
    return P.Fs.access(Dir, Path, uint32_t(Mode));
  }
  static int64_t accessCwd(Process &P, const Call &C) { return access(P, C, GuestFs::AtFdCwd, C.a[0], C.a[1]); }
  static int64_t faccessat(Process &P, const Call &C) { return access(P, C, fdArg(C.a[0]), C.a[1], C.a[2]); }
  static int64_t mkdirAt(Process &P, int64_t Dir, uint64_t PathAddr, uint64_t Mode) {
    std::string Path;
    if (int64_t R = pathArg(P, PathAddr, Path))
      return R;
    return P.Fs.mkdir(Dir, Path, uint32_t(Mode));
  }
  static int64_t mkdir(Process &P, const Call &C) { return mkdirAt(P, GuestFs::AtFdCwd, C.a[0], C.a[1]); }
  static int64_t mkdirat(Process &P, const Call &C) { return mkdirAt(P, fdArg(C.a[0]), C.a[1], C.a[2]); }
  static int64_t unlinkAt(Process &P, int64_t Dir, uint64_t PathAddr, bool Folder) {
    std::string Path;
    if (int64_t R = pathArg(P, PathAddr, Path))
      return R;
    return P.Fs.unlink(Dir, Path, Folder);
  }
  static int64_t unlink(Process &P, const Call &C) { return unlinkAt(P, GuestFs::AtFdCwd, C.a[0], false); }
  static int64_t rmdir(Process &P, const Call &C) { return unlinkAt(P, GuestFs::AtFdCwd, C.a[0], true); }
  static int64_t unlinkat(Process &P, const Call &C) {
    constexpr uint64_t RemoveDir = 0x200;
    return C.a[2] & ~RemoveDir ? -EINVAL : unlinkAt(P, fdArg(C.a[0]), C.a[1], C.a[2] & RemoveDir);
  }
  static int64_t renameAt(Process &P, int64_t OldDir, uint64_t Old, int64_t NewDir, uint64_t New, uint64_t Flags) {
    std::string From, To;
    if (int64_t R = pathArg(P, Old, From))
      return R;
    if (int64_t R = pathArg(P, New, To))
      return R;
    return P.Fs.rename(OldDir, From, NewDir, To, uint32_t(Flags));
  }
  static int64_t rename(Process &P, const Call &C) {
    return renameAt(P, GuestFs::AtFdCwd, C.a[0], GuestFs::AtFdCwd, C.a[1], 0);
  }
  static int64_t renameat(Process &P, const Call &C) {
    return renameAt(P, fdArg(C.a[0]), C.a[1], fdArg(C.a[2]), C.a[3], 0);
  }
  static int64_t renameat2(Process &P, const Call &C) {
    return renameAt(P, fdArg(C.a[0]), C.a[1], fdArg(C.a[2]), C.a[3], C.a[4]);
  }
  static int64_t chdir(Process &P, const Call &C) {
    std::string Path;
    if (int64_t R = pathArg(P, C.a[0], Path))
      return R;
    return P.Fs.chdir(GuestFs::AtFdCwd, Path);
  }
  static int64_t fchdir(Process &P, const Call &C) { return P.Fs.chdir(fdArg(C.a[0]), ""); }
  static int64_t umask(Process &P, const Call &C) { return P.Fs.umask(uint32_t(C.a[0])); }
  static int64_t dup(Process &P, const Call &C) { return P.Fs.dup(fdArg(C.a[0])); }
  static int64_t dup2(Process &P, const Call &C) {
    int64_t Old = fdArg(C.a[0]), New = fdArg(C.a[1]);
    if (Old == New)
      return P.Fs.isOpen(Old) ? New : -EBADF;
    return P.Fs.dup3(Old, New, 0);
  }
  static int64_t dup3(Process &P, const Call &C) {
    int64_t Old = fdArg(C.a[0]), New = fdArg(C.a[1]);
    if (Old == New || (C.a[2] & ~uint64_t(oflag::CloseOnExec)))
      return -EINVAL;
    return P.Fs.dup3(Old, New, uint32_t(C.a[2]));
  }
  // Nothing to write back; a pipe cannot be synced.
  static int64_t fsync(Process &P, const Call &C) {
    int64_t Fd = fdArg(C.a[0]);
    return !P.Fs.isOpen(Fd) ? -EBADF : P.Fs.stream(Fd) ? -EINVAL : 0;
  }
  // ftruncate(fd, length): a long, or ftruncate64's 64-bit one.
  static int64_t ftruncate(Process &P, const Call &C) {
    int64_t Len = std::string_view(C.name) == "ftruncate64" ? int64_t(offset64(P, C, 1))
                  : P.A.wordSize == 4                       ? int64_t(int32_t(C.a[1]))
                                                            : int64_t(C.a[1]);
    return P.Fs.truncate(fdArg(C.a[0]), Len);
  }
  static int64_t truncate(Process &P, const Call &C) {
    int64_t Len = std::string_view(C.name) == "truncate64" ? int64_t(offset64(P, C, 1))
                  : P.A.wordSize == 4                      ? int64_t(int32_t(C.a[1]))
                                                           : int64_t(C.a[1]);
    std::string Path;
    if (int64_t R = pathArg(P, C.a[0], Path))
      return R;
    return P.Fs.truncate(GuestFs::AtFdCwd, Path, Len);
  }
  // getdents64(fd, buf, count): struct linux_dirent64 {u64 ino, s64 off,
  // u16 reclen, u8 type, name}, each 8-byte aligned.
  static int64_t getdents64(Process &P, const Call &C) {
    std::vector<uint8_t> Buf;
    uint64_t Room = std::min(C.a[2], MaxTransfer);
    bool Full = false;
    int64_t N = P.Fs.readDir(fdArg(C.a[0]), [&](const GuestFs::DirEntry &E, uint64_t Next) {
      size_t Len = alignTo(19 + E.name.size() + 1, 8), At = Buf.size();
      if (At + Len > Room)
        return Full = true, false;
      Buf.resize(At + Len);
      P.storeGuest(&Buf[At], E.ino, 8), P.storeGuest(&Buf[At + 8], Next, 8);
      P.storeGuest(&Buf[At + 16], Len, 2), Buf[At + 18] = E.type;
      std::memcpy(&Buf[At + 19], E.name.data(), E.name.size());
      return true;
    });
    if (N < 0)
      return N;
    if (Buf.empty() && Full)
      return -EINVAL; // not even one entry fits
    return Buf.empty() || put(P, C.a[1], Buf.data(), Buf.size()) ? int64_t(Buf.size()) : -EFAULT;
  }
  // Wait queues per address (Process::FutexQueues): FUTEX_WAIT and
  // WAIT_BITSET (timeouts relative on the monotonic clock, absolute on it
  // or with FUTEX_CLOCK_REALTIME on the real-time one), WAKE, WAKE_BITSET,
  // REQUEUE, CMP_REQUEUE and WAKE_OP, what glibc uses; the priority-
  // inheritance operations are not supported. Private and shared futexes
  // are the same in one process. Size: of a timeout's fields.
  static int64_t futexOf(Process &P, const Call &C, unsigned Size) {
    enum : uint64_t { Wait = 0, Wake = 1, Requeue = 3, CmpRequeue = 4, WakeOp = 5, WaitBitset = 9, WakeBitset = 10 };
    constexpr uint64_t ClockRealtime = 256;
    uint64_t Addr = C.a[0], Op = C.a[1] & 0x7f, Addr2 = C.a[4];
    uint32_t Val = uint32_t(C.a[2]), Val2 = uint32_t(C.a[3]), Val3 = uint32_t(C.a[5]);
    auto Load = [&](uint64_t At) -> std::optional<uint32_t> {
      uint8_t Word[4];
      if (uc_mem_read(P.UC, At, Word, 4) != UC_ERR_OK)
        return std::nullopt;
      return uint32_t(P.loadGuest(Word, 4));
    };
    if (Addr % 4)
      return -EINVAL;
    switch (Op) {
    case Wait:
    case WaitBitset: {
      if (Op == WaitBitset && !Val3)
        return -EINVAL;
      std::optional<std::chrono::steady_clock::time_point> Until;
      if (C.a[3]) {
        auto T = getWords(P, C.a[3], 2, Size);
        if (!T)
          return -EFAULT;
        if ((*T)[0] < 0 || (*T)[1] < 0 || (*T)[1] >= NsPerSec)
          return -EINVAL;
        int64_t Ns = std::min<int64_t>((*T)[0], INT64_MAX / NsPerSec - 1) * NsPerSec + (*T)[1];
        if (Op == WaitBitset)
          Ns -= nowNs(P, C.a[1] & ClockRealtime ? CLOCK_REALTIME : CLOCK_MONOTONIC);
        Until = fromNow(Ns);
      }
      auto Word = Load(Addr);
      if (!Word)
        return -EFAULT;
      if (*Word != Val)
        return -EAGAIN;
      int64_t R = P.wait(formatv("futex wait at %s", hex(Addr).c_str()), false, Until, -ETIMEDOUT);
      if (P.Self->state == Process::Thread::State::Waiting) {
        P.Self->futexAddr = Addr;
        P.Self->bitset = Op == Wait ? ~0u : Val3;
        P.FutexQueues[Addr].push_back(P.Self);
      }
      return R;
    }
    case Wake:
    case WakeBitset:
      return Op == WakeBitset && !Val3 ? -EINVAL : int64_t(P.futexWake(Addr, Val, Op == Wake ? ~0u : Val3));
    case Requeue:
    case CmpRequeue: {
      auto Word = Load(Addr);
      if (!Word)
        return -EFAULT;
      if (Op == CmpRequeue && *Word != Val3)
        return -EAGAIN;
      uint64_t Woken = P.futexWake(Addr, Val);
      return int64_t(Woken + P.futexRequeue(Addr, Addr2, Val2));
    }
    case WakeOp: {
      // val3: op (bit 3: oparg is a shift), cmp, oparg, cmparg (linux/futex.h).
      uint32_t Kind = Val3 >> 28 & 7, Cmp = Val3 >> 24 & 15;
      int32_t Oparg = int32_t(Val3 << 8) >> 20, Cmparg = int32_t(Val3 << 20) >> 20;
      if (Val3 >> 31)
        Oparg = int32_t(1u << (Oparg & 31));
      auto Old = Load(Addr2);
      if (!Old)
        return -EFAULT;
      uint32_t Arg = uint32_t(Oparg), New[] = {Arg, *Old + Arg, *Old | Arg, *Old & ~Arg, *Old ^ Arg};
      int32_t O = int32_t(*Old);
      bool Holds[] = {O == Cmparg, O != Cmparg, O<Cmparg, O <= Cmparg, O> Cmparg, O >= Cmparg};
      if (Kind >= std::size(New) || Cmp >= std::size(Holds))
        return -ENOSYS;
      uint8_t Word[4];
      P.storeGuest(Word, New[Kind], 4);
      if (!put(P, Addr2, Word))
        return -EFAULT;
      uint64_t Woken = P.futexWake(Addr, Val);
      return int64_t(Woken + (Holds[Cmp] ? P.futexWake(Addr2, Val2) : 0));
    }
    default: return -ENOSYS;
    }
  }
  static int64_t futex(Process &P, const Call &C) { return futexOf(P, C, 0); }
  static int64_t futex64(Process &P, const Call &C) { return futexOf(P, C, 8); }
  static int64_t schedGetaffinity(Process &P, const Call &C) {
    return C.a[1] < 8 ? -EINVAL : putWords(P, C.a[2], {1}, 8) ? 8 : -EFAULT; // one CPU
  }
  static int64_t getcwd(Process &P, const Call &C) {
    std::string Cwd = P.Fs.cwd();
    if (Cwd.size() >= GuestFs::PathMax)
      return -ENAMETOOLONG; // Linux's answer past a page, whatever the buffer (glibc then walks "..")
    return C.a[1] < Cwd.size() + 1                       ? -ERANGE
           : put(P, C.a[0], Cwd.c_str(), Cwd.size() + 1) ? int64_t(Cwd.size() + 1)
                                                         : -EFAULT;
  }
  // Only /proc/self/exe: the program's own name (AT_EXECFN), absolute as
  // the kernel's link is (the emulated working directory is "/"; glibc's
  // static start asserts the leading '/').
  static int64_t readlink(Process &P, const Call &C, uint64_t Path, uint64_t Buf, uint64_t Size) {
    auto S = string(P, Path);
    if (!S)
      return -EFAULT;
    if (*S != "/proc/self/exe") { // no symbolic links exist here
      GuestFs::Stat St;
      int64_t R = P.Fs.stat(GuestFs::AtFdCwd, *S, false, St);
      return R ? R : -EINVAL;
    }
    std::string_view Name = P.ExecFn;
    while (Name.starts_with("./"))
      Name.remove_prefix(2);
    std::string Exe = Name.starts_with("/") ? std::string(Name) : "/" + std::string(Name);
    size_t N = std::min<size_t>(Size, Exe.size());
    return put(P, Buf, Exe.data(), N) ? int64_t(N) : -EFAULT;
  }
  static int64_t readlinkat(Process &P, const Call &C) { return readlink(P, C, C.a[1], C.a[2], C.a[3]); }
  static int64_t readlinkX86(Process &P, const Call &C) { return readlink(P, C, C.a[0], C.a[1], C.a[2]); }
};

const char *const Linux::RefusedWhy = "refused (the emulated process reaches no host file, process or network)";

// clang-format off
const Linux::Row Linux::Table[] = {
    // {name, x86-64, generic, i386, Arm EABI, handler}. Handled (SYSCALLS.md), or refused with -EPERM.
    {"read", 0, 63, 3, 3, read},
    {"write", 1, 64, 4, 4, write},
    {"open", 2, -1, 5, 5, open},
    {"close", 3, 57, 6, 6, close},
    {"stat", 4, -1, 106, 106, stat},
    {"fstat", 5, 80, -1, -1, fstat},
    {"lstat", 6, -1, 107, 107, stat},
    {"lseek", 8, 62, 19, 19, lseek},
    {"mmap", 9, 222, -1, -1, mmap},
    {"mprotect", 10, 226, 125, 125, mprotect},
    {"munmap", 11, 215, 91, 91, munmap},
    {"brk", 12, 214, 45, 45, brk},
    {"rt_sigaction", 13, 134, 174, 174, rtSigaction},
    {"rt_sigprocmask", 14, 135, 175, 175, rtSigprocmask},
    {"ioctl", 16, 29, 54, 54, ioctl},
    {"readv", 19, 65, 145, 145, readv},
    {"writev", 20, 66, 146, 146, writev},
    {"access", 21, -1, 33, 33, accessCwd},
    {"sched_yield", 24, 124, 158, 158, schedYield},
    {"mremap", 25, 216, 163, 163, mremap},
    {"madvise", 28, 233, 219, 220, zero},
    {"getpid", 39, 172, 20, 20, getpid},
    {"socket", 41, 198, 359, 281, refuse},
    {"connect", 42, 203, 362, 283, refuse},
    {"accept", 43, 202, -1, 285, refuse},
    {"bind", 49, 200, 361, 282, refuse},
    {"listen", 50, 201, 363, 284, refuse},
    {"socketpair", 53, 199, 360, 288, refuse},
    {"clone", 56, 220, 120, 120, clone},
    {"fork", 57, -1, 2, 2, refuse},
    {"vfork", 58, -1, 190, 190, refuse},
    {"execve", 59, 221, 11, 11, refuse},
    {"exit", 60, 93, 1, 1, exitThread},
    {"kill", 62, 129, 37, 37, kill},
    {"uname", 63, 160, 122, 122, uname},
    {"truncate", 76, 45, 92, 92, truncate},
    {"getcwd", 79, 17, 183, 183, getcwd},
    {"chdir", 80, 49, 12, 12, chdir},
    {"rename", 82, -1, 38, 38, rename},
    {"mkdir", 83, -1, 39, 39, mkdir},
    {"rmdir", 84, -1, 40, 40, rmdir},
    {"creat", 85, -1, 8, 8, creat},
    {"link", 86, -1, 9, 9, refuse},
    {"unlink", 87, -1, 10, 10, unlink},
    {"symlink", 88, -1, 83, 83, refuse},
    {"readlink", 89, -1, 85, 85, readlinkX86},
    {"chmod", 90, -1, 15, 15, refuse},
    {"chown", 92, -1, 182, 182, refuse},
    {"lchown", 94, -1, 16, 16, refuse},
    {"gettimeofday", 96, 169, 78, 78, gettimeofday},
    {"getrlimit", 97, 163, 76, -1, getrlimit},
    {"ptrace", 101, 117, 26, 26, refuse},
    {"getuid", 102, 174, 24, 24, getuid},
    {"getgid", 104, 176, 47, 47, getuid},
    {"geteuid", 107, 175, 49, 49, getuid},
    {"getegid", 108, 177, 50, 50, getuid},
    {"getppid", 110, 173, 64, 64, getppid},
    {"utime", 132, -1, 30, -1, refuse},
    {"mknod", 133, -1, 14, 14, refuse},
    {"uselib", 134, -1, 86, 86, refuse},
    {"statfs", 137, 43, 99, 99, refuse},
    {"pivot_root", 155, 41, 217, 218, refuse},
    {"arch_prctl", 158, -1, -1, -1, archPrctl}, // i386 has one too, without ARCH_SET_FS
    {"set_thread_area", 205, -1, 243, -1, setThreadArea},
    {"chroot", 161, 51, 61, 61, refuse},
    {"acct", 163, 89, 51, 51, refuse},
    {"mount", 165, 40, 21, 21, refuse},
    {"umount2", 166, 39, 52, 52, refuse},
    {"swapon", 167, 224, 87, 87, refuse},
    {"swapoff", 168, 225, 115, 115, refuse},
    {"reboot", 169, 142, 88, 88, refuse},
    {"quotactl", 179, 60, 131, 131, refuse},
    {"gettid", 186, 178, 224, 224, gettid},
    {"setxattr", 188, 5, 226, 226, refuse},
    {"lsetxattr", 189, 6, 227, 227, refuse},
    {"getxattr", 191, 8, 229, 229, refuse},
    {"lgetxattr", 192, 9, 230, 230, refuse},
    {"listxattr", 194, 11, 232, 232, refuse},
    {"llistxattr", 195, 12, 233, 233, refuse},
    {"removexattr", 197, 14, 235, 235, refuse},
    {"lremovexattr", 198, 15, 236, 236, refuse},
    {"tkill", 200, 130, 238, 238, tkill},
    {"time", 201, -1, 13, -1, time},
    {"futex", 202, 98, 240, 240, futex},
    {"sched_getaffinity", 204, 123, 242, 242, schedGetaffinity},
    {"set_tid_address", 218, 96, 258, 256, setTidAddress},
    {"clock_gettime", 228, 113, 265, 263, clockGettime},
    {"clock_getres", 229, 114, 266, 264, clockGetres},
    {"exit_group", 231, 94, 252, 248, exit},
    {"tgkill", 234, 131, 270, 268, tgkill},
    {"utimes", 235, -1, 271, 269, refuse},
    {"kexec_load", 246, 104, 283, 347, refuse},
    {"inotify_add_watch", 254, 27, 292, 317, refuse},
    {"openat", 257, 56, 295, 322, openat},
    {"mkdirat", 258, 34, 296, 323, mkdirat},
    {"mknodat", 259, 33, 297, 324, refuse},
    {"fchownat", 260, 54, 298, 325, refuse},
    {"futimesat", 261, -1, 299, 326, refuse},
    {"newfstatat", 262, 79, -1, -1, newfstatat},
    {"unlinkat", 263, 35, 301, 328, unlinkat},
    {"renameat", 264, 38, 302, 329, renameat},
    {"linkat", 265, 37, 303, 330, refuse},
    {"symlinkat", 266, 36, 304, 331, refuse},
    {"readlinkat", 267, 78, 305, 332, readlinkat},
    {"fchmodat", 268, 53, 306, 333, refuse},
    {"faccessat", 269, 48, 307, 334, faccessat},
    {"set_robust_list", 273, 99, 311, 338, setRobustList},
    {"utimensat", 280, 88, 320, 348, refuse},
    {"accept4", 288, 242, 364, 366, refuse},
    {"fanotify_mark", 301, 263, 339, 368, refuse},
    {"prlimit64", 302, 261, 340, 369, prlimit64},
    {"name_to_handle_at", 303, 264, 341, 370, refuse},
    {"open_by_handle_at", 304, 265, 342, 371, refuse},
    {"process_vm_readv", 310, 270, 347, 376, refuse},
    {"process_vm_writev", 311, 271, 348, 377, refuse},
    {"renameat2", 316, 276, 353, 382, renameat2},
    {"getrandom", 318, 278, 355, 384, getrandom},
    {"kexec_file_load", 320, 294, -1, 401, refuse},
    {"execveat", 322, 281, 358, 387, refuse},
    {"statx", 332, 291, 383, 397, statx},
    {"rseq", 334, 293, 386, 398, noSysQuiet},
    {"dup", 32, 23, 41, 41, dup}, // glibc's perror then writes to stderr itself
    {"pidfd_send_signal", 424, 424, 424, 424, refuse},
    {"open_tree", 428, 428, 428, 428, refuse},
    {"move_mount", 429, 429, 429, 429, refuse},
    {"fsopen", 430, 430, 430, 430, refuse},
    {"fspick", 433, 433, 433, 433, refuse},
    {"pidfd_open", 434, 434, 434, 434, refuse},
    {"clone3", 435, 435, 435, 435, noSysQuiet}, // as qemu-user answers: glibc falls back to clone
    {"openat2", 437, 437, 437, 437, refuse},
    {"pidfd_getfd", 438, 438, 438, 438, refuse},
    {"faccessat2", 439, 439, 439, 439, faccessat},
    {"mount_setattr", 442, 442, 442, 442, refuse},
    // Known by name only: -ENOSYS.
    {"poll", 7, -1, 168, 168, poll}, {"rt_sigreturn", 15, 139, 173, 173, rtSigreturn}, {"pread64", 17, 67, 180, 180, pread64},
    {"pwrite64", 18, 68, 181, 181, pwrite64}, {"pipe", 22, -1, 42, 42, nullptr}, {"select", 23, -1, 82, -1, select},
    {"msync", 26, 227, 144, 144, nullptr}, {"mincore", 27, 232, 218, 219, nullptr}, {"shmget", 29, 194, 395, 307, nullptr},
    {"shmat", 30, 196, 397, 305, nullptr}, {"shmctl", 31, 195, 396, 308, nullptr}, {"dup2", 33, -1, 63, 63, dup2},
    {"pause", 34, -1, 29, 29, pause}, {"nanosleep", 35, 101, 162, 162, nanosleep}, {"getitimer", 36, 102, 105, 105, nullptr},
    {"alarm", 37, -1, 27, -1, nullptr}, {"setitimer", 38, 103, 104, 104, nullptr}, {"sendfile", 40, 71, 187, 187, nullptr},
    {"sendto", 44, 206, 369, 290, nullptr}, {"recvfrom", 45, 207, 371, 292, nullptr}, {"sendmsg", 46, 211, 370, 296, nullptr},
    {"recvmsg", 47, 212, 372, 297, nullptr}, {"shutdown", 48, 210, 373, 293, nullptr}, {"getsockname", 51, 204, 367, 286, nullptr},
    {"getpeername", 52, 205, 368, 287, nullptr}, {"setsockopt", 54, 208, 366, 294, nullptr}, {"getsockopt", 55, 209, 365, 295, nullptr},
    {"wait4", 61, 260, 114, 114, noChild}, {"semget", 64, 190, 393, 299, nullptr}, {"semop", 65, 193, -1, 298, nullptr},
    {"semctl", 66, 191, 394, 300, nullptr}, {"shmdt", 67, 197, 398, 306, nullptr}, {"msgget", 68, 186, 399, 303, nullptr},
    {"msgsnd", 69, 189, 400, 301, nullptr}, {"msgrcv", 70, 188, 401, 302, nullptr}, {"msgctl", 71, 187, 402, 304, nullptr},
    {"fcntl", 72, 25, 55, 55, fcntl}, {"flock", 73, 32, 143, 143, nullptr}, {"fsync", 74, 82, 118, 118, fsync},
    {"fdatasync", 75, 83, 148, 148, fsync}, {"ftruncate", 77, 46, 93, 93, ftruncate}, {"getdents", 78, -1, 141, 141, nullptr},
    {"fchdir", 81, 50, 133, 133, fchdir}, {"fchmod", 91, 52, 94, 94, nullptr}, {"fchown", 93, 55, 95, 95, nullptr},
    {"umask", 95, 166, 60, 60, umask}, {"getrusage", 98, 165, 77, 77, getrusage}, {"sysinfo", 99, 179, 116, 116, sysinfo},
    {"times", 100, 153, 43, 43, times}, {"syslog", 103, 116, 103, 103, nullptr}, {"setuid", 105, 146, 23, 23, nullptr},
    {"setgid", 106, 144, 46, 46, nullptr}, {"setpgid", 109, 154, 57, 57, nullptr}, {"getpgrp", 111, -1, 65, 65, nullptr},
    {"setsid", 112, 157, 66, 66, nullptr}, {"setreuid", 113, 145, 70, 70, nullptr}, {"setregid", 114, 143, 71, 71, nullptr},
    {"getgroups", 115, 158, 80, 80, nullptr}, {"setgroups", 116, 159, 81, 81, nullptr}, {"setresuid", 117, 147, 164, 164, nullptr},
    {"getresuid", 118, 148, 165, 165, nullptr}, {"setresgid", 119, 149, 170, 170, nullptr}, {"getresgid", 120, 150, 171, 171, nullptr},
    {"getpgid", 121, 155, 132, 132, nullptr}, {"setfsuid", 122, 151, 138, 138, nullptr}, {"setfsgid", 123, 152, 139, 139, nullptr},
    {"getsid", 124, 156, 147, 147, nullptr}, {"capget", 125, 90, 184, 184, nullptr}, {"capset", 126, 91, 185, 185, nullptr},
    {"rt_sigpending", 127, 136, 176, 176, rtSigpending}, {"rt_sigtimedwait", 128, 137, 177, 177, sigtimedwait},
    {"rt_sigqueueinfo", 129, 138, 178, 178, nullptr}, {"rt_sigsuspend", 130, 133, 179, 179, rtSigsuspend}, {"sigaltstack", 131, 132, 186, 186, sigaltstack},
    {"personality", 135, 92, 136, 136, nullptr}, {"ustat", 136, -1, 62, 62, nullptr}, {"fstatfs", 138, 44, 100, 100, nullptr},
    {"sysfs", 139, -1, 135, 135, nullptr}, {"getpriority", 140, 141, 96, 96, nullptr}, {"setpriority", 141, 140, 97, 97, nullptr},
    {"sched_setparam", 142, 118, 154, 154, nullptr}, {"sched_getparam", 143, 121, 155, 155, nullptr},
    {"sched_setscheduler", 144, 119, 156, 156, nullptr}, {"sched_getscheduler", 145, 120, 157, 157, nullptr},
    {"sched_get_priority_max", 146, 125, 159, 159, nullptr}, {"sched_get_priority_min", 147, 126, 160, 160, nullptr},
    {"sched_rr_get_interval", 148, 127, 161, 161, nullptr}, {"mlock", 149, 228, 150, 150, nullptr}, {"munlock", 150, 229, 151, 151, nullptr},
    {"mlockall", 151, 230, 152, 152, nullptr}, {"munlockall", 152, 231, 153, 153, nullptr}, {"vhangup", 153, 58, 111, 111, nullptr},
    {"modify_ldt", 154, -1, 123, -1, nullptr}, {"_sysctl", 156, -1, 149, 149, nullptr}, {"prctl", 157, 167, 172, 172, nullptr},
    {"adjtimex", 159, 171, 124, 124, nullptr}, {"setrlimit", 160, 164, 75, 75, nullptr}, {"sync", 162, 81, 36, 36, nullptr},
    {"settimeofday", 164, 170, 79, 79, nullptr}, {"sethostname", 170, 161, 74, 74, nullptr}, {"setdomainname", 171, 162, 121, 121, nullptr},
    {"iopl", 172, -1, 110, -1, nullptr}, {"ioperm", 173, -1, 101, -1, nullptr}, {"create_module", 174, -1, 127, -1, nullptr},
    {"init_module", 175, 105, 128, 128, nullptr}, {"delete_module", 176, 106, 129, 129, nullptr}, {"get_kernel_syms", 177, -1, 130, -1, nullptr},
    {"query_module", 178, -1, 167, -1, nullptr}, {"nfsservctl", 180, 42, 169, 169, nullptr}, {"getpmsg", 181, -1, 188, -1, nullptr},
    {"putpmsg", 182, -1, 189, -1, nullptr}, {"afs_syscall", 183, -1, 137, -1, nullptr}, {"tuxcall", 184, -1, -1, -1, nullptr},
    {"security", 185, -1, -1, -1, nullptr}, {"readahead", 187, 213, 225, 225, nullptr}, {"fsetxattr", 190, 7, 228, 228, nullptr},
    {"fgetxattr", 193, 10, 231, 231, nullptr}, {"flistxattr", 196, 13, 234, 234, nullptr}, {"fremovexattr", 199, 16, 237, 237, nullptr},
    {"sched_setaffinity", 203, 122, 241, 241, nullptr}, {"io_setup", 206, 0, 245, 243, nullptr},
    {"io_destroy", 207, 1, 246, 244, nullptr}, {"io_getevents", 208, 4, 247, 245, nullptr}, {"io_submit", 209, 2, 248, 246, nullptr},
    {"io_cancel", 210, 3, 249, 247, nullptr}, {"get_thread_area", 211, -1, 244, -1, nullptr}, {"lookup_dcookie", 212, 18, 253, 249, nullptr},
    {"epoll_create", 213, -1, 254, 250, nullptr}, {"epoll_ctl_old", 214, -1, -1, -1, nullptr}, {"epoll_wait_old", 215, -1, -1, -1, nullptr},
    {"remap_file_pages", 216, 234, 257, 253, nullptr}, {"getdents64", 217, 61, 220, 217, getdents64}, {"restart_syscall", 219, 128, 0, 0, nullptr},
    {"semtimedop", 220, 192, -1, 312, nullptr}, {"fadvise64", 221, 223, 250, -1, nullptr}, {"timer_create", 222, 107, 259, 257, nullptr},
    {"timer_settime", 223, 110, 260, 258, nullptr}, {"timer_gettime", 224, 108, 261, 259, nullptr},
    {"timer_getoverrun", 225, 109, 262, 260, nullptr}, {"timer_delete", 226, 111, 263, 261, nullptr},
    {"clock_settime", 227, 112, 264, 262, nullptr}, {"clock_nanosleep", 230, 115, 267, 265, clockNanosleep}, {"epoll_wait", 232, -1, 256, 252, nullptr},
    {"epoll_ctl", 233, 21, 255, 251, nullptr}, {"vserver", 236, -1, 273, 313, nullptr}, {"mbind", 237, 235, 274, 319, nullptr},
    {"set_mempolicy", 238, 237, 276, 321, nullptr}, {"get_mempolicy", 239, 236, 275, 320, nullptr}, {"mq_open", 240, 180, 277, 274, nullptr},
    {"mq_unlink", 241, 181, 278, 275, nullptr}, {"mq_timedsend", 242, 182, 279, 276, nullptr}, {"mq_timedreceive", 243, 183, 280, 277, nullptr},
    {"mq_notify", 244, 184, 281, 278, nullptr}, {"mq_getsetattr", 245, 185, 282, 279, nullptr}, {"waitid", 247, 95, 284, 280, noChild},
    {"add_key", 248, 217, 286, 309, nullptr}, {"request_key", 249, 218, 287, 310, nullptr}, {"keyctl", 250, 219, 288, 311, nullptr},
    {"ioprio_set", 251, 30, 289, 314, nullptr}, {"ioprio_get", 252, 31, 290, 315, nullptr}, {"inotify_init", 253, -1, 291, 316, nullptr},
    {"inotify_rm_watch", 255, 28, 293, 318, nullptr}, {"migrate_pages", 256, 238, 294, 400, nullptr}, {"pselect6", 270, 72, 308, 335, pselect6},
    {"ppoll", 271, 73, 309, 336, ppoll}, {"unshare", 272, 97, 310, 337, nullptr}, {"get_robust_list", 274, 100, 312, 339, nullptr},
    {"splice", 275, 76, 313, 340, nullptr}, {"tee", 276, 77, 315, 342, nullptr}, {"sync_file_range", 277, 84, 314, -1, nullptr},
    {"vmsplice", 278, 75, 316, 343, nullptr}, {"move_pages", 279, 239, 317, 344, nullptr}, {"epoll_pwait", 281, 22, 319, 346, nullptr},
    {"signalfd", 282, -1, 321, 349, nullptr}, {"timerfd_create", 283, 85, 322, 350, nullptr}, {"eventfd", 284, -1, 323, 351, nullptr},
    {"fallocate", 285, 47, 324, 352, nullptr}, {"timerfd_settime", 286, 86, 325, 353, nullptr}, {"timerfd_gettime", 287, 87, 326, 354, nullptr},
    {"signalfd4", 289, 74, 327, 355, nullptr}, {"eventfd2", 290, 19, 328, 356, nullptr}, {"epoll_create1", 291, 20, 329, 357, nullptr},
    {"dup3", 292, 24, 330, 358, dup3}, {"pipe2", 293, 59, 331, 359, nullptr}, {"inotify_init1", 294, 26, 332, 360, nullptr},
    {"preadv", 295, 69, 333, 361, nullptr}, {"pwritev", 296, 70, 334, 362, nullptr}, {"rt_tgsigqueueinfo", 297, 240, 335, 363, nullptr},
    {"perf_event_open", 298, 241, 336, 364, nullptr}, {"recvmmsg", 299, 243, 337, 365, nullptr}, {"fanotify_init", 300, 262, 338, 367, nullptr},
    {"clock_adjtime", 305, 266, 343, 372, nullptr}, {"syncfs", 306, 267, 344, 373, nullptr}, {"sendmmsg", 307, 269, 345, 374, nullptr},
    {"setns", 308, 268, 346, 375, nullptr}, {"getcpu", 309, 168, 318, 345, nullptr}, {"kcmp", 312, 272, 349, 378, nullptr},
    {"finit_module", 313, 273, 350, 379, nullptr}, {"sched_setattr", 314, 274, 351, 380, nullptr}, {"sched_getattr", 315, 275, 352, 381, nullptr},
    {"seccomp", 317, 277, 354, 383, nullptr}, {"memfd_create", 319, 279, 356, 385, nullptr}, {"bpf", 321, 280, 357, 386, nullptr},
    {"userfaultfd", 323, 282, 374, 388, nullptr}, {"membarrier", 324, 283, 375, 389, nullptr}, {"mlock2", 325, 284, 376, 390, nullptr},
    {"copy_file_range", 326, 285, 377, 391, nullptr}, {"preadv2", 327, 286, 378, 392, nullptr}, {"pwritev2", 328, 287, 379, 393, nullptr},
    {"pkey_mprotect", 329, 288, 380, 394, nullptr}, {"pkey_alloc", 330, 289, 381, 395, nullptr}, {"pkey_free", 331, 290, 382, 396, nullptr},
    {"io_pgetevents", 333, 292, 385, 399, nullptr}, {"io_uring_setup", 425, 425, 425, 425, nullptr},
    {"io_uring_enter", 426, 426, 426, 426, nullptr}, {"io_uring_register", 427, 427, 427, 427, nullptr}, {"fsconfig", 431, 431, 431, 431, nullptr},
    {"fsmount", 432, 432, 432, 432, nullptr}, {"close_range", 436, 436, 436, 436, nullptr}, {"process_madvise", 440, 440, 440, 440, nullptr},
    {"epoll_pwait2", 441, 441, 441, 441, nullptr}, {"quotactl_fd", 443, 443, 443, 443, nullptr},
    {"landlock_create_ruleset", 444, 444, 444, 444, nullptr}, {"landlock_add_rule", 445, 445, 445, 445, nullptr},
    {"landlock_restrict_self", 446, 446, 446, 446, nullptr}, {"memfd_secret", 447, 447, 447, -1, nullptr},
    {"process_mrelease", 448, 448, 448, 448, nullptr}, {"futex_waitv", 449, 449, 449, 449, nullptr},
    {"set_mempolicy_home_node", 450, 450, 450, 450, nullptr},
    // 32-bit only (i386 `int $0x80`, Arm EABI `svc 0`).
    {"oldstat", -1, -1, 18, -1, refuse},
    {"umount", -1, -1, 22, -1, refuse},
    {"oldlstat", -1, -1, 84, -1, refuse},
    {"socketcall", -1, -1, 102, -1, refuse},
    {"ipc", -1, -1, 117, -1, refuse},
    {"_llseek", -1, -1, 140, 140, llseek},
    {"ugetrlimit", -1, -1, 191, 191, getrlimit},
    {"mmap2", -1, -1, 192, 192, mmap},
    {"truncate64", -1, -1, 193, 193, truncate},
    {"stat64", -1, -1, 195, 195, stat},
    {"lstat64", -1, -1, 196, 196, stat},
    {"lchown32", -1, -1, 198, 198, refuse},
    {"getuid32", -1, -1, 199, 199, getuid},
    {"getgid32", -1, -1, 200, 200, getuid},
    {"geteuid32", -1, -1, 201, 201, getuid},
    {"getegid32", -1, -1, 202, 202, getuid},
    {"chown32", -1, -1, 212, 212, refuse},
    {"statfs64", -1, -1, 268, 266, refuse},
    {"fstatat64", -1, -1, 300, 327, newfstatat},
    {"clock_gettime64", -1, -1, 403, 403, clockGettime64},
    {"clock_getres_time64", -1, -1, 406, 406, clockGetres64},
    {"utimensat_time64", -1, -1, 412, 412, refuse},
    {"futex_time64", -1, -1, 422, 422, futex64},
    {"mmap", -1, -1, 90, -1, nullptr}, // i386's old mmap: its arguments in memory
    {"fstat", -1, -1, 108, 108, nullptr}, // the old 32-bit struct stat
    {"cacheflush", -1, -1, -1, 0xf0002, zero}, // Arm private: nothing to flush in an emulator
    {"set_tls", -1, -1, -1, 0xf0005, setTls},  // Arm private
    {"waitpid", -1, -1, 7, -1, noChild}, {"break", -1, -1, 17, -1, nullptr}, {"stime", -1, -1, 25, -1, nullptr},
    {"oldfstat", -1, -1, 28, -1, nullptr}, {"stty", -1, -1, 31, -1, nullptr}, {"gtty", -1, -1, 32, -1, nullptr},
    {"nice", -1, -1, 34, 34, nullptr}, {"ftime", -1, -1, 35, -1, nullptr}, {"prof", -1, -1, 44, -1, nullptr},
    {"signal", -1, -1, 48, -1, nullptr}, {"lock", -1, -1, 53, -1, nullptr}, {"mpx", -1, -1, 56, -1, nullptr},
    {"ulimit", -1, -1, 58, -1, nullptr}, {"oldolduname", -1, -1, 59, -1, nullptr},
    {"sigaction", -1, -1, 67, 67, nullptr}, {"sgetmask", -1, -1, 68, -1, nullptr},
    {"ssetmask", -1, -1, 69, -1, nullptr}, {"sigsuspend", -1, -1, 72, 72, nullptr},
    {"sigpending", -1, -1, 73, 73, nullptr}, {"readdir", -1, -1, 89, -1, nullptr},
    {"profil", -1, -1, 98, -1, nullptr}, {"olduname", -1, -1, 109, -1, nullptr}, {"idle", -1, -1, 112, -1, nullptr},
    {"vm86old", -1, -1, 113, -1, nullptr}, {"sigreturn", -1, -1, 119, 119, sigreturn},
    {"sigprocmask", -1, -1, 126, 126, nullptr}, {"bdflush", -1, -1, 134, 134, nullptr},
    {"_newselect", -1, -1, 142, 142, select}, {"vm86", -1, -1, 166, -1, nullptr},
    {"ftruncate64", -1, -1, 194, 194, ftruncate}, {"fstat64", -1, -1, 197, 197, fstat},
    {"setreuid32", -1, -1, 203, 203, nullptr}, {"setregid32", -1, -1, 204, 204, nullptr},
    {"getgroups32", -1, -1, 205, 205, nullptr}, {"setgroups32", -1, -1, 206, 206, nullptr},
    {"fchown32", -1, -1, 207, 207, nullptr}, {"setresuid32", -1, -1, 208, 208, nullptr},
    {"getresuid32", -1, -1, 209, 209, nullptr}, {"setresgid32", -1, -1, 210, 210, nullptr},
    {"getresgid32", -1, -1, 211, 211, nullptr}, {"setuid32", -1, -1, 213, 213, nullptr},
    {"setgid32", -1, -1, 214, 214, nullptr}, {"setfsuid32", -1, -1, 215, 215, nullptr},
    {"setfsgid32", -1, -1, 216, 216, nullptr}, {"fcntl64", -1, -1, 221, 221, fcntl},
    {"sendfile64", -1, -1, 239, 239, nullptr}, {"fstatfs64", -1, -1, 269, 267, nullptr},
    {"arm_fadvise64_64", -1, -1, -1, 270, nullptr}, {"pciconfig_iobase", -1, -1, -1, 271, nullptr},
    {"pciconfig_read", -1, -1, -1, 272, nullptr}, {"fadvise64_64", -1, -1, 272, -1, nullptr},
    {"pciconfig_write", -1, -1, -1, 273, nullptr}, {"send", -1, -1, -1, 289, nullptr},
    {"recv", -1, -1, -1, 291, nullptr}, {"arm_sync_file_range", -1, -1, -1, 341, nullptr},
    {"clock_settime64", -1, -1, 404, 404, nullptr}, {"clock_adjtime64", -1, -1, 405, 405, nullptr},
    {"clock_nanosleep_time64", -1, -1, 407, 407, clockNanosleep64}, {"timer_gettime64", -1, -1, 408, 408, nullptr},
    {"timer_settime64", -1, -1, 409, 409, nullptr}, {"timerfd_gettime64", -1, -1, 410, 410, nullptr},
    {"timerfd_settime64", -1, -1, 411, 411, nullptr}, {"pselect6_time64", -1, -1, 413, 413, pselect6Time64},
    {"ppoll_time64", -1, -1, 414, 414, ppoll64}, {"io_pgetevents_time64", -1, -1, 416, 416, nullptr},
    {"recvmmsg_time64", -1, -1, 417, 417, nullptr}, {"mq_timedsend_time64", -1, -1, 418, 418, nullptr},
    {"mq_timedreceive_time64", -1, -1, 419, 419, nullptr}, {"semtimedop_time64", -1, -1, 420, 420, nullptr},
    {"rt_sigtimedwait_time64", -1, -1, 421, 421, sigtimedwait64},
    {"sched_rr_get_interval_time64", -1, -1, 423, 423, nullptr},
};
// clang-format on

const Linux::Row *Linux::find(SyscallAbi Abi, uint64_t Nr) {
  // Indexed once per ABI by number.
  static const auto Index = [] {
    std::array<std::unordered_map<uint64_t, const Row *>, 4> I;
    for (const Row &R : Table)
      for (size_t Abi = 0; Abi < I.size(); ++Abi)
        if (R.nr[Abi] >= 0)
          I[Abi][uint64_t(R.nr[Abi])] = &R;
    return I;
  }();
  auto &I = Index[size_t(Abi)];
  auto It = I.find(Nr);
  return It == I.end() ? nullptr : It->second;
}

void Process::noteSyscall(uint64_t Nr, const char *Name, const char *What) {
  if (!Cur || !NotedSyscalls.insert(Nr).second)
    return;
  std::string Line = formatv("linklab: system call %llu (%s) %s\n", (unsigned long long)Nr, Name, What);
  Cur->out(Stream::Stderr, {reinterpret_cast<const uint8_t *>(Line.data()), Line.size()});
}

void Process::syscall() {
  Linux::Call C{reg(A.sysNumber), "unknown", {}};
  for (size_t I = 0; I < 6; ++I)
    C.a[I] = reg(A.sysArgs[I]);
  const Linux::Row *Row = Linux::find(A.syscallAbi, C.nr);
  if (Row)
    C.name = Row->name;
  int64_t R = -ENOSYS;
  if (Row && Row->fn)
    R = Row->fn(*this, C);
  else if (C.nr == sandbox::ProbeSyscall && sandbox::ProbeHook)
    R = sandbox::ProbeHook(C.a[0]);
  else
    noteSyscall(C.nr, C.name, "not supported");
  if (!Cur->stopped)
    setReg(A.ret, uint64_t(R));
  noteSignalsDue();
}

} // namespace linklab::emu
