// AArch64 backend tests. Objects are assembled/compiled at test time from
// tests/inputs; the oracles are independent of linklab: llvm-jitlink-22's
// graph dumps (same layout, same edge kinds), llvm-mc-22's disassembler for
// every fixed-up instruction, and hand-computed psABI values for TLS.
#include "test_support.h"

#include "arch/aarch64.h"
#include "arch/aarch64_fields.h"
#include "link/slab_memory_manager.h"
#include "session/link_info.h"
#include "session/session.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

using namespace linklab;

namespace {

const std::string Src = test::sourceDir();
const std::string Linklab = test::linklabPath();

using test::runCommand;
using RunResult = test::CommandResult;

// One directory for the objects of every test here, removed at exit.
std::string tempDir() {
  static const test::TempDir Dir;
  return Dir.Path;
}

// Assembles tests/inputs/aarch64/<Name> into the temp dir; returns the object path.
std::string assemble(const std::string &Name) {
  std::string Out = tempDir() + "/" + Name + ".o";
  RunResult R = runCommand("llvm-mc-22 -triple=aarch64-linux-gnu -filetype=obj -o " + Out + " " + Src +
                           "/tests/inputs/aarch64/" + Name);
  EXPECT_EQ(R.status, 0) << R.output;
  return Out;
}

// An object linked in-process at 0x10000, with its symbol, GOT and stub addresses.
struct Linked {
  SlabMemoryManager MM{0x10000, 4096, 1 << 20};
  Session S{Triple::parse("aarch64-linux-gnu"), MM};
  std::shared_ptr<LinkInfoRecorder> Info = std::make_shared<LinkInfoRecorder>();
  const ObjectLinkInfo *Obj = nullptr;

  Linked(const std::string &Path, std::vector<std::pair<std::string, Addr>> Abs) {
    S.addPlugin(Info);
    auto K = S.addObject(Path, test::readBytes(Path));
    EXPECT_TRUE(bool(K)) << (K ? "" : K.takeError().message());
    for (auto &[N, A] : Abs)
      EXPECT_FALSE(bool(S.defineAbsolute(N, A)));
    auto R = S.lookupNow({"main"});
    EXPECT_TRUE(bool(R)) << (R ? "" : R.takeError().message());
    Obj = Info->find(Path);
    EXPECT_NE(Obj, nullptr);
  }
  Addr sym(const std::string &N) const {
    auto A = S.addressOf(N);
    EXPECT_TRUE(A.has_value()) << N;
    return A.value_or(0);
  }
  Addr got(const std::string &N) const { return Obj->gotEntries.at(N); }
  Addr stub(const std::string &N) const { return Obj->stubs.at(N); }
  Addr section(const std::string &N) const {
    for (auto &Sec : Obj->sections)
      if (Sec.name == N)
        return Sec.address;
    ADD_FAILURE() << "no section " << N;
    return 0;
  }
  template <typename T> T read(Addr A) const {
    auto B = MM.read(A, sizeof(T));
    EXPECT_TRUE(bool(B));
    return B ? readLE<T>(B->data()) : T();
  }
};

// llvm-mc-22's disassembly of one instruction word, tabs turned to spaces
// and any trailing comment dropped: "bl #72", "ldr x0, [x0, #88]".
std::string disasm(uint32_t W) {
  char Bytes[64];
  std::snprintf(Bytes, sizeof Bytes, "0x%02x 0x%02x 0x%02x 0x%02x", W & 0xff, (W >> 8) & 0xff, (W >> 16) & 0xff,
                W >> 24);
  RunResult R = runCommand(std::string("echo '") + Bytes + "' | llvm-mc-22 --disassemble -triple=aarch64");
  std::string T = R.output;
  T = T.substr(0, T.find("//"));
  std::replace(T.begin(), T.end(), '\t', ' ');
  size_t B = T.find_first_not_of(" \n"), E = T.find_last_not_of(" \n");
  return B == std::string::npos ? T : T.substr(B, E - B + 1);
}

std::string dec(int64_t V) { return std::to_string(V); }
// A base+offset operand as llvm-mc prints it ("[x0]" for offset 0).
std::string mem(const std::string &Reg, uint64_t Off) {
  return "[" + Reg + (Off ? ", #" + std::to_string(Off) : "") + "]";
}
int64_t pageDelta(Addr To, Addr From) { return int64_t(To & ~0xfffull) - int64_t(From & ~0xfffull); }

} // namespace

