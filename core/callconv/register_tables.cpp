// Register tables, one per target, built once from the lists below. Register
// numbers are the psABIs' DWARF numbers, so a plan's numbers mean the same
// thing to the planner, to a debugger and to the emulator's register map.
#include "callconv/register_tables.h"
#include "elf/elf_file.h"
#include "target/target.h"

#include <cassert>

namespace linklab::callconv {

namespace {

RegInfo gpr(std::string Name, uint16_t Number, std::string View32 = {}, std::string View64 = {}) {
  return {
      std::move(Name), Number, RegClass::Gpr, 8, false, nullptr, {"", "", std::move(View32), std::move(View64), ""}};
}

RegInfo reserved(std::string Name, uint16_t Number, const char *Why) {
  return {std::move(Name), Number, RegClass::Gpr, 8, true, Why, {}};
}

RegInfo noted(RegInfo R, const char *Note) {
  R.Note = Note;
  return R;
}

// FNV-1a over every fact of the table: any change of a name, number, class,
// width or reservation changes the schema, and with it every plan's meaning.
std::string fingerprint(const char *Arch, const std::vector<RegInfo> &Regs) {
  uint64_t H = 0xcbf29ce484222325ull;
  auto Mix = [&](std::string_view S) {
    for (unsigned char C : S)
      H = (H ^ C) * 0x100000001b3ull;
  };
  for (const RegInfo &R : Regs)
    Mix(formatv("%s=%u/%d/%u/%d;", R.Name.c_str(), R.Number, int(R.Class), R.Bytes, int(R.Reserved)));
  return formatv("%s.%016llx", Arch, (unsigned long long)H);
}

std::vector<RegInfo> x86_64Registers() {
  // rsp is known only to be refused: the call itself moves it.
  std::vector<RegInfo> Regs = {gpr("rax", 0, "eax", "rax"),
                               gpr("rdx", 1, "edx", "rdx"),
                               gpr("rcx", 2, "ecx", "rcx"),
                               gpr("rbx", 3, "ebx", "rbx"),
                               gpr("rsi", 4, "esi", "rsi"),
                               gpr("rdi", 5, "edi", "rdi"),
                               noted(gpr("rbp", 6, "ebp", "rbp"), "rbp is only sound without a frame pointer"),
                               reserved("rsp", 7, "stack pointer")};
  for (unsigned I = 8; I < 16; ++I)
    Regs.push_back(gpr(formatv("r%u", I), uint16_t(I), formatv("r%ud", I), formatv("r%u", I)));
  for (unsigned I = 0; I < 16; ++I)
    Regs.push_back({formatv("xmm%u", I), uint16_t(17 + I), RegClass::Fpr, 16, false, nullptr, {}});
  return Regs;
}

std::vector<RegInfo> aarch64Registers() {
  std::vector<RegInfo> Regs;
  for (unsigned I = 0; I < 29; ++I)
    Regs.push_back(gpr(formatv("x%u", I), uint16_t(I), formatv("w%u", I), formatv("x%u", I)));
  // Veneers and PLT stubs that the linker places between caller and callee
  // are allowed to clobber the intra-procedure-call registers (AAPCS64 6.1.1).
  Regs[16].Note = "x16 (ip0) may be clobbered by linker veneers and PLT stubs";
  Regs[17].Note = "x17 (ip1) may be clobbered by linker veneers and PLT stubs";
  Regs[18].Note = "x18 is the platform register on Darwin and Windows";
  for (auto [Name, Number, Why] : {std::tuple{"x29", 29, "frame pointer"},
                                   {"fp", 29, "frame pointer"},
                                   {"x30", 30, "link register"},
                                   {"lr", 30, "link register"},
                                   {"sp", 31, "stack pointer"},
                                   {"x31", 31, "stack pointer"}})
    Regs.push_back(reserved(Name, uint16_t(Number), Why));
  for (unsigned I = 0; I < 32; ++I)
    Regs.push_back({formatv("v%u", I),
                    uint16_t(64 + I),
                    RegClass::Fpr,
                    16,
                    false,
                    nullptr,
                    {formatv("b%u", I), formatv("h%u", I), formatv("s%u", I), formatv("d%u", I), formatv("q%u", I)}});
  return Regs;
}

std::vector<RegInfo> riscv64Registers() {
  static const char *const XNames[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                                         "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                         "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
  static const char *const FNames[32] = {"ft0", "ft1", "ft2", "ft3", "ft4",  "ft5",  "ft6", "ft7", "fs0",  "fs1", "fa0",
                                         "fa1", "fa2", "fa3", "fa4", "fa5",  "fa6",  "fa7", "fs2", "fs3",  "fs4", "fs5",
                                         "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  // s0 is reserved like AArch64's x29: it is the frame pointer whenever one
  // is kept, and the JIT cannot know whether the callee keeps one.
  static const std::pair<unsigned, const char *> Reserved[] = {
      {0, "hard-wired zero"}, {1, "return address"}, {2, "stack pointer"}, {3, "global pointer (linker relaxation)"},
      {4, "thread pointer"},  {8, "frame pointer"}};
  std::vector<RegInfo> Regs;
  for (unsigned I = 0; I < 32; ++I)
    Regs.push_back(gpr(XNames[I], uint16_t(I)));
  for (auto [Number, Why] : Reserved) {
    Regs[Number].Reserved = true;
    Regs[Number].Note = Why;
  }
  Regs.push_back(reserved("fp", 8, "frame pointer"));
  // psABI PLT entries: auipc t3; ld t3; jalr t1, t3.
  Regs[6].Note = "t1 is clobbered by PLT stubs";
  Regs[28].Note = "t3 is clobbered by PLT stubs";
  for (unsigned I = 0; I < 32; ++I)
    Regs.push_back({FNames[I], uint16_t(32 + I), RegClass::Fpr, 8, false, nullptr, {}});
  return Regs;
}

ArchConventions makeTarget(ArchConventions T) {
  T.Schema = fingerprint(T.Name, T.Regs);
  return T;
}

} // namespace

const ArchConventions &x86_64Conventions() {
  static const ArchConventions X86 = makeTarget({Arch::X86_64,
                                                 "x86_64",
                                                 "SysV",
                                                 elf::EM_X86_64,
                                                 1,
                                                 "gpr:rdi,rsi,rdx,rcx,r8,r9;"
                                                 "fpr:xmm0,xmm1,xmm2,xmm3,xmm4,xmm5,xmm6,xmm7;"
                                                 "ret_gpr:rax,rdx;ret_fpr:xmm0,xmm1;csr:rbx,rbp,r12,r13,r14,r15",
                                                 nullptr,
                                                 16,
                                                 true,
                                                 false,
                                                 false,
                                                 false,
                                                 OverflowRule::KeepPool,
                                                 x86_64Registers(),
                                                 {}});
  return X86;
}

// AAPCS64 preserves only the low 64 bits of v8-v15; the plan lists them
// whole because a register set cannot say "half of".
const ArchConventions &aarch64Conventions() {
  static const ArchConventions A64 = makeTarget({Arch::AArch64,
                                                 "aarch64",
                                                 "AAPCS64",
                                                 elf::EM_AARCH64,
                                                 1,
                                                 "gpr:x0,x1,x2,x3,x4,x5,x6,x7;fpr:v0,v1,v2,v3,v4,v5,v6,v7;"
                                                 "ret_gpr:x0,x1;ret_fpr:v0,v1;"
                                                 "csr:x19,x20,x21,x22,x23,x24,x25,x26,x27,x28,"
                                                 "v8,v9,v10,v11,v12,v13,v14,v15",
                                                 "x8",
                                                 16,
                                                 true,
                                                 false,
                                                 true,
                                                 true,
                                                 OverflowRule::ExhaustPool,
                                                 aarch64Registers(),
                                                 {}});
  return A64;
}

const ArchConventions &riscv64Conventions() {
  static const ArchConventions RV = makeTarget({Arch::RISCV64,
                                                "riscv64",
                                                "LP64D",
                                                elf::EM_RISCV,
                                                1,
                                                "gpr:a0,a1,a2,a3,a4,a5,a6,a7;fpr:fa0,fa1,fa2,fa3,fa4,fa5,fa6,fa7;"
                                                "ret_gpr:a0,a1;ret_fpr:fa0,fa1;"
                                                "csr:s1,s2,s3,s4,s5,s6,s7,s8,s9,s10,s11,"
                                                "fs0,fs1,fs2,fs3,fs4,fs5,fs6,fs7,fs8,fs9,fs10,fs11",
                                                nullptr,
                                                8,
                                                false,
                                                true,
                                                false,
                                                true,
                                                OverflowRule::Split,
                                                riscv64Registers(),
                                                {}});
  return RV;
}

namespace {
// The architectures whose conventions are modelled, and their tables.
struct ConventionsRow {
  Arch arch;
  const ArchConventions &(*table)();
};
const ConventionsRow Modelled[] = {
    {Arch::X86_64, x86_64Conventions}, {Arch::AArch64, aarch64Conventions}, {Arch::RISCV64, riscv64Conventions}};
} // namespace

const ArchConventions *conventionsFor(Arch A) {
  for (const ConventionsRow &R : Modelled)
    if (R.arch == A)
      return &R.table();
  return nullptr;
}

const ArchConventions &archConventions(Arch A) {
  const ArchConventions *T = conventionsFor(A);
  assert(T && "targetInfo: no convention table for this architecture");
  return *T;
}

Expected<const ArchConventions *> targetForTriple(std::string_view TripleText) {
  Triple T = Triple::parse(TripleText);
  std::string Quoted = "'" + std::string(TripleText) + "'";
  const ArchConventions *Table = conventionsFor(T.arch);
  if (!Table) {
    std::string Known;
    for (const ConventionsRow &R : Modelled)
      Known += std::string(Known.empty() ? "" : ", ") + archName(R.arch);
    return makeError("callconv: unsupported triple " + Quoted + ": known architectures are " + Known);
  }
  if (T.format != ObjectFormat::ELF)
    return makeError("callconv: unsupported triple " + Quoted +
                     ": only the ELF platforms' conventions (SysV, AAPCS64, LP64D) are modelled");
  return Table;
}

const RegInfo *ArchConventions::find(std::string_view Name) const {
  for (const RegInfo &R : Regs)
    if (R.Name == Name)
      return &R;
  return nullptr;
}

const RegInfo *ArchConventions::byNumber(unsigned Number) const {
  for (const RegInfo &R : Regs)
    if (R.Number == Number && !R.Reserved)
      return &R;
  return nullptr;
}

std::pair<std::string, unsigned> ArchConventions::view(const RegInfo &R, unsigned Bytes) const {
  for (unsigned Log = 0, W = 1; W <= R.Bytes; ++Log, W *= 2)
    if (W >= Bytes && !R.Views[Log].empty())
      return {R.Views[Log], W};
  return {R.Name, R.Bytes};
}

} // namespace linklab::callconv
