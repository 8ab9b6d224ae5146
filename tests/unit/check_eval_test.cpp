// jitlink-check evaluator against a fake environment: grammar, evaluation
// order, loads, slices, builtins and errors, independent of any link.
#include "check/check.h"

#include <gtest/gtest.h>

#include <map>

using namespace linklab;
using namespace linklab::check;

namespace {

// Symbols, GOT/stub tables and memory as plain maps; memory is one region.
class FakeEnv : public CheckEnv {
public:
  Arch A = Arch::X86_64;
  bool Little = true;
  std::map<std::string, uint64_t> Symbols, GOT, Stubs, Sections;
  uint64_t MemBase = 0x1000;
  std::vector<uint8_t> Mem;
  std::string LastStubKind;

  Arch arch() const override { return A; }
  bool isLittleEndian() const override { return Little; }
  static Expected<uint64_t> get(const std::map<std::string, uint64_t> &M, std::string_view K, const char *What) {
    if (auto It = M.find(std::string(K)); It != M.end())
      return It->second;
    return makeError(formatv("no %s '%.*s'", What, int(K.size()), K.data()));
  }
  Expected<uint64_t> symbolAddress(std::string_view N) const override { return get(Symbols, N, "symbol"); }
  Expected<uint64_t> gotEntryAddress(std::string_view F, std::string_view T) const override {
    return get(GOT, std::string(F) + "/" + std::string(T), "GOT entry");
  }
  Expected<uint64_t> stubAddress(std::string_view F, std::string_view T, std::string_view K) const override {
    const_cast<FakeEnv *>(this)->LastStubKind = std::string(K);
    return get(Stubs, std::string(F) + "/" + std::string(T), "stub");
  }
  Expected<uint64_t> sectionAddress(std::string_view F, std::string_view S) const override {
    return get(Sections, std::string(F) + "/" + std::string(S), "section");
  }
  Expected<std::vector<uint8_t>> readBytes(uint64_t Addr, size_t Size) const override {
    if (Addr < MemBase || Addr >= MemBase + Mem.size())
      return makeError("unmapped");
    size_t Off = Addr - MemBase, N = std::min(Size, Mem.size() - Off);
    return std::vector<uint8_t>(Mem.begin() + Off, Mem.begin() + Off + N);
  }
};

uint64_t eval(const FakeEnv &E, std::string_view S) {
  auto V = evaluateExpr(S, E);
  EXPECT_TRUE(bool(V)) << S << ": " << (V ? "" : V.takeError().message());
  return V ? *V : ~uint64_t(0);
}
std::string error(const FakeEnv &E, std::string_view S) {
  auto V = evaluateExpr(S, E);
  if (V)
    return "no error, value " + hex(*V);
  return V.takeError().message();
}

TEST(CheckEval, BinaryOperatorsAreStrictlyLeftToRight) {
  FakeEnv E;
  EXPECT_EQ(eval(E, "1 + 2"), 3u);
  // No precedence: (1 + 2) << 3, not 1 + (2 << 3).
  EXPECT_EQ(eval(E, "1 + 2 << 3"), 24u);
  EXPECT_EQ(eval(E, "1 << 4 - 1"), 15u);
  EXPECT_EQ(eval(E, "0xf0 | 0x0f & 0x3c"), 0x3cu);
  EXPECT_EQ(eval(E, "0x100 >> 4 + 1"), 0x11u);
  EXPECT_EQ(eval(E, "1 + (2 << 3)"), 17u);
  // Wrap-around as uint64.
  EXPECT_EQ(eval(E, "0 - 1"), ~uint64_t(0));
  EXPECT_EQ(eval(E, "1 << 64"), 0u);
}

TEST(CheckEval, NumbersAndWhitespace) {
  FakeEnv E;
  EXPECT_EQ(eval(E, "0x7fffFFFF"), 0x7fffffffu);
  EXPECT_EQ(eval(E, "18446744073709551615"), ~uint64_t(0));
  // llvm-jitlink rejects a blank after a number; we accept it.
  EXPECT_EQ(eval(E, "  42   +   0x10  "), 58u);
  EXPECT_NE(error(E, "18446744073709551616").find("does not fit in 64 bits"), std::string::npos);
  EXPECT_NE(error(E, "0x").find("malformed number '0x'"), std::string::npos);
  EXPECT_NE(error(E, "12z").find("malformed number '12z'"), std::string::npos);
}

TEST(CheckEval, SlicesSelectInclusiveBitRanges) {
  FakeEnv E;
  EXPECT_EQ(eval(E, "0x12345678[15:8]"), 0x56u);
  EXPECT_EQ(eval(E, "0x12345678[31:28]"), 0x1u);
  EXPECT_EQ(eval(E, "(0 - 1)[63:0]"), ~uint64_t(0));
  EXPECT_EQ(eval(E, "(0 - 4)[31:0]"), 0xfffffffcu);
  EXPECT_EQ(eval(E, "0x80[7:7]"), 1u);
  // A slice binds to the simple expression before it.
  EXPECT_EQ(eval(E, "0xff + 0x1ff[3:0]"), 0x10eu);
  EXPECT_NE(error(E, "1[3:4]").find("bad bit slice [3:4]"), std::string::npos);
  EXPECT_NE(error(E, "1[70:64]").find("bad bit slice"), std::string::npos);
  EXPECT_EQ(eval(E, "(0 - 1)[64:12]"), ~uint64_t(0) >> 12); // bits above 63 read as zero
  EXPECT_NE(error(E, "1[3]").find("expected ':' in bit slice"), std::string::npos);
}

TEST(CheckEval, LoadsReadTargetByteOrderAndSwallowTheRest) {
  FakeEnv E;
  E.Mem = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0xaa};
  E.Symbols["d"] = 0x1000;
  EXPECT_EQ(eval(E, "*{8}d"), 0x1122334455667788u);
  EXPECT_EQ(eval(E, "*{4}d"), 0x55667788u);
  EXPECT_EQ(eval(E, "*{2}(d + 6)"), 0x1122u);
  EXPECT_EQ(eval(E, "*{1}d"), 0x88u);
  // As in RuntimeDyldChecker, the load address is the whole rest: d + 8.
  EXPECT_EQ(eval(E, "*{1}d + 8"), 0xaau);
  EXPECT_EQ(eval(E, "(*{1}d) + 8"), 0x90u);
  E.Little = false;
  EXPECT_EQ(eval(E, "*{2}d"), 0x8877u);
  EXPECT_NE(error(E, "*{3}d").find("load size 3"), std::string::npos);
  EXPECT_NE(error(E, "*{8}(d + 4)").find("runs past the end"), std::string::npos);
  EXPECT_NE(error(E, "*{8}0x10").find("unmapped"), std::string::npos);
  EXPECT_NE(error(E, "*d").find("expected '{'"), std::string::npos);
}