// Every fixed-up instruction of families.s, decoded by LLVM's disassembler,
// against the value the psABI formula gives for the addresses linklab chose.
TEST(AArch64Link, FamiliesDecodeToPsABIValues) {
  const Addr ExtData = 0x123456789abc, ExtFunc = 0x20000;
  Linked L(assemble("families.s"), {{"ext_data", ExtData}, {"ext_func", ExtFunc}});
  auto At = [&](const char *Label) { return disasm(L.read<uint32_t>(L.sym(Label))); };
  Addr Var = L.sym("var"), Callee = L.sym("callee"), GOT = L.got("ext_data");
  EXPECT_EQ(At("call26"), "bl #" + dec(Callee - L.sym("call26")));
  EXPECT_EQ(At("jump26"), "b #" + dec(Callee - L.sym("jump26")));
  EXPECT_EQ(At("call26_ext"), "bl #" + dec(int64_t(L.stub("ext_func") - L.sym("call26_ext"))));
  EXPECT_EQ(At("pg_hi21"), "adrp x0, #" + dec(pageDelta(Var, L.sym("pg_hi21"))));
  EXPECT_EQ(At("add_lo12"), "add x0, x0, #" + dec((Var + 4) & 0xfff));
  EXPECT_EQ(At("ldst8"), "ldrb w1, " + mem("x0", (Var + 1) & 0xfff));
  EXPECT_EQ(At("ldst16"), "ldrh w1, " + mem("x0", (Var + 2) & 0xfff));
  EXPECT_EQ(At("ldst32"), "ldr w1, " + mem("x0", (Var + 4) & 0xfff));
  EXPECT_EQ(At("ldst64"), "ldr x1, " + mem("x0", (Var + 8) & 0xfff));
  EXPECT_EQ(At("ldst128"), "ldr q1, " + mem("x0", Var & 0xfff));
  EXPECT_EQ(At("adr_lo21"), "adr x2, #" + dec(int64_t(Var + 3 - L.sym("adr_lo21"))));
  EXPECT_EQ(At("got_page"), "adrp x3, #" + dec(pageDelta(GOT, L.sym("got_page"))));
  EXPECT_EQ(At("got_lo12"), "ldr x3, " + mem("x3", GOT & 0xfff));
  EXPECT_EQ(At("gotpage_lo15"), "ldr x3, [x3, #" + dec(GOT - (L.section("$__GOT") & ~0xfffull)) + "]");
  EXPECT_EQ(L.read<uint64_t>(GOT), ExtData);
  EXPECT_EQ(L.read<uint64_t>(L.got("ext_func")), ExtFunc);
  EXPECT_EQ(At("movw_g0"), "mov x4, #" + dec(ExtData & 0xffff));
  EXPECT_EQ(At("movw_g1"), "movk x4, #" + dec((ExtData >> 16) & 0xffff) + ", lsl #16");
  EXPECT_EQ(At("movw_g2"), "movk x4, #" + dec((ExtData >> 32) & 0xffff) + ", lsl #32");
  EXPECT_EQ(At("movw_g3"), "movk x4, #" + dec(ExtData >> 48) + ", lsl #48");
  EXPECT_EQ(At("condbr19"), "b.ne #" + dec(Callee - L.sym("condbr19")));
  EXPECT_EQ(At("cbz19"), "cbz x5, #" + dec(int64_t(L.sym("main") - L.sym("cbz19"))));
  EXPECT_EQ(At("tstbr14"), "tbnz w6, #7, #" + dec(Callee - L.sym("tstbr14")));
  EXPECT_EQ(At("ld_prel19"), "ldr x7, #" + dec(int64_t(L.sym("lit") - L.sym("ld_prel19"))));
  // The stub: adrp x16, GOT page; ldr x16, [x16, GOT lo12]; br x16.
  Addr Stub = L.stub("ext_func"), StubGOT = L.got("ext_func");
  EXPECT_EQ(disasm(L.read<uint32_t>(Stub)), "adrp x16, #" + dec(pageDelta(StubGOT, Stub)));
  EXPECT_EQ(disasm(L.read<uint32_t>(Stub + 4)), "ldr x16, " + mem("x16", StubGOT & 0xfff));
  EXPECT_EQ(disasm(L.read<uint32_t>(Stub + 8)), "br x16");
  // Data.
  EXPECT_EQ(L.read<uint64_t>(L.sym("abs64")), ExtData + 16);
  EXPECT_EQ(L.read<uint32_t>(L.sym("abs32")), uint32_t(Callee));
  EXPECT_EQ(L.read<int32_t>(L.sym("prel32")), int32_t(ExtFunc - L.sym("prel32")));
  EXPECT_EQ(L.read<int64_t>(L.sym("prel64")), int64_t(Var - L.sym("prel64") + 8));
}

