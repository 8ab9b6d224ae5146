// Helpers for tests that build objects from sources at test time and run the
// project's tools and the reference tools.
#pragma once

#include "program/runtime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <vector>

namespace linklab::test {

// An arch a run test is instantiated for, and all five linklab-executor runs.
struct ArchCase {
  const char *name;
  Arch arch;
};
inline void PrintTo(const ArchCase &C, std::ostream *OS) { *OS << C.name; }
inline const ArchCase AllArches[] = {
    {"x86_64", Arch::X86_64}, {"aarch64", Arch::AArch64}, {"riscv64", Arch::RISCV64},
    {"i386", Arch::I386},     {"arm", Arch::Arm},
};

// A wall-time limit for a test that expects the limit to end a program at a
// given point (asleep, in a thread it started, waiting for stdin): four
// times what the whole command Quick (the same link and start, then an
// early exit) takes on this machine now, plus a second, so a loaded machine
// cannot make the limit fire before the program gets there.
inline long wallLimitMs(const std::string &Quick) {
  auto Start = std::chrono::steady_clock::now();
  (void)!std::system((Quick + " >/dev/null 2>&1 </dev/null").c_str());
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - Start);
  return 1000 + 4 * long(Ms.count());
}
// Text with every "@WALL@" replaced by Ms.
inline std::string withWallLimit(std::string Text, long Ms) {
  for (size_t At; (At = Text.find("@WALL@")) != std::string::npos;)
    Text.replace(At, 6, std::to_string(Ms));
  return Text;
}

// One run of a tests/inputs/run program, argv[1] its mode, by the linklab
// CLI with options: the exit status must be code, and each of expect a
// substring of its stderr (of stdout for status 0). "@WALL@" in options
// and expect stands for a wallLimitMs() measured with mode "-" (which
// every such program ends at once).
struct ModeCase {
  const char *name, *mode, *options;
  int code;
  std::vector<std::string> expect;
};
inline void PrintTo(const ModeCase &C, std::ostream *OS) { *OS << C.name; }
using ModeParam = std::tuple<ModeCase, ArchCase>;
inline std::string modeParamName(const ::testing::TestParamInfo<ModeParam> &I) {
  return std::string(std::get<0>(I.param).name) + "_" + std::get<1>(I.param).name;
}

// tests/inputs/run/<Program>.c compiled for A (its runtime's flags, -O1) and run as C says.
inline void expectModeRun(const std::string &Program, const ModeCase &C, const ArchCase &A) {
  const std::string Out = LINKLAB_BINARY_DIR "/tests/run/";
  std::string Obj = Out + Program + "-" + A.name + ".o";
  ASSERT_EQ(std::system(("mkdir -p " + Out + " && clang-22 -c -O1 " + exec::findRuntime(A.arch)->cflags + " " +
                         LINKLAB_SOURCE_DIR "/tests/inputs/run/" + Program + ".c -o " + Obj)
                            .c_str()),
            0);
  std::string Base = Out + Program + "-" + C.name + "-" + A.name;
  std::string Linklab = LINKLAB_BINARY_DIR "/core/linklab ";
  long Wall =
      std::string(C.options).find("@WALL@") == std::string::npos ? 0 : wallLimitMs(Linklab + Obj + " -args prog -");
  std::string Cmd = Linklab + withWallLimit(C.options, Wall) + " " + Obj + " -args prog " + C.mode + " >" + Base +
                    ".stdout 2>" + Base + ".stderr";
  int Status = std::system(Cmd.c_str());
  ASSERT_TRUE(WIFEXITED(Status)) << Cmd;
  std::stringstream S;
  S << std::ifstream(Base + (C.code ? ".stderr" : ".stdout")).rdbuf();
  EXPECT_EQ(WEXITSTATUS(Status), C.code) << Cmd << "\n" << S.str();
  for (auto &E : C.expect)
    EXPECT_NE(S.str().find(withWallLimit(E, Wall)), std::string::npos) << "missing '" << E << "' in: " << S.str();
}

