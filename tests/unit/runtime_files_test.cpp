// Which C runtime files a link needs: an archive's head (magic and symbol
// index) read from a prefix of it, and the on-demand archives (libstdc++,
// libm) a program reaches or not -- what the browser fetches. Linking with
// only the files neededFiles names pulls the same members as with all.
#include "test_support.h"

#include "link/slab_memory_manager.h"
#include "object/archive.h"
#include "program/program.h"
#include "program/runtime.h"
#include "program/runtime_fetch.h"

#include <algorithm>

using namespace linklab;
using namespace linklab::test;

namespace {

struct RuntimeFilesFixture : ::testing::Test {
  TempDir D;
  std::string obj(const std::string &Name, const std::string &Source, const std::string &Lang = "c") {
    return compile(D, D.write(Name + "." + Lang, Source), "x86_64-linux-gnu", "-O1", Name + ".o");
  }
  std::string archive(const std::string &Name, const std::string &Flags, const std::vector<std::string> &Members) {
    std::string Lib = D.file(Name), Cmd = "llvm-ar-22 " + Flags + " '" + Lib + "'";
    for (auto &M : Members)
      Cmd += " '" + M + "'";
    auto R = runCommand(Cmd);
    EXPECT_EQ(R.status, 0) << R.output;
    return Lib;
  }
};

std::span<const char> prefix(const std::shared_ptr<const std::vector<char>> &B, size_t N) {
  return {B->data(), std::min(N, B->size())};
}

TEST_F(RuntimeFilesFixture, ArchiveHeadFromAPrefix) {
  std::string One = obj("one", "int lib_one(void) { return 1; }");
  std::string Two = obj("two", "int lib_two(void) { return 2; }");
  auto B = readBytes(archive("libdemo.a", "rcs", {One, Two}));
  // Too short to tell: the first member's header is asked for.
  for (size_t N : {0, 3, 8, 67}) {
    auto H = Archive::readHead("libdemo.a", prefix(B, N));
    ASSERT_TRUE(bool(H)) << H.takeError().message();
    EXPECT_FALSE(H->complete);
    EXPECT_EQ(H->size, 68u);
  }
  auto Partial = Archive::readHead("libdemo.a", prefix(B, 68));
  ASSERT_TRUE(bool(Partial));
  EXPECT_FALSE(Partial->complete);
  EXPECT_GT(Partial->size, 68u);
  EXPECT_LT(Partial->size, B->size()) << "the head is the index, not the members";
  // The index read, the head takes in the next member's header too (the
  // long-name table, when that follows): one more ask.
  auto Index = Archive::readHead("libdemo.a", prefix(B, Partial->size));
  ASSERT_TRUE(bool(Index));
  EXPECT_FALSE(Index->complete);
  EXPECT_EQ(Index->size, Partial->size + (Partial->size & 1) + 60);
  auto Whole = Archive::readHead("libdemo.a", prefix(B, Index->size));
  ASSERT_TRUE(bool(Whole));
  EXPECT_EQ(Whole->size, Index->size);
  EXPECT_TRUE(Whole->complete);
  std::vector<std::string> Names(Whole->names.begin(), Whole->names.end());
  std::sort(Names.begin(), Names.end());
  EXPECT_EQ(Names, (std::vector<std::string>{"lib_one", "lib_two"}));
  // The same names as the full parse's index.
  auto A = Archive::parse("libdemo.a", B);
  ASSERT_TRUE(bool(A));
  EXPECT_EQ(A->symbolIndex().size(), 2u);

  // An archive without an index: its head is the magic alone, defining nothing.
  auto NoIndex = readBytes(archive("libnoindex.a", "rcS", {One}));
  auto H = Archive::readHead("libnoindex.a", prefix(NoIndex, 100));
  ASSERT_TRUE(bool(H));
  EXPECT_TRUE(H->complete);
  EXPECT_EQ(H->size, 8u);
  EXPECT_TRUE(H->names.empty());
}

TEST_F(RuntimeFilesFixture, ArchiveHeadBadInput) {
  std::string Bad = "!<arhc>\n" + std::string(60, ' ');
  auto H = Archive::readHead("bad.a", {Bad.data(), Bad.size()});
  ASSERT_FALSE(bool(H));
  EXPECT_EQ(H.takeError().message(), "bad.a: not an ar archive (bad magic)");
  std::string Hdr = "!<arch>\n/               0           0     0     0       12x4      `\n";
  H = Archive::readHead("bad.a", {Hdr.data(), Hdr.size()});
  ASSERT_FALSE(bool(H));
  EXPECT_EQ(H.takeError().message(), "bad.a: archive member header at 0x8: bad size field");
  // An index whose count runs past its size.
  std::string Idx = "!<arch>\n/               0           0     0     0       4         `\n\xff\xff\xff\xff";
  H = Archive::readHead("bad.a", {Idx.data(), Idx.size()});
  ASSERT_FALSE(bool(H));
  EXPECT_EQ(H.takeError().message(), "bad.a: symbol index count exceeds its size");
}

// The x86-64 glibc row: a link given only neededFiles' files pulls the same
// objects as one given every file.
struct Linked {
  std::vector<std::string> files, objects;
  std::string error;
};
// Fetches R's archives as a browser does (program/runtime_fetch.h): heads,
// then the ranges wanted() names, a round at a time, read from the files.
// Skip names a member not to hand over (a fetch that missed one).
struct Fetched {
  std::map<std::string, Archive> archives;
  std::unique_ptr<PrefetchedGraphs> graphs;
  size_t rounds = 0, bytes = 0, pulled = 0;
};
Fetched fetchPartially(const exec::RuntimeSpec &R, const std::string &Obj, const std::string &Skip = "") {
  auto All = exec::readRuntimeFiles(R);
  EXPECT_TRUE(bool(All));
  std::map<std::string, exec::RuntimeFetch::Head> Heads;
  Fetched Out;
  for (auto &F : R.archives) {
    SharedBytes &B = (*All)[F.name];
    auto H = Archive::readHead(F.path, B.span());
    EXPECT_TRUE(bool(H) && H->complete);
    Heads[F.name] = {B.size(), B.slice(0, H->size)};
    Out.bytes += H->size;
  }
  auto Fetch = exec::RuntimeFetch::create(R, {{Obj, readBytes(Obj)}}, Heads, (*All)[R.startObject.name]);
  EXPECT_TRUE(bool(Fetch)) << (Fetch ? "" : Fetch.takeError().message());
  for (auto Ranges = (*Fetch)->wanted(); !Ranges.empty(); Ranges = (*Fetch)->wanted()) {
    EXPECT_LT(++Out.rounds, 40u) << "the scan must end";
    if (Out.rounds >= 40)
      break;
    for (auto &Rg : Ranges) {
      SharedBytes Piece = (*All)[Rg.file].slice(Rg.begin, Rg.end - Rg.begin);
      if (!Skip.empty() && std::string_view(Piece.data(), Piece.size()).find(Skip) != std::string_view::npos)
        continue; // never arrives: wanted() keeps asking, so stop after it alone is left
      Error E = (*Fetch)->addMembers(Rg.file, Rg.begin, Piece);
      EXPECT_FALSE(bool(E)) << E.message();
      Out.bytes += Piece.size();
    }
    if (!Skip.empty() && Out.rounds > 20)
      break;
  }
  Out.pulled = (*Fetch)->membersPulled();
  Out.archives = (*Fetch)->takeArchives();
  Out.graphs = (*Fetch)->takeGraphs();
  return Out;
}

Linked linkWith(const std::string &Obj, bool OnlyNeeded, Fetched *Partial = nullptr) {
  const exec::RuntimeSpec *R = exec::findRuntime(Arch::X86_64);
  auto All = exec::readRuntimeFiles(*R);
  EXPECT_TRUE(bool(All));
  exec::RuntimeFiles Files = *All;
  Linked Out;
  if (OnlyNeeded) {
    std::map<std::string, Archive::Head> Heads;
    for (auto &F : R->files())
      if (F.onDemand) {
        auto H = Archive::readHead(F.path, Files[F.name].span()); // a whole file holds its head
        EXPECT_TRUE(bool(H) && H->complete);
        Heads[F.name] = *H;
      }
    auto Names = exec::referencedNames({{Obj, readBytes(Obj)}});
    exec::RuntimeFiles Needed;
    for (auto &F : exec::neededFiles(*R, Names, Heads)) {
      Out.files.push_back(F.name);
      Needed[F.name] = Files[F.name];
    }
    Files = std::move(Needed);
  }
  SlabMemoryManager MM(0x10000000, 4096, 1 << 30);
  Session S(Triple::parse("x86_64-unknown-linux-gnu"), MM);
  auto Inits = exec::addLinkServices(S, 4096).inits;
  EXPECT_TRUE(bool(S.addObject(Obj, readBytes(Obj))));
  SharedBytes Start;
  std::map<std::string, Archive> Archives;
  if (Partial) {
    Archives = std::move(Partial->archives);
    for (auto &[Name, A] : Archives)
      Files.erase(Name);
    S.usePrefetched(std::move(Partial->graphs));
  }
  Error E = exec::addRuntimeArchives(S, *R, Files, &Start, Inits, std::move(Archives));
  EXPECT_FALSE(bool(E)) << E.message();
  auto K = exec::addStartObject(S, *R, Start, "main");
  EXPECT_TRUE(bool(K));
  auto A = S.lookupNow({"main", "_start"});
  if (!A)
    Out.error = A.takeError().message();
  Out.objects = S.objectNames();
  return Out;
}

TEST_F(RuntimeFilesFixture, NeededFilesOfTheGlibcRow) {
  struct Case {
    const char *name, *lang, *source;
    std::vector<std::string> files;
  } Cases[] = {
      {"hello",
       "c",
       "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }",
       {"libc.a", "libgcc.a", "libgcc_eh.a", "crt1.o"}},
      {"math",
       "c",
       "#include <math.h>\nvolatile double x = 2; int main(void) { return (int)sqrt(x) + (int)cos(x); }",
       {"libm.a", "libc.a", "libgcc.a", "libgcc_eh.a", "crt1.o"}},
      // libstdc++ reached: libm after it too (its members may reference libm).
      {"cxx",
       "cpp",
       "#include <string>\nint main(int c, char **v) { std::string s(v[0]); return s.size() > 1000; }",
       {"libstdc++.a", "libm.a", "libc.a", "libgcc.a", "libgcc_eh.a", "crt1.o"}},
  };
  for (auto &C : Cases) {
    SCOPED_TRACE(C.name);
    std::string Obj = obj(C.name, C.source, C.lang);
    Linked Some = linkWith(Obj, true), Every = linkWith(Obj, false);
    EXPECT_EQ(Some.files, C.files);
    EXPECT_EQ(Some.objects, Every.objects) << "the same members linked either way";
    EXPECT_EQ(Every.error, "");
    // Fetched a member at a time: the same members again, from a fraction
    // of the bytes, in a bounded number of rounds.
    const exec::RuntimeSpec *R = exec::findRuntime(Arch::X86_64);
    Fetched F = fetchPartially(*R, Obj);
    size_t Whole = 0;
    for (auto &N : C.files)
      for (auto &File : R->files())
        if (N == File.name)
          Whole += readBytes(File.path)->size();
    EXPECT_LT(F.bytes, Whole / 2) << F.pulled << " members pulled";
    EXPECT_GT(F.rounds, 2u);
    EXPECT_LT(F.rounds, 30u);
    std::vector<std::string> Joined;
    for (auto &[Name, A] : F.archives)
      Joined.push_back(Name);
    EXPECT_EQ(Joined.size(), C.files.size() - 1) << "the archives neededFiles names, partial";
    Linked Part = linkWith(Obj, false, &F);
    EXPECT_EQ(Part.error, "");
    EXPECT_EQ(Part.objects, Every.objects) << "the same members linked from the partial archives";
  }
}

// A member the scan reached but that never arrived: the link asks for it
// and fails naming it, where a whole archive would have linked it.
TEST_F(RuntimeFilesFixture, PartialArchiveMissingAMemberFailsNamingIt) {
  std::string Obj = obj("hello", "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }");
  const exec::RuntimeSpec *R = exec::findRuntime(Arch::X86_64);
  Fetched F = fetchPartially(*R, Obj, "ioputs.o/");
  Linked L = linkWith(Obj, false, &F);
  EXPECT_NE(L.error.find("/usr/lib/x86_64-linux-gnu/libc.a: the member at 0x"), std::string::npos) << L.error;
  EXPECT_NE(L.error.find(", which defines 'puts', was not fetched"), std::string::npos) << L.error;
}

TEST_F(RuntimeFilesFixture, PartialArchiveBadInput) {
  std::string One = obj("one", "int lib_one(void) { return 1; }");
  std::string Two = obj("two", "int lib_two(void) { return 2; }");
  auto B = readBytes(archive("libdemo.a", "rcs", {One, Two}));
  SharedBytes All(B);
  auto H = Archive::readHead("libdemo.a", All.span());
  ASSERT_TRUE(bool(H) && H->complete);
  auto Short = Archive::parseHead("libdemo.a", All.size(), All.slice(0, H->size - 1));
  ASSERT_FALSE(bool(Short));
  EXPECT_NE(Short.takeError().message().find("libdemo.a: the head given"), std::string::npos);
  auto A = Archive::parseHead("libdemo.a", All.size(), All.slice(0, H->size));
  ASSERT_TRUE(bool(A)) << A.takeError().message();
  long M = A->memberDefining("lib_two");
  ASSERT_GE(M, 0);
  EXPECT_FALSE(A->isPresent(size_t(M)));
  EXPECT_TRUE(A->memberBytes(size_t(M)).empty());
  auto [Begin, End] = A->memberExtent(size_t(M));
  EXPECT_EQ(End, All.size()) << "the last member runs to the archive's end";
  // Cut inside the member: an error naming where, and the member stays absent.
  Error E = A->addMembers(Begin, All.slice(Begin, End - Begin - 1));
  ASSERT_TRUE(bool(E));
  EXPECT_NE(E.message().find("libdemo.a: archive member header at " + hex(Begin)), std::string::npos) << E.message();
  EXPECT_FALSE(A->isPresent(size_t(M)));
  E = A->addMembers(All.size() - 2, All.slice(Begin, End - Begin));
  ASSERT_TRUE(bool(E));
  EXPECT_NE(E.message().find("run past the archive's end"), std::string::npos) << E.message();
  ASSERT_FALSE(bool(A->addMembers(Begin, All.slice(Begin, End - Begin))));
  EXPECT_TRUE(A->isPresent(size_t(M)));
  EXPECT_EQ(A->memberObjectName(size_t(M)), "libdemo.a(two.o)");
}

TEST_F(RuntimeFilesFixture, MissingOrShortHeadCountsAsNeeded) {
  const exec::RuntimeSpec *R = exec::findRuntime(Arch::X86_64);
  std::set<std::string, std::less<>> Names = {"puts"};
  auto Count = [&](const std::map<std::string, Archive::Head> &Heads) {
    return exec::neededFiles(*R, Names, Heads).size();
  };
  EXPECT_EQ(Count({}), R->files().size()) << "no heads: every file";
  Archive::Head Short;
  Short.size = 68;
  Archive::Head Empty;
  Empty.complete = true;
  EXPECT_EQ(Count({{"libstdc++.a", Empty}, {"libm.a", Short}}), R->files().size() - 1) << "libm's head is incomplete";
  EXPECT_EQ(Count({{"libstdc++.a", Empty}, {"libm.a", Empty}}), R->files().size() - 2);
  // An input that does not parse references nothing.
  auto Junk = std::make_shared<const std::vector<char>>(10, 'x');
  EXPECT_TRUE(exec::referencedNames({{"junk.o", Junk}}).empty());
}

} // namespace
