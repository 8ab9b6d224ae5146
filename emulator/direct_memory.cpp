// Direct guest memory.
//
// Unicorn runs QEMU's full-system ("softmmu") translator: every guest load
// and store becomes an inline software-TLB lookup, about ten host
// instructions and four loads, before the access itself. qemu-user, which
// the executor is measured against, maps guest memory into its own address
// space and emits the bare access. That difference was the last 10-30% of
// the executor's run time after unicorn_quirks.cpp's fixes.
//
// So the executor does what qemu-user does. Every guest mapping is backed by
// a memfd mapped twice: once anywhere, handed to Unicorn with uc_mem_map_ptr
// (Unicorn's own accesses, the executor's reads and writes, code fetch and
// helpers use it, always read-write), and once at the host address equal to
// the guest address, inside a window reserved PROT_NONE at start-up, with
// host protections that follow the guest's. Unicorn 2.0's translators emit
// memory accesses through tcg_gen_qemu_{ld,st}_i{32,64}, which the library
// calls through its PLT; the interposers below emit instead TCG host-memory
// ops: `host = the guest address's low 32 bits; load/store [host]`, two
// host instructions (a load also stores what it loaded to a sink, or TCG
// would delete a load whose result is unused, and its fault with it).
// Guest addresses below 4 GiB, where the executor's address-space plan
// keeps everything until a 64-bit process has mapped 1.5 GiB (process.h,
// layout), are their own host address, in the window, where everything
// not mapped for the guest is PROT_NONE. Once something is mapped above
// 4 GiB, the executor drops every translation and the mask widens: `host =
// sign-extension of the low 39 bits`, three instructions, so that all of
// the plan (below 2^38) is reachable and small negative addresses (a null
// pointer's p[-1]) land in the host's kernel half, which faults with the
// exact address too. Narrow, they land just below 4 GiB, where nothing is
// mapped either (Process reports them as the negative addresses they
// most likely were). Addresses beyond the mask alias into the window (the
// plan keeps the top of each mask's range free, so they fault, naming the
// aliased address, its low 32 bits while narrow; one whose low bits land
// on mapped memory would not fault, unlike in softmmu). The
// narrow mask is the common case worth its one instruction: it is most of
// the difference to qemu-user on a load- or store-bound loop (RISC-V's
// sieve in scripts/bench-exec.py: 1.08x qemu-user's time with three,
// 0.97x with one).
// Accesses that need more than a plain host access (alignment checks,
// byte-swapped MOVBE) keep QEMU's path, and so do stores in blocks
// translated from writable and executable pages: QEMU's store path is the
// one that notices a block overwriting itself and retranslates it.
//
// Faults: a direct access to a page the guest may not access faults on the
// host. The SIGSEGV handler asks the run (Faults) whether the access can be
// made valid: the heap is mapped on first touch, and a store to a page that
// holds translated code (kept read-only in the mirror), made by a block
// from another page, drops that page's translations and unprotects it, as
// qemu-user's page_unprotect does; the host instruction then runs again. Otherwise it is a guest fault: QEMU's
// cpu_restore_state finds the guest instruction from the host PC, the fault
// is recorded, and cpu_loop_exit leaves the translated code exactly as
// QEMU's own softmmu faults do. Guest registers may not all be written back
// at that point (TCG syncs them before softmmu accesses only), which is why
// a fault is never resumed: the run ends.
//
// All of this depends on Unicorn 2.0.x's TCG (QEMU 5.0): the opcode numbers,
// memop bits and function signatures below are that version's, checked
// against the library's own code (tcg_gen_qemu_st_i32 passes opcode 0x86,
// check_exit_request loads with 0xd). Other versions, or hosts other than
// x86-64, get no mirror and run as before.
#include "direct_memory.h"
#include "unicorn_quirks.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <ucontext.h>
#include <unistd.h>