inline std::string sourceDir() { return LINKLAB_SOURCE_DIR; }
inline std::string binaryDir() { return LINKLAB_BINARY_DIR; }
inline std::string linklabPath() { return binaryDir() + "/core/linklab"; }
// clang-22 flags for C linked with Arch's C runtime (its table row).
inline std::string runtimeCFlags(Arch A) { return exec::findRuntime(A)->cflags; }

struct CommandResult {
  int status;
  std::string output; // stdout and stderr together
};

inline CommandResult runCommand(const std::string &Cmd) {
  CommandResult R{-1, {}};
  FILE *P = popen((Cmd + " 2>&1").c_str(), "r");
  if (!P)
    return R;
  char Buf[4096];
  size_t N;
  while ((N = fread(Buf, 1, sizeof Buf, P)) > 0)
    R.output.append(Buf, N);
  int St = pclose(P);
  R.status = WIFEXITED(St) ? WEXITSTATUS(St) : -1;
  return R;
}

// How a test runs a reference i386 program EXE as "./prog": natively where
// this kernel executes 32-bit programs, else under qemu-i386 (kernels built
// without IA-32 emulation, or booted with ia32_emulation=0, refuse them with
// "Exec format error"). The runner text has I386_EXEC where this goes.
inline const std::string &i386Exec() {
  static const std::string Exec = [] {
    char Dir[] = "/tmp/linklab-i386-XXXXXX";
    if (!mkdtemp(Dir))
      return std::string("qemu-i386 -0 ./prog");
    std::string D = Dir;
    // _start: exit(0) through int $0x80; no C library to link.
    int Built = std::system(("printf '.globl _start\\n_start: mov $1,%%eax\\nxor %%ebx,%%ebx\\nint $0x80\\n' | "
                             "gcc -m32 -nostdlib -static -x assembler - -o " +
                             D + "/probe 2>/dev/null")
                                .c_str());
    int Ran = Built == 0 ? std::system((D + "/probe 2>/dev/null").c_str()) : -1;
    std::system(("rm -rf " + D).c_str());
    return std::string(Ran == 0 ? "exec -a ./prog" : "qemu-i386 -0 ./prog");
  }();
  return Exec;
}

// A fresh directory per test, removed afterwards.
class TempDir {
public:
  TempDir() {
    char Tmpl[] = "/tmp/linklab-test-XXXXXX";
    Path = mkdtemp(Tmpl);
  }
  ~TempDir() { runCommand("rm -rf '" + Path + "'"); }
  std::string file(const std::string &Name) const { return Path + "/" + Name; }
  std::string write(const std::string &Name, const std::string &Content) const {
    std::ofstream(file(Name), std::ios::binary) << Content;
    return file(Name);
  }
  std::string Path;
};

