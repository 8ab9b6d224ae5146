// `linklab prog.o` with the prepared C runtime image cache
// (program/runtime_image.h, docs/runtime-image.md): the first run builds
// and stores the image, the second runs from it, both printing what the
// program prints; a program defining malloc takes the usual path (its
// malloc serves the C library too); truncated, damaged, foreign and stale
// cache files are ignored and replaced. LINKLAB_CACHE_LOG says which path
// each run took (a warm run hands the executor the cache file: "mapped").
#include "test_support.h"

#include <filesystem>
#include <fstream>

using namespace linklab;
using namespace linklab::test;

namespace {

struct CacheRun {
  CommandResult result;
  std::string log; // this run's LINKLAB_CACHE_LOG line
};

struct ImageCacheFixture : ::testing::Test {
  TempDir D;
  CacheRun linklab(const std::string &Obj, const std::string &Cache = "") {
    std::string Log = D.file("log");
    std::remove(Log.c_str());
    CacheRun R{runCommand("LINKLAB_CACHE='" + (Cache.empty() ? D.file("cache") : Cache) + "' LINKLAB_CACHE_LOG='" +
                          Log + "' " + linklabPath() + " '" + Obj + "'"),
               {}};
    std::ifstream In(Log);
    std::getline(In, R.log);
    return R;
  }
  std::string object(Arch A, const std::string &Name, const std::string &Source) {
    std::string Out = D.file(Name + ".o");
    auto R =
        runCommand("clang-22 -O1 " + runtimeCFlags(A) + " -c '" + D.write(Name + ".c", Source) + "' -o '" + Out + "'");
    EXPECT_EQ(R.status, 0) << R.output;
    return Out;
  }
};

const char *Hello = "#include <stdio.h>\nint main(void) { printf(\"%s %d\\n\", \"hello\", 42); return 7; }\n";

TEST_F(ImageCacheFixture, ColdThenWarmOnEveryArch) {
  for (const ArchCase &A : AllArches) {
    SCOPED_TRACE(A.name);
    std::string Obj = object(A.arch, std::string("hello-") + A.name, Hello);
    CacheRun Cold = linklab(Obj), Warm = linklab(Obj);
    for (const CacheRun *R : {&Cold, &Warm}) {
      EXPECT_EQ(R->result.status, 7);
      EXPECT_EQ(R->result.output, "hello 42\n");
    }
    if (A.arch == Arch::Arm) { // its objects' unwind index is a link-end table: no image, no question
      EXPECT_EQ(Cold.log, "");
      EXPECT_EQ(Warm.log, "");
      continue;
    }
    ASSERT_TRUE(Cold.log.starts_with("built ")) << Cold.log;
    // Handed to the executor as a file: printf is the image's.
    EXPECT_EQ(Warm.log, "mapped " + Cold.log.substr(6));
  }
}

// A run from the image lays the program out where a run that links the
// runtime does: its own code and data, the heap, and the runtime's code
// and data are at the same addresses (the same output, byte for byte).
// One arch: RuntimeImage.Members* compares every symbol's address on each.
TEST_F(ImageCacheFixture, AddressesAreTheSameWithAndWithoutTheImage) {
  const char *Addresses = R"(#include <stdio.h>
#include <stdlib.h>
int counter = 3;
static char zeros[4096];
int main(void) {
  void *p = malloc(100);
  printf("main %p\ncounter %p\nzeros %p\nmalloc %p\nprintf %p\nstdout %p %p\n", (void *)main, (void *)&counter,
         (void *)zeros, p, (void *)printf, (void *)&stdout, (void *)stdout);
  return 0;
}
)";
  std::string Obj = object(Arch::X86_64, "addresses", Addresses);
  CacheRun Normal = linklab(Obj, "off"), Cold = linklab(Obj), Warm = linklab(Obj);
  EXPECT_EQ(Normal.log, "");
  ASSERT_TRUE(Cold.log.starts_with("built ")) << Cold.log;
  EXPECT_EQ(Warm.log, "mapped " + Cold.log.substr(6)); // the cold run sent the bytes, this one the file
  EXPECT_EQ(Normal.result.status, 0) << Normal.result.output;
  EXPECT_NE(Normal.result.output.find("stdout 0x"), std::string::npos) << Normal.result.output;
  EXPECT_EQ(Cold.result.output, Normal.result.output);
  EXPECT_EQ(Warm.result.output, Normal.result.output);
}

TEST_F(ImageCacheFixture, UserMallocTakesTheNormalPath) {
  // glibc's stdio allocates its buffer with malloc: the program's, in a
  // static link, and so here.
  std::string Obj = object(Arch::X86_64, "own_malloc", R"(
#include <stdio.h>
#include <string.h>
static char Heap[1 << 20];
static size_t Used;
static int Calls;
void *malloc(size_t N) { ++Calls; void *P = Heap + Used; Used += (N + 15) & ~(size_t)15; return P; }
void free(void *P) {}
void *calloc(size_t N, size_t S) { return memset(malloc(N * S), 0, N * S); }
void *realloc(void *P, size_t N) { void *Q = malloc(N); if (P) memcpy(Q, P, N); return Q; }
int main(void) { puts("x"); fflush(stdout); printf("%d\n", Calls > 0); return 0; }
)");
  for (int I = 0; I < 2; ++I) {
    CacheRun R = linklab(Obj);
    EXPECT_EQ(R.result.status, 0);
    EXPECT_EQ(R.result.output, "x\n1\n");
    EXPECT_EQ(R.log, "normal: the objects define a name the image defines or references");
  }
}

TEST_F(ImageCacheFixture, BadFilesAreIgnoredAndReplaced) {
  std::string Obj = object(Arch::X86_64, "hello", Hello);
  CacheRun First = linklab(Obj);
  ASSERT_TRUE(First.log.starts_with("built ")) << First.log;
  std::string Path = First.log.substr(6);
  auto Text = [](const std::string &File) {
    auto B = readBytes(File);
    return std::string(B->begin(), B->end());
  };
  std::string Good = Text(Path);
  // Another program's image (a valid file, another key) in this one's place.
  CacheRun Other =
      linklab(object(Arch::X86_64, "other", "#include <stdio.h>\nint main(void) { return puts(\"o\") < 0; }\n"));
  ASSERT_TRUE(Other.log.starts_with("built ")) << Other.log;
  std::string Foreign = Text(Other.log.substr(6));
  std::string Flipped = Good;
  Flipped[Flipped.size() / 2] ^= 1;
  for (const std::string &Bad : {Good.substr(0, Good.size() / 2), Flipped, std::string("not an image"), Foreign}) {
    std::ofstream(Path, std::ios::binary | std::ios::trunc) << Bad;
    CacheRun R = linklab(Obj);
    EXPECT_EQ(R.result.status, 7);
    EXPECT_EQ(R.result.output, "hello 42\n");
    EXPECT_EQ(R.log, "built " + Path);
    EXPECT_EQ(readBytes(Path)->size(), Good.size()); // rewritten
  }
  EXPECT_EQ(linklab(Obj).log, "mapped " + Path);
}

} // namespace
