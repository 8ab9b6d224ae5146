// Fixed-up bytes against an independent linker: each architecture's
// tests/inputs/lld_oracle/<arch>.s is linked by linklab at a fixed slab
// address, then by ld.lld-22 with every section placed at the address
// linklab gave it; the two linkers' section bytes must be identical.
#include "test_support.h"

#include <map>
#include <regex>
#include <sstream>

using namespace linklab::test;

namespace {

struct ArchCase {
  const char *name;
  const char *mcArgs;
};

const ArchCase Cases[] = {
    {"x86_64", "-triple=x86_64-linux-gnu"},
    {"aarch64", "-triple=aarch64-linux-gnu"},
    {"riscv64", "-triple=riscv64 -mattr=+c"},
};

const char *const Absolutes[][2] = {{"far_sym", "0x12345678"}, {"small_sym", "0x1234"}, {"tiny_sym", "0x12"}};

// Section name -> (address, bytes) from -show-addrs and
// -show-relocated-section-contents output.
std::map<std::string, std::pair<uint64_t, std::vector<uint8_t>>> parseLinklab(const std::string &Out) {
  std::map<std::string, std::pair<uint64_t, std::vector<uint8_t>>> Secs;
  static const std::regex Range("^  Section \"(\\S+)\": target addr = 0x([0-9a-f]+), .*$"),
      Content("^(\\S+) content:$"), Row("^0x([0-9a-f]+):(.*)$");
  std::istringstream In(Out);
  std::string Line, Current;
  std::smatch M;
  while (std::getline(In, Line)) {
    if (std::regex_match(Line, M, Range))
      Secs[M[1]].first = std::stoull(M[2], nullptr, 16);
    else if (std::regex_match(Line, M, Content))
      Current = M[1];
    else if (!Current.empty() && std::regex_match(Line, M, Row)) {
      std::istringstream Bytes(M[2]);
      std::string B;
      while (Bytes >> B)
        Secs[Current].second.push_back(uint8_t(std::stoul(B, nullptr, 16)));
    }
  }
  return Secs;
}

std::vector<uint8_t> fileBytes(const std::string &Path) {
  auto B = readBytes(Path);
  return std::vector<uint8_t>(B->begin(), B->end());
}

void PrintTo(const ArchCase &C, std::ostream *OS) { *OS << C.name; }

class LldOracle : public ::testing::TestWithParam<ArchCase> {};

TEST_P(LldOracle, SectionBytesMatchLld) {
  const ArchCase &C = GetParam();
  TempDir D;
  std::string Obj = D.file("in.o");
  auto Asm = runCommand(std::string("llvm-mc-22 ") + C.mcArgs + " -filetype=obj -o '" + Obj + "' '" + sourceDir() +
                        "/tests/inputs/lld_oracle/" + C.name + ".s'");
  ASSERT_EQ(Asm.status, 0) << Asm.output;

  std::string Abs, Defsyms;
  for (auto &A : Absolutes) {
    Abs += std::string(" -abs ") + A[0] + "=" + A[1];
    Defsyms += std::string(" --defsym ") + A[0] + "=" + A[1];
  }
  auto Ours = runCommand(linklabPath() + " -noexec -no-process-syms -show-addrs -show-relocated-section-contents " +
                         "-slab-address=0x100000 -slab-page-size=4096" + Abs + " '" + Obj + "'");
  ASSERT_EQ(Ours.status, 0) << Ours.output;
  auto Secs = parseLinklab(Ours.output);
  ASSERT_TRUE(Secs.count(".text") && Secs.count(".data")) << Ours.output;

  std::string Starts;
  for (auto &[Name, S] : Secs)
    Starts += " --section-start=" + Name + "=0x" + [](uint64_t V) {
      char Buf[24];
      snprintf(Buf, sizeof Buf, "%llx", (unsigned long long)V);
      return std::string(Buf);
    }(S.first);
  std::string Exe = D.file("out.elf");
  auto Lld = runCommand("ld.lld-22 -static --no-relax -e main --image-base=0x10000" + Starts + Defsyms + " '" + Obj +
                        "' -o '" + Exe + "'");
  ASSERT_EQ(Lld.status, 0) << Lld.output;
  for (auto &[Name, S] : Secs) {
    std::string Bin = D.file(Name.substr(1) + ".bin");
    auto Copy = runCommand("llvm-objcopy-22 -O binary --only-section=" + Name + " '" + Exe + "' '" + Bin + "'");
    ASSERT_EQ(Copy.status, 0) << Copy.output;
    std::vector<uint8_t> Ref = fileBytes(Bin);
    EXPECT_EQ(S.second.size(), Ref.size()) << C.name << " " << Name;
    for (size_t I = 0; I < std::min(S.second.size(), Ref.size()); ++I)
      EXPECT_EQ(int(S.second[I]), int(Ref[I]))
          << C.name << " " << Name << " byte " << I << " at 0x" << std::hex << S.first + I;
  }
}

INSTANTIATE_TEST_SUITE_P(Arches, LldOracle, ::testing::ValuesIn(Cases),
                         [](const ::testing::TestParamInfo<ArchCase> &I) { return std::string(I.param.name); });

} // namespace