// The same object through both linkers: identical -show-graphs dumps mean
// identical layout, edge kinds, targets and addends.
TEST(AArch64Link, FamiliesGraphMatchesLLVMJITLink) {
  std::string Obj = assemble("families.s");
  std::string Opts = " -noexec -no-process-syms -slab-allocate=1Mb -slab-address=0x10000 -slab-page-size=4096 "
                     "-abs ext_data=0x123456789abc -abs ext_func=0x20000 -show-graphs=.* " +
                     Obj;
  RunResult Ours = runCommand(Linklab + Opts), Ref = runCommand("llvm-jitlink-22" + Opts);
  ASSERT_EQ(Ref.status, 0) << Ref.output;
  ASSERT_EQ(Ours.status, 0) << Ours.output;
  EXPECT_EQ(Ours.output, Ref.output);
  EXPECT_NE(Ours.output.find("kind = GotPageOffset15"), std::string::npos);
}

// Relocations llvm-jitlink lacks, against hand-computed values.
TEST(AArch64Link, ExtrasAndTLSOffsets) {
  const Addr ExtData = 0x12345678, Small = 0x1234;
  Linked L(assemble("extras.s"), {{"ext_data", ExtData}, {"ext_small", Small}});
  auto At = [&](const char *Label) { return disasm(L.read<uint32_t>(L.sym(Label))); };
  Addr Var = L.sym("var");
  EXPECT_EQ(At("movw_g1_checked"), "mov x0, #" + dec(ExtData & 0xffff0000));
  EXPECT_EQ(At("pg_hi21_nc"), "adrp x0, #" + dec(pageDelta(Var, L.sym("pg_hi21_nc"))));
  EXPECT_EQ(At("got_ld_prel19"), "ldr x0, #" + dec(int64_t(L.got("ext_data") - L.sym("got_ld_prel19"))));
  EXPECT_EQ(L.read<uint16_t>(L.sym("abs16")), Small);
  EXPECT_EQ(L.read<int16_t>(L.sym("prel16")), int16_t(Var - L.sym("prel16")));
  // TPOFF(tdv) = 16, TPOFF(tbv) = 16 + alignUp(4, 8) = 24 (see extras.s).
  EXPECT_EQ(At("tprel_hi12"), "add x0, x0, #0, lsl #12");
  EXPECT_EQ(At("tprel_lo12"), "add x0, x0, #24");
  EXPECT_EQ(At("tprel_lo12_nc"), "add x0, x0, #16");
  EXPECT_EQ(At("tprel_g1"), "movz x0, #0, lsl #16"); // the assembler wrote MOVN
  EXPECT_EQ(At("tprel_g0_nc"), "movk x0, #24");
  Addr TLSGOT = L.section("$__TLSGOT");
  EXPECT_EQ(L.read<uint64_t>(TLSGOT), 16u);
  EXPECT_EQ(At("gottprel_page"), "adrp x0, #" + dec(pageDelta(TLSGOT, L.sym("gottprel_page"))));
  EXPECT_EQ(At("gottprel_lo12"), "ldr x0, " + mem("x0", TLSGOT & 0xfff));
  Addr Desc = L.section("$__TLSDESC"), Resolver = L.section("$__TLSDESC_RESOLVER");
  EXPECT_EQ(L.read<uint64_t>(Desc), Resolver);
  EXPECT_EQ(L.read<uint64_t>(Desc + 8), 24u);
  EXPECT_EQ(disasm(L.read<uint32_t>(Resolver)), "ldr x0, [x0, #8]");
  EXPECT_EQ(disasm(L.read<uint32_t>(Resolver + 4)), "ret");
  EXPECT_EQ(At("tlsdesc_page"), "adrp x0, #" + dec(pageDelta(Desc, L.sym("tlsdesc_page"))));
  EXPECT_EQ(At("tlsdesc_ld"), "ldr x1, " + mem("x0", Desc & 0xfff));
  EXPECT_EQ(At("tlsdesc_add"), "add x0, x0, #" + dec(Desc & 0xfff));
}

