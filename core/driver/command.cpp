#include "driver/command.h"

#include "macho/universal.h"
#include "object/archive.h"
#include "target/target.h"

#include <cctype>

namespace linklab::driver {

Expected<std::string> findLibrary(std::string_view Name, std::span<const std::string> Paths,
                                  const std::function<bool(const std::string &)> &Exists) {
  std::string File = "lib" + std::string(Name) + ".a";
  for (const std::string &Dir : Paths)
    if (std::string Path = Dir + "/" + File; Exists(Path))
      return Path;
  return makeError(formatv("library -l%s: %s not found in the -L paths", std::string(Name).c_str(), File.c_str()));
}

Expected<Absolute> parseAbsolute(Field F) {
  size_t Eq = F.text.find('=');
  if (Eq == std::string_view::npos || Eq == 0)
    return makeError(formatv("%s: '%s' is not NAME=ADDRESS", std::string(F.name).c_str(), std::string(F.text).c_str()));
  auto V = parseNumber({F.name, F.text.substr(Eq + 1)});
  if (!V)
    return V.takeError();
  return Absolute{std::string(F.text.substr(0, Eq)), *V};
}

namespace {
std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace(uint8_t(S.front())))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace(uint8_t(S.back())))
    S.remove_suffix(1);
  return S;
}
} // namespace

Expected<std::vector<Absolute>> parseAbsoluteLines(std::string_view Text) {
  std::vector<Absolute> Out;
  unsigned Line = 0;
  for (size_t Start = 0; Start <= Text.size();) {
    size_t End = std::min(Text.find('\n', Start), Text.size());
    std::string_view L = trim(Text.substr(Start, End - Start));
    Start = End + 1;
    if (L.empty())
      continue;
    std::string Where = formatv("absolute symbols, line %u", ++Line);
    size_t Eq = L.find('=');
    std::string_view Name = Eq == std::string_view::npos ? L : trim(L.substr(0, Eq));
    std::string_view Value = Eq == std::string_view::npos ? "" : trim(L.substr(Eq + 1));
    if (Name.empty() || Value.empty() || Name.find_first_of(" \t") != std::string_view::npos)
      return makeError(formatv("%s: '%s' is not NAME=ADDRESS", Where.c_str(), std::string(L).c_str()));
    auto A = parseNumber({Where, Value});
    if (!A)
      return A.takeError();
    Out.push_back({std::string(Name), *A});
  }
  return Out;
}

Expected<executor::Limits> parseRunFields(std::string_view Instructions, std::string_view WallMillis,
                                          std::string_view MemoryMiB) {
  auto L = parseLimits({"instruction limit", trim(Instructions)}, {"time limit", trim(WallMillis)}, {"", ""});
  if (!L)
    return L.takeError();
  if (std::string_view M = trim(MemoryMiB); !M.empty()) {
    auto N = parseNumber({"memory limit", M});
    if (!N)
      return N.takeError();
    if (*N >> 44) // bytes past 64 bits
      return makeError(formatv("memory limit: %s MiB is too large", std::string(M).c_str()));
    L->memoryBytes = *N << 20;
  }
  return L;
}

Expected<const exec::RuntimeSpec *> selectRuntime(Field Runtime, const Triple &TT, bool Required) {
  bool None = Runtime.text == "none";
  // The C runtimes are ELF archives: other formats run freestanding.
  const exec::RuntimeSpec *R =
      None || TT.format != ObjectFormat::ELF ? nullptr : exec::findRuntime(TT.arch, Runtime.text);
  std::string Name(Runtime.name);
  if (!R && !None && Runtime.text != "default")
    return makeError(formatv("%s: '%s' is not 'default', 'none' or a C runtime for %s", Name.c_str(),
                             std::string(Runtime.text).c_str(), fullTriple(TT).c_str()));
  if (!R && Required && !None)
    return makeError(formatv("no C runtime is known for %s; use %s=none", fullTriple(TT).c_str(), Name.c_str()));
  return R;
}

Expected<Triple> parseTriple(Field F) {
  Triple TT = Triple::parse(F.text);
  if (TT.arch != Arch::Unknown && findTarget(TT))
    return TT;
  std::string Known;
  for (const TargetInfo *T : allTargets())
    Known += std::string(Known.empty() ? "" : ", ") + T->triple;
  return makeError(formatv("%s: '%s' is not a target linklab supports (it links for %s)", std::string(F.name).c_str(),
                           std::string(F.text).c_str(), Known.c_str()));
}

Expected<Triple> inputTriple(std::string_view Given, std::span<const InputBytes> Inputs) {
  if (!Given.empty())
    return parseTriple({"-triple", Given});
  for (const InputBytes &I : Inputs)
    if (!Archive::isArchive(I.bytes)) {
      auto TT = tripleOfObject(I.name, I.bytes);
      if (TT && TT->format == ObjectFormat::MachO)
        if (const char *V = macho::archVariant(I.bytes)) // "arm64e-apple-darwin", as LLVM names it
          TT->str = V + TT->str.substr(TT->str.find('-'));
      return TT;
    }
  return makeError("cannot tell the target from the inputs (only archives); give -triple");
}

std::string formatTimings(double LoadMs, double LinkMs, double TotalMs) {
  return formatv("linklab timings: load %.3f ms, link %.3f ms, total %.3f ms\n", LoadMs, LinkMs, TotalMs);
}

} // namespace linklab::driver
