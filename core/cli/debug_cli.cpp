#include "cli/debug_cli.h"

#include <arpa/inet.h>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <netinet/in.h>
#include <set>
#include <sys/socket.h>
#include <unistd.h>

namespace linklab::cli {

Expected<int> listenForGdb(const std::string &HostPort, std::string &Bound) {
  size_t Colon = HostPort.rfind(':');
  std::string Host = Colon == std::string::npos ? HostPort : HostPort.substr(0, Colon);
  std::string Port = Colon == std::string::npos ? "0" : HostPort.substr(Colon + 1);
  if (Host == "localhost")
    Host = "127.0.0.1";
  sockaddr_in Addr{};
  Addr.sin_family = AF_INET;
  char *End = nullptr;
  long P = std::strtol(Port.c_str(), &End, 10);
  if (Port.empty() || *End || P < 0 || P > 65535 || inet_pton(AF_INET, Host.c_str(), &Addr.sin_addr) != 1)
    return makeError(formatv("option '-gdb': '%s' is not IPv4:PORT", HostPort.c_str()));
  Addr.sin_port = htons(uint16_t(P));
  int S = socket(AF_INET, SOCK_STREAM, 0); // not close-on-exec: the executor inherits it
  if (S < 0)
    return makeError(formatv("-gdb: socket: %s", std::strerror(errno)));
  int One = 1;
  setsockopt(S, SOL_SOCKET, SO_REUSEADDR, &One, sizeof(One));
  if (bind(S, (sockaddr *)&Addr, sizeof(Addr)) || listen(S, 1)) {
    int E = errno;
    close(S);
    return makeError(formatv("-gdb: cannot listen on %s: %s", HostPort.c_str(), std::strerror(E)));
  }
  socklen_t Len = sizeof(Addr);
  getsockname(S, (sockaddr *)&Addr, &Len);
  Bound = formatv("%s:%u", Host.c_str(), unsigned(ntohs(Addr.sin_port)));
  return S;
}

namespace {

// gdb's command-line quoting: a word in double quotes, \ and " escaped.
std::string quoteForGdb(const std::string &S) {
  std::string Q = "\"";
  for (char C : S)
    Q += C == '"' || C == '\\' ? std::string("\\") + C : std::string(1, C);
  return Q + "\"";
}

// One shell word.
std::string shellQuote(const std::string &S) {
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

// An ELF file whose section names include .debug_info (or .rela.debug_info,
// whose tail a merged string table shares). Objects without
// DWARF are left out: gdb would put the sections linklab did not allocate
// (crt1.o's .note.ABI-tag) at address 0 and name null pointers after them.
bool hasDwarf(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::string Bytes((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  return Bytes.starts_with("\x7f" "ELF") && Bytes.find(std::string_view(".debug_info\0", 12)) != std::string::npos;
}

} // namespace

Error writeDebugScript(const std::string &Path, const std::vector<ObjectLinkInfo> &Objects) {
  std::string S = "# Written by linklab -debug-script: each linked object's symbols and debug\n"
                  "# information at the addresses this link gave its sections.\n"
                  "set confirm off\n";
  size_t Skipped = 0;
  for (const ObjectLinkInfo &O : Objects) {
    char Real[PATH_MAX];
    if (!hasDwarf(O.name) || !realpath(O.name.c_str(), Real)) {
      ++Skipped; // no DWARF, an archive member (Debian's C runtime has none), or the linker's own graphs
      continue;
    }
    std::string Line = "add-symbol-file " + quoteForGdb(Real);
    std::set<std::string> Seen;
    for (const auto &Sec : O.sections) {
      // Only allocated sections have an address; a name twice is ambiguous to gdb.
      // Sections the linker made ($__GOT, $__STUBS, .linklab.*) are not in the file.
      if (!Sec.address || Sec.name.empty() || Sec.name.starts_with(".debug") || Sec.name.starts_with("$") ||
          Sec.name.starts_with(".linklab.") || !Seen.insert(Sec.name).second)
        continue;
      Line += " -s " + Sec.name + " " + hex(Sec.address);
    }
    S += Line + "\n";
  }
  if (Skipped)
    S += formatv("# %zu linked graphs left out: objects without DWARF, archive members, the linker's own\n", Skipped);
  std::ofstream Out(Path, std::ios::binary);
  if (!(Out << S) || !(Out.close(), Out))
    return makeError(formatv("-debug-script: cannot write %s", Path.c_str()));
  return Error::success();
}

std::string gdbCommand(const std::string &Bound, const std::string &Script) {
  std::string C = "gdb-multiarch -q";
  if (!Script.empty())
    C += " -x " + shellQuote(Script);
  return C + " -ex " + shellQuote("target remote " + Bound);
}

} // namespace linklab::cli