// --- range and alignment: fixups applied directly to a one-block graph ------

namespace {

struct RangeCase {
  EdgeKind kind;
  uint32_t instr;      // unfixed instruction (or 0 for data)
  Addr lastInRange;    // target address that must fit
  Addr firstOut;       // target address that must not
  const char *message; // the full error for firstOut
};

// Applies one edge from a block at 0x100000 (.text, offset 0) to an
// absolute symbol at Target; returns the error text ("" on success).
std::string applyOne(EdgeKind K, uint32_t Instr, Addr Target, uint32_t *Out = nullptr) {
  LinkGraph G("range.o", Triple::parse("aarch64-linux-gnu"), aarch64::edgeKindName);
  Section &Text = G.createSection(".text", MemProt::Read | MemProt::Exec);
  char Bytes[8] = {};
  writeLE<uint32_t>(Bytes, Instr);
  Block &B = G.createContentBlock(Text, {Bytes, 8}, 0x100000, 4, 0);
  Symbol &T = G.addAbsoluteSymbol("target", Target, 0, Linkage::Strong, Scope::Default, true);
  B.addEdge(K, 0, T, 0);
  Error E = aarch64::applyFixup(G, B, B.edges.front());
  if (Out)
    *Out = readLE<uint32_t>(B.content().data());
  return E.message();
}

} // namespace

