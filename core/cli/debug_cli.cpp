#include "cli/debug_cli.h"

#include "elf/elf_file.h"
#include "object/archive.h"
#include "session/debug_image.h"

#include <arpa/inet.h>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <netinet/in.h>
#include <optional>
#include <set>
#include <sys/socket.h>
#include <sys/stat.h>
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

// ELF bytes whose section names include .debug_info (or .rela.debug_info,
// whose tail a merged string table shares). Objects without DWARF are left
// out: gdb would put the sections linklab did not allocate (crt1.o's
// .note.ABI-tag) at address 0 and name null pointers after them.
bool hasDwarf(std::string_view Bytes) {
  return Bytes.starts_with("\x7f"
                           "ELF") &&
         Bytes.find(std::string_view(".debug_info\0", 12)) != std::string_view::npos;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
}

// Archive members by "ARCHIVE(MEMBER)" object name, each archive read once.
class Members {
public:
  // The member's bytes, or null if the name is not an archive member.
  std::optional<std::string_view> find(const std::string &Object) {
    size_t Open = Object.find('(');
    if (Open == std::string::npos || !Object.ends_with(")"))
      return std::nullopt;
    std::string Path = Object.substr(0, Open), Member = Object.substr(Open + 1, Object.size() - Open - 2);
    auto It = Archives.find(Path);
    if (It == Archives.end()) {
      std::string Bytes = readFile(Path);
      auto A = Archive::parse(Path, std::make_shared<const std::vector<char>>(Bytes.begin(), Bytes.end()));
      std::map<std::string, std::string_view> ByName;
      if (A) {
        for (const Archive::Member &M : A->members())
          ByName.emplace(std::string(M.name), std::string_view(M.data.data(), M.data.size()));
        Kept.push_back(std::move(*A));
      } else {
        consumeError(A.takeError());
      }
      It = Archives.emplace(Path, std::move(ByName)).first;
    }
    auto M = It->second.find(Member);
    return M == It->second.end() ? std::nullopt : std::optional<std::string_view>(M->second);
  }

private:
  std::map<std::string, std::map<std::string, std::string_view>> Archives;
  std::vector<Archive> Kept; // the bytes the views point into
};

// The functions and data of Object's own symbol table its graph dropped,
// where their sections were linked: a section the file and the link each
// have once, at the same size (whole, so offsets in it still hold).
void addDroppedSymbols(const ObjectLinkInfo &O, const std::string &Bytes, std::vector<DroppedSymbol> &Dropped) {
  auto F = ElfFile::parse(O.name, {Bytes.data(), Bytes.size()});
  if (!F) // the link read it, so this is not expected; the image just names less
    return consumeError(F.takeError());
  std::map<std::string_view, int> Count;
  for (const ElfSection &S : F->sections())
    ++Count[S.name];
  for (const auto &S : O.sections)
    ++Count[S.name];
  for (size_t I = 0; I < F->symbolCount(); ++I) {
    ElfSymbol Sym = F->symbol(I);
    if (Sym.name.empty() || (Sym.type != elf::STT_FUNC && Sym.type != elf::STT_OBJECT) ||
        Sym.shndx >= F->sections().size() || O.findSymbol(Sym.name))
      continue;
    const ElfSection &In = F->sections()[Sym.shndx];
    if (Count[In.name] != 2)
      continue;
    for (const auto &S : O.sections)
      if (S.name == In.name && S.address && S.size == In.size)
        Dropped.push_back({std::string(Sym.name), S.address + Sym.value, Sym.size, Sym.type == elf::STT_FUNC});
  }
}

} // namespace