TEST(CheckEval, TableBuiltinsPassFileSymbolAndKind) {
  FakeEnv E;
  E.GOT["dir/a.o/foo"] = 0x2000;
  E.Stubs["a.o/foo"] = 0x3000;
  E.Sections["a.o/$__GOT"] = 0x4000;
  // File names may hold characters symbols cannot.
  EXPECT_EQ(eval(E, "got_addr(dir/a.o, foo) + 8"), 0x2008u);
  EXPECT_EQ(eval(E, "stub_addr( a.o , foo )"), 0x3000u);
  EXPECT_EQ(eval(E, "stub_addr(a.o, foo, thumb)"), 0x3000u);
  EXPECT_EQ(E.LastStubKind, "thumb");
  EXPECT_EQ(eval(E, "section_addr(a.o, $__GOT)"), 0x4000u);
  EXPECT_NE(error(E, "got_addr(a.o, bar)").find("no GOT entry 'a.o/bar'"), std::string::npos);
  EXPECT_NE(error(E, "got_addr(a.o)").find("unexpected ')', expected a file name and ','"), std::string::npos);
  EXPECT_NE(error(E, "section_addr(a.o, )").find("expected a section name"), std::string::npos);
}

TEST(CheckEval, DecodeOperandAndNextPCUseTheArchDecoder) {
  FakeEnv E;
  // call rel32 (-0x10), then lea 0x20(%rip), %rax.
  E.Mem = {0xe8, 0xf0, 0xff, 0xff, 0xff, 0x48, 0x8d, 0x05, 0x20, 0x00, 0x00, 0x00};
  E.Symbols["f"] = 0x1000;
  EXPECT_EQ(eval(E, "decode_operand(f, 0)"), uint64_t(-0x10));
  EXPECT_EQ(eval(E, "next_pc(f)"), 0x1005u);
  EXPECT_EQ(eval(E, "decode_operand(f + 5, 4)"), 0x20u);
  EXPECT_EQ(eval(E, "decode_operand(f+5, 2)"), 1u); // scale
  EXPECT_NE(error(E, "decode_operand(f + 5, 0)").find("is register rax, not an immediate (LEA64r rax, rip"),
            std::string::npos);
  EXPECT_NE(error(E, "decode_operand(f, 1)").find("operand index 1 is out of range"), std::string::npos);
  EXPECT_NE(error(E, "decode_operand(g, 0)").find("no symbol 'g'"), std::string::npos);
  EXPECT_NE(error(E, "next_pc(f + 12)").find("unmapped"), std::string::npos);
}

