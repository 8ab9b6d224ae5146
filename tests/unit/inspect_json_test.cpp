// The inspector's JSON (api::inspectObjectJson) names ELF's enumerations as
// llvm-readelf does: symbol type, binding, section type, special indices.
#include "api/json_export.h"
#include "elf/elf_names.h"
#include "test_support.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace linklab;
using namespace linklab::test;

namespace {

TEST(ElfNames, AsLlvmReadelfPrintsThem) {
  EXPECT_STREQ(elf::symbolTypeName(elf::STT_FUNC), "FUNC");
  EXPECT_STREQ(elf::symbolTypeName(elf::STT_GNU_IFUNC), "IFUNC");
  EXPECT_EQ(elf::symbolTypeName(9), nullptr);
  EXPECT_STREQ(elf::symbolBindName(elf::STB_WEAK), "WEAK");
  EXPECT_STREQ(elf::sectionTypeName(elf::SHT_NOBITS), "NOBITS");
  EXPECT_STREQ(elf::specialSectionIndexName(elf::SHN_ABS), "ABS");
  EXPECT_EQ(elf::specialSectionIndexName(3), nullptr);
}

// Each symbol's row equals llvm-readelf's for the same object.
TEST(InspectJson, SymbolNamesMatchLlvmReadelf) {
  TempDir D;
  std::string Obj = assemble(D, R"(
    .text
    .globl f
    .type f,@function
f:  call g
    ret
    .data
    .weak w
    .type w,@object
w:  .quad 1
    .size w, 8
    .comm c, 16, 8
    .set a, 0x1234
    .globl a
)",
                             "x86_64-unknown-linux-gnu", "t.o");
  auto Bytes = readBytes(Obj);
  auto J = api::inspectObjectJson("t.o", {Bytes->data(), Bytes->size()});
  ASSERT_TRUE(bool(J)) << J.takeError().message();
  auto R = runCommand("llvm-readelf-22 -s " + Obj);
  ASSERT_EQ(R.status, 0);
  // llvm-readelf: "Num: Value Size Type Bind Vis Ndx Name"; we check Type, Bind, Ndx per name.
  int Checked = 0;
  for (std::string Name : {"f", "g", "w", "c", "a"}) {
    std::string Row;
    for (size_t At = 0, End; (End = R.output.find('\n', At)) != std::string::npos; At = End + 1) {
      std::string L = R.output.substr(At, End - At);
      if (L.size() > Name.size() && L.compare(L.size() - Name.size() - 1, std::string::npos, " " + Name) == 0)
        Row = L;
    }
    ASSERT_FALSE(Row.empty()) << Name << " in\n" << R.output;
    std::istringstream In(Row);
    std::string Num, Value, Size, Type, Bind, Vis, Ndx;
    In >> Num >> Value >> Size >> Type >> Bind >> Vis >> Ndx;
    std::string Want = "\"name\":\"" + Name + "\",\"bind\":";
    size_t At = J->find(Want);
    ASSERT_NE(At, std::string::npos) << Name;
    std::string Obj = J->substr(At, J->find('}', At) - At);
    EXPECT_NE(Obj.find("\"typeName\":\"" + Type + "\""), std::string::npos) << Obj << " vs " << Row;
    EXPECT_NE(Obj.find("\"bindName\":\"" + Bind + "\""), std::string::npos) << Obj << " vs " << Row;
    std::string Section = Ndx == "UND" || Ndx == "ABS" || Ndx == "COM" ? (Ndx == "COM" ? "COMMON" : Ndx)
                                                                       : std::string(Name == "f" ? ".text" : ".data");
    EXPECT_NE(Obj.find("\"section\":\"" + Section + "\""), std::string::npos) << Obj << " vs " << Row;
    ++Checked;
  }
  EXPECT_EQ(Checked, 5);
  EXPECT_NE(J->find("\"name\":\".rela.text\",\"type\":4,\"typeName\":\"RELA\""), std::string::npos);
}

// MachO and COFF objects: format and triple from the registry row,
// relocations by the type names of the pair's table.
TEST(InspectJson, MachOAndCOFFFromTheirGraphs) {
  TempDir D;
  struct Case {
    const char *triple, *asmText, *format, *arch, *section, *kind, *target;
  } Cases[] = {
      {"x86_64-apple-macosx", "  .globl _f\n_f: call _g\n  ret\n", "\"format\":\"macho\"", "\"arch\":\"x86_64\"",
       "\"name\":\"__TEXT,__text\"", "\"typeName\":\"X86_64_RELOC_BRANCH\"", "\"symbolName\":\"_g\""},
      {"arm64-apple-macosx", "  .globl _f\n_f: bl _g\n  ret\n", "\"format\":\"macho\"", "\"arch\":\"aarch64\"",
       "\"name\":\"__TEXT,__text\"", "\"typeName\":\"ARM64_RELOC_BRANCH26\"", "\"symbolName\":\"_g\""},
      {"x86_64-pc-windows-msvc", "  .globl f\nf: call g\n  ret\n", "\"format\":\"coff\"", "\"arch\":\"x86_64\"",
       "\"name\":\".text\"", "\"typeName\":\"IMAGE_REL_AMD64_REL32\"", "\"symbolName\":\"g\""},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.triple);
    std::string Obj = assemble(D, C.asmText, C.triple, "o.o");
    auto Bytes = readBytes(Obj);
    auto J = api::inspectObjectJson("o.o", {Bytes->data(), Bytes->size()});
    ASSERT_TRUE(bool(J)) << J.takeError().message();
    for (const char *Want : {C.format, C.arch, C.section, C.kind, C.target})
      EXPECT_NE(J->find(Want), std::string::npos) << Want << " in " << *J;
    // A truncated copy is refused with an error naming the file.
    auto Bad = api::inspectObjectJson("bad.o", {Bytes->data(), 40});
    ASSERT_FALSE(bool(Bad));
    EXPECT_EQ(Bad.takeError().message().rfind("bad.o: ", 0), 0u);
  }
}

// A universal file whose slice is a universal file (here the file itself,
// at offset 0) is refused, not inspected slice within slice without end
// (fuzz_inspect found it).
TEST(InspectJson, UniversalSliceThatIsUniversalIsRefused) {
  std::vector<char> B(64, 0);
  auto Be32 = [&](size_t At, uint32_t V) {
    for (int I = 0; I < 4; ++I)
      B[At + I] = char(V >> (24 - 8 * I));
  };
  Be32(0, 0xcafebabe); // FAT_MAGIC
  Be32(4, 1);          // one slice:
  Be32(8, 0x01000007); // CPU_TYPE_X86_64
  Be32(16, 0);         // at offset 0,
  Be32(20, 64);        // the whole file
  auto J = api::inspectObjectJson("fat.o", B);
  ASSERT_FALSE(J);
  std::string Msg = J.takeError().message();
  EXPECT_EQ(Msg.rfind("fat.o: slice 0 (", 0), 0u) << Msg;
  EXPECT_NE(Msg.find(") at 0x0 is itself a universal file"), std::string::npos) << Msg;
}

} // namespace
