// Helpers for tests that build objects from sources at test time and run the
// project's tools and the reference tools.
#pragma once

#include "exec/runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace linklab::test {

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

} // namespace linklab::test