TEST(CheckEval, RulesCompareBothSides) {
  FakeEnv E;
  auto R = evaluateRule("1 + 1 = 2", E);
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->lhs, 2u);
  EXPECT_EQ(R->rhs, 2u);
  auto NoEq = evaluateRule("1 + 1", E);
  ASSERT_FALSE(bool(NoEq));
  EXPECT_NE(NoEq.takeError().message().find("no '='"), std::string::npos);
  auto Trailing = evaluateRule("1 = 2 3", E);
  ASSERT_FALSE(bool(Trailing));
  EXPECT_NE(Trailing.takeError().message().find("right side: unexpected '3'"), std::string::npos);
}

TEST(CheckBuffer, CollectsEveryFailureWithLineAndValues) {
  FakeEnv E;
  std::string Text = "# jitlink-check: 1 = 1\n"
                     "  # jitlink-check: 2 = 3\n"
                     "#jitlink-check: 9 = 8\n" // no blank after '#': not a rule
                     "# jitlink-check: 4 = \\\n"
                     "# jitlink-check:   5\n"
                     "# jitlink-check: (1 = 1\n"
                     "# jitlink-check:\n" // a bare prefix is no rule
                     "# other-check: 1 = 0\n";
  CheckResult R = checkBuffer(Text, "t.s", "jitlink-check", E);
  EXPECT_EQ(R.rules, 4u);
  ASSERT_EQ(R.failures.size(), 3u);
  EXPECT_EQ(R.failures[0], "t.s:2: check failed: '2 = 3': left side is 0x2, right side is 0x3");
  EXPECT_EQ(R.failures[1], "t.s:4: check failed: '4 =  5': left side is 0x4, right side is 0x5");
  EXPECT_NE(R.failures[2].find("t.s:6: error in check '(1 = 1': left side: unexpected end"), std::string::npos);
  EXPECT_FALSE(R.passed());

  CheckResult Other = checkBuffer(Text, "t.s", "other-check", E);
  EXPECT_EQ(Other.rules, 1u);
  EXPECT_FALSE(Other.passed());
}

TEST(CheckBuffer, NoRulesIsAFailure) {
  FakeEnv E;
  CheckResult R = checkBuffer("nothing here\n", "empty.s", "jitlink-check", E);
  EXPECT_EQ(R.rules, 0u);
  EXPECT_FALSE(R.passed());
  ASSERT_EQ(R.failures.size(), 1u);
  EXPECT_EQ(R.failures[0], "empty.s: no '# jitlink-check:' rules found");
  EXPECT_TRUE(checkBuffer("# jitlink-check: 1 = 1\r\n", "crlf.s", "jitlink-check", E).passed());
}

} // namespace
