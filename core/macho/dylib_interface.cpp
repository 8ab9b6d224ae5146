#include "macho/dylib_interface.h"

#include "macho/macho_graph_builder.h"
#include "macho/universal.h"
#include "target/target.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace linklab::macho {

namespace {

constexpr uint32_t MH_MAGIC = 0xfeedface, MH_DYLIB = 6, LC_SYMTAB = 0x2;
constexpr uint32_t CPU_SUBTYPE_X86_64_ALL = 3, CPU_SUBTYPE_ARM64_ALL = 0;

// The triple llvm-jitlink names in its errors: the MachO spelling for a
// MachO link ("arm64e-apple-darwin"), the link's own otherwise.
std::string tripleName(const Triple &TT) {
  std::string Arch = machoArchName(TT);
  return TT.format == ObjectFormat::MachO && !Arch.empty() ? Arch + "-apple-darwin" : fullTriple(TT);
}

Error noSlice(const char *What, const std::string &Path, const Triple &TT) {
  return makeError(
      formatv("%s at %s does not contain a compatible slice for %s", What, Path.c_str(), tripleName(TT).c_str()));
}

// ---- Text stubs --------------------------------------------------------
//
// TAPI's YAML as its writers lay it out: top-level keys at column 0 (archs:
// for versions 1-3, targets: "arm64-macos" for 4), and under exports: /
// reexports: a sequence of entries, each naming its architectures and the
// symbols they export in flow lists ("[ _a, _b ]", which may span lines).

// Every key whose list holds exported names, in any version.
constexpr const char *NameKeys[] = {"symbols",      "weak-symbols",  "weak-def-symbols", "thread-local-symbols",
                                    "objc-classes", "objc-eh-types", "objc-ivars"};

struct StubEntry {
  std::vector<std::string> arches, names;
};

std::string_view trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t' || S.front() == '\r'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

// "[ a, 'b', "c" ]" -> a, b, c; targets ("arm64e-macos") keep their arch.
Expected<std::vector<std::string>> flowList(std::string_view V, bool Targets, const std::string &Where) {
  V = trim(V);
  if (V.size() < 2 || V.front() != '[' || V.back() != ']')
    return makeError(Where + ": expected a list in brackets ('[ ... ]')");
  std::vector<std::string> Out;
  for (std::string_view Rest = V.substr(1, V.size() - 2); !Rest.empty();) {
    size_t Comma = Rest.find(',');
    std::string_view Item = trim(Rest.substr(0, Comma));
    Rest = Comma == std::string_view::npos ? std::string_view() : Rest.substr(Comma + 1);
    if (Item.size() >= 2 && (Item.front() == '\'' || Item.front() == '"') && Item.back() == Item.front())
      Item = Item.substr(1, Item.size() - 2);
    if (Targets)
      Item = Item.substr(0, Item.find('-'));
    if (!Item.empty())
      Out.emplace_back(Item);
  }
  return Out;
}

bool isStub(std::span<const char> B) {
  std::string_view S(B.data(), std::min<size_t>(B.size(), 64));
  return S.starts_with("--- !tapi-tbd") || S.starts_with("---\narchs:") || S.starts_with("--- \narchs:");
}

Expected<std::vector<std::string>> stubInterface(const std::string &Path, std::span<const char> B, const Triple &TT) {
  std::string_view Text(B.data(), B.size());
  std::vector<std::string> FileArches;
  std::vector<StubEntry> Entries;
  std::string Section;
  size_t LineNo = 0;
  bool Started = false;
  for (size_t Pos = 0; Pos < Text.size();) {
    // One logical line: a flow list left open continues on the next lines.
    size_t First = LineNo + 1;
    std::string Line;
    int Open = 0;
    do {
      size_t End = Text.find('\n', Pos);
      std::string_view L = Text.substr(Pos, End == std::string_view::npos ? std::string_view::npos : End - Pos);
      Pos = End == std::string_view::npos ? Text.size() : End + 1;
      ++LineNo;
      for (char C : L)
        Open += C == '[' ? 1 : C == ']' ? -1 : 0;
      Line += Line.empty() ? std::string(L) : " " + std::string(trim(L));
    } while (Open > 0 && Pos < Text.size());
    std::string Where = formatv("%s: line %zu", Path.c_str(), First);
    std::string_view L = Line;
    if (L.starts_with("---")) {
      if (Started) // a second document: an inlined library, not this one's interface
        break;
      Started = true;
      continue;
    }
    if (L.starts_with("..."))
      break;
    size_t Indent = L.find_first_not_of(' ');
    if (Indent == std::string_view::npos || L[Indent] == '#')
      continue;
    L.remove_prefix(Indent);
    bool Item = L.starts_with("- ");
    if (Item)
      L = trim(L.substr(2));
    size_t Colon = L.find(':');
    if (Colon == std::string_view::npos)
      return makeError(Where + ": expected 'key: value'");
    std::string_view Key = trim(L.substr(0, Colon)), Value = trim(L.substr(Colon + 1));
    if (Indent == 0 && !Item) {
      Section = std::string(Key);
      if (Key == "archs" || Key == "targets") {
        auto A = flowList(Value, Key == "targets", Where);
        if (!A)
          return A.takeError();
        FileArches = std::move(*A);
      }
      continue;
    }
    if (Section != "exports" && Section != "reexports")
      continue;
    if (Item)
      Entries.emplace_back();
    if (Entries.empty())
      return makeError(Where + ": '" + std::string(Key) + "' outside an entry of " + Section);
    bool Names = std::any_of(std::begin(NameKeys), std::end(NameKeys), [&](const char *K) { return Key == K; });
    if (Key != "archs" && Key != "targets" && !Names)
      continue;
    auto List = flowList(Value, Key == "targets", Where);
    if (!List)
      return List.takeError();
    auto &Dst = Names ? Entries.back().names : Entries.back().arches;
    Dst.insert(Dst.end(), List->begin(), List->end());
  }
  if (!Started)
    return makeError(Path + ": not a text stub (no '---' line)");

  // The interface of TT's arch; an arm64 link takes an arm64e one.
  std::string Want = machoArchName(TT);
  auto Has = [&](const std::string &A) {
    return std::find(FileArches.begin(), FileArches.end(), A) != FileArches.end();
  };
  std::string Use = Has(Want) ? Want : Want == "arm64" && Has("arm64e") ? "arm64e" : "";
  if (Want.empty() || Use.empty())
    return noSlice("MachO interface file", Path, TT);
  std::vector<std::string> Out;
  std::unordered_set<std::string> Seen;
  for (const StubEntry &E : Entries)
    if (std::find(E.arches.begin(), E.arches.end(), Use) != E.arches.end())
      for (const std::string &N : E.names)
        if (Seen.insert(N).second)
          Out.push_back(N);
  return Out;
}

// ---- MachO dylibs --------------------------------------------------------

// Every name in the dylib's symbol table (LC_SYMTAB), as llvm-jitlink takes
// them; bounds are checked against the slice. A thin file that is no dylib
// is no library at all; a universal one's slice is named as not a dylib.
Expected<std::vector<std::string>> dylibSymbols(const std::string &Path, std::span<const char> B, bool Slice) {
  auto Unrecognized = [&] { return makeError("Cannot get interface for " + Path + " unrecognized file type"); };
  auto Bad = [&](const std::string &Why) { return makeError(Path + ": malformed MachO dylib: " + Why); };
  if (B.size() < 28)
    return Slice ? Bad("truncated header") : Unrecognized();
  uint32_t Magic = readLE<uint32_t>(B.data());
  if (Magic != MH_MAGIC_64 && Magic != MH_MAGIC)
    return Slice ? makeError("MachO at " + Path + " is not a dylib") : Unrecognized();
  bool Wide = Magic == MH_MAGIC_64;
  size_t HeaderSize = Wide ? 32 : 28, NListSize = Wide ? 16 : 12;
  if (B.size() < HeaderSize)
    return Bad("truncated header");
  if (readLE<uint32_t>(B.data() + 12) != MH_DYLIB)
    return Slice ? makeError("MachO at " + Path + " is not a dylib") : Unrecognized();
  uint64_t NCmds = readLE<uint32_t>(B.data() + 16), CmdsEnd = HeaderSize + uint64_t(readLE<uint32_t>(B.data() + 20));
  if (CmdsEnd > B.size())
    return Bad(
        formatv("load commands end at %s, past the file's end (%s)", hex(CmdsEnd).c_str(), hex(B.size()).c_str()));
  std::vector<std::string> Out;
  uint64_t At = HeaderSize;
  for (uint64_t I = 0; I < NCmds; ++I) {
    if (At + 8 > CmdsEnd)
      return Bad(formatv("load command %llu runs past the load commands", (unsigned long long)I));
    uint32_t Cmd = readLE<uint32_t>(B.data() + At), Size = readLE<uint32_t>(B.data() + At + 4);
    if (Size < 8 || At + Size > CmdsEnd)
      return Bad(formatv("load command %llu has size %s", (unsigned long long)I, hex(Size).c_str()));
    if (Cmd == LC_SYMTAB) {
      if (Size < 24)
        return Bad("LC_SYMTAB is shorter than 24 bytes");
      uint64_t SymOff = readLE<uint32_t>(B.data() + At + 8), NSyms = readLE<uint32_t>(B.data() + At + 12);
      uint64_t StrOff = readLE<uint32_t>(B.data() + At + 16), StrSize = readLE<uint32_t>(B.data() + At + 20);
      if (SymOff + NSyms * NListSize > B.size() || StrOff + StrSize > B.size())
        return Bad("LC_SYMTAB's symbols or strings run past the file's end");
      for (uint64_t S = 0; S < NSyms; ++S) {
        uint32_t StrX = readLE<uint32_t>(B.data() + SymOff + S * NListSize);
        if (StrX >= StrSize)
          return Bad(formatv("symbol %llu's name is at %s, past the string table (%s bytes)", (unsigned long long)S,
                             hex(StrX).c_str(), hex(StrSize).c_str()));
        const char *Name = B.data() + StrOff + StrX;
        size_t Len = strnlen(Name, size_t(StrSize - StrX));
        if (Len)
          Out.emplace_back(Name, Len);
      }
    }
    At += Size;
  }
  return Out;
}

} // namespace