TEST(AArch64Fixups, LastInRangeAndFirstOutOfRange) {
  using namespace aarch64;
  const Addr P = 0x100000; // the fixup address applyOne uses
  const RangeCase Cases[] = {
      {Branch26PCRel, 0x94000000, P + 0x7fffffc, P + 0x8000000,
       "range.o: .text+0x0: Branch26PCRel against target: value 0x8000000 out of range [-0x8000000, 0x7fffffc] "
       "(fixup at 0x100000, target at 0x8100000)"},
      {CondBranch19PCRel, 0x54000000, P + 0xffffc, P + 0x100000,
       "range.o: .text+0x0: CondBranch19PCRel against target: value 0x100000 out of range [-0x100000, 0xffffc] "
       "(fixup at 0x100000, target at 0x200000)"},
      {CondBranch19PCRel, 0xb4000000, P - 0x100000, P - 0x100004,
       "range.o: .text+0x0: CondBranch19PCRel against target: value -0x100004 out of range [-0x100000, 0xffffc] "
       "(fixup at 0x100000, target at 0xfffffffffffffffc)"},
      {TestAndBranch14PCRel, 0x36000000, P + 0x7ffc, P + 0x8000,
       "range.o: .text+0x0: TestAndBranch14PCRel against target: value 0x8000 out of range [-0x8000, 0x7ffc] "
       "(fixup at 0x100000, target at 0x108000)"},
      {LDRLiteral19, 0x58000000, P + 0xffffc, P + 0x100000,
       "range.o: .text+0x0: LDRLiteral19 against target: value 0x100000 out of range [-0x100000, 0xffffc] "
       "(fixup at 0x100000, target at 0x200000)"},
      {ADRLiteral21, 0x10000000, P + 0xfffff, P + 0x100000,
       "range.o: .text+0x0: ADRLiteral21 against target: value 0x100000 out of range [-0x100000, 0xfffff] "
       "(fixup at 0x100000, target at 0x200000)"},
      {Page21, 0x90000000, P + 0xffffffffull, P + 0x100000000ull,
       "range.o: .text+0x0: Page21 against target: value 0x100000000 out of range [-0x100000000, 0xfffff000] "
       "(fixup at 0x100000, target at 0x100100000)"},
      {MoveWide16Checked, 0xd2a00000 /* movz x0, #0, lsl #16 */, 0xffffffff, 0x100000000ull,
       "range.o: .text+0x0: MoveWide16Checked against target: value 0x100000000 out of range [0x0, 0xffffffff] "
       "(fixup at 0x100000, target at 0x100000000)"},
      {Pointer32, 0, 0xffffffff, 0x100000000ull,
       "range.o: .text+0x0: Pointer32 against target: value 0x100000000 out of range [0x0, 0xffffffff] "
       "(fixup at 0x100000, target at 0x100000000)"},
      {Pointer16, 0, 0xffff, 0x10000,
       "range.o: .text+0x0: Pointer16 against target: value 0x10000 out of range [-0x8000, 0xffff] "
       "(fixup at 0x100000, target at 0x10000)"},
      {Delta32, 0, P + 0x7fffffff, P + 0x80000000ull,
       "range.o: .text+0x0: Delta32 against target: value 0x80000000 out of range [-0x80000000, 0x7fffffff] "
       "(fixup at 0x100000, target at 0x80100000)"},
  };
  for (const RangeCase &C : Cases) {
    SCOPED_TRACE(aarch64::edgeKindName(C.kind));
    EXPECT_EQ(applyOne(C.kind, C.instr, C.lastInRange), "");
    // llvm-jitlink's text first (its tests match it; it prints the target's
    // address after "fixup at address"), then linklab's detail.
    std::string LLVMText = formatv("In graph range.o, section .text: relocation target %s (target) is out of range "
                                   "of %s fixup at address %s (<anonymous block> @ 0x100000 + 0x0)",
                                   hex(C.firstOut).c_str(), aarch64::edgeKindName(C.kind), hex(C.firstOut).c_str());
    EXPECT_EQ(applyOne(C.kind, C.instr, C.firstOut), LLVMText + "; " + C.message);
  }
  // The last in-range values land in the fields intact.
  uint32_t W = 0;
  applyOne(Branch26PCRel, 0x94000000, P + 0x7fffffc, &W);
  EXPECT_EQ(fields::decodeBranch26(W), 0x1ffffff);
  applyOne(TestAndBranch14PCRel, 0x36000000, P - 0x8000, &W);
  EXPECT_EQ(fields::decodeTestBranch14(W), -0x2000);
  applyOne(Page21, 0x90000000, P - 0x100000000ull, &W);
  EXPECT_EQ(fields::decodeAdrImm21(W), -0x100000);
}