Error writeDebugScript(const std::string &Path, const std::vector<ObjectLinkInfo> &Objects) {
  std::string S = "# Written by linklab -debug-script: the linked image's symbols, then each\n"
                  "# linked object's own symbols and debug information at the addresses this\n"
                  "# link gave its sections.\n"
                  "set confirm off\n";
  size_t Skipped = 0, Extracted = 0;
  Members Archives;
  std::string Header; // the link's first ELF object's: the image takes its class, machine, flags
  std::string Lines;
  DebugImageSections Elsewhere; // what gdb reads from the objects themselves
  std::vector<DroppedSymbol> Dropped;
  // Members with DWARF go to files beside the script: DIR/SCRIPT.members/N-MEMBER.
  std::string MemberDir = Path + ".members";
  for (size_t I = 0; I < Objects.size(); ++I) {
    const ObjectLinkInfo &O = Objects[I];
    char Real[PATH_MAX];
    std::string File;
    auto Member = Archives.find(O.name);
    std::string Bytes = Member ? std::string(*Member) : readFile(O.name);
    if (Header.empty() && Bytes.starts_with("\x7f"
                                            "ELF"))
      Header = Bytes.substr(0, 64);
    if (!hasDwarf(Bytes)) {
      ++Skipped; // no DWARF (Debian's C runtime has none), or the linker's own graphs
      if (Bytes.starts_with("\x7f"
                            "ELF"))
        addDroppedSymbols(O, Bytes, Dropped);
      continue;
    }
    if (Member) {
      if (!Extracted++ && mkdir(MemberDir.c_str(), 0755) != 0 && errno != EEXIST)
        return makeError(formatv("-debug-script: cannot create %s: %s", MemberDir.c_str(), std::strerror(errno)));
      std::string Name = O.name.substr(O.name.find('(') + 1);
      Name.pop_back();
      for (char &C : Name)
        C = C == '/' ? '_' : C;
      File = formatv("%s/%zu-%s", MemberDir.c_str(), Extracted, Name.c_str());
      std::ofstream Out(File, std::ios::binary);
      if (!Out.write(Member->data(), std::streamsize(Member->size())) || !(Out.close(), Out))
        return makeError(formatv("-debug-script: cannot write %s", File.c_str()));
    } else {
      File = O.name;
    }
    if (!realpath(File.c_str(), Real))
      return makeError(formatv("-debug-script: %s: %s", File.c_str(), std::strerror(errno)));
    std::string Line = "add-symbol-file " + quoteForGdb(Real);
    // The sections the file has: not those the linker made (its GOT, its
    // stubs: $__STUBS, __llvm_jitlink_aarch32_STUBS_v7, .linklab.*).
    std::set<std::string> InFile, Seen;
    auto F = ElfFile::parse(O.name, {Bytes.data(), Bytes.size()}, /*WithSymbols=*/false);
    if (!F)
      return F.takeError();
    for (const ElfSection &Sec : F->sections())
      InFile.emplace(Sec.name);
    for (const auto &Sec : O.sections) {
      // Only allocated sections have an address; a name twice is ambiguous to gdb.
      if (!Sec.address || Sec.name.starts_with(".debug") || !InFile.count(Sec.name) || !Seen.insert(Sec.name).second)
        continue;
      Line += " -s " + Sec.name + " " + hex(Sec.address);
      Elsewhere.insert({I, Sec.name});
    }
    Lines += Line + "\n";
  }
  if (!Header.empty()) {
    auto Image = formatDebugImage(Objects, Header, Elsewhere, Dropped);
    if (!Image)
      return Image.takeError();
    std::string ImagePath = Path + ".elf";
    std::ofstream Out(ImagePath, std::ios::binary);
    char Real[PATH_MAX];
    if (!Out.write(Image->data(), std::streamsize(Image->size())) || !(Out.close(), Out) ||
        !realpath(ImagePath.c_str(), Real))
      return makeError(formatv("-debug-script: cannot write %s", ImagePath.c_str()));
    S += "file " + quoteForGdb(Real) + "\n";
  }
  S += Lines;
  if (Skipped)
    S += formatv("# %zu linked graphs without DWARF: their symbols are in the image\n", Skipped);
  std::ofstream Out(Path, std::ios::binary);
  if (!(Out << S) || !(Out.close(), Out))
    return makeError(formatv("-debug-script: cannot write %s", Path.c_str()));
  return Error::success();
}

std::string gdbCommand(const std::string &Bound, const std::string &Script) {
  std::string C = "gdb-multiarch -q";
  if (!Script.empty())
    C += " -x " + shellQuote(Script);
  // Extended mode: `run` starts the program, as for a native process.
  return C + " -ex " + shellQuote("target extended-remote " + Bound);
}

} // namespace linklab::cli