std::string machoArchName(const Triple &TT) {
  if (TT.arch == Arch::X86_64)
    return "x86_64";
  if (TT.arch == Arch::AArch64)
    return TT.str.starts_with("arm64e") ? "arm64e" : "arm64";
  return "";
}

Expected<std::vector<std::string>> dylibInterface(const std::string &Path, const SharedBytes &Bytes, const Triple &TT) {
  std::string Want = machoArchName(TT);
  if (Want.empty())
    return makeError(formatv("%s: Unsupported triple for mach-o cpu type: %s", Path.c_str(), fullTriple(TT).c_str()));
  if (isStub(Bytes.span()))
    return stubInterface(Path, Bytes.span(), TT);
  if (!isUniversal(Bytes.span()))
    return dylibSymbols(Path, Bytes.span(), false);
  auto Slices = readUniversal(Path, Bytes);
  if (!Slices)
    return Slices.takeError();
  uint32_t CPU = Want == "x86_64" ? CPU_TYPE_X86_64 : CPU_TYPE_ARM64;
  uint32_t Sub = Want == "x86_64"  ? CPU_SUBTYPE_X86_64_ALL
                 : Want == "arm64" ? CPU_SUBTYPE_ARM64_ALL
                                   : CPU_SUBTYPE_ARM64E;
  auto Find = [&](uint32_t Subtype) {
    return std::find_if(Slices->begin(), Slices->end(), [&](const Slice &S) {
      return S.cpuType == CPU && (S.cpuSubtype & ~CPU_SUBTYPE_MASK) == Subtype;
    });
  };
  auto It = Find(Sub);
  if (It == Slices->end() && Want == "arm64")
    It = Find(CPU_SUBTYPE_ARM64E);
  if (It == Slices->end())
    return noSlice("MachO universal binary", Path, TT);
  return dylibSymbols(Path, It->bytes.span(), true);
}

} // namespace linklab::macho