namespace linklab::emu {
namespace {

thread_local DirectMemory::Faults *Handling = nullptr;
thread_local uint64_t TranslatingPc = 0; // the guest PC of the block being translated
bool Claimed = false;
bool Wide = false; // the claimed mirror has memory at or above 2^NarrowBits
// Where direct loads also store what they load (see Generator::access).
uint64_t LoadSink;

bool supported() {
#if defined(__x86_64__) && defined(__linux__)
  return isUnicorn20();
#else
  return false;
#endif
}

// ---- code generation ---------------------------------------------------------

// QEMU 5.0's TCGOpcode values (include/tcg/tcg-opc.h order) and MemOp bits.
enum : unsigned {
  Ld8u32 = 9,
  Ld32 = 13,
  St8_32 = 14,
  St32 = 16,
  Ld8u64 = 67,
  Ld64 = 73,
  St8_64 = 74,
  St64 = 77,
};
enum : unsigned { MoSize = 3, MoSign = 4, MoBswap = 8, MoAlignMask = 0x70 };
constexpr int TcgTypeI64 = 1;

unsigned opcodeFor(bool Store, bool Is64, unsigned MemOp) {
  unsigned Size = MemOp & MoSize, Sign = (MemOp & MoSign) ? 1 : 0;
  if (Store)
    return (Is64 ? St8_64 : St8_32) + (Is64 ? Size : std::min(Size, 2u));
  if (Is64)
    return Size == 3 ? Ld64 : Ld8u64 + 2 * Size + Sign;
  return Size >= 2 ? Ld32 : Ld8u32 + 2 * Size + Sign;
}

// One QEMU target's generator functions. TCGv handles are offsets from the
// TCGContext; op arguments are TCGTemp pointers.
struct Generator {
  using AccessFn = void (*)(void *S, uintptr_t Val, uintptr_t Addr, uintptr_t Idx, unsigned MemOp);
  using Op3Fn = void (*)(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2, uintptr_t A3);
  using TempNewFn = void *(*)(void *S, int Type, bool Local);
  using TempFreeFn = void (*)(void *S, void *Temp);
  using SextractFn = void (*)(void *S, uintptr_t Ret, uintptr_t Arg, unsigned Ofs, unsigned Len);
  using ExtFn = void (*)(void *S, uintptr_t Ret, uintptr_t Arg);
  using ConstFn = uintptr_t (*)(void *S, int64_t Value);
  AccessFn Real[2][2]; // [store][64-bit]
  Op3Fn Op3;
  TempNewFn TempNew;
  TempFreeFn TempFree;
  SextractFn Sextract;
  ExtFn Ext32u;
  ExtFn ExtuI32; // an i32 address (Arm's) zero-extended to the host's 64 bits
  ConstFn Const;
  bool Addr32;

  explicit Generator(const std::string &T) : Addr32(targetAddressBits(T) == 32) {
    auto Sym = [&](const char *Name) { return dlsym(RTLD_NEXT, (Name + T).c_str()); };
    Real[0][0] = reinterpret_cast<AccessFn>(Sym("tcg_gen_qemu_ld_i32_"));
    Real[0][1] = reinterpret_cast<AccessFn>(Sym("tcg_gen_qemu_ld_i64_"));
    Real[1][0] = reinterpret_cast<AccessFn>(Sym("tcg_gen_qemu_st_i32_"));
    Real[1][1] = reinterpret_cast<AccessFn>(Sym("tcg_gen_qemu_st_i64_"));
    Op3 = reinterpret_cast<Op3Fn>(Sym("tcg_gen_op3_"));
    TempNew = reinterpret_cast<TempNewFn>(Sym("tcg_temp_new_internal_"));
    TempFree = reinterpret_cast<TempFreeFn>(Sym("tcg_temp_free_internal_"));
    Sextract = reinterpret_cast<SextractFn>(Sym("tcg_gen_sextract_i64_"));
    Ext32u = reinterpret_cast<ExtFn>(Sym("tcg_gen_ext32u_i64_"));
    ExtuI32 = reinterpret_cast<ExtFn>(Sym("tcg_gen_extu_i32_i64_"));
    Const = reinterpret_cast<ConstFn>(Sym("tcg_const_i64_"));
  }
  bool complete() const { return Op3 && TempNew && TempFree && Sextract && Ext32u && ExtuI32 && Const; }

