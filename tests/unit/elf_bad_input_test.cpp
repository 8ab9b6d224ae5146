// Malformed and hostile inputs: each gets a clear error naming the file and
// what is wrong, and nothing crashes.
#include "test_support.h"

#include "elf/elf_graph_builder.h"
#include "link/slab_memory_manager.h"
#include "session/session.h"

#include <dirent.h>
#include <random>

using namespace linklab;
using namespace linklab::test;

namespace {

Error linkBytes(std::shared_ptr<const std::vector<char>> Bytes, const std::string &Name = "bad.o", bool Phony = true) {
  SlabMemoryManager MM(0x10000, 4096, 1 << 24);
  Session S(Triple(), MM);
  S.setPhonyExternals(Phony);
  auto K = S.addObject(Name, std::move(Bytes));
  if (!K)
    return K.takeError();
  std::optional<Error> Result;
  S.linkAll([&](Error E) { Result = std::move(E); });
  EXPECT_TRUE(Result.has_value());
  return Result ? std::move(*Result) : makeError("link did not finish");
}

std::vector<char> validObject(const TempDir &D) {
  std::string Src = D.write("ok.c", "extern int g; int f(int x) { return x + g; }\n"
                                    "int main(void) { return f(1); }\n");
  return *readBytes(compile(D, Src, "x86_64-linux-gnu", "-O1 -fPIC", "ok.o"));
}

// Each tests/inputs/bad/*.yaml names its defect; its first line holds the
// expected message ("# ERROR: ...").
TEST(ElfBadInput, YamlCorpusGivesExactErrors) {
  TempDir D;
  std::string Dir = sourceDir() + "/tests/inputs/bad";
  DIR *Dp = opendir(Dir.c_str());
  ASSERT_NE(Dp, nullptr);
  int Count = 0;
  while (dirent *E = readdir(Dp)) {
    std::string Name = E->d_name;
    if (!Name.ends_with(".yaml"))
      continue;
    std::ifstream In(Dir + "/" + Name);
    std::string First;
    std::getline(In, First);
    ASSERT_TRUE(First.starts_with("# ERROR: ")) << Name;
    std::string Obj = D.file(Name + ".o");
    auto R = runCommand("yaml2obj-22 '" + Dir + "/" + Name + "' -o '" + Obj + "'");
    ASSERT_EQ(R.status, 0) << R.output;
    Error Err = linkBytes(readBytes(Obj));
    ASSERT_TRUE(bool(Err)) << Name << " linked without error";
    EXPECT_NE(Err.message().find(First.substr(9)), std::string::npos)
        << Name << "\n  got:      " << Err.message() << "\n  expected: " << First.substr(9);
    ++Count;
  }
  closedir(Dp);
  EXPECT_GE(Count, 10);
}

TEST(ElfBadInput, EmptyAndGarbageFiles) {
  EXPECT_EQ(linkBytes(std::make_shared<std::vector<char>>()).message(), "bad.o: file too small to be an object");
  auto Garbage = std::make_shared<std::vector<char>>(std::vector<char>{'h', 'e', 'l', 'l', 'o', '!'});
  EXPECT_EQ(linkBytes(Garbage).message(), "bad.o: unrecognized object file format");
  auto Archive = std::make_shared<std::vector<char>>(std::vector<char>{'!', '<', 'a', 'r', 'c', 'h', '>', '\n'});
  EXPECT_NE(linkBytes(Archive).message().find("is a static archive"), std::string::npos);
}

// An -flto object is LLVM bitcode: the error says so and what to do.
TEST(ElfBadInput, BitcodeIsNamed) {
  TempDir D;
  std::string Src = D.write("lto.c", "int main(void) { return 0; }\n");
  for (const char *Flags : {"-flto", "-flto=thin"}) {
    std::string Obj = compile(D, Src, "x86_64-linux-gnu", Flags, "lto.o");
    EXPECT_EQ(
        linkBytes(readBytes(Obj)).message(),
        "bad.o: is LLVM bitcode (compiled with -flto?); linklab links machine-code objects: compile without -flto")
        << Flags;
  }
}

TEST(ElfBadInput, WrongClassAndEndianness) {
  TempDir D;
  std::vector<char> Obj = validObject(D);
  auto Class32 = std::make_shared<std::vector<char>>(Obj);
  (*Class32)[4] = 1;
  auto StartsWith = [](const Error &E, const std::string &Prefix) {
    EXPECT_TRUE(E.message().starts_with(Prefix)) << E.message();
  };
  StartsWith(linkBytes(Class32), "bad.o: unsupported ELF object: machine EM_X86_64 (62), 32-bit little-endian "
                                 "(supported: x86_64, ");
  auto BigEndian = std::make_shared<std::vector<char>>(Obj);
  (*BigEndian)[5] = 2;
  // e_machine is read in the declared byte order: 62 little-endian is 0x3e00.
  StartsWith(linkBytes(BigEndian), "bad.o: unsupported ELF object: machine 15872, 64-bit big-endian (supported: ");
  auto BadClass = std::make_shared<std::vector<char>>(Obj);
  (*BadClass)[4] = 3;
  EXPECT_EQ(linkBytes(BadClass).message(), "bad.o: bad ELF class 3 (EI_CLASS is neither ELFCLASS32 nor ELFCLASS64)");
}

TEST(ElfBadInput, EveryTruncationIsAnErrorNotACrash) {
  TempDir D;
  std::vector<char> Obj = validObject(D);
  for (size_t Len = 0; Len < Obj.size(); Len += (Len < 128 ? 1 : 7)) {
    auto Cut = std::make_shared<std::vector<char>>(Obj.begin(), Obj.begin() + Len);
    Error E = linkBytes(Cut);
    EXPECT_TRUE(bool(E)) << "truncated to " << Len << " bytes linked";
    EXPECT_TRUE(E.message().starts_with("bad.o: ")) << E.message();
  }
  Error Header = linkBytes(std::make_shared<std::vector<char>>(Obj.begin(), Obj.begin() + 40));
  EXPECT_EQ(Header.message(), "bad.o: truncated ELF header (40 bytes, need 64)");
}

// Random byte flips: the reader and linker must return (error or success),
// never crash, hang or allocate without bound.
TEST(ElfBadInput, MutatedObjectsNeverCrash) {
  TempDir D;
  std::vector<char> Obj = validObject(D);
  std::mt19937 Rng(1234);
  int Errors = 0;
  for (int Iter = 0; Iter < 3000; ++Iter) {
    auto M = std::make_shared<std::vector<char>>(Obj);
    int Flips = 1 + int(Rng() % 4);
    for (int F = 0; F < Flips; ++F)
      (*M)[Rng() % M->size()] = char(Rng());
    if (linkBytes(M))
      ++Errors;
  }
  EXPECT_GT(Errors, 0);
}

TEST(ElfBadInput, MissingSymbolsAreNamed) {
  TempDir D;
  auto Obj = std::make_shared<std::vector<char>>(validObject(D));
  EXPECT_EQ(linkBytes(Obj, "ok.o", /*Phony=*/false).message(), "Symbols not found: [ g ] (referenced by ok.o)");
}

TEST(ElfBadInput, OutOfRangeFixupNamesEverything) {
  TempDir D;
  std::string Obj =
      assemble(D, "  .text\n  .globl main\nmain:\n  movl $far_away, %eax\n  ret\n", "x86_64-linux-gnu", "abs.o");
  auto R = runCommand(linklabPath() + " -noexec -no-process-syms -abs far_away=0x123456789 " + Obj);
  EXPECT_EQ(R.status, 1);
  // llvm-jitlink's wording first, then linklab's detail.
  EXPECT_NE(R.output.find("linklab error: In graph " + Obj +
                          ", section .text: relocation target 0x123456789 (far_away) is out of range of Pointer32 "
                          "fixup at address 0x123456789 (main, "),
            std::string::npos)
      << R.output;
  EXPECT_NE(R.output.find("; " + Obj +
                          ": .text+0x1: Pointer32 against far_away: value 0x123456789 out of range [0x0, 0xffffffff]"),
            std::string::npos)
      << R.output;
}

TEST(ElfBadInput, MixedArchitecturesAreRejected) {
  TempDir D;
  std::string Src = D.write("m.c", "int main(void) { return 0; }\n");
  std::string X = compile(D, Src, "x86_64-linux-gnu", "", "x.o");
  std::string A = compile(D, Src, "aarch64-linux-gnu", "", "a.o");
  auto R = runCommand(linklabPath() + " -noexec -no-process-syms " + X + " " + A);
  EXPECT_EQ(R.status, 1);
  EXPECT_NE(R.output.find("objects of different architectures cannot be linked together"), std::string::npos)
      << R.output;
}

} // namespace