TEST(AArch64Fixups, AlignmentAndWrongInstructionErrors) {
  using namespace aarch64;
  EXPECT_EQ(applyOne(PageOffset12, 0xf9400000 /* ldr x0, [x0] */, 0x2004),
            "range.o: .text+0x0: PageOffset12 against target: value 0x2004 is not aligned to 8 bytes "
            "(fixup at 0x100000)");
  EXPECT_EQ(applyOne(PageOffset12, 0x3dc00000 /* ldr q0, [x0] */, 0x2008),
            "range.o: .text+0x0: PageOffset12 against target: value 0x2008 is not aligned to 16 bytes "
            "(fixup at 0x100000)");
  EXPECT_EQ(applyOne(Branch26PCRel, 0x94000000, 0x100002),
            "range.o: .text+0x0: Branch26PCRel against target: value 0x2 is not aligned to 4 bytes "
            "(fixup at 0x100000)");
  EXPECT_EQ(applyOne(Page21, 0xd503201f /* nop */, 0x2000),
            "range.o: .text+0x0: Page21 against target: instruction 0xd503201f at the fixup is not ADRP");
  EXPECT_EQ(
      applyOne(TPOffAddLo12, 0x91000000, 0x10),
      "range.o: .text+0x0: TPOffAddLo12 against target: TLS symbol target is not in a .tdata/.tbss section of this "
      "object, and no session TLS layout spans objects (a session without one lays out each object's TLS alone)");
}

TEST(AArch64Elf, UnknownAndUnsupportedRelocationsAreNamed) {
  std::string Obj = tempDir() + "/unknown.o";
  RunResult Y =
      runCommand("yaml2obj-22 " + Src + "/tests/inputs/aarch64/ELF_aarch64_unknown_relocation.yaml -o " + Obj);
  ASSERT_EQ(Y.status, 0) << Y.output;
  SlabMemoryManager MM(0x10000, 4096, 1 << 20);
  Session S(Triple::parse("aarch64-linux-gnu"), MM);
  auto K = S.addObject("unknown.o", test::readBytes(Obj));
  Expected<std::vector<Addr>> R = K ? S.lookupNow({"main"}) : Expected<std::vector<Addr>>(K.takeError());
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(R.takeError().message(),
            "unknown.o: .text+0x0: unknown relocation (type 2457): unsupported relocation type\n"
            "unknown.o: .text+0x4: R_AARCH64_TLSGD_ADR_PAGE21 (type 513): unsupported relocation type");
}

