// The session's open-addressing name table: growth (including to sizes asked
// for that are not powers of two), erasure and reuse of erased slots.
#include "session/symbol_table.h"

#include <gtest/gtest.h>

#include <string>

namespace linklab {
namespace {

struct Value {
  int n = 0;
};

TEST(SymbolTable, InsertFindAndGrowAcrossOddReserves) {
  SymbolTable<Value> T;
  EXPECT_EQ(T.find("absent"), nullptr);
  T.reserve(1000); // 2000 slots wanted: rounded up, as probing masks with size - 1
  for (int I = 0; I < 5000; ++I) {
    auto [E, New] = T.insert("sym" + std::to_string(I));
    ASSERT_TRUE(New);
    E->n = I;
    if (I == 2500)
      T.reserve(7777);
  }
  EXPECT_EQ(T.size(), 5000u);
  for (int I = 0; I < 5000; ++I) {
    Value *E = T.find("sym" + std::to_string(I));
    ASSERT_NE(E, nullptr) << I;
    EXPECT_EQ(E->n, I);
  }
  auto [Again, New] = T.insert("sym42");
  EXPECT_FALSE(New);
  EXPECT_EQ(Again->n, 42);
  EXPECT_EQ(T.find("sym5000"), nullptr);
}

TEST(SymbolTable, NamesAreCopiedAndEntriesStayPut) {
  SymbolTable<Value> T;
  std::string Name = "transient";
  Value *First = T.insert(Name).first;
  First->n = 7;
  Name = "overwritten";
  for (int I = 0; I < 3000; ++I) // rehashes several times
    T.insert(std::string(100, 'x') + std::to_string(I));
  EXPECT_EQ(T.find("transient"), First);
  EXPECT_EQ(First->n, 7);
  EXPECT_EQ(T.find("overwritten"), nullptr);
}

TEST(SymbolTable, EraseLeavesOthersFindableAndSlotsReusable) {
  SymbolTable<Value> T;
  for (int I = 0; I < 100; ++I)
    T.insert("s" + std::to_string(I)).first->n = I;
  T.erase("s10");
  T.erase("never-there");
  T.eraseIf([](const Value &V) { return V.n % 2 == 1; });
  EXPECT_EQ(T.size(), 49u);
  EXPECT_EQ(T.find("s10"), nullptr);
  EXPECT_EQ(T.find("s11"), nullptr);
  ASSERT_NE(T.find("s12"), nullptr);
  auto [E, New] = T.insert("s10");
  EXPECT_TRUE(New);
  EXPECT_EQ(E->n, 0); // a fresh value, not the erased one
  int Seen = 0;
  T.forEach([&](std::string_view, Value &) { ++Seen; });
  EXPECT_EQ(Seen, 50);
  // Erasing and re-inserting many times must not fill the table with
  // erased slots (a probe would then never meet an empty one).
  for (int Round = 0; Round < 2000; ++Round) {
    T.insert("churn");
    T.erase("churn");
  }
  EXPECT_EQ(T.find("churn"), nullptr);
  EXPECT_EQ(T.size(), 50u);
}

} // namespace
} // namespace linklab
