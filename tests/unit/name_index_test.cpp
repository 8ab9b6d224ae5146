// The archive index's open-addressing name map: first entry wins, lookups
// after growth and after odd reserves, insertion order kept, absent names.
#include "support/name_index.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace linklab {
namespace {

TEST(NameIndex, FirstEntryWinsAndOrderIsKept) {
  NameIndex<size_t> I;
  EXPECT_EQ(I.find("x"), nullptr); // empty: no slots yet
  EXPECT_TRUE(I.insert("memcpy", 3));
  EXPECT_TRUE(I.insert("strlen", 1));
  EXPECT_FALSE(I.insert("memcpy", 9)); // a later member defining it again
  ASSERT_NE(I.find("memcpy"), nullptr);
  EXPECT_EQ(*I.find("memcpy"), 3u);
  EXPECT_EQ(I.find("memcp"), nullptr);
  EXPECT_EQ(I.find(""), nullptr);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I.entries()[0].name, "memcpy");
  EXPECT_EQ(I.entries()[1].name, "strlen");
}

TEST(NameIndex, GrowsAndFindsEveryName) {
  std::vector<std::string> Names; // the index holds views: the names outlive it
  for (int N = 0; N < 20000; ++N)
    Names.push_back("sym" + std::to_string(N));
  NameIndex<size_t> I;
  I.reserve(777); // not a power of two
  for (size_t N = 0; N < Names.size(); ++N) {
    ASSERT_TRUE(I.insert(Names[N], N));
    if (N == 5000)
      I.reserve(12345);
  }
  for (size_t N = 0; N < Names.size(); ++N) {
    const size_t *V = I.find(Names[N]);
    ASSERT_NE(V, nullptr) << Names[N];
    EXPECT_EQ(*V, N);
  }
  EXPECT_EQ(I.find("sym20000"), nullptr);
  EXPECT_EQ(I.size(), Names.size());
}

} // namespace
} // namespace linklab
