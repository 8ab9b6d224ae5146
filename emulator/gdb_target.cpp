#include "gdb_target.h"

#include "process.h"

#include <unicorn/arm.h>
#include <unicorn/arm64.h>
#include <unicorn/riscv.h>
#include <unicorn/x86.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace linklab::emu {

using executor::FaultKind;
using executor::RunStatus;

namespace {

// ---- register tables -------------------------------------------------------
// Each arch's registers in the order of its target description (and of the
// 'g' packet), named and grouped in the features gdb's *-tdep.c look for, so
// gdb-multiarch picks the architecture from the description alone.

constexpr int Zero = -1;     // reads as zeros, writes ignored (x87 selectors Unicorn lacks)
constexpr int MinusOne = -2; // orig_rax/orig_eax: no system call being restarted

struct Reg {
  std::string name;
  uint16_t bits;
  const char *type;
  int uc;
  const char *group = nullptr; // gdb's register group, where its tdesc names one (float, vector)
};
struct Feature {
  Feature(const char *Name, std::vector<Reg> Regs) : name(Name), regs(std::move(Regs)) {}
  const char *name;
  std::vector<Reg> regs;
  std::string types; // the flags types its registers use, as XML
};

// A flags type: each field's name and bit range, as gdb's own target
// descriptions define them (gdb shows `eflags 0x246 [ PF ZF IF ]`).
struct Field {
  const char *name;
  int start, end;
};
std::string flagsType(const char *Id, std::initializer_list<Field> Fields) {
  std::string X = std::string("<flags id=\"") + Id + "\" size=\"4\">\n";
  for (const Field &F : Fields)
    X += std::string("<field name=\"") + F.name + "\" start=\"" + std::to_string(F.start) + "\" end=\"" +
         std::to_string(F.end) + "\" type=\"" + (F.start == F.end ? "bool" : "uint32") + "\"/>\n";
  return X + "</flags>\n";
}
struct RegisterTable {
  const char *architecture;
  std::vector<Feature> features;
  // Whether gdb expects a watchpoint to stop before the accessing
  // instruction (its gdbarch's have_nonsteppable_watchpoint) rather than after.
  bool watchStopsBefore;
  std::vector<Reg> all; // the features' registers, in order
  unsigned general = 0; // the first this many are the general registers (debug-stop's)
};

void addX87(std::vector<Reg> &R) {
  for (int I = 0; I < 8; ++I)
    R.push_back({"st" + std::to_string(I), 80, "i387_ext", UC_X86_REG_FP0 + I});
  R.push_back({"fctrl", 32, "int", UC_X86_REG_FPCW, "float"});
  R.push_back({"fstat", 32, "int", UC_X86_REG_FPSW, "float"});
  R.push_back({"ftag", 32, "int", UC_X86_REG_FPTAG, "float"});
  R.push_back({"fiseg", 32, "int", Zero, "float"});
  R.push_back({"fioff", 32, "int", UC_X86_REG_FIP, "float"});
  R.push_back({"foseg", 32, "int", Zero, "float"});
  R.push_back({"fooff", 32, "int", UC_X86_REG_FDP, "float"});
  R.push_back({"fop", 32, "int", UC_X86_REG_FOP, "float"});
}

const std::string &eflagsType() {
  static const std::string T = flagsType("i386_eflags", {{"CF", 0, 0},
                                                         {"", 1, 1},
                                                         {"PF", 2, 2},
                                                         {"AF", 4, 4},
                                                         {"ZF", 6, 6},
                                                         {"SF", 7, 7},
                                                         {"TF", 8, 8},
                                                         {"IF", 9, 9},
                                                         {"DF", 10, 10},
                                                         {"OF", 11, 11},
                                                         {"NT", 14, 14},
                                                         {"RF", 16, 16},
                                                         {"VM", 17, 17},
                                                         {"AC", 18, 18},
                                                         {"VIF", 19, 19},
                                                         {"VIP", 20, 20},
                                                         {"ID", 21, 21}});
  return T;
}

// What x86-64 and i386 share after their general registers: the segment
// selectors and the x87 unit in the core feature, and the SSE feature with
// Xmms vector registers (16 in 64-bit mode, 8 in 32-bit).
Feature addX86Common(Feature &Core, int Xmms) {
  const char *Segs[] = {"cs", "ss", "ds", "es", "fs", "gs"};
  const int SegIds[] = {UC_X86_REG_CS, UC_X86_REG_SS, UC_X86_REG_DS, UC_X86_REG_ES, UC_X86_REG_FS, UC_X86_REG_GS};
  for (int I = 0; I < 6; ++I)
    Core.regs.push_back({Segs[I], 32, "int32", SegIds[I]});
  addX87(Core.regs);
  Core.types = eflagsType();
  Feature Sse{"org.gnu.gdb.i386.sse", {}};
  for (int I = 0; I < Xmms; ++I)
    Sse.regs.push_back({"xmm" + std::to_string(I), 128, "vec128", UC_X86_REG_XMM0 + I});
  Sse.regs.push_back({"mxcsr", 32, "i386_mxcsr", UC_X86_REG_MXCSR, "vector"});
  Sse.types = flagsType("i386_mxcsr", {{"IE", 0, 0},
                                       {"DE", 1, 1},
                                       {"ZE", 2, 2},
                                       {"OE", 3, 3},
                                       {"UE", 4, 4},
                                       {"PE", 5, 5},
                                       {"DAZ", 6, 6},
                                       {"IM", 7, 7},
                                       {"DM", 8, 8},
                                       {"ZM", 9, 9},
                                       {"OM", 10, 10},
                                       {"UM", 11, 11},
                                       {"PM", 12, 12},
                                       {"FZ", 15, 15}});
  return Sse;
}

RegisterTable x86_64Table() {
  Feature Core{"org.gnu.gdb.i386.core", {}};
  const char *Names[] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp"};
  const int Ids[] = {UC_X86_REG_RAX, UC_X86_REG_RBX, UC_X86_REG_RCX, UC_X86_REG_RDX,
                     UC_X86_REG_RSI, UC_X86_REG_RDI, UC_X86_REG_RBP, UC_X86_REG_RSP};
  for (int I = 0; I < 8; ++I)
    Core.regs.push_back({Names[I], 64, I == 6 || I == 7 ? "data_ptr" : "int64", Ids[I]});
  for (int I = 8; I < 16; ++I)
    Core.regs.push_back({"r" + std::to_string(I), 64, "int64", UC_X86_REG_R8 + I - 8});
  Core.regs.push_back({"rip", 64, "code_ptr", UC_X86_REG_RIP});
  Core.regs.push_back({"eflags", 32, "i386_eflags", UC_X86_REG_EFLAGS});
  Feature Sse = addX86Common(Core, 16);
  Feature Linux{"org.gnu.gdb.i386.linux", {{"orig_rax", 64, "int", MinusOne}}};
  Feature Segments{"org.gnu.gdb.i386.segments",
                   {{"fs_base", 64, "int", UC_X86_REG_FS_BASE}, {"gs_base", 64, "int", UC_X86_REG_GS_BASE}}};
  return {"i386:x86-64", {Core, Sse, Linux, Segments}, false, {}, 18}; // rax..r15, rip, eflags
}

RegisterTable i386Table() {
  Feature Core{"org.gnu.gdb.i386.core", {}};
  const char *Names[] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
  const int Ids[] = {UC_X86_REG_EAX, UC_X86_REG_ECX, UC_X86_REG_EDX, UC_X86_REG_EBX,
                     UC_X86_REG_ESP, UC_X86_REG_EBP, UC_X86_REG_ESI, UC_X86_REG_EDI};
  for (int I = 0; I < 8; ++I)
    Core.regs.push_back({Names[I], 32, I == 4 || I == 5 ? "data_ptr" : "int32", Ids[I]});
  Core.regs.push_back({"eip", 32, "code_ptr", UC_X86_REG_EIP});
  Core.regs.push_back({"eflags", 32, "i386_eflags", UC_X86_REG_EFLAGS});
  Feature Sse = addX86Common(Core, 8);
  Feature Linux{"org.gnu.gdb.i386.linux", {{"orig_eax", 32, "int", MinusOne}}};
  return {"i386", {Core, Sse, Linux}, false, {}, 10}; // eax..edi, eip, eflags
}

RegisterTable aarch64Table() {
  Feature Core{"org.gnu.gdb.aarch64.core", {}};
  for (int I = 0; I < 29; ++I) // Unicorn numbers x29/x30 apart from x0-x28
    Core.regs.push_back({"x" + std::to_string(I), 64, "int", UC_ARM64_REG_X0 + I});
  Core.regs.push_back({"x29", 64, "int", UC_ARM64_REG_X29});
  Core.regs.push_back({"x30", 64, "int", UC_ARM64_REG_X30});
  Core.regs.push_back({"sp", 64, "data_ptr", UC_ARM64_REG_SP});
  Core.regs.push_back({"pc", 64, "code_ptr", UC_ARM64_REG_PC});
  Core.regs.push_back({"cpsr", 32, "cpsr_flags", UC_ARM64_REG_PSTATE});
  Core.types = flagsType("cpsr_flags", {{"SP", 0, 0},
                                        {"EL", 2, 3},
                                        {"nRW", 4, 4},
                                        {"F", 6, 6},
                                        {"I", 7, 7},
                                        {"A", 8, 8},
                                        {"D", 9, 9},
                                        {"BTYPE", 10, 11},
                                        {"SSBS", 12, 12},
                                        {"IL", 20, 20},
                                        {"SS", 21, 21},
                                        {"PAN", 22, 22},
                                        {"UAO", 23, 23},
                                        {"DIT", 24, 24},
                                        {"TCO", 25, 25},
                                        {"V", 28, 28},
                                        {"C", 29, 29},
                                        {"Z", 30, 30},
                                        {"N", 31, 31}});
  Feature Fpu{"org.gnu.gdb.aarch64.fpu", {}};
  for (int I = 0; I < 32; ++I)
    Fpu.regs.push_back({"v" + std::to_string(I), 128, "vec128", UC_ARM64_REG_Q0 + I});
  Fpu.regs.push_back({"fpsr", 32, "fpsr_flags", UC_ARM64_REG_FPSR});
  Fpu.regs.push_back({"fpcr", 32, "fpcr_flags", UC_ARM64_REG_FPCR});
  Fpu.types = flagsType("fpsr_flags", {{"IOC", 0, 0},
                                       {"DZC", 1, 1},
                                       {"OFC", 2, 2},
                                       {"UFC", 3, 3},
                                       {"IXC", 4, 4},
                                       {"IDC", 7, 7},
                                       {"QC", 27, 27},
                                       {"V", 28, 28},
                                       {"C", 29, 29},
                                       {"Z", 30, 30},
                                       {"N", 31, 31}}) +
              flagsType("fpcr_flags", {{"FIZ", 0, 0},
                                       {"AH", 1, 1},
                                       {"NEP", 2, 2},
                                       {"IOE", 8, 8},
                                       {"DZE", 9, 9},
                                       {"OFE", 10, 10},
                                       {"UFE", 11, 11},
                                       {"IXE", 12, 12},
                                       {"EBF", 13, 13},
                                       {"IDE", 15, 15},
                                       {"Len", 16, 18},
                                       {"FZ16", 19, 19},
                                       {"Stride", 20, 21},
                                       {"RMode", 22, 23},
                                       {"FZ", 24, 24},
                                       {"DN", 25, 25},
                                       {"AHP", 26, 26}});
  // The thread pointer, as Linux's gdb sees it (NT_ARM_TLS).
  Feature Tls{"org.gnu.gdb.aarch64.tls", {{"tpidr", 64, "data_ptr", UC_ARM64_REG_TPIDR_EL0}}};
  return {"aarch64", {Core, Fpu, Tls}, true, {}, 34}; // x0..x30, sp, pc, cpsr
}

RegisterTable riscv64Table() {
  static const char *const X[] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "fp", "s1", "a0",
                                  "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                  "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  static const char *const F[] = {"ft0", "ft1", "ft2", "ft3", "ft4",  "ft5",  "ft6", "ft7", "fs0",  "fs1", "fa0",
                                  "fa1", "fa2", "fa3", "fa4", "fa5",  "fa6",  "fa7", "fs2", "fs3",  "fs4", "fs5",
                                  "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  Feature Cpu{"org.gnu.gdb.riscv.cpu", {}};
  for (int I = 0; I < 32; ++I)
    Cpu.regs.push_back({X[I], 64, I == 1 ? "code_ptr" : I == 2 ? "data_ptr" : "int", UC_RISCV_REG_X0 + I});
  Cpu.regs.push_back({"pc", 64, "code_ptr", UC_RISCV_REG_PC});
  Feature Fpu{"org.gnu.gdb.riscv.fpu", {}};
  for (int I = 0; I < 32; ++I)
    Fpu.regs.push_back({F[I], 64, "ieee_double", UC_RISCV_REG_F0 + I});
  Fpu.regs.push_back({"fflags", 32, "int", UC_RISCV_REG_FFLAGS});
  Fpu.regs.push_back({"frm", 32, "int", UC_RISCV_REG_FRM});
  Fpu.regs.push_back({"fcsr", 32, "int", UC_RISCV_REG_FCSR});
  return {"riscv:rv64", {Cpu, Fpu}, true, {}, 33}; // x0..x31, pc
}

RegisterTable armTable() {
  Feature Core{"org.gnu.gdb.arm.core", {}};
  for (int I = 0; I < 13; ++I)
    Core.regs.push_back({"r" + std::to_string(I), 32, "uint32", UC_ARM_REG_R0 + I});
  Core.regs.push_back({"sp", 32, "data_ptr", UC_ARM_REG_SP});
  Core.regs.push_back({"lr", 32, "int", UC_ARM_REG_LR});
  Core.regs.push_back({"pc", 32, "code_ptr", UC_ARM_REG_PC});
  Core.regs.push_back({"cpsr", 32, "int", UC_ARM_REG_CPSR});
  Feature Vfp{"org.gnu.gdb.arm.vfp", {}};
  for (int I = 0; I < 32; ++I)
    Vfp.regs.push_back({"d" + std::to_string(I), 64, "ieee_double", UC_ARM_REG_D0 + I});
  Vfp.regs.push_back({"fpscr", 32, "int", UC_ARM_REG_FPSCR, "float"});
  // The thread pointer (TPIDRURO), as Linux's gdb sees it.
  Feature Tls{"org.gnu.gdb.arm.tls", {{"tpidruro", 32, "data_ptr", UC_ARM_REG_C13_C0_3}}};
  return {"arm", {Core, Vfp, Tls}, true, {}, 17}; // r0..r12, sp, lr, pc, cpsr
}

const RegisterTable &tableFor(Arch A) {
  static const auto Tables = [] {
    std::map<Arch, RegisterTable> M = {{Arch::X86_64, x86_64Table()},
                                       {Arch::I386, i386Table()},
                                       {Arch::AArch64, aarch64Table()},
                                       {Arch::RISCV64, riscv64Table()},
                                       {Arch::Arm, armTable()}};
    for (auto &[_, T] : M)
      for (const Feature &F : T.features)
        T.all.insert(T.all.end(), F.regs.begin(), F.regs.end());
    return M;
  }();
  return Tables.at(A);
}

// The target description (gdb's manual, "Target Descriptions").
std::string describe(const RegisterTable &T) {
  std::string X = "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n";
  X += std::string("<architecture>") + T.architecture + "</architecture>\n<osabi>GNU/Linux</osabi>\n";
  for (const Feature &F : T.features) {
    X += std::string("<feature name=\"") + F.name + "\">\n";
    bool Vectors = false;
    for (const Reg &R : F.regs)
      Vectors |= std::strcmp(R.type, "vec128") == 0;
    if (Vectors)
      X += "<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>\n"
           "<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>\n"
           "<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>\n"
           "<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>\n"
           "<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>\n"
           "<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>\n"
           "<union id=\"vec128\"><field name=\"v4_float\" type=\"v4f\"/><field name=\"v2_double\" type=\"v2d\"/>"
           "<field name=\"v16_int8\" type=\"v16i8\"/><field name=\"v8_int16\" type=\"v8i16\"/>"
           "<field name=\"v4_int32\" type=\"v4i32\"/><field name=\"v2_int64\" type=\"v2i64\"/>"
           "<field name=\"uint128\" type=\"uint128\"/></union>\n";
    X += F.types;
    for (const Reg &R : F.regs)
      X += "<reg name=\"" + R.name + "\" bitsize=\"" + std::to_string(R.bits) + "\" type=\"" + R.type + "\"" +
           (R.group ? std::string(" group=\"") + R.group + "\"" : "") + "/>\n";
    X += "</feature>\n";
  }
  return X + "</target>\n";
}

// Linux's signal numbers as gdb's (include/gdb/signals.def), where they differ.
uint8_t gdbSignal(int Linux) {
  switch (Linux) {
  case 7: return 10;                                  // SIGBUS
  case 10: return 30;                                 // SIGUSR1
  case 12: return 31;                                 // SIGUSR2
  case 17: return 20;                                 // SIGCHLD
  default: return uint8_t(Linux <= 15 ? Linux : 143); // 143: GDB_SIGNAL_UNKNOWN
  }
}

constexpr uint8_t SigInt = 2, SigIll = 4, SigTrap = 5, SigKill = 9, SigSegv = 11;

} // namespace

// ---- the Target over the process -------------------------------------------

class Debugger::ProcessTarget : public gdb::Target {
public:
  ProcessTarget(Debugger &D) : D(D), Table(tableFor(D.P.A.arch)), Xml(describe(Table)) {}
  const RegisterTable &table() const { return Table; }
  std::string targetXml() const override { return Xml; }
  size_t registerCount() const override { return Table.all.size(); }
  uint64_t pid() const override { return D.P.Pid; }
  std::vector<uint64_t> threads() const override {
    std::vector<uint64_t> T;
    for (auto &[Tid, Th] : D.P.Threads)
      if (Th->state != Process::Thread::State::Exited)
        T.push_back(Tid);
    return T;
  }
  std::optional<std::string> readRegister(uint64_t Tid, unsigned N) override {
    const Process::Thread *T = thread(Tid);
    if (!T || N >= Table.all.size())
      return std::nullopt;
    const Reg &R = Table.all[N];
    uint8_t Buf[64] = {};
    if (R.uc == MinusOne)
      std::memset(Buf, 0xff, sizeof Buf);
    else if (R.uc != Zero && T != D.P.Self && R.uc == D.P.A.pc)
      std::memcpy(Buf, &T->pc, sizeof T->pc); // a waiting thread keeps its pc apart
    else if (R.uc != Zero && (T == D.P.Self ? uc_reg_read(D.P.UC, R.uc, Buf) : uc_context_reg_read(T->ctx, R.uc, Buf)))
      return std::nullopt;
    if (R.uc == D.P.A.pc && D.P.A.arch == Arch::Arm)
      Buf[0] &= ~1; // a Thumb resume address is odd; the instruction's is not
    return std::string(reinterpret_cast<char *>(Buf), R.bits / 8);
  }
  bool writeRegister(uint64_t Tid, unsigned N, std::string_view Bytes) override {
    Process::Thread *T = thread(Tid);
    if (!T || N >= Table.all.size() || Bytes.size() != Table.all[N].bits / 8u)
      return false;
    const Reg &R = Table.all[N];
    if (R.uc < 0)
      return true;
    uint8_t Buf[64] = {};
    std::memcpy(Buf, Bytes.data(), Bytes.size());
    bool Pc = R.uc == D.P.A.pc;
    if (Pc && D.P.A.arch == Arch::Arm) { // the pc gdb writes keeps the Thumb state
      uint32_t Cpsr = 0;
      if (T == D.P.Self ? uc_reg_read(D.P.UC, UC_ARM_REG_CPSR, &Cpsr)
                        : uc_context_reg_read(T->ctx, UC_ARM_REG_CPSR, &Cpsr))
        return false;
      Buf[0] |= (Cpsr >> 5) & 1;
    }
    if (Pc && T != D.P.Self) {
      std::memcpy(&T->pc, Buf, sizeof T->pc);
      return true;
    }
    return (T == D.P.Self ? uc_reg_write(D.P.UC, R.uc, Buf) : uc_context_reg_write(T->ctx, R.uc, Buf)) == UC_ERR_OK;
  }
  std::optional<std::string> readMemory(uint64_t Addr, size_t Len) override {
    std::string B(Len, '\0');
    if (uc_mem_read(D.P.UC, Addr, B.data(), Len))
      return std::nullopt;
    return B;
  }
  bool writeMemory(uint64_t Addr, std::string_view Bytes) override {
    Error E = D.P.write(Addr, {reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()});
    bool Ok = !E;
    consumeError(std::move(E));
    return Ok;
  }
  bool pristine() const override { return !D.Resumed; }
  // Linux's siginfo_t: si_signo, si_errno, si_code, then (a fault) si_addr
  // where the union starts, pointer-aligned; 128 bytes in all.
  std::string auxv() const override {
    std::string B(D.P.AuxVector.size() * D.P.A.wordSize, '\0');
    for (size_t I = 0; I < D.P.AuxVector.size(); ++I)
      D.P.storeGuest(reinterpret_cast<uint8_t *>(B.data()) + I * D.P.A.wordSize, D.P.AuxVector[I], D.P.A.wordSize);
    return B;
  }
  std::optional<std::string> siginfo() const override {
    if (!D.LastSignal.signo)
      return std::nullopt;
    const unsigned W = D.P.A.wordSize;
    uint8_t B[128] = {};
    D.P.storeGuest(B, uint32_t(D.LastSignal.signo), 4);
    D.P.storeGuest(B + 8, uint32_t(D.LastSignal.code), 4);
    D.P.storeGuest(B + (W == 8 ? 16 : 12), D.LastSignal.address, W);
    return std::string(reinterpret_cast<char *>(B), sizeof B);
  }
  bool supports(gdb::BreakKind K) const override { return K < gdb::BreakKind::Write || D.MemHook; }
  bool breakpoint(gdb::BreakKind K, uint64_t Addr, uint64_t Len, bool Insert) override {
    if (K >= gdb::BreakKind::Write) {
      if (Insert && !readMemory(Addr, Len))
        return false; // nothing mapped there
      if (Insert)
        D.Watches[{Addr, K}] = Len;
      else
        D.Watches.erase({Addr, K});
      D.watchesChanged();
      return true;
    }
    if (D.P.A.arch == Arch::Arm)
      Addr &= ~uint64_t(1); // gdb may name a Thumb function's address
    if (Insert)
      D.Breakpoints[Addr] = K;
    else
      D.Breakpoints.erase(Addr);
    return true;
  }

private:
  Process::Thread *thread(uint64_t Tid) {
    auto It = D.P.Threads.find(Tid);
    return It == D.P.Threads.end() || It->second->state == Process::Thread::State::Exited ? nullptr : It->second.get();
  }
  Debugger &D;
  const RegisterTable &Table;
  std::string Xml;
};

// ---- gdb's front end -------------------------------------------------------

// gdb over its socket: the stub's conversation at each stop.
class Debugger::GdbFrontEnd : public DebugFrontEnd {
public:
  GdbFrontEnd(int Fd, gdb::Target &T) : Conn(Fd), Stub(T) {}
  gdb::Resume stopped(Debugger &, const gdb::Stop &St) override { return Conn.stopped(Stub, St); }
  bool ended(const gdb::Stop &St) override { return Conn.ended(Stub, St); }
  bool runRefused() override { return Conn.runRefused(Stub); }
  void restarted(gdb::Target &T) override { Stub.restart(T); }
  void console(std::string_view Text) override { Conn.console(Text); }
  bool interrupted() override { return Conn.interrupted(); }
  int wakeFd() const override { return Conn.fd(); }
  bool interruptPending() override { return Conn.interruptPending(); }
  bool open() const override { return Conn.open(); }
  bool killed() const override { return Stub.killed(); }
  bool choosesSignals() const override { return true; }

private:
  gdb::Connection Conn;
  gdb::Stub Stub;
};

// ---- the run loop's side ------------------------------------------------------

Debugger::Debugger(Process &P, int ListenFd, int PeerFd)
    : P(P), ListenFd(ListenFd), PeerFd(PeerFd), StopBefore(tableFor(P.A.arch).watchStopsBefore) {}

Debugger::Debugger(Process &P, std::unique_ptr<DebugFrontEnd> F)
    : P(P), ListenFd(-1), PeerFd(-1), Target(std::make_unique<ProcessTarget>(*this)), Front(std::move(F)),
      StopBefore(tableFor(P.A.arch).watchStopsBefore) {}

Debugger::~Debugger() {
  if (ListenFd >= 0)
    close(ListenFd);
  if (MemHook)
    uc_hook_del(P.UC, MemHook);
  if (Before)
    uc_context_free(Before);
}

namespace {
void onAccess(uc_engine *, uc_mem_type T, uint64_t Addr, int Size, int64_t, void *User) {
  static_cast<Debugger *>(User)->access(T == UC_MEM_WRITE, Addr, unsigned(Size));
}
} // namespace

void Debugger::watchesChanged() {
  if (StopBefore && !Watches.empty() && !Before && uc_context_alloc(P.UC, &Before) != UC_ERR_OK)
    Before = nullptr;
}

void Debugger::access(bool Write, uint64_t Addr, unsigned Size) {
  if (Watches.empty())
    return;
  if (StopBefore && Write) // the hook runs before the store
    if (auto Old = Target->readMemory(Addr, Size))
      Undo.emplace_back(Addr, std::move(*Old));
  if (Hit)
    return;
  for (auto &[Key, Len] : Watches) {
    auto [At, Kind] = Key;
    bool Wanted = Kind == gdb::BreakKind::Access || (Kind == gdb::BreakKind::Write) == Write;
    if (Wanted && Addr < At + Len && At < Addr + Size) {
      Hit = gdb::Stop{gdb::Stop::Signal, SigTrap, 0, 0, Kind, At};
      HitThread = P.Self->tid;
      return;
    }
  }
}

void Debugger::rewind() {
  Rewind = false;
  if (!Before || uc_context_restore(P.UC, Before) != UC_ERR_OK)
    return;
  for (auto It = Undo.rbegin(); It != Undo.rend(); ++It)
    Target->writeMemory(It->first, It->second);
  Undo.clear();
}

void Debugger::watchAccesses() {
  // The memory hook for watchpoints is there from the start: translated
  // code calls it only if it was there when translated, and dropping
  // translations page by page misses some on Arm (Unicorn 2.0.1).
  if (uc_hook_add(P.UC, &MemHook, UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE, (void *)onAccess, this, 1, 0) == UC_ERR_OK)
    P.Stores.noteHook(UC_HOOK_MEM_READ | UC_HOOK_MEM_WRITE); // no store may bypass it
  else
    MemHook = 0;
}

std::unique_ptr<Debugger> Debugger::rerun(Process &Fresh) {
  auto D = std::make_unique<Debugger>(Fresh, -1, -1);
  D->watchAccesses();
  D->Target = std::make_unique<ProcessTarget>(*D);
  Front->restarted(*D->Target);
  D->Front = std::move(Front);
  Again = false;
  return D;
}

bool Debugger::refuseRun(const std::string &Why) {
  // (gdb takes any packet now as vRun's reply: the reason goes to stderr.)
  std::fprintf(stderr, "linklab-executor: %s\n", Why.c_str());
  Again = Front->runRefused();
  if (!Again)
    Front.reset();
  return Again;
}

bool Debugger::runStarts() {
  if (ListenFd >= 0) {
    // The first run waits for gdb (gdbserver waits too); one connection.
    // A client that goes away meanwhile (linklab interrupted) ends the wait:
    // its pipe hangs up (events 0: only POLLHUP/POLLERR wake us there).
    int Fd = -1;
    for (;;) {
      pollfd Fds[2] = {{ListenFd, POLLIN, 0}, {PeerFd, 0, 0}};
      int N = poll(Fds, PeerFd >= 0 ? 2 : 1, -1);
      if (N < 0 && errno == EINTR)
        continue;
      if (N < 0 || (Fds[1].revents & (POLLHUP | POLLERR | POLLNVAL)))
        break;
      if (Fds[0].revents) {
        Fd = accept(ListenFd, nullptr, nullptr);
        if (Fd >= 0 || errno != EINTR)
          break;
      }
    }
    close(ListenFd), ListenFd = -1;
    if (Fd < 0)
      return false;
    watchAccesses();
    Target = std::make_unique<ProcessTarget>(*this);
    Front = std::make_unique<GdbFrontEnd>(Fd, *Target);
    Pending = {gdb::Stop::Signal, SigTrap};
    AtEntry = true;
  }
  if (Front && !Resumed)
    Pending = {gdb::Stop::Signal, SigTrap}, AtEntry = true;
  return Front && Front->open();
}

bool Debugger::check(uint64_t Pc, uint32_t Size) {
  if (!Front)
    return false;
  InsnSize = Size;
  if (Hit) {
    // The previous instruction triggered a watchpoint: stop after it, or
    // (StopBefore) undo it and stop before it, in the thread that ran it.
    Pending = *Hit;
    Hit.reset();
    Rewind = StopBefore && Before && HitThread == P.Self->tid;
    return true;
  }
  if (StopBefore && !Watches.empty() && Before) {
    uc_context_save(P.UC, Before);
    Undo.clear();
  }
  if (ResumeAt) {
    // The instruction resumed at runs (the one stepped, or the one whose
    // breakpoint stopped the process); anything else (a signal handler
    // entered first) is checked as usual.
    bool Same = *ResumeAt == Pc;
    ResumeAt.reset();
    if (Same)
      return false;
  }
  if (Stepping && Over && !Over->running) {
    // A step over: a call runs on (breakpoints still stop it) until it
    // returns to this frame; anything else was a step.
    if (auto Ret = callReturn(Pc)) {
      Over->ret = *Ret, Over->running = true;
      Stepping = false;
    } else {
      Over.reset();
    }
  }
  if (Stepping) {
    Pending = {gdb::Stop::Signal, SigTrap};
    return true;
  }
  // Back from the call, in the frame it was made from (a recursive call
  // returns there with a deeper stack first).
  if (Over && Pc == Over->ret && P.reg(P.A.sp) >= Over->sp) {
    Over.reset();
    Pending = {gdb::Stop::Signal, SigTrap};
    return true;
  }
  if (auto It = Breakpoints.find(Pc); It != Breakpoints.end()) {
    Pending = {gdb::Stop::Signal, SigTrap, 0, 0, It->second};
    return true;
  }
  // ^C: a poll now and then, not at every instruction.
  if (++PollCountdown % (1 << 16) == 0 && Front->interrupted()) {
    Pending = {gdb::Stop::Signal, SigInt};
    return true;
  }
  return false;
}

gdb::Resume Debugger::ask(const gdb::Stop &St) {
  Over.reset();
  gdb::Resume R = Front->stopped(*this, St);
  AtEntry = false;
  InsnSize = 0;
  if (R.kind == gdb::Resume::StepOver)
    Over = StepOver{P.reg(P.A.pc), P.reg(P.A.sp)};
  return R;
}

bool Debugger::stopped(uint64_t Pc) {
  if (!Front)
    return true;
  if (Rewind)
    rewind();
  LastSignal = {};
  Pending.thread = P.Self->tid;
  gdb::Resume R = ask(Pending);
  switch (R.kind) {
  case gdb::Resume::Kill:
    Killed = true;
    P.stop(RunStatus::Signaled, SigKill, Front->killMessage());
    return false;
  case gdb::Resume::Detach:
  case gdb::Resume::None:
  case gdb::Resume::Run:   // (a live process is killed first)
    if (Front->killed()) { // gdb went away after killing it
      P.stop(RunStatus::Signaled, SigKill, Front->killMessage());
      return false;
    }
    Front.reset(), Breakpoints.clear(), Watches.clear();
    watchesChanged();
    Stepping = false;
    return true;
  case gdb::Resume::Continue:
  case gdb::Resume::Step:
  case gdb::Resume::StepOver:
    Stepping = R.kind != gdb::Resume::Continue;
    Resumed = true;
    // Resume where gdb left the pc (it may have moved it).
    ResumeAt = P.reg(P.A.pc);
    return true;
  }
  return true;
}

bool Debugger::stopInCall() {
  if (!Front || !Front->interrupted())
    return true; // no ^C (gdb went away, or sent something else): the call waits on
  Pending = {gdb::Stop::Signal, SigInt};
  bool Go = stopped(P.reg(P.A.pc));
  ResumeAt.reset(); // the call ends first: a breakpoint after it stops as usual
  return Go;
}

Debugger::FaultCourse Debugger::faulted(FaultKind K, uint64_t Pc, uint64_t Addr) {
  // As Linux stops a traced process at a signal: gdb looks, then passes it
  // (the program's handler runs, or it dies), goes on without it, or kills.
  bool Illegal = K == FaultKind::IllegalInstruction;
  bool Unmapped = K == FaultKind::ReadUnmapped || K == FaultKind::WriteUnmapped || K == FaultKind::FetchUnmapped;
  // si_code as Linux's: the arch's for SIGILL, SEGV_MAPERR 1 or SEGV_ACCERR 2.
  LastSignal = {Illegal ? 4 : 11, Illegal ? int(P.A.illegalCode) : Unmapped ? 1 : 2, Illegal ? Pc : Addr};
  Pending = {gdb::Stop::Signal, Illegal ? SigIll : SigSegv, 0, P.Self->tid};
  FaultAt = K, FaultAddress = Addr;
  gdb::Resume R = ask(Pending);
  FaultAt = FaultKind::None;
  LastSignal = {};
  switch (R.kind) {
  case gdb::Resume::Kill: Killed = true; return FaultCourse::Kill;
  case gdb::Resume::Detach:
  case gdb::Resume::None:
  case gdb::Resume::Run:
    if (Front->killed())
      return FaultCourse::Kill;
    Front.reset(), Breakpoints.clear(), Watches.clear();
    watchesChanged();
    Stepping = false;
    return FaultCourse::Deliver;
  case gdb::Resume::Continue:
  case gdb::Resume::Step:
  case gdb::Resume::StepOver:
    Stepping = R.kind != gdb::Resume::Continue;
    Over.reset(); // the fault's course decides where it goes next
    Resumed = true;
    ResumeAt = P.reg(P.A.pc);
    // gdb passes the signal it names; the protocol's client has the fault take its course.
    FaultReported = R.signal != 0 || !Front->choosesSignals();
    return FaultReported ? FaultCourse::Deliver : FaultCourse::Ignore;
  }
  return FaultCourse::Deliver;
}

void Debugger::runEnded(executor::RunResultMsg &R) {
  if (!Front)
    return;
  gdb::Stop End{gdb::Stop::Terminated, SigKill};
  switch (Killed ? RunStatus::Signaled : R.runStatus()) {
  case RunStatus::Exited:
  case RunStatus::Returned: End = {gdb::Stop::Exited, 0, int(R.value & 0xff)}; break;
  case RunStatus::Fault:
  case RunStatus::Signaled: {
    if (Killed)
      break; // the front end knows how it ended
    // As Linux stops a traced process: gdb sees the signal at the faulting
    // instruction, looks, and the process dies when it goes on.
    bool Illegal = R.runStatus() == RunStatus::Fault && R.faultKind == uint8_t(FaultKind::IllegalInstruction);
    uint8_t Sig = R.runStatus() == RunStatus::Signaled ? gdbSignal(int(R.value)) : Illegal ? SigIll : SigSegv;
    if (R.runStatus() == RunStatus::Fault && FaultReported) { // gdb saw it and let it through
      End = {gdb::Stop::Terminated, Sig};
      break;
    }
    if (R.runStatus() == RunStatus::Signaled && !Front->choosesSignals())
      break; // the run's result says it all (a kill from the client included)
    if (R.runStatus() == RunStatus::Fault) {
      P.setReg(P.A.pc, R.pc | (P.A.arch == Arch::Arm && (P.reg(UC_ARM_REG_CPSR) & 0x20)));
      FaultAt = FaultKind(R.faultKind), FaultAddress = R.address;
    } else { // a signal it sent itself (abort's tgkill): si_code SI_TKILL
      LastSignal = {int(R.value), -6, 0};
    }
    Pending = {gdb::Stop::Signal, Sig, 0, P.Self->tid};
    gdb::Resume Next = ask(Pending);
    FaultAt = FaultKind::None;
    if (Next.kind == gdb::Resume::Detach || Next.kind == gdb::Resume::None || !Front->open())
      return Front.reset();
    End = {gdb::Stop::Terminated, Next.kind == gdb::Resume::Kill ? SigKill : Sig};
    break;
  }
  default: // a limit, or the emulator's error: gdb prints why
    Front->console("linklab: " + R.message + "\n");
    break;
  }
  Again = Front->ended(End);
  if (!Again)
    Front.reset();
}

// ---- what a front end reads at a stop -------------------------------------------

std::optional<std::string> Debugger::readMemory(uint64_t Addr, size_t Len) { return Target->readMemory(Addr, Len); }

void Debugger::setBreakpoints(const std::vector<uint64_t> &Addrs) {
  Breakpoints.clear();
  for (uint64_t A : Addrs)
    Target->breakpoint(gdb::BreakKind::Software, A, 1, true);
}

namespace {
uint32_t le32(const std::string &B, size_t At) {
  uint32_t V = 0;
  for (size_t I = 0; I < 4 && At + I < B.size(); ++I)
    V |= uint32_t(uint8_t(B[At + I])) << (8 * I);
  return V;
}
constexpr uint32_t AArch64BlMask = 0xfc000000, AArch64Bl = 0x94000000;
constexpr uint32_t AArch64BlrMask = 0xfffffc1f, AArch64Blr = 0xd63f0000;
} // namespace

std::optional<uint64_t> Debugger::callReturn(uint64_t Pc) {
  const uint64_t From = Over->pc;
  switch (P.A.arch) {
  case Arch::X86_64:
  case Arch::I386: {
    // A call pushed the address after it, which lies within an
    // instruction's length (15 bytes at most) of the call.
    uint64_t Sp = P.reg(P.A.sp);
    if (Sp + P.A.wordSize != Over->sp)
      return std::nullopt;
    auto W = readMemory(Sp, P.A.wordSize);
    if (!W)
      return std::nullopt;
    uint64_t Ret = P.loadGuest(reinterpret_cast<const uint8_t *>(W->data()), P.A.wordSize);
    return Ret > From && Ret <= From + 15 && Ret != Pc ? std::optional<uint64_t>(Ret) : std::nullopt;
  }
  case Arch::AArch64: {
    auto I = readMemory(From, 4);
    uint32_t W = I ? le32(*I, 0) : 0;
    bool Call = (W & AArch64BlMask) == AArch64Bl || (W & AArch64BlrMask) == AArch64Blr;
    return Call && Pc != From + 4 ? std::optional<uint64_t>(From + 4) : std::nullopt;
  }
  case Arch::RISCV64: {
    // jal/jalr with a link register (rd != x0), or c.jalr (RVC: ra).
    auto I = readMemory(From, 4);
    if (!I)
      I = readMemory(From, 2);
    if (!I)
      return std::nullopt;
    uint32_t W = le32(*I, 0);
    unsigned Len = (W & 3) == 3 ? 4 : 2;
    bool Call = Len == 4 ? ((W & 0x7f) == 0x6f || (W & 0x7f) == 0x67) && ((W >> 7) & 31) != 0
                         : (W & 0xf07f) == 0x9002 && ((W >> 7) & 31) != 0;
    return Call && Pc != From + Len ? std::optional<uint64_t>(From + Len) : std::nullopt;
  }
  default: // Arm and Thumb: a step over steps
    return std::nullopt;
  }
}

bool Debugger::afterCall(uint64_t Addr, const std::vector<std::pair<uint64_t, uint64_t>> &Exec) {
  bool Code = false;
  for (auto [Lo, Hi] : Exec)
    Code |= Addr >= Lo + 2 && Addr <= Hi;
  if (!Code)
    return false;
  switch (P.A.arch) {
  case Arch::X86_64:
  case Arch::I386: {
    // call rel32 (e8), or call through ff /2 in any of its lengths.
    auto B = readMemory(Addr - 7, 7);
    if (!B)
      B = readMemory(Addr - 5, 5), B = B ? std::string(2, '\0') + *B : B;
    if (!B)
      return false;
    if (uint8_t((*B)[2]) == 0xe8)
      return true;
    for (size_t K = 2; K <= 7; ++K)
      if (uint8_t((*B)[7 - K]) == 0xff && ((uint8_t((*B)[8 - K]) >> 3) & 7) == 2)
        return true;
    return false;
  }
  case Arch::AArch64: {
    auto I = readMemory(Addr - 4, 4);
    uint32_t W = I ? le32(*I, 0) : 0;
    return (W & AArch64BlMask) == AArch64Bl || (W & AArch64BlrMask) == AArch64Blr;
  }
  case Arch::RISCV64: {
    auto I = readMemory(Addr - 4, 4);
    uint32_t W = I ? le32(*I, 0) : 0;
    if (((W & 0x7f) == 0x6f || (W & 0x7f) == 0x67) && ((W >> 7) & 31) == 1)
      return true;
    uint32_t C = W >> 16; // the last two bytes: c.jalr
    return (C & 0xf07f) == 0x9002 && ((C >> 7) & 31) != 0;
  }
  default: return false;
  }
}

executor::DebugStopMsg Debugger::describeStop(const gdb::Stop &St, const std::vector<executor::MemoryRange> &EhFrames) {
  using executor::StopReason;
  executor::DebugStopMsg M;
  M.reason = uint8_t(AtEntry                                     ? StopReason::Entry
                     : FaultAt != FaultKind::None                ? StopReason::Fault
                     : St.breakpoint == gdb::BreakKind::Software ? StopReason::Breakpoint
                                                                 : StopReason::Step);
  M.pc = P.reg(P.A.pc) & (P.A.arch == Arch::Arm ? ~uint64_t(1) : ~uint64_t(0));
  M.thread = St.thread;
  M.instructionSize = InsnSize;
  M.faultKind = uint8_t(FaultAt);
  M.faultAddress = FaultAddress;
  const RegisterTable &T = Target->table();
  for (unsigned N = 0; N < T.general; ++N)
    if (auto V = Target->readRegister(St.thread, N))
      M.registers.push_back({T.all[N].name, std::vector<uint8_t>(V->begin(), V->end())});
  // The stack: up to StackBytes at sp, less where the mapping ends.
  constexpr size_t StackBytes = 256, MaxFrames = 64;
  uint64_t Sp = P.reg(P.A.sp);
  M.address = Sp;
  for (size_t N = StackBytes; N && M.memory.empty(); N /= 2)
    if (auto B = readMemory(Sp, N))
      M.memory.assign(B->begin(), B->end());
  if (EhFrames.empty()) {
    M.returns = scanReturns();
    return M;
  }
  // Return addresses: each caller's, through the call-frame information.
  auto Read = [this](uint64_t Addr, size_t Len) { return readMemory(Addr, Len); };
  if (!Frames || FramesOf != EhFrames) {
    unwind::ArchFacts Facts{P.A.wordSize, P.A.bigEndian, 0, -1};
    for (const DwarfReg &R : P.A.regs) {
      if (R.uc == P.A.sp)
        Facts.spColumn = R.dwarf;
      if (R.uc == P.A.link)
        Facts.linkColumn = R.dwarf;
    }
    std::vector<std::pair<uint64_t, uint64_t>> Ranges;
    for (const executor::MemoryRange &R : EhFrames)
      Ranges.emplace_back(R.address, R.size);
    Frames = std::make_unique<unwind::FrameTable>(Ranges, Read, Facts);
    FramesOf = EhFrames;
  }
  std::map<uint16_t, uint64_t> Regs;
  for (const DwarfReg &R : P.A.regs)
    if (R.bytes == P.A.wordSize)
      Regs[R.dwarf] = P.reg(R.uc);
  M.returns = Frames->unwind(std::move(Regs), M.pc, Read, MaxFrames);
  M.unwound = 1;
  return M;
}

std::vector<uint64_t> Debugger::scanReturns() {
  constexpr size_t ScanBytes = 4096, MaxReturns = 32;
  std::vector<uint64_t> Returns;
  // The link register's, then the stack's words (a scan, as a debugger does
  // without unwind information).
  std::vector<std::pair<uint64_t, uint64_t>> Exec;
  uc_mem_region *Regions = nullptr;
  uint32_t Count = 0;
  if (uc_mem_regions(P.UC, &Regions, &Count) == UC_ERR_OK) {
    for (uint32_t I = 0; I < Count; ++I)
      if (Regions[I].perms & UC_PROT_EXEC)
        Exec.emplace_back(Regions[I].begin, Regions[I].end);
    uc_free(Regions);
  }
  if (P.A.link >= 0 && afterCall(P.reg(P.A.link), Exec))
    Returns.push_back(P.reg(P.A.link));
  uint64_t Sp = P.reg(P.A.sp);
  std::optional<std::string> Stack;
  for (size_t N = ScanBytes; N >= P.A.wordSize && !Stack; N /= 2)
    Stack = readMemory(Sp, N);
  for (size_t At = 0; Stack && At + P.A.wordSize <= Stack->size() && Returns.size() < MaxReturns; At += P.A.wordSize) {
    uint64_t W = P.loadGuest(reinterpret_cast<const uint8_t *>(Stack->data() + At), P.A.wordSize);
    if (afterCall(W, Exec))
      Returns.push_back(W);
  }
  return Returns;
}

} // namespace linklab::emu
