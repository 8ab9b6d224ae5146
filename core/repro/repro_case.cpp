#include "repro/repro_case.h"

#include "elf/elf_file.h"
#include "object/archive.h"

#include <cstring>

namespace linklab::repro {

std::string baseName(const std::string &Path) { return Path.substr(Path.find_last_of('/') + 1); }

Expected<ReproInput> readInput(std::string Name, std::span<const char> Data, bool Harness) {
  ReproInput In;
  In.name = Name;
  In.harness = Harness;
  if (!Archive::isArchive(Data)) {
    auto O = readElfObject(Name, Data);
    if (!O)
      return O.takeError();
    In.objects.push_back(std::move(*O));
    return In;
  }
  In.archive = true;
  auto A = Archive::parse(Name, std::make_shared<std::vector<char>>(Data.begin(), Data.end()));
  if (!A)
    return A.takeError();
  for (auto &M : A->members()) {
    auto O = readElfObject(std::string(M.name), M.data);
    if (!O)
      return makeError(Name + "(" + std::string(M.name) + "): " + O.takeError().message());
    In.objects.push_back(std::move(*O));
  }
  return In;
}

namespace {

// One 60-byte ar member header.
void arHeader(std::string &Out, const std::string &Name, size_t Size) {
  char H[61];
  std::snprintf(H, sizeof H, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", Name.c_str(), "0", "0", "0", "644", Size);
  Out.append(H, 60);
}

} // namespace

SharedBytes inputBytes(const ReproInput &In) {
  if (!In.archive)
    return std::make_shared<std::vector<char>>(writeElfObject(In.objects.front()));
  // GNU format: a "/" symbol index (big-endian offsets), long names in "//".
  std::vector<std::vector<char>> Files;
  std::vector<std::string> Names, Symbols;
  std::vector<size_t> SymbolMember;
  std::string LongNames;
  for (size_t I = 0; I < In.objects.size(); ++I) {
    const ElfObject &O = In.objects[I];
    Files.push_back(writeElfObject(O));
    std::string N = baseName(O.name) + "/";
    if (N.size() > 16) {
      Names.push_back("/" + std::to_string(LongNames.size()));
      LongNames += N + "\n";
    } else
      Names.push_back(N);
    for (auto &S : O.symbols)
      if (S.bind != 0 /*local*/ && S.defined() && !S.name.empty()) {
        Symbols.push_back(S.name);
        SymbolMember.push_back(I);
      }
  }
  size_t IndexSize = 4 + 4 * Symbols.size();
  for (auto &S : Symbols)
    IndexSize += S.size() + 1;
  size_t Offset = 8 + 60 + IndexSize + (IndexSize & 1);
  if (!LongNames.empty())
    Offset += 60 + LongNames.size() + (LongNames.size() & 1);
  std::vector<uint32_t> MemberOffset;
  for (auto &F : Files) {
    MemberOffset.push_back(uint32_t(Offset));
    Offset += 60 + F.size() + (F.size() & 1);
  }
  std::string Out = "!<arch>\n";
  auto be32 = [&](uint32_t V) {
    for (int S = 24; S >= 0; S -= 8)
      Out += char(V >> S);
  };
  arHeader(Out, "/", IndexSize);
  be32(uint32_t(Symbols.size()));
  for (size_t M : SymbolMember)
    be32(MemberOffset[M]);
  for (auto &S : Symbols)
    Out += S + '\0';
  if (IndexSize & 1)
    Out += '\n';
  if (!LongNames.empty()) {
    arHeader(Out, "//", LongNames.size());
    Out += LongNames;
    if (LongNames.size() & 1)
      Out += '\n';
  }
  for (size_t I = 0; I < Files.size(); ++I) {
    arHeader(Out, Names[I], Files[I].size());
    Out.append(Files[I].data(), Files[I].size());
    if (Files[I].size() & 1)
      Out += '\n';
  }
  return std::make_shared<std::vector<char>>(Out.begin(), Out.end());
}

} // namespace linklab::repro
