// The Linux system calls of the emulated process, as qemu-user's linux-user
// answers them, but for a process that reaches nothing outside itself: one
// table, a row per call with its number on x86-64 and in the generic table
// AArch64 and RISC-V share (include/uapi/asm-generic/unistd.h), and its
// handler. A row without a handler answers -ENOSYS; `refuse` answers -EPERM
// for whatever would reach a host file, process or network. Both name the
// call in a one-line note on the program's stderr, the first time each is
// made. SYSCALLS.md documents what each supported call does here.
//
// Errno values, signal numbers and the structures written (stat, utsname,
// rlimit, timespec) are Linux's, the same on all three arches except
// `struct stat`, whose x86-64 layout differs from the generic one.
#include "process.h"

#include "support/bits.h"

#include <unicorn/x86.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>

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
    int16_t x86, generic; // -1: not on that ABI
    Handler fn;           // null: -ENOSYS with a note
  };
  static const Row Table[];
  static const Row *find(SyscallAbi Abi, uint64_t Nr);

  // ---- helpers --------------------------------------------------------------
  static bool put(Process &P, uint64_t Addr, const void *Bytes, size_t N) {
    return !P.write(Addr, {static_cast<const uint8_t *>(Bytes), N});
  }
  template <typename T> static bool put(Process &P, uint64_t Addr, const T &V) { return put(P, Addr, &V, sizeof V); }
  static bool isStd(uint64_t Fd) { return Fd <= 2; }
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
  static int64_t output(Process &P, uint64_t Fd, uint64_t Ptr, uint64_t Len) {
    if (Fd != 1 && Fd != 2)
      return Fd == 0 ? -EBADF : -EBADF;
    auto Bytes = P.read(Ptr, std::min(Len, MaxTransfer));
    if (!Bytes)
      return consumeError(Bytes.takeError()), -EFAULT;
    P.Cur->out(Fd == 1 ? Stream::Stdout : Stream::Stderr, *Bytes);
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
  static int64_t read(Process &, const Call &C) { return C.a[0] == 0 ? 0 : -EBADF; } // stdin is empty
  static int64_t write(Process &P, const Call &C) { return output(P, C.a[0], C.a[1], C.a[2]); }
  static int64_t vector(Process &P, const Call &C, bool Write) {
    if (!isStd(C.a[0]))
      return -EBADF;
    if (!Write)
      return C.a[0] == 0 ? 0 : -EBADF;
    if (C.a[2] > 1024)
      return -EINVAL;
    int64_t R = 0;
    for (uint64_t I = 0; I < C.a[2]; ++I) {
      uint64_t Iov[2];
      if (uc_mem_read(P.UC, C.a[1] + 16 * I, Iov, 16) != UC_ERR_OK)
        return -EFAULT;
      int64_t N = Iov[1] ? output(P, C.a[0], Iov[0], Iov[1]) : 0;
      if (N < 0)
        return R ? R : N;
      R += N;
    }
    return R;
  }
  static int64_t readv(Process &P, const Call &C) { return vector(P, C, false); }
  static int64_t writev(Process &P, const Call &C) { return vector(P, C, true); }
  static int64_t close(Process &, const Call &C) { return isStd(C.a[0]) ? 0 : -EBADF; }
  static int64_t exit(Process &P, const Call &C) {
    P.stop(RunStatus::Exited, int64_t(int32_t(C.a[0])));
    return 0;
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
      return -EBADF; // no file can be open
    if (C.a[3] & (MapFixed | MapFixedNoReplace))
      return -EINVAL; // the executor places every mapping
    // A size the mmap area could hold but the memory cap cannot ends the
    // run; every other failure is ENOMEM, as for a real process.
    if (uint64_t Size = alignTo(C.a[1], layout::PageSize); Size && Size <= layout::MmapSpan)
      if (Error E = P.overCap(Size)) {
        P.stop(RunStatus::MemoryLimit, 0, E.message());
        return -ENOMEM;
      }
    auto Base = P.mapAnonymous(C.a[1], uint32_t(C.a[2] & 7));
    if (!Base)
      return consumeError(Base.takeError()), -ENOMEM;
    return int64_t(*Base);
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
  static int64_t ioctl(Process &, const Call &C) { return isStd(C.a[0]) ? -ENOTTY : -EBADF; } // no terminal
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
  static int64_t prlimit(Process &P, uint64_t Resource, uint64_t New, uint64_t Old) {
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
    return !Old || put(P, Old, Lim) ? 0 : -EFAULT;
  }
  static int64_t prlimit64(Process &P, const Call &C) {
    return C.a[0] && C.a[0] != Pid ? -ESRCH : prlimit(P, C.a[1], C.a[2], C.a[3]);
  }
  static int64_t getrlimit(Process &P, const Call &C) { return prlimit(P, C.a[0], 0, C.a[1]); }
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
  // Linux's struct sysinfo (112 bytes on 64-bit ABIs): the memory is the
  // run's cap (glibc's qsort sizes its buffer from it), one process.
  static int64_t sysinfo(Process &P, const Call &C) {
    char Info[112] = {};
    uint64_t Free = P.Cur->memCap > P.RuntimeBytes ? P.Cur->memCap - P.RuntimeBytes : 0;
    writeLE<uint64_t>(Info, now(1, 1)[0]);   // uptime
    writeLE<uint64_t>(Info + 32, P.Cur->memCap); // totalram
    writeLE<uint64_t>(Info + 40, Free);      // freeram
    writeLE<uint16_t>(Info + 80, 1);         // procs
    writeLE<uint32_t>(Info + 104, 1);        // mem_unit
    return put(P, C.a[0], Info) ? 0 : -EFAULT;
  }
  static std::array<uint64_t, 2> now(uint64_t Clock, uint64_t Unit) {
    using namespace std::chrono;
    auto D = Clock == 0 ? system_clock::now().time_since_epoch() // CLOCK_REALTIME
                        : duration_cast<system_clock::duration>(steady_clock::now().time_since_epoch());
    auto Ns = duration_cast<nanoseconds>(D).count();
    return {uint64_t(Ns / 1000000000), uint64_t(Ns % 1000000000) / Unit};
  }
  static int64_t clockGettime(Process &P, const Call &C) {
    return C.a[0] > 11 ? -EINVAL : put(P, C.a[1], now(C.a[0], 1)) ? 0 : -EFAULT;
  }
  static int64_t clockGetres(Process &P, const Call &C) {
    uint64_t Res[2] = {0, 1};
    return C.a[0] > 11 ? -EINVAL : !C.a[1] || put(P, C.a[1], Res) ? 0 : -EFAULT;
  }
  static int64_t gettimeofday(Process &P, const Call &C) {
    uint64_t Tz[1] = {0};
    if ((C.a[0] && !put(P, C.a[0], now(0, 1000))) || (C.a[1] && !put(P, C.a[1], Tz)))
      return -EFAULT;
    return 0;
  }
  static int64_t time(Process &P, const Call &C) {
    uint64_t S = now(0, 1)[0];
    return !C.a[0] || put(P, C.a[0], S) ? int64_t(S) : -EFAULT;
  }
  // The kernel's struct sigaction: handler, flags, [restorer,] mask.
  static size_t sigactionSize(const Process &P) { return P.A.arch == Arch::RISCV64 ? 24 : 32; }
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
    }
    return !C.a[2] || put(P, C.a[2], Old.data(), Old.size()) ? 0 : -EFAULT;
  }
  static int64_t rtSigprocmask(Process &P, const Call &C) {
    uint64_t None = 0;
    return C.a[3] != 8 ? -EINVAL : !C.a[2] || put(P, C.a[2], None) ? 0 : -EFAULT;
  }
  // A signal the process sends itself: its default action, since the
  // executor runs no handlers. Those whose default is to be ignored, and
  // those set to SIG_IGN, do nothing; every other one ends the process.
  static int64_t signalSelf(Process &P, uint64_t Sig) {
    if (Sig > 64)
      return -EINVAL;
    bool DefaultIgnored = Sig == 0 || Sig == 17 /* SIGCHLD */ || Sig == 18 /* SIGCONT */ || Sig == 23 /* SIGURG */ ||
                          Sig == 28 /* SIGWINCH */;
    uint64_t Handler = 0;
    if (auto It = P.SigActions.find(Sig); It != P.SigActions.end())
      std::memcpy(&Handler, It->second.data(), 8);
    if (DefaultIgnored || Handler == 1 /* SIG_IGN */)
      return 0;
    const char *Name = signalName(int64_t(Sig));
    P.stop(RunStatus::Signaled, int64_t(Sig),
           Name ? formatv("killed by %s", Name) : formatv("killed by signal %llu", (unsigned long long)Sig));
    return 0;
  }
  static int64_t kill(Process &P, const Call &C) {
    return C.a[0] == Pid || C.a[0] == 0 ? signalSelf(P, C.a[1]) : refuse(P, C);
  }
  static int64_t tkill(Process &P, const Call &C) { return C.a[0] == Pid ? signalSelf(P, C.a[1]) : -ESRCH; }
  static int64_t tgkill(Process &P, const Call &C) {
    return C.a[0] != Pid ? refuse(P, C) : C.a[1] == Pid ? signalSelf(P, C.a[2]) : -ESRCH;
  }
  // A pipe: what the standard streams are to the executor.
  static int64_t statStd(Process &P, uint64_t Fd, uint64_t Buf) {
    if (!isStd(Fd))
      return -EBADF;
    constexpr uint32_t Mode = 0010000 /* S_IFIFO */ | 0600;
    uint8_t St[144] = {};
    auto Set = [&](size_t Off, uint64_t V, size_t N) { std::memcpy(St + Off, &V, N); };
    Set(8, 1000 + Fd, 8); // st_ino
    if (P.A.syscallAbi == SyscallAbi::X86_64) {
      Set(16, 1, 8), Set(24, Mode, 4), Set(28, Uid, 4), Set(32, Uid, 4), Set(56, 4096, 8); // nlink, mode, uid, gid, blksize
      return put(P, Buf, St, 144) ? 0 : -EFAULT;
    }
    Set(16, Mode, 4), Set(20, 1, 4), Set(24, Uid, 4), Set(28, Uid, 4), Set(56, 4096, 4); // mode, nlink, uid, gid, blksize
    return put(P, Buf, St, 128) ? 0 : -EFAULT;
  }
  static int64_t fstat(Process &P, const Call &C) { return statStd(P, C.a[0], C.a[1]); }
  static int64_t newfstatat(Process &P, const Call &C) {
    constexpr uint64_t EmptyPath = 0x1000;
    auto Path = string(P, C.a[1]);
    if (!Path)
      return -EFAULT;
    if (Path->empty() && (C.a[3] & EmptyPath))
      return statStd(P, C.a[0], C.a[2]);
    return Path->empty() ? -ENOENT : refuse(P, C);
  }
  static int64_t lseek(Process &, const Call &C) { return isStd(C.a[0]) ? -ESPIPE : -EBADF; }
  // One thread: a wake finds no waiter; a wait whose value still matches
  // would block forever, so it ends the run instead.
  static int64_t futex(Process &P, const Call &C) {
    enum : uint64_t { Wait = 0, Wake = 1, WaitBitset = 9, WakeBitset = 10 };
    uint64_t Op = C.a[1] & 0x7f; // without FUTEX_PRIVATE_FLAG / FUTEX_CLOCK_REALTIME
    if (Op == Wake || Op == WakeBitset)
      return 0;
    if (Op != Wait && Op != WaitBitset)
      return -ENOSYS;
    uint32_t V;
    if (uc_mem_read(P.UC, C.a[0], &V, 4) != UC_ERR_OK)
      return -EFAULT;
    if (V != uint32_t(C.a[2]))
      return -EAGAIN;
    if (C.a[3])
      return -ETIMEDOUT; // nobody else can change it before the timeout
    P.stop(RunStatus::Error, 0,
           formatv("deadlock: futex wait at %s can never be woken (the process has one thread)", hex(C.a[0]).c_str()));
    return -EDEADLK;
  }
  static int64_t schedGetaffinity(Process &P, const Call &C) {
    uint64_t Mask = 1; // one CPU
    return C.a[1] < 8 ? -EINVAL : put(P, C.a[2], Mask) ? 8 : -EFAULT;
  }
  static int64_t getcwd(Process &P, const Call &C) {
    return C.a[1] < 2 ? -ERANGE : put(P, C.a[0], "/", 2) ? 2 : -EFAULT;
  }
  // Only /proc/self/exe: the program's own name (AT_EXECFN), absolute as
  // the kernel's link is (the emulated working directory is "/"; glibc's
  // static start asserts the leading '/').
  static int64_t readlink(Process &P, const Call &C, uint64_t Path, uint64_t Buf, uint64_t Size) {
    auto S = string(P, Path);
    if (!S)
      return -EFAULT;
    if (*S != "/proc/self/exe")
      return refuse(P, C);
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
    // Handled (SYSCALLS.md), or refused with -EPERM.
    {"read", 0, 63, read},
    {"write", 1, 64, write},
    {"open", 2, -1, refuse},
    {"close", 3, 57, close},
    {"stat", 4, -1, refuse},
    {"fstat", 5, 80, fstat},
    {"lstat", 6, -1, refuse},
    {"lseek", 8, 62, lseek},
    {"mmap", 9, 222, mmap},
    {"mprotect", 10, 226, mprotect},
    {"munmap", 11, 215, munmap},
    {"brk", 12, 214, brk},
    {"rt_sigaction", 13, 134, rtSigaction},
    {"rt_sigprocmask", 14, 135, rtSigprocmask},
    {"ioctl", 16, 29, ioctl},
    {"readv", 19, 65, readv},
    {"writev", 20, 66, writev},
    {"access", 21, -1, refuse},
    {"sched_yield", 24, 124, zero},
    {"mremap", 25, 216, mremap},
    {"madvise", 28, 233, zero},
    {"getpid", 39, 172, getpid},
    {"socket", 41, 198, refuse},
    {"connect", 42, 203, refuse},
    {"accept", 43, 202, refuse},
    {"bind", 49, 200, refuse},
    {"listen", 50, 201, refuse},
    {"socketpair", 53, 199, refuse},
    {"clone", 56, 220, refuse},
    {"fork", 57, -1, refuse},
    {"vfork", 58, -1, refuse},
    {"execve", 59, 221, refuse},
    {"exit", 60, 93, exit},
    {"kill", 62, 129, kill},
    {"uname", 63, 160, uname},
    {"truncate", 76, 45, refuse},
    {"getcwd", 79, 17, getcwd},
    {"chdir", 80, 49, refuse},
    {"rename", 82, -1, refuse},
    {"mkdir", 83, -1, refuse},
    {"rmdir", 84, -1, refuse},
    {"creat", 85, -1, refuse},
    {"link", 86, -1, refuse},
    {"unlink", 87, -1, refuse},
    {"symlink", 88, -1, refuse},
    {"readlink", 89, -1, readlinkX86},
    {"chmod", 90, -1, refuse},
    {"chown", 92, -1, refuse},
    {"lchown", 94, -1, refuse},
    {"gettimeofday", 96, 169, gettimeofday},
    {"getrlimit", 97, 163, getrlimit},
    {"ptrace", 101, 117, refuse},
    {"getuid", 102, 174, getuid},
    {"getgid", 104, 176, getuid},
    {"geteuid", 107, 175, getuid},
    {"getegid", 108, 177, getuid},
    {"getppid", 110, 173, getppid},
    {"utime", 132, -1, refuse},
    {"mknod", 133, -1, refuse},
    {"uselib", 134, -1, refuse},
    {"statfs", 137, 43, refuse},
    {"pivot_root", 155, 41, refuse},
    {"arch_prctl", 158, -1, archPrctl},
    {"chroot", 161, 51, refuse},
    {"acct", 163, 89, refuse},
    {"mount", 165, 40, refuse},
    {"umount2", 166, 39, refuse},
    {"swapon", 167, 224, refuse},
    {"swapoff", 168, 225, refuse},
    {"reboot", 169, 142, refuse},
    {"quotactl", 179, 60, refuse},
    {"gettid", 186, 178, getpid},
    {"setxattr", 188, 5, refuse},
    {"lsetxattr", 189, 6, refuse},
    {"getxattr", 191, 8, refuse},
    {"lgetxattr", 192, 9, refuse},
    {"listxattr", 194, 11, refuse},
    {"llistxattr", 195, 12, refuse},
    {"removexattr", 197, 14, refuse},
    {"lremovexattr", 198, 15, refuse},
    {"tkill", 200, 130, tkill},
    {"time", 201, -1, time},
    {"futex", 202, 98, futex},
    {"sched_getaffinity", 204, 123, schedGetaffinity},
    {"set_tid_address", 218, 96, getpid},
    {"clock_gettime", 228, 113, clockGettime},
    {"clock_getres", 229, 114, clockGetres},
    {"exit_group", 231, 94, exit},
    {"tgkill", 234, 131, tgkill},
    {"utimes", 235, -1, refuse},
    {"kexec_load", 246, 104, refuse},
    {"inotify_add_watch", 254, 27, refuse},
    {"openat", 257, 56, refuse},
    {"mkdirat", 258, 34, refuse},
    {"mknodat", 259, 33, refuse},
    {"fchownat", 260, 54, refuse},
    {"futimesat", 261, -1, refuse},
    {"newfstatat", 262, 79, newfstatat},
    {"unlinkat", 263, 35, refuse},
    {"renameat", 264, 38, refuse},
    {"linkat", 265, 37, refuse},
    {"symlinkat", 266, 36, refuse},
    {"readlinkat", 267, 78, readlinkat},
    {"fchmodat", 268, 53, refuse},
    {"faccessat", 269, 48, refuse},
    {"set_robust_list", 273, 99, zero},
    {"utimensat", 280, 88, refuse},
    {"accept4", 288, 242, refuse},
    {"fanotify_mark", 301, 263, refuse},
    {"prlimit64", 302, 261, prlimit64},
    {"name_to_handle_at", 303, 264, refuse},
    {"open_by_handle_at", 304, 265, refuse},
    {"process_vm_readv", 310, 270, refuse},
    {"process_vm_writev", 311, 271, refuse},
    {"renameat2", 316, 276, refuse},
    {"getrandom", 318, 278, getrandom},
    {"kexec_file_load", 320, 294, refuse},
    {"execveat", 322, 281, refuse},
    {"statx", 332, 291, refuse},
    {"rseq", 334, 293, noSysQuiet},
    {"dup", 32, 23, noSysQuiet}, // glibc's perror then writes to stderr itself
    {"pidfd_send_signal", 424, 424, refuse},
    {"open_tree", 428, 428, refuse},
    {"move_mount", 429, 429, refuse},
    {"fsopen", 430, 430, refuse},
    {"fspick", 433, 433, refuse},
    {"pidfd_open", 434, 434, refuse},
    {"clone3", 435, 435, refuse},
    {"openat2", 437, 437, refuse},
    {"pidfd_getfd", 438, 438, refuse},
    {"faccessat2", 439, 439, refuse},
    {"mount_setattr", 442, 442, refuse},
    // Known by name only: -ENOSYS.
    {"poll", 7, -1, nullptr}, {"rt_sigreturn", 15, 139, nullptr}, {"pread64", 17, 67, nullptr},
    {"pwrite64", 18, 68, nullptr}, {"pipe", 22, -1, nullptr}, {"select", 23, -1, nullptr},
    {"msync", 26, 227, nullptr}, {"mincore", 27, 232, nullptr}, {"shmget", 29, 194, nullptr},
    {"shmat", 30, 196, nullptr}, {"shmctl", 31, 195, nullptr}, {"dup2", 33, -1, nullptr},
    {"pause", 34, -1, nullptr}, {"nanosleep", 35, 101, nullptr}, {"getitimer", 36, 102, nullptr},
    {"alarm", 37, -1, nullptr}, {"setitimer", 38, 103, nullptr}, {"sendfile", 40, 71, nullptr},
    {"sendto", 44, 206, nullptr}, {"recvfrom", 45, 207, nullptr}, {"sendmsg", 46, 211, nullptr},
    {"recvmsg", 47, 212, nullptr}, {"shutdown", 48, 210, nullptr}, {"getsockname", 51, 204, nullptr},
    {"getpeername", 52, 205, nullptr}, {"setsockopt", 54, 208, nullptr}, {"getsockopt", 55, 209, nullptr},
    {"wait4", 61, 260, nullptr}, {"semget", 64, 190, nullptr}, {"semop", 65, 193, nullptr},
    {"semctl", 66, 191, nullptr}, {"shmdt", 67, 197, nullptr}, {"msgget", 68, 186, nullptr},
    {"msgsnd", 69, 189, nullptr}, {"msgrcv", 70, 188, nullptr}, {"msgctl", 71, 187, nullptr},
    {"fcntl", 72, 25, nullptr}, {"flock", 73, 32, nullptr}, {"fsync", 74, 82, nullptr},
    {"fdatasync", 75, 83, nullptr}, {"ftruncate", 77, 46, nullptr}, {"getdents", 78, -1, nullptr},
    {"fchdir", 81, 50, nullptr}, {"fchmod", 91, 52, nullptr}, {"fchown", 93, 55, nullptr},
    {"umask", 95, 166, nullptr}, {"getrusage", 98, 165, nullptr}, {"sysinfo", 99, 179, sysinfo},
    {"times", 100, 153, nullptr}, {"syslog", 103, 116, nullptr}, {"setuid", 105, 146, nullptr},
    {"setgid", 106, 144, nullptr}, {"setpgid", 109, 154, nullptr}, {"getpgrp", 111, -1, nullptr},
    {"setsid", 112, 157, nullptr}, {"setreuid", 113, 145, nullptr}, {"setregid", 114, 143, nullptr},
    {"getgroups", 115, 158, nullptr}, {"setgroups", 116, 159, nullptr}, {"setresuid", 117, 147, nullptr},
    {"getresuid", 118, 148, nullptr}, {"setresgid", 119, 149, nullptr}, {"getresgid", 120, 150, nullptr},
    {"getpgid", 121, 155, nullptr}, {"setfsuid", 122, 151, nullptr}, {"setfsgid", 123, 152, nullptr},
    {"getsid", 124, 156, nullptr}, {"capget", 125, 90, nullptr}, {"capset", 126, 91, nullptr},
    {"rt_sigpending", 127, 136, nullptr}, {"rt_sigtimedwait", 128, 137, nullptr},
    {"rt_sigqueueinfo", 129, 138, nullptr}, {"rt_sigsuspend", 130, 133, nullptr}, {"sigaltstack", 131, 132, nullptr},
    {"personality", 135, 92, nullptr}, {"ustat", 136, -1, nullptr}, {"fstatfs", 138, 44, nullptr},
    {"sysfs", 139, -1, nullptr}, {"getpriority", 140, 141, nullptr}, {"setpriority", 141, 140, nullptr},
    {"sched_setparam", 142, 118, nullptr}, {"sched_getparam", 143, 121, nullptr},
    {"sched_setscheduler", 144, 119, nullptr}, {"sched_getscheduler", 145, 120, nullptr},
    {"sched_get_priority_max", 146, 125, nullptr}, {"sched_get_priority_min", 147, 126, nullptr},
    {"sched_rr_get_interval", 148, 127, nullptr}, {"mlock", 149, 228, nullptr}, {"munlock", 150, 229, nullptr},
    {"mlockall", 151, 230, nullptr}, {"munlockall", 152, 231, nullptr}, {"vhangup", 153, 58, nullptr},
    {"modify_ldt", 154, -1, nullptr}, {"_sysctl", 156, -1, nullptr}, {"prctl", 157, 167, nullptr},
    {"adjtimex", 159, 171, nullptr}, {"setrlimit", 160, 164, nullptr}, {"sync", 162, 81, nullptr},
    {"settimeofday", 164, 170, nullptr}, {"sethostname", 170, 161, nullptr}, {"setdomainname", 171, 162, nullptr},
    {"iopl", 172, -1, nullptr}, {"ioperm", 173, -1, nullptr}, {"create_module", 174, -1, nullptr},
    {"init_module", 175, 105, nullptr}, {"delete_module", 176, 106, nullptr}, {"get_kernel_syms", 177, -1, nullptr},
    {"query_module", 178, -1, nullptr}, {"nfsservctl", 180, 42, nullptr}, {"getpmsg", 181, -1, nullptr},
    {"putpmsg", 182, -1, nullptr}, {"afs_syscall", 183, -1, nullptr}, {"tuxcall", 184, -1, nullptr},
    {"security", 185, -1, nullptr}, {"readahead", 187, 213, nullptr}, {"fsetxattr", 190, 7, nullptr},
    {"fgetxattr", 193, 10, nullptr}, {"flistxattr", 196, 13, nullptr}, {"fremovexattr", 199, 16, nullptr},
    {"sched_setaffinity", 203, 122, nullptr}, {"set_thread_area", 205, -1, nullptr}, {"io_setup", 206, 0, nullptr},
    {"io_destroy", 207, 1, nullptr}, {"io_getevents", 208, 4, nullptr}, {"io_submit", 209, 2, nullptr},
    {"io_cancel", 210, 3, nullptr}, {"get_thread_area", 211, -1, nullptr}, {"lookup_dcookie", 212, 18, nullptr},
    {"epoll_create", 213, -1, nullptr}, {"epoll_ctl_old", 214, -1, nullptr}, {"epoll_wait_old", 215, -1, nullptr},
    {"remap_file_pages", 216, 234, nullptr}, {"getdents64", 217, 61, nullptr}, {"restart_syscall", 219, 128, nullptr},
    {"semtimedop", 220, 192, nullptr}, {"fadvise64", 221, 223, nullptr}, {"timer_create", 222, 107, nullptr},
    {"timer_settime", 223, 110, nullptr}, {"timer_gettime", 224, 108, nullptr},
    {"timer_getoverrun", 225, 109, nullptr}, {"timer_delete", 226, 111, nullptr},
    {"clock_settime", 227, 112, nullptr}, {"clock_nanosleep", 230, 115, nullptr}, {"epoll_wait", 232, -1, nullptr},
    {"epoll_ctl", 233, 21, nullptr}, {"vserver", 236, -1, nullptr}, {"mbind", 237, 235, nullptr},
    {"set_mempolicy", 238, 237, nullptr}, {"get_mempolicy", 239, 236, nullptr}, {"mq_open", 240, 180, nullptr},
    {"mq_unlink", 241, 181, nullptr}, {"mq_timedsend", 242, 182, nullptr}, {"mq_timedreceive", 243, 183, nullptr},
    {"mq_notify", 244, 184, nullptr}, {"mq_getsetattr", 245, 185, nullptr}, {"waitid", 247, 95, nullptr},
    {"add_key", 248, 217, nullptr}, {"request_key", 249, 218, nullptr}, {"keyctl", 250, 219, nullptr},
    {"ioprio_set", 251, 30, nullptr}, {"ioprio_get", 252, 31, nullptr}, {"inotify_init", 253, -1, nullptr},
    {"inotify_rm_watch", 255, 28, nullptr}, {"migrate_pages", 256, 238, nullptr}, {"pselect6", 270, 72, nullptr},
    {"ppoll", 271, 73, nullptr}, {"unshare", 272, 97, nullptr}, {"get_robust_list", 274, 100, nullptr},
    {"splice", 275, 76, nullptr}, {"tee", 276, 77, nullptr}, {"sync_file_range", 277, 84, nullptr},
    {"vmsplice", 278, 75, nullptr}, {"move_pages", 279, 239, nullptr}, {"epoll_pwait", 281, 22, nullptr},
    {"signalfd", 282, -1, nullptr}, {"timerfd_create", 283, 85, nullptr}, {"eventfd", 284, -1, nullptr},
    {"fallocate", 285, 47, nullptr}, {"timerfd_settime", 286, 86, nullptr}, {"timerfd_gettime", 287, 87, nullptr},
    {"signalfd4", 289, 74, nullptr}, {"eventfd2", 290, 19, nullptr}, {"epoll_create1", 291, 20, nullptr},
    {"dup3", 292, 24, nullptr}, {"pipe2", 293, 59, nullptr}, {"inotify_init1", 294, 26, nullptr},
    {"preadv", 295, 69, nullptr}, {"pwritev", 296, 70, nullptr}, {"rt_tgsigqueueinfo", 297, 240, nullptr},
    {"perf_event_open", 298, 241, nullptr}, {"recvmmsg", 299, 243, nullptr}, {"fanotify_init", 300, 262, nullptr},
    {"clock_adjtime", 305, 266, nullptr}, {"syncfs", 306, 267, nullptr}, {"sendmmsg", 307, 269, nullptr},
    {"setns", 308, 268, nullptr}, {"getcpu", 309, 168, nullptr}, {"kcmp", 312, 272, nullptr},
    {"finit_module", 313, 273, nullptr}, {"sched_setattr", 314, 274, nullptr}, {"sched_getattr", 315, 275, nullptr},
    {"seccomp", 317, 277, nullptr}, {"memfd_create", 319, 279, nullptr}, {"bpf", 321, 280, nullptr},
    {"userfaultfd", 323, 282, nullptr}, {"membarrier", 324, 283, nullptr}, {"mlock2", 325, 284, nullptr},
    {"copy_file_range", 326, 285, nullptr}, {"preadv2", 327, 286, nullptr}, {"pwritev2", 328, 287, nullptr},
    {"pkey_mprotect", 329, 288, nullptr}, {"pkey_alloc", 330, 289, nullptr}, {"pkey_free", 331, 290, nullptr},
    {"io_pgetevents", 333, 292, nullptr}, {"io_uring_setup", 425, 425, nullptr},
    {"io_uring_enter", 426, 426, nullptr}, {"io_uring_register", 427, 427, nullptr}, {"fsconfig", 431, 431, nullptr},
    {"fsmount", 432, 432, nullptr}, {"close_range", 436, 436, nullptr}, {"process_madvise", 440, 440, nullptr},
    {"epoll_pwait2", 441, 441, nullptr}, {"quotactl_fd", 443, 443, nullptr},
    {"landlock_create_ruleset", 444, 444, nullptr}, {"landlock_add_rule", 445, 445, nullptr},
    {"landlock_restrict_self", 446, 446, nullptr}, {"memfd_secret", 447, 447, nullptr},
    {"process_mrelease", 448, 448, nullptr}, {"futex_waitv", 449, 449, nullptr},
    {"set_mempolicy_home_node", 450, 450, nullptr},
};
// clang-format on

const Linux::Row *Linux::find(SyscallAbi Abi, uint64_t Nr) {
  // Indexed once per ABI by number.
  static const auto Index = [] {
    std::array<std::vector<const Row *>, 2> I;
    for (const Row &R : Table)
      for (int Which = 0; Which < 2; ++Which)
        if (int N = Which == 0 ? R.x86 : R.generic; N >= 0) {
          if (I[Which].size() <= size_t(N))
            I[Which].resize(size_t(N) + 1);
          I[Which][size_t(N)] = &R;
        }
    return I;
  }();
  auto &I = Index[Abi == SyscallAbi::X86_64 ? 0 : 1];
  return Nr < I.size() ? I[Nr] : nullptr;
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
  else
    noteSyscall(C.nr, C.name, "not supported");
  if (!Cur->stopped)
    setReg(A.ret, uint64_t(R));
}

} // namespace linklab::emu
