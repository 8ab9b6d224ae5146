// Static archives' symbol indexes in both layouts, built byte by byte here:
// GNU/SysV ("/", big-endian counts) and BSD ("__.SYMDEF", "__.SYMDEF_64",
// little-endian {string, member} pairs, the index's name given short or as
// a "#1/LEN" long name), and malformed BSD indexes as errors naming the fault.
#include "object/archive.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

using namespace linklab;

namespace {

std::string header(const std::string &Name, size_t Size) {
  char H[61];
  std::snprintf(H, sizeof H, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", Name.c_str(), "0", "0", "0", "644", Size);
  return std::string(H, 60);
}
std::string member(const std::string &Name, const std::string &Data) {
  std::string M = header(Name, Data.size()) + Data;
  return Data.size() % 2 ? M + "\n" : M;
}
std::string little(uint64_t V, unsigned W) {
  std::string S;
  for (unsigned I = 0; I < W; ++I)
    S += char(V >> (8 * I));
  return S;
}
std::string big(uint64_t V, unsigned W) {
  std::string S;
  for (unsigned I = W; I-- > 0;)
    S += char(V >> (8 * I));
  return S;
}
SharedBytes bytes(const std::string &S) { return SharedBytes(std::vector<char>(S.begin(), S.end())); }

// Two objects (their contents do not matter to the index) named "a.o" and
// "b.o"; the index says `alpha` is in the first, `beta` and `gamma` in the
// second. Index(offsetOfA, offsetOfB) gives the index member, whose size must
// not depend on the offsets.
template <typename IndexFn> std::string archive(IndexFn Index) {
  std::string Probe = Index(0, 0);
  uint64_t A = 8 + Probe.size(), B = A + member("a.o/", "AAAA").size();
  return "!<arch>\n" + Index(A, B) + member("a.o/", "AAAA") + member("b.o/", "BBBBBB");
}

// A BSD index of W-byte words; Name as the member's name (a long one goes
// after the header, "#1/LEN").
std::string bsdIndex(unsigned W, const std::string &Name, bool Long, uint64_t A, uint64_t B) {
  std::string Strings = std::string("alpha\0beta\0gamma\0", 17);
  std::string Pairs = little(0, W) + little(A, W) + little(6, W) + little(B, W) + little(11, W) + little(B, W);
  std::string Data = little(Pairs.size(), W) + Pairs + little(Strings.size(), W) + Strings;
  if (!Long)
    return member(Name, Data);
  std::string PaddedName = Name + std::string((8 - Name.size() % 8) % 8, '\0');
  return member("#1/" + std::to_string(PaddedName.size()), PaddedName + Data);
}

void expectIndex(const std::string &Bytes) {
  auto Ar = Archive::parse("lib.a", bytes(Bytes));
  ASSERT_TRUE(bool(Ar)) << Ar.takeError().message();
  ASSERT_EQ(Ar->members().size(), 2u);
  EXPECT_EQ(Ar->members()[0].name, "a.o");
  EXPECT_EQ(Ar->memberDefining("alpha"), 0);
  EXPECT_EQ(Ar->memberDefining("beta"), 1);
  EXPECT_EQ(Ar->memberDefining("gamma"), 1);
  EXPECT_EQ(Ar->memberDefining("delta"), -1);
  // A link's view reads the same members as it asks for them.
  auto L = Archive::parseForLink("lib.a", bytes(Bytes));
  ASSERT_TRUE(bool(L)) << L.takeError().message();
  ASSERT_EQ(L->members().size(), 2u);
  EXPECT_EQ(L->memberDefining("beta"), 1);
  EXPECT_FALSE(L->members()[1].read);
  EXPECT_TRUE(L->memberBytes(1).empty()) << "nothing before load";
  ASSERT_FALSE(bool(L->load(1)));
  EXPECT_EQ(L->memberObjectName(1), "lib.a(b.o)");
  EXPECT_EQ(std::string(L->memberBytes(1).data(), L->memberBytes(1).size()), "BBBBBB");
  EXPECT_FALSE(L->members()[0].read) << "only what was asked for";
  // The head (what the page fetches first) lists the same names.
  auto H = Archive::readHead("lib.a", bytes(Bytes).span());
  ASSERT_TRUE(bool(H)) << H.takeError().message();
  EXPECT_TRUE(H->complete);
  EXPECT_EQ(H->names.size(), 3u);
}

} // namespace

TEST(Archive, GnuIndex) {
  expectIndex(archive([](uint64_t A, uint64_t B) {
    return member("/", big(3, 4) + big(A, 4) + big(B, 4) + big(B, 4) + std::string("alpha\0beta\0gamma\0", 17));
  }));
}

TEST(Archive, BsdIndexShortName) {
  expectIndex(archive([](uint64_t A, uint64_t B) { return bsdIndex(4, "__.SYMDEF", false, A, B); }));
}

TEST(Archive, BsdIndexLongNameAsLlvmArWritesIt) {
  expectIndex(archive([](uint64_t A, uint64_t B) { return bsdIndex(4, "__.SYMDEF", true, A, B); }));
  expectIndex(archive([](uint64_t A, uint64_t B) { return bsdIndex(4, "__.SYMDEF SORTED", true, A, B); }));
}

TEST(Archive, Bsd64Index) {
  expectIndex(archive([](uint64_t A, uint64_t B) { return bsdIndex(8, "__.SYMDEF_64", true, A, B); }));
}

TEST(Archive, BadBsdIndexIsAnErrorNamingIt) {
  auto Parse = [](const std::string &Index) {
    auto Ar = Archive::parse("lib.a", bytes("!<arch>\n" + member("__.SYMDEF", Index) + member("a.o/", "AAAA")));
    return Ar ? std::string("parsed") : Ar.takeError().message();
  };
  // The pair array's size exceeds the index.
  EXPECT_EQ(Parse(little(64, 4) + little(0, 4)), "lib.a: BSD symbol index size exceeds the index");
  // A name past the string table.
  EXPECT_EQ(Parse(little(8, 4) + little(9, 4) + little(68, 4) + little(4, 4) + std::string("abc\0", 4)),
            "lib.a: BSD symbol index entry 0 names string 9, past its table");
  // A member offset that is no member's header.
  EXPECT_EQ(Parse(little(8, 4) + little(0, 4) + little(12, 4) + little(4, 4) + std::string("abc\0", 4)),
            "lib.a: symbol index entry 'abc' points at 0xc, which is not a member header");
  EXPECT_EQ(Parse(little(8, 4)), "lib.a: BSD symbol index size exceeds the index");
}

// A link reads a member's header when it needs the member (as LLVM's
// object::Archive does), so a bad header it never asks for is no error,
// and one it asks for is, naming where.
TEST(Archive, LinkReadsOnlyTheMembersItAsksFor) {
  std::string Good = member("a.o/", "AAAA"), Bad = member("b.o/", "BBBB");
  Bad[58] = '!'; // its header's terminator
  auto Index = [&](uint64_t A, uint64_t B) {
    return member("/", big(2, 4) + big(A, 4) + big(B, 4) + std::string("alpha\0beta\0", 11));
  };
  uint64_t A = 8 + Index(0, 0).size(), B = A + Good.size();
  std::string Bytes = "!<arch>\n" + Index(A, B) + Good + Bad;
  auto Whole = Archive::parse("lib.a", bytes(Bytes));
  ASSERT_FALSE(bool(Whole));
  EXPECT_EQ(Whole.takeError().message(), "lib.a: archive member header at " + hex(B) + ": bad header terminator");
  auto L = Archive::parseForLink("lib.a", bytes(Bytes));
  ASSERT_TRUE(bool(L)) << L.takeError().message();
  ASSERT_FALSE(bool(L->load(size_t(L->memberDefining("alpha")))));
  EXPECT_EQ(L->memberObjectName(0), "lib.a(a.o)");
  Error E = L->load(size_t(L->memberDefining("beta")));
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(E.message(), "lib.a: archive member header at " + hex(B) + ": bad header terminator");
  // An index entry at the index itself is no member.
  std::string Self = "!<arch>\n" + member("/", big(1, 4) + big(8, 4) + std::string("gamma\0", 6)) + Good;
  auto S = Archive::parseForLink("lib.a", bytes(Self));
  ASSERT_TRUE(bool(S)) << S.takeError().message();
  Error SE = S->load(0);
  ASSERT_TRUE(bool(SE));
  EXPECT_EQ(SE.message(), "lib.a: symbol index entries point at 0x8, which is not a member header");
}
