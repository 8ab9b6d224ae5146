// -perf-support (llvm-jitlink's option) writes perf's map of JIT code,
// /tmp/perf-<pid>.map, one "START SIZE name" line (hex, no 0x) per linked
// function: after a -noexec link and after a run in the executor. Every line
// must agree with the graph dump of the same link, and every function of the
// dump must have its line.
#include "test_support.h"

#include <unistd.h>

using namespace linklab::test;

namespace {

// Runs linklab with Args under a shell that execs it, so the shell's pid
// ($$, printed first) is linklab's; returns {status, map text, output}.
struct PerfRun {
  int status;
  std::string map, output;
};
PerfRun runWithPerf(const TempDir &D, const std::string &Args) {
  // The jitdump (ELF_x86_64_perf_support.s reads it) goes to D, not $HOME.
  auto R = runCommand("sh -c 'echo $$; JITDUMPDIR=" + D.Path + " exec " + linklabPath() + " -perf-support " + Args + "'");
  PerfRun P{R.status, "", R.output};
  std::string Pid = R.output.substr(0, R.output.find('\n'));
  std::string Path = "/tmp/perf-" + Pid + ".map";
  std::ifstream In(Path);
  P.map.assign(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
  unlink(Path.c_str());
  return P;
}

TEST(PerfMap, NoExecLinkWritesEveryFunction) {
  TempDir D;
  std::string Src = D.write("p.c", "int twice(int x) { return 2 * x; }\n"
                                   "int helper(int x) { return twice(x) + 1; }\n"
                                   "int data = 4;\n"
                                   "int main(void) { return helper(data); }\n");
  std::string Obj = compile(D, Src, "x86_64-linux-gnu", "-O0", "p.o");
  auto P = runWithPerf(D, "-noexec -show-graphs=.* -slab-allocate=1Mb -slab-address=0x200000 -slab-page-size=4096 " +
                              Obj);
  ASSERT_EQ(P.status, 0) << P.output;
  // Functions in the dump: "0x200000 (block + 0x0): size: 0x1a, ... - main".
  static const std::regex SymRe("^      0x([0-9a-f]+) \\(block \\+ 0x[0-9a-f]+\\): size: 0x([0-9a-f]+), .* -   (\\w+)$");
  std::istringstream In(P.output);
  std::string Line;
  std::smatch M;
  int Functions = 0;
  while (std::getline(In, Line))
    if (std::regex_match(Line, M, SymRe) && (M[3] == "main" || M[3] == "helper" || M[3] == "twice")) {
      // The dump pads nothing but the map has no leading zeros either.
      auto Trim = [](std::string H) { return H.erase(0, std::min(H.find_first_not_of('0'), H.size() - 1)); };
      std::string Want = Trim(M[1]) + " " + Trim(M[2]) + " " + std::string(M[3]) + "\n";
      EXPECT_NE(P.map.find(Want), std::string::npos) << "missing: " << Want << "map:\n" << P.map;
      ++Functions;
    }
  EXPECT_EQ(Functions, 3) << P.output;
  EXPECT_EQ(P.map.find(" data\n"), std::string::npos) << P.map; // not a function
}

TEST(PerfMap, ExecutorRunWritesTheLinkedFunctions) {
  TempDir D;
  std::string Src = D.write("p.c", "int helper(int x) { return x + 1; }\nint main(void) { return helper(6); }\n");
  std::string Obj = compile(D, Src, "x86_64-linux-gnu", "-O0", "p.o");
  auto P = runWithPerf(D, Obj);
  EXPECT_EQ(P.status, 7) << P.output;
  EXPECT_TRUE(std::regex_search(P.map, std::regex("(^|\\n)[0-9a-f]+ [0-9a-f]+ main\\n"))) << P.map;
  EXPECT_TRUE(std::regex_search(P.map, std::regex("(^|\\n)[0-9a-f]+ [0-9a-f]+ helper\\n"))) << P.map;
}

} // namespace