  void access(void *S, uintptr_t Val, uintptr_t Addr, uintptr_t Idx, unsigned MemOp, bool Store, bool Is64) const {
    // QEMU's path for accesses that check alignment or swap bytes, and for
    // stores in blocks translated from writable code pages: only QEMU's
    // store path notices a block overwriting itself and retranslates it.
    if (!Handling || !complete() || (MemOp & (MoBswap | MoAlignMask)) ||
        (Store && Handling->mayRewriteItself(TranslatingPc))) {
      Real[Store][Is64](S, Val, Addr, Idx, MemOp); // present: the library called us in its place
      return;
    }
    void *Host = TempNew(S, TcgTypeI64, false);
    if (Addr32) // never wide: a 32-bit process maps nothing at or above 4 GiB
      ExtuI32(S, uintptr_t(Host) - uintptr_t(S), Addr);
    else if (Wide)
      Sextract(S, uintptr_t(Host) - uintptr_t(S), Addr, 0, DirectMemory::AddressBits + 1);
    else
      Ext32u(S, uintptr_t(Host) - uintptr_t(S), Addr);
    Op3(S, opcodeFor(Store, Is64, MemOp), uintptr_t(S) + Val, uintptr_t(Host), 0);
    TempFree(S, Host);
    if (Store)
      return;
    // A host load op has no side effects, so TCG deletes one whose result
    // the block overwrites unused (`ldr wzr, [x8]`) and the fault it would
    // raise with it; storing the result keeps it (qemu_ld is never deleted).
    // The sink's address is a fresh temp each time (a mov of an immediate):
    // one kept for the whole block would be a local temp, stored to the
    // stack frame and loaded again around each branch.
    uintptr_t Sink = Const(S, int64_t(reinterpret_cast<uintptr_t>(&LoadSink)));
    Op3(S, Is64 ? St64 : St32, uintptr_t(S) + Val, uintptr_t(S) + Sink, 0);
    TempFree(S, reinterpret_cast<void *>(uintptr_t(S) + Sink));
  }
};

using GenCodeFn = void *(*)(void *Cpu, uint64_t Pc, uint64_t CsBase, uint32_t Flags, int CFlags);

// Gives [Base, Base + Size) back to the window's PROT_NONE reservation.
void reserveAgain(uint64_t Base, uint64_t Size) {
  mmap(reinterpret_cast<void *>(Base), Size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

// ---- faults --------------------------------------------------------------------

void onSegv(int Sig, siginfo_t *Info, void *Context) {
  auto *U = static_cast<ucontext_t *>(Context);
  uint64_t Addr = reinterpret_cast<uintptr_t>(Info->si_addr);
  // Only translated code touches the window and the kernel half below 2^64,
  // and only during a run.
  if (!Handling || (Addr >= DirectMemory::WindowEnd && Addr < -DirectMemory::WindowEnd)) {
    signal(Sig, SIG_DFL); // the access faults again and ends the process as it would have
    return;
  }
#if defined(__x86_64__)
  bool Write = U->uc_mcontext.gregs[REG_ERR] & 2; // page-fault error code: W/R bit
  uintptr_t HostPc = U->uc_mcontext.gregs[REG_RIP];
#else
  bool Write = false;
  uintptr_t HostPc = 0;
#endif
  if (Handling->retry(Addr, Write))
    return;
  Handling->fatal(Addr, Write, HostPc);
  signal(Sig, SIG_DFL); // fatal() could not leave the translated code
}

bool installHandler() {
  struct sigaction SA = {};
  SA.sa_sigaction = onSegv;
  // NODEFER: fatal faults leave the handler by longjmp (cpu_loop_exit), and
  // QEMU's sigsetjmp does not restore the mask.
  SA.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&SA.sa_mask);
  return sigaction(SIGSEGV, &SA, nullptr) == 0;
}

} // namespace

std::unique_ptr<DirectMemory> DirectMemory::claim(const char *Target) {
  if (Claimed || !supported() || std::getenv("LINKLAB_EXECUTOR_SOFTMMU"))
    return nullptr;
  std::string T = Target;
#define LINKLAB_TARGET_NAME(TARGET) #TARGET,
  static const std::set<std::string> Interposed = {LINKLAB_INTERPOSED_QEMU_TARGETS(LINKLAB_TARGET_NAME)};
#undef LINKLAB_TARGET_NAME
  if (!Interposed.count(T))
    return nullptr;
  auto Restore = reinterpret_cast<RestoreFn>(dlsym(RTLD_DEFAULT, ("cpu_restore_state_" + T).c_str()));
  auto Exit = reinterpret_cast<ExitFn>(dlsym(RTLD_DEFAULT, ("cpu_loop_exit_" + T).c_str()));
  // The fault path needs the CPU, which FastStores learns in its TLB-fill
  // interposer: both of the library's functions it wraps must be there.
  bool FillSeen =
      dlsym(RTLD_NEXT, ("tlb_set_page_with_attrs_" + T).c_str()) && dlsym(RTLD_NEXT, ("tlb_flush_" + T).c_str());
  if (!Restore || !Exit || !FillSeen || !Generator(T).complete())
    return nullptr;
  // Reserved once for the life of the host process; regions come and go.
  static const bool Reserved = [] {
    void *W = mmap(reinterpret_cast<void *>(WindowLo), WindowEnd - WindowLo, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (W == MAP_FAILED)
      return false;
    if (W != reinterpret_cast<void *>(WindowLo)) { // a kernel without MAP_FIXED_NOREPLACE
      munmap(W, WindowEnd - WindowLo);
      return false;
    }
    return installHandler();
  }();
  if (!Reserved)
    return nullptr;
  int Fd = memfd_create("linklab-guest", MFD_CLOEXEC);
  if (Fd < 0)
    return nullptr;
  Claimed = true;
  Wide = false;
  return std::unique_ptr<DirectMemory>(new DirectMemory(Fd, Restore, Exit));
}

DirectMemory::~DirectMemory() {
  for (auto &[Base, R] : Regions) {
    reserveAgain(Base, R.size);
    munmap(R.unicornView, R.size);
  }
  close(Fd);
  Claimed = false;
}

uc_err DirectMemory::map(uc_engine *UC, uint64_t Base, uint64_t Size, uint32_t Prot, bool &Widened) {
  Widened = false;
  if (Base < WindowLo || Base + Size > WindowEnd || Base + Size < Base || Base % HostPage || Size % HostPage)
    return uc_mem_map(UC, Base, Size, Prot); // not mirrored: direct accesses to it fault
  if (overlaps(Base, Size))
    return UC_ERR_MAP; // as Unicorn would, before the mirror of what is there is replaced
  if (ftruncate(Fd, off_t(NextOffset + Size)))
    return UC_ERR_NOMEM;
  void *View = mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_SHARED, Fd, off_t(NextOffset));
  if (View == MAP_FAILED)
    return UC_ERR_NOMEM;
  void *Mirror = mmap(reinterpret_cast<void *>(Base), Size, PROT_NONE, MAP_SHARED | MAP_FIXED, Fd, off_t(NextOffset));
  uc_err E = Mirror == MAP_FAILED ? UC_ERR_NOMEM : uc_mem_map_ptr(UC, Base, Size, Prot, View);
  if (E != UC_ERR_OK) {
    reserveAgain(Base, Size);
    munmap(View, Size);
    return E;
  }
  Regions[Base] = {Size, NextOffset, View};
  NextOffset += Size;
  Widened = !Wide && Base + Size > uint64_t(1) << NarrowBits;
  Wide |= Widened;
  return UC_ERR_OK;
}

uc_err DirectMemory::unmap(uc_engine *UC, uint64_t Base, uint64_t Size) {
  // Whole mirrored regions only (the executor releases whole reservations):
  // a part would stay in its region and be re-protected with it later.
  auto It = Regions.find(Base);
  bool Whole = It != Regions.end() && It->second.size == Size;
  if (!Whole && overlaps(Base, Size))
    return UC_ERR_ARG;
  uc_err E = uc_mem_unmap(UC, Base, Size);
  if (E != UC_ERR_OK || !Whole)
    return E;
  reserveAgain(Base, Size);
  munmap(It->second.unicornView, Size);
  fallocate(Fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(It->second.offset), off_t(Size));
  Regions.erase(It);
  return UC_ERR_OK;
}

void DirectMemory::setAccess(uint64_t Lo, uint64_t Hi, bool Read, bool Write) {
  int Prot = Write ? PROT_READ | PROT_WRITE : Read ? PROT_READ : PROT_NONE;
  auto It = Regions.upper_bound(Lo);
  if (It != Regions.begin())
    --It;
  for (; It != Regions.end() && It->first < Hi; ++It) {
    uint64_t From = std::max(Lo, It->first), To = std::min(Hi, It->first + It->second.size);
    if (From < To)
      mprotect(reinterpret_cast<void *>(From), To - From, Prot);
  }
}

bool DirectMemory::overlaps(uint64_t Base, uint64_t Size) const {
  auto Next = Regions.lower_bound(Base);
  return mapped(Base) || (Next != Regions.end() && Next->first < Base + Size);
}

bool DirectMemory::narrow() const { return !Wide; }

bool DirectMemory::mapped(uint64_t Addr) const {
  auto It = Regions.upper_bound(Addr);
  return It != Regions.begin() && Addr < std::prev(It)->first + std::prev(It)->second.size;
}

const DirectMemory::Region *DirectMemory::region(uint64_t Addr, uint64_t Size, uint64_t &Off) const {
  auto It = Regions.upper_bound(Addr);
  if (It == Regions.begin())
    return nullptr;
  --It;
  Off = Addr - It->first;
  return Off > It->second.size || Size > It->second.size - Off ? nullptr : &It->second;
}

void *DirectMemory::hostView(uint64_t Addr, uint64_t Size) const {
  uint64_t Off;
  const Region *R = region(Addr, Size, Off);
  return R ? static_cast<char *>(R->unicornView) + Off : nullptr;
}

bool DirectMemory::zero(uint64_t Addr, uint64_t Size) {
  uint64_t Off;
  const Region *R = region(Addr, Size, Off);
  // tmpfs zeroes the partial pages at either end of a hole.
  return R && fallocate(Fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(R->offset + Off), off_t(Size)) == 0;
}

int DirectMemory::copyFromFile(uint64_t Addr, int Fd, uint64_t Offset, uint64_t Size) {
  uint64_t Off;
  const Region *R = region(Addr, Size, Off);
  if (!R)
    return -1;
  // sendfile writes at the memfd's position.
  if (lseek(this->Fd, off_t(R->offset + Off), SEEK_SET) < 0)
    return errno;
  off_t From = off_t(Offset);
  for (uint64_t Done = 0; Done < Size;) {
    ssize_t N = sendfile(this->Fd, Fd, &From, size_t(std::min<uint64_t>(Size - Done, 1u << 30)));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return N ? errno : ENODATA;
    Done += uint64_t(N);
  }
  return 0;
}

void DirectMemory::restoreState(void *Cpu, uintptr_t HostPc) const {
  // cpu_restore_state expects a helper's return address and steps back
  // GETPC_ADJ (2) bytes from it; this is the faulting instruction itself.
  Restore(Cpu, HostPc + 2, true);
}

void DirectMemory::exitLoop(void *Cpu) const {
  Exit(Cpu);
  std::abort(); // cpu_loop_exit longjmps and never returns
}

DirectMemory::Running::Running(Faults *F) : Outer(Handling) { Handling = F; }
DirectMemory::Running::~Running() { Handling = Outer; }

} // namespace linklab::emu

// One set of interposers per QEMU target the executor runs.
#define LINKLAB_DIRECT_ACCESS(TARGET, KIND, STORE, IS64)                                                               \
  extern "C" void tcg_gen_qemu_##KIND##_##TARGET(void *S, uintptr_t Val, uintptr_t Addr, uintptr_t Idx,                \
                                                 unsigned MemOp) {                                                     \
    static const linklab::emu::Generator G(#TARGET);                                                                   \
    G.access(S, Val, Addr, Idx, MemOp, STORE, IS64);                                                                   \
  }
// tb_gen_code: notes the block's PC for the stores translated in it.
#define LINKLAB_GEN_CODE(TARGET)                                                                                       \
  extern "C" void *tb_gen_code_##TARGET(void *Cpu, uint64_t Pc, uint64_t CsBase, uint32_t Flags, int CFlags) {         \
    static const auto Real = reinterpret_cast<linklab::emu::GenCodeFn>(dlsym(RTLD_NEXT, "tb_gen_code_" #TARGET));      \
    linklab::emu::TranslatingPc = Pc;                                                                                  \
    return Real(Cpu, Pc, CsBase, Flags, CFlags);                                                                       \
  }
#define LINKLAB_DIRECT_TARGET(TARGET)                                                                                  \
  LINKLAB_DIRECT_ACCESS(TARGET, ld_i32, false, false)                                                                  \
  LINKLAB_DIRECT_ACCESS(TARGET, ld_i64, false, true)                                                                   \
  LINKLAB_DIRECT_ACCESS(TARGET, st_i32, true, false)                                                                   \
  LINKLAB_DIRECT_ACCESS(TARGET, st_i64, true, true)                                                                    \
  LINKLAB_GEN_CODE(TARGET)
LINKLAB_INTERPOSED_QEMU_TARGETS(LINKLAB_DIRECT_TARGET)
#undef LINKLAB_DIRECT_TARGET
#undef LINKLAB_GEN_CODE
#undef LINKLAB_DIRECT_ACCESS