// The multi-file C program, compiled four ways: linklab links every object,
// and each object's edges (kind, addend, target) match llvm-jitlink-22's.
TEST(AArch64Link, InventoryProgramAllModes) {
  const std::string Prog = Src + "/tests/inputs/programs/inventory";
  RunResult Ls = runCommand("ls " + Prog + "/*.c");
  ASSERT_EQ(Ls.status, 0);
  std::vector<std::string> Sources;
  std::istringstream In(Ls.output);
  for (std::string Line; std::getline(In, Line);)
    Sources.push_back(Line);
  ASSERT_GE(Sources.size(), 3u);
  // Edge lines with addresses dropped, sorted: JITLink visits blocks in hash
  // order, so GOT entries and stubs may be numbered differently.
  // .init_array/.fini_array are skipped: linklab's ELF reader keeps their
  // blocks alive (its executor runs constructors) where llvm-jitlink without
  // an ORC platform dead-strips them.
  auto Edges = [](const std::string &Dump) {
    std::vector<std::string> Out;
    std::istringstream S(Dump);
    bool Skip = false;
    for (std::string L; std::getline(S, L);) {
      if (L.starts_with("section "))
        Skip = L.starts_with("section .init_array") || L.starts_with("section .fini_array");
      size_t P = L.find("addend = ");
      if (P == std::string::npos || Skip)
        continue;
      std::string E = L.substr(P);
      size_t At = E.find("addressable@");
      if (At != std::string::npos)
        E = E.substr(0, At) + "addressable";
      Out.push_back(E);
    }
    std::sort(Out.begin(), Out.end());
    return Out;
  };
  for (const char *Pic : {"-fPIC", "-fno-pic"})
    for (const char *Opt : {"-O0", "-O2"}) {
      std::string Objs;
      for (auto &C : Sources) {
        std::string Base = C.substr(C.rfind('/') + 1);
        std::string O = tempDir() + "/inv" + Pic + Opt + "-" + Base + ".o";
        RunResult R =
            runCommand("clang-22 --target=aarch64-linux-gnu " + std::string(Pic) + " " + Opt + " -c " + C + " -o " + O);
        ASSERT_EQ(R.status, 0) << R.output;
        Objs += " " + O;
        // Each object alone, entered at one of its own functions.
        RunResult Nm = runCommand("llvm-nm-22 --defined-only -g " + O + " | awk '$2==\"T\"{print $3; exit}'");
        std::string Entry = Nm.output.substr(0, Nm.output.find('\n'));
        std::string Opts = " -noexec -no-process-syms -phony-externals -slab-allocate=1Mb -slab-address=0x10000 "
                           "-slab-page-size=4096 -show-graphs=.* -entry=" +
                           Entry + " " + O;
        RunResult Ours = runCommand(Linklab + Opts), Ref = runCommand("llvm-jitlink-22" + Opts);
        SCOPED_TRACE(std::string(Pic) + " " + Opt + " " + Base);
        ASSERT_EQ(Ours.status, 0) << Ours.output;
        ASSERT_EQ(Ref.status, 0) << Ref.output;
        EXPECT_EQ(Edges(Ours.output), Edges(Ref.output));
        EXPECT_FALSE(Edges(Ours.output).empty());
        // Objects without constructors lay out alike: then each GOT load and
        // stub call must also reach the entry for its own symbol.
        if (Base != "main.c") {
          test::NormalizedDump O = test::normalizeGraphDump(Ours.output), R = test::normalizeGraphDump(Ref.output);
          EXPECT_EQ(test::diffSets(R.edges, O.edges), "");
        }
      }
      RunResult All = runCommand(Linklab +
                                 " -noexec -no-process-syms -phony-externals -slab-allocate=4Mb -slab-address=0x10000 "
                                 "-slab-page-size=4096 -show-addrs" +
                                 Objs);
      EXPECT_EQ(All.status, 0) << Pic << " " << Opt << ": " << All.output;
    }
}

// The segments LinkInfoRecorder reports (what the page's memory map shows)
// are the memory manager's: one per protection, each inside the range the
// slab reserved for it, and every section inside its protection's segment.
TEST(AArch64Link, RecordedSegmentsAreTheMemoryManagers) {
  Linked L(assemble("families.s"), {{"ext_data", 0x123456789abc}, {"ext_func", 0x20000}});
  std::vector<SegmentRecord> Reserved = L.MM.segments();
  ASSERT_GE(L.Obj->segments.size(), 2u);
  std::set<uint8_t> Prots;
  auto Within = [](const SegmentRecord &Outer, Addr A, uint64_t Size, MemProt P) {
    return Outer.prot == P && A >= Outer.address && A + Size <= Outer.address + Outer.size;
  };
  for (const SegmentRecord &S : L.Obj->segments) {
    EXPECT_TRUE(Prots.insert(uint8_t(S.prot)).second) << protString(S.prot);
    EXPECT_TRUE(std::any_of(Reserved.begin(), Reserved.end(),
                            [&](const SegmentRecord &R) { return Within(R, S.address, S.size, S.prot); }))
        << hex(S.address) << " " << protString(S.prot);
  }
  for (auto &Sec : L.Obj->sections)
    EXPECT_TRUE(std::any_of(L.Obj->segments.begin(), L.Obj->segments.end(), [&](const SegmentRecord &S) {
      return Within(S, Sec.address, Sec.size, Sec.prot);
    })) << Sec.name;
}