inline std::shared_ptr<const std::vector<char>> readBytes(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::make_shared<std::vector<char>>(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
}

// Compiles C (or assembles .s) with clang-22 for Target; fails the test on error.
inline std::string compile(const TempDir &D, const std::string &Source, const std::string &Target,
                           const std::string &Flags, const std::string &OutName) {
  std::string Out = D.file(OutName);
  auto R = runCommand("clang-22 --target=" + Target + " " + Flags + " -c '" + Source + "' -o '" + Out + "'");
  EXPECT_EQ(R.status, 0) << R.output;
  return Out;
}

inline std::string assemble(const TempDir &D, const std::string &AsmText, const std::string &Triple,
                            const std::string &OutName, const std::string &Extra = "") {
  std::string Src = D.write(OutName + ".s", AsmText);
  std::string Out = D.file(OutName);
  auto R = runCommand("llvm-mc-22 -triple=" + Triple + " " + Extra + " -filetype=obj -o '" + Out + "' '" + Src + "'");
  EXPECT_EQ(R.status, 0) << R.output;
  return Out;
}

// Comparing -show-graphs dumps of linklab and llvm-jitlink-22, which number
// GOT entries and stubs in different (hash) orders.
struct NormalizedDump {
  std::multiset<std::string> blocks, edges;
};

// Rewrites a -show-graphs dump so that layouts equal up to GOT and stub order
// compare equal: GOT entry and stub addresses become "got(<target>)" and
// "stub(<target>)", their blocks are compared by target, and symbol lines
// (whose order is hash-dependent for externals) are dropped.
inline NormalizedDump normalizeGraphDump(const std::string &Dump) {
  NormalizedDump N;
  std::istringstream In(Dump);
  std::string Line, Section, BlockAddr;
  std::map<std::string, std::string> GOTName, StubGOT;    // "0x1000b8" -> "strcmp"; stub -> its GOT entry
  std::vector<std::pair<std::string, std::string>> Edges; // block section, line
  static const std::regex SectionRe("^section (.*):$"), BlockRe("^  block (0x[0-9a-f]+) (.*)$"),
      EdgeRe("^      (0x[0-9a-f]+) \\(block \\+ (0x[0-9a-f]+)\\), (.*)target = (.*)$");
  std::smatch M;
  while (std::getline(In, Line)) {
    if (std::regex_match(Line, M, SectionRe))
      Section = M[1];
    else if (std::regex_match(Line, M, BlockRe)) {
      BlockAddr = M[1];
      // Common symbols each get a block at address 0, which llvm-jitlink
      // lays out in hash order: compare those by size only.
      if (Section == ".common")
        N.blocks.insert(Section + " " + std::string(M[2]));
      else if (Section != "$__GOT" && Section != "$__STUBS")
        N.blocks.insert(Section + " " + Line);
    } else if (std::regex_match(Line, M, EdgeRe)) {
      if (Section == "$__GOT")
        GOTName[BlockAddr] = M[4];
      else if (Section == "$__STUBS")
        StubGOT[BlockAddr] = std::string(M[4]).substr(std::string("addressable@").size());
      else
        Edges.push_back({Section, Line});
    }
  }
  auto Rename = [&](std::string L) {
    for (auto &[Addr, Name] : GOTName)
      L = std::regex_replace(L, std::regex("addressable@" + Addr + "\\+0x00000000"), "got(" + Name + ")");
    for (auto &[Addr, GOT] : StubGOT)
      L = std::regex_replace(L, std::regex("addressable@" + Addr + "\\+0x00000000"),
                             "stub(" + GOTName[GOT.substr(0, GOT.find('+'))] + ")");
    return L;
  };
  for (auto &[Sec, E] : Edges)
    N.edges.insert(Sec + " " + Rename(E));
  for (auto &[Stub, GOT] : StubGOT)
    N.edges.insert("stub via " + Rename("addressable@" + GOT));
  return N;
}

inline std::string diffSets(const std::multiset<std::string> &Ref, const std::multiset<std::string> &Ours) {
  std::string Out;
  for (auto &L : Ref)
    if (!Ours.count(L))
      Out += "  only llvm-jitlink: " + L + "\n";
  for (auto &L : Ours)
    if (!Ref.count(L))
      Out += "  only linklab:      " + L + "\n";
  return Out;
}

// A C source of the freestanding program the MachO and COFF tests link.
inline std::string freestandingSource(const std::string &File) {
  return sourceDir() + "/tests/inputs/programs/freestanding/" + File + ".c";
}

// Every symbol line of a graph dump (defined, absolute and external), as a
// multiset: the order of symbols at one address is not part of the format.
inline std::multiset<std::string> symbolLines(const std::string &Dump) {
  std::multiset<std::string> Out;
  std::istringstream In(Dump);
  std::string Line;
  while (std::getline(In, Line))
    if (Line.find("linkage: ") != std::string::npos)
      Out.insert(Line);
  return Out;
}

} // namespace linklab::test
