// core/driver's settings speak their caller's words: the package's field
// names through the API, the command's option names through `linklab`.
#include "driver/settings.h"
#include "test_support.h"

#include <gtest/gtest.h>

using namespace linklab;
using namespace linklab::test;

namespace {

template <typename T> std::string failure(Expected<T> V) {
  return V ? std::string("<no error>") : V.takeError().message();
}

TEST(DriverSettings, ErrorsNameTheField) {
  EXPECT_EQ(failure(driver::parseNumber({"slabAddress", "zz"})), "slabAddress: 'zz' is not a number");
  EXPECT_EQ(failure(driver::parseNumber({"slabAddress", ""})), "slabAddress: empty value");
  EXPECT_EQ(failure(driver::parseSize({"slabAllocate", "1Qb"})), "slabAllocate: '1Qb' is not a number");
  EXPECT_EQ(failure(driver::makeSlab({"slabAddress", "0x10000"}, {"slabPageSize", "3000"}, {"slabAllocate", ""})),
            "slabPageSize: 3000 is not a power of two");
  EXPECT_EQ(failure(driver::parseLimits({"instructions", "1e6"}, {"wallMillis", ""}, {"memoryBytes", ""})),
            "instructions: '1e6' is not a number");
  EXPECT_EQ(failure(driver::parseLimits({"instructions", ""}, {"wallMillis", "99999999999"}, {"memoryBytes", ""})),
            "wallMillis: 99999999999 ms is too long");
}

TEST(DriverSettings, ValuesAndDefaults) {
  EXPECT_EQ(*driver::parseNumber({"n", "0x1000"}), 0x1000u);
  EXPECT_EQ(*driver::parseSize({"n", "64Kb"}), 64u * 1024);
  EXPECT_EQ(*driver::parseSize({"n", "2Mb"}), 2u << 20);
  auto Slab = driver::makeSlab({"a", ""}, {"p", ""}, {"s", ""});
  ASSERT_TRUE(bool(Slab)) << Slab.takeError().message();
  EXPECT_EQ((*Slab)->pageSize(), 4096u);
  auto L = driver::parseLimits({"i", "100"}, {"t", "5"}, {"m", "1Mb"});
  ASSERT_TRUE(bool(L)) << L.takeError().message();
  EXPECT_EQ(L->instructions, 100u);
  EXPECT_EQ(L->wallMillis, 5u);
  EXPECT_EQ(L->memoryBytes, 1u << 20);
  EXPECT_EQ(driver::entrySymbol("", Triple::parse("x86_64-unknown-linux-gnu")), "main");
  EXPECT_EQ(driver::entrySymbol("", Triple::parse("x86_64-apple-macosx")), "_main");
  EXPECT_EQ(driver::entrySymbol("start", Triple::parse("x86_64-apple-macosx")), "start");
}

// The command passes its option names to the same code.
TEST(DriverSettings, TheCommandNamesItsOptions) {
  TempDir D;
  std::string Obj = assemble(D, "  .text\n  .globl main\nmain:\n  ret\n", "x86_64-unknown-linux-gnu", "m.o");
  auto R = runCommand(linklabPath() + " -noexec -runtime=none -slab-address=zz " + Obj + " 2>&1");
  EXPECT_NE(R.status, 0);
  EXPECT_NE(R.output.find("linklab error: -slab-address: 'zz' is not a number"), std::string::npos) << R.output;
  R = runCommand(linklabPath() + " -noexec -runtime=none -abs=x=0xq " + Obj + " 2>&1");
  EXPECT_NE(R.output.find("linklab error: -abs: '0xq' is not a number"), std::string::npos) << R.output;
}

} // namespace
