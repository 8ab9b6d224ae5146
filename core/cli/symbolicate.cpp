#include "cli/symbolicate.h"

#include "cli/self.h"
#include "support/shared_bytes.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <unistd.h>

namespace linklab::cli {

namespace {

// The whole file ("-": stdin), or llvm-jitlink's "'PATH': reason" error.
Expected<SharedBytes> readInput(const std::string &Path) {
  int Errno = 0;
  SharedBytes Bytes =
      Path == "-" ? SharedBytes::tryReadAll(STDIN_FILENO, Errno) : SharedBytes::tryReadFile(Path, Errno);
  if (Errno)
    return makeError(formatv("'%s': %s", Path.c_str(), std::strerror(Errno)));
  return Bytes;
}

constexpr std::string_view Space = " \t\n\v\f\r";

std::string_view rtrim(std::string_view S) {
  size_t End = S.find_last_not_of(Space);
  return End == std::string_view::npos ? std::string_view() : S.substr(0, End + 1);
}

std::string_view trim(std::string_view S) {
  S = rtrim(S);
  return S.substr(std::min(S.size(), S.find_first_not_of(Space)));
}

// Hex digits after an optional "0x", all of them, fitting 64 bits: what
// llvm-jitlink takes for an address in both the table and a backtrace.
bool parseAddress(std::string_view S, uint64_t &Value) {
  if (S.substr(0, 2) == "0x")
    S.remove_prefix(2);
  if (S.empty())
    return false;
  Value = 0;
  for (char C : S) {
    int D = C >= '0' && C <= '9'   ? C - '0'
            : C >= 'a' && C <= 'f' ? C - 'a' + 10
            : C >= 'A' && C <= 'F' ? C - 'A' + 10
                                   : -1;
    if (D < 0 || Value >> 60)
      return false;
    Value = Value << 4 | uint64_t(D);
  }
  return true;
}

// Calls F on each '\n'-separated line; text ending in '\n' has an empty last
// line (llvm-jitlink prints it too).
template <typename Fn> void forEachLine(std::string_view Text, Fn F) {
  for (;;) {
    size_t NL = Text.find('\n');
    F(Text.substr(0, NL));
    if (NL == std::string_view::npos)
      return;
    Text.remove_prefix(NL + 1);
  }
}

struct SymbolInfo {
  std::string_view name, graph;
};

// The table: a line "NAME" in quotes starts a graph's symbols, "ADDR NAME"
// lines follow; any other line is skipped, as llvm-jitlink skips it.
std::map<uint64_t, SymbolInfo> parseSymtab(std::string_view Text) {
  std::map<uint64_t, SymbolInfo> Syms;
  std::string_view Graph = "<unidentified>";
  forEachLine(Text, [&](std::string_view Line) {
    Line = trim(Line);
    if (Line.empty())
      return;
    if (Line.front() == '"' && Line.back() == '"') {
      size_t First = Line.find_first_not_of('"');
      Graph = First == std::string_view::npos ? std::string_view()
                                              : Line.substr(First, Line.find_last_not_of('"') + 1 - First);
      return;
    }
    size_t Sp = Line.find(' ');
    uint64_t A;
    if (Sp != std::string_view::npos && parseAddress(Line.substr(0, Sp), A))
      Syms[A] = {Line.substr(Sp + 1), Graph};
  });
  return Syms;
}

// A line whose last space-separated word is an address at most 2 GiB past a
// symbol gets "NAME[ + DELTA] (GRAPH)" after that word; others are kept.
std::string symbolicate(std::string_view Backtrace, const std::map<uint64_t, SymbolInfo> &Syms) {
  std::string Out;
  forEachLine(Backtrace, [&](std::string_view Line) {
    std::string_view Trimmed = rtrim(Line);
    size_t Sp = Trimmed.rfind(' ');
    uint64_t A;
    if (Sp == std::string_view::npos || !parseAddress(Trimmed.substr(Sp + 1), A)) {
      Out.append(Line).push_back('\n');
      return;
    }
    auto It = Syms.upper_bound(A);
    if (It == Syms.begin() || A - std::prev(It)->first >= (uint64_t(1) << 31)) {
      Out.append(Line).push_back('\n');
      return;
    }
    auto &[SymAddr, Info] = *std::prev(It);
    Out.append(Trimmed).append(" ").append(Info.name);
    if (A != SymAddr)
      Out += formatv(" + %llu", (unsigned long long)(A - SymAddr));
    Out.append(" (").append(Info.graph).append(")\n");
  });
  return Out;
}

} // namespace

int symbolicateCommand(const driver::Options &O) {
  if (!O.writeSymtab.empty())
    std::fputs("write-symtab specified with symbolicate-with, ignoring.\n", stderr);
  auto Table = readInput(O.symbolicateWith);
  if (!Table)
    return fail(Table.takeError());
  auto Syms = parseSymtab(std::string_view(Table->data(), Table->size()));
  for (auto &In : O.inputs) {
    auto Text = readInput(In);
    if (!Text)
      return fail(Text.takeError());
    std::string Out = symbolicate(std::string_view(Text->data(), Text->size()), Syms);
    std::fwrite(Out.data(), 1, Out.size(), stdout);
  }
  return std::fflush(stdout) == 0 ? 0 : fail(makeError("cannot write the symbolicated backtrace to stdout"));
}

} // namespace linklab::cli
