// The prepared C runtime image (program/runtime_image.h): an image holds
// exactly the runtime's graphs a normal link of the same objects links, at
// the same addresses (parity programs on x86-64, a hello world on the
// other arches), and its
// file reader takes only what its writer wrote: every truncation, flipped
// bytes, a lying size behind a right checksum, another key, a foreign
// architecture's fixups are misses.
#include "test_support.h"

#include "link/slab_memory_manager.h"
#include "program/program.h"
#include "program/runtime_image.h"
#include "protocol/address_plan.h"

#include <algorithm>
#include <filesystem>

using namespace linklab;
using namespace linklab::test;

namespace {

using executor::ReservationPlan;

std::unique_ptr<SlabMemoryManager> asRun() {
  return std::make_unique<SlabMemoryManager>(ReservationPlan::PageSize, executor::reservationsAsRun());
}

struct Built {
  std::vector<std::string> normal, image;
  std::optional<exec::RuntimeImage> I;
  std::map<std::string, Addr> normalAddresses; // every resolved name of the normal link
  bool serves = false;                         // a run of the object would use the image
  // The image's symbols whose address differs from the normal link's (a
  // run from the image must lay out what a run without one does).
  std::vector<std::string> moved() const {
    std::vector<std::string> Out;
    if (I && serves)
      for (auto &D : I->symbols)
        if (auto It = normalAddresses.find(D.name); It != normalAddresses.end() && It->second != D.address)
          Out.push_back(D.name + " " + hex(D.address) + " != " + hex(It->second));
    return Out;
  }
};

// Obj linked as a run links it without an image (every object, the start
// object, linkAll), and the image its roots ask for.
Built linkBothWays(Arch A, const std::string &Obj) {
  Built Out;
  const exec::RuntimeSpec *R = exec::findRuntime(A);
  auto Files = exec::readRuntimeFiles(*R);
  EXPECT_TRUE(bool(Files));
  if (!Files)
    return Out;
  Triple TT = Triple::parse(archRow(A).name);
  {
    auto MM = asRun();
    Session S(TT, *MM);
    auto LS = exec::addLinkServices(S, ReservationPlan::PageSize);
    exec::addExecutorSymbols(S, executor::executorSymbols());
    EXPECT_TRUE(bool(S.addObject(Obj, readBytes(Obj))));
    SharedBytes Start;
    Error E = exec::addRuntimeArchives(S, *R, *Files, &Start, LS.inits);
    EXPECT_FALSE(bool(E)) << E.message();
    EXPECT_TRUE(bool(exec::addStartObject(S, *R, Start, "main")));
    std::optional<Error> Linked;
    S.linkAll([&](Error E) { Linked.emplace(std::move(E)); });
    EXPECT_TRUE(Linked && !*Linked) << (Linked ? Linked->message() : "not finished");
    for (auto &N : S.objectNames())
      if (N != Obj)
        Out.normal.push_back(N);
    S.forEachSymbol([&](std::string_view N, const Session::SymbolEntry &E) {
      if (E.resolved)
        Out.normalAddresses[std::string(N)] = E.address;
    });
  }
  auto MM = asRun();
  Session S(TT, *MM);
  EXPECT_TRUE(bool(S.addObject(Obj, readBytes(Obj))));
  exec::ImageRoots Roots = exec::imageRoots(S, *R);
  auto I = exec::buildRuntimeImage(TT, *R, *Files, Roots.refs, "test key");
  EXPECT_TRUE(bool(I)) << (I ? "" : I.takeError().message());
  if (I) {
    Out.serves = exec::imagesServe(A);
    for (const std::string &N : Roots.defined)
      if (N != "main" && (std::any_of(I->symbols.begin(), I->symbols.end(), [&](auto &D) { return D.name == N; }) ||
                          std::count(I->imports.begin(), I->imports.end(), N)))
        Out.serves = false; // (i386: a PIC object's own __x86.get_pc_thunk.*)
    Out.image = I->members;
    Out.I = std::move(*I);
  }
  std::sort(Out.normal.begin(), Out.normal.end());
  std::sort(Out.image.begin(), Out.image.end());
  return Out;
}

std::string compileFor(const TempDir &D, Arch A, const std::string &Source, const std::string &Name) {
  std::string Out = D.file(Name);
  auto R = runCommand("clang-22 -O1 " + runtimeCFlags(A) + " -c '" + Source + "' -o '" + Out + "'");
  EXPECT_EQ(R.status, 0) << R.output;
  return Out;
}

TEST(RuntimeImage, MembersOfParityPrograms) {
  TempDir D;
  for (const char *P : {"stdio_stdlib", "locale_wide", "threads"}) {
    SCOPED_TRACE(P);
    std::string Obj =
        compileFor(D, Arch::X86_64, sourceDir() + "/tests/inputs/parity/" + P + ".c", P + std::string(".o"));
    Built B = linkBothWays(Arch::X86_64, Obj);
    EXPECT_TRUE(B.serves);
    EXPECT_GT(B.normal.size(), 100u);
    EXPECT_EQ(B.image, B.normal);
    EXPECT_EQ(B.moved(), std::vector<std::string>());
  }
}

TEST(RuntimeImage, MembersOfHelloOnEveryArch) {
  TempDir D;
  std::string Src = D.write("hello.c", "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 42); return 0; }\n");
  for (Arch A : {Arch::AArch64, Arch::RISCV64, Arch::I386, Arch::Arm}) {
    SCOPED_TRACE(archRow(A).name);
    Built B = linkBothWays(A, compileFor(D, A, Src, std::string(archRow(A).name) + ".o"));
    EXPECT_GT(B.normal.size(), 50u);
    EXPECT_EQ(B.image, B.normal);
    EXPECT_EQ(B.moved(), std::vector<std::string>());
  }
}

// The reader against one real image (a hello world's on x86-64).
TEST(RuntimeImage, ReaderTakesOnlyWhatTheWriterWrote) {
  TempDir D;
  std::string Src = D.write("hello.c", "#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n");
  Built B = linkBothWays(Arch::X86_64, compileFor(D, Arch::X86_64, Src, "hello.o"));
  ASSERT_TRUE(B.I);
  const exec::RuntimeImage &I = *B.I;
  EXPECT_FALSE(I.entryFixups.empty()); // crt1's reference to main
  EXPECT_GT(I.symbols.size(), 500u);
  std::vector<uint8_t> File = exec::serializeRuntimeImage(I);
  auto Back = exec::parseRuntimeImage(File, Arch::X86_64);
  ASSERT_TRUE(Back);
  EXPECT_EQ(exec::serializeRuntimeImage(*Back), File);
  EXPECT_FALSE(Back->linkInfo().empty());
  // Another arch's reading: its fixup kinds and widths differ.
  EXPECT_FALSE(exec::parseRuntimeImage(File, Arch::RISCV64));

  for (size_t Cut : {size_t(0), size_t(7), exec::RuntimeImageHeaderSize, File.size() / 3, File.size() - 1}) {
    std::vector<uint8_t> Short(File.begin(), File.begin() + ptrdiff_t(Cut));
    EXPECT_FALSE(exec::parseRuntimeImage(Short, Arch::X86_64)) << "truncated at " << Cut;
  }
  for (size_t At : {size_t(3), size_t(9), exec::RuntimeImageHeaderSize + 5, File.size() / 2, File.size() - 1}) {
    std::vector<uint8_t> Flipped = File;
    Flipped[At] ^= 0x10;
    EXPECT_FALSE(exec::parseRuntimeImage(Flipped, Arch::X86_64)) << "byte " << At << " flipped";
  }
  // Lies behind a right checksum: a reservation's content longer than the
  // reservation, a count past the end.
  {
    exec::RuntimeImage Lying = I;
    Lying.reservations[0].bytes.resize(Lying.reservations[0].size + 1, 1);
    EXPECT_FALSE(exec::parseRuntimeImage(exec::serializeRuntimeImage(Lying), Arch::X86_64));
    std::vector<uint8_t> Body(File.begin() + exec::RuntimeImageHeaderSize, File.end());
    size_t Count = 4 + I.key.size(); // the reservation count follows the key
    Body[Count + 3] = 0x7f;
    EXPECT_FALSE(exec::parseRuntimeImage(exec::frameRuntimeImage(Body), Arch::X86_64));
    exec::RuntimeImage Moved = I;
    Moved.reservations[0].base += ReservationPlan::PageSize; // not where a fresh executor reserves
    EXPECT_FALSE(exec::parseRuntimeImage(exec::serializeRuntimeImage(Moved), Arch::X86_64));
  }
  // The cache: written whole, read back under its key only.
  exec::writeCachedImage(D.file("cache"), I);
  EXPECT_TRUE(exec::readCachedImage(D.file("cache"), I.key, Arch::X86_64));
  EXPECT_FALSE(exec::readCachedImage(D.file("cache"), I.key + "x", Arch::X86_64));
  // A stale file where another key's image belongs: the full key is compared.
  std::filesystem::copy_file(exec::cachedImagePath(D.file("cache"), I.key),
                             exec::cachedImagePath(D.file("cache"), I.key + "x"));
  EXPECT_FALSE(exec::readCachedImage(D.file("cache"), I.key + "x", Arch::X86_64));
}

} // namespace
