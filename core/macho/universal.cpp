#include "macho/universal.h"

#include "macho/macho_graph_builder.h"
#include "target/target.h"

namespace linklab::macho {

namespace {
constexpr uint32_t FatMagic = 0xcafebabe, FatMagic64 = 0xcafebabf;
// Java class files start 0xcafebabe too; a universal file with that many
// slices is not something lipo writes (LLVM draws the same line).
constexpr uint32_t MaxSlices = 42;

uint32_t be32(std::span<const char> B, size_t At) {
  return uint32_t(uint8_t(B[At])) << 24 | uint32_t(uint8_t(B[At + 1])) << 16 | uint32_t(uint8_t(B[At + 2])) << 8 |
         uint8_t(B[At + 3]);
}
uint64_t be64(std::span<const char> B, size_t At) { return uint64_t(be32(B, At)) << 32 | be32(B, At + 4); }

// A MachO CPU type's name as lipo prints it.
std::string cpuName(uint32_t CPU, uint32_t Sub = 0) {
  if (CPU == macho::CPU_TYPE_ARM64 && (Sub & ~macho::CPU_SUBTYPE_MASK) == macho::CPU_SUBTYPE_ARM64E)
    return "arm64e";
  for (const TargetInfo *T : allTargets())
    if (T->format.format == ObjectFormat::MachO && T->machine == CPU)
      return T->arch.arch == Arch::AArch64 ? "arm64" : T->arch.name;
  return formatv("cputype %s", hex(CPU).c_str());
}
} // namespace

bool isUniversal(std::span<const char> B) {
  if (B.size() < 8)
    return false;
  uint32_t Magic = be32(B, 0);
  return (Magic == FatMagic || Magic == FatMagic64) && be32(B, 4) <= MaxSlices;
}

Expected<std::vector<Slice>> readUniversal(const std::string &Name, const SharedBytes &Bytes) {
  std::span<const char> B = Bytes.span();
  if (!isUniversal(B))
    return makeError(Name + ": not a universal MachO file");
  bool Wide = be32(B, 0) == FatMagic64;
  uint32_t N = be32(B, 4);
  size_t EntrySize = Wide ? 32 : 20;
  if (8 + N * EntrySize > B.size())
    return makeError(formatv("%s: universal header lists %u slices but the file ends at %s", Name.c_str(), N,
                             hex(B.size()).c_str()));
  std::vector<Slice> Out;
  for (uint32_t I = 0; I < N; ++I) {
    size_t At = 8 + I * EntrySize;
    uint32_t CPU = be32(B, At);
    uint64_t Offset = Wide ? be64(B, At + 8) : be32(B, At + 8);
    uint64_t Size = Wide ? be64(B, At + 16) : be32(B, At + 12);
    if (Offset > B.size() || Size > B.size() - Offset)
      return makeError(formatv("%s: slice %u (%s) at %s, %s bytes, runs past the file's end (%s)", Name.c_str(), I,
                               cpuName(CPU, be32(B, At + 4)).c_str(), hex(Offset).c_str(), hex(Size).c_str(),
                               hex(B.size()).c_str()));
    // A slice is one object or archive: a universal file inside another
    // (even the file itself, at offset 0) would be read without end.
    if (isUniversal(B.subspan(size_t(Offset), size_t(Size))))
      return makeError(formatv("%s: slice %u (%s) at %s is itself a universal file", Name.c_str(), I,
                               cpuName(CPU, be32(B, At + 4)).c_str(), hex(Offset).c_str()));
    Arch A = Arch::Unknown;
    for (const TargetInfo *T : allTargets())
      if (T->format.format == ObjectFormat::MachO && T->machine == CPU)
        A = T->arch.arch;
    Out.push_back({A, CPU, be32(B, At + 4), Bytes.slice(size_t(Offset), size_t(Size))});
  }
  return Out;
}

const char *archVariant(std::span<const char> B) {
  if (B.size() < 12 || readLE<uint32_t>(B.data()) != macho::MH_MAGIC_64 ||
      readLE<uint32_t>(B.data() + 4) != macho::CPU_TYPE_ARM64)
    return nullptr;
  return (readLE<uint32_t>(B.data() + 8) & ~macho::CPU_SUBTYPE_MASK) == macho::CPU_SUBTYPE_ARM64E ? "arm64e" : nullptr;
}

Expected<SharedBytes> selectSlice(const std::string &Name, const SharedBytes &Bytes, const Triple &TT) {
  Arch A = TT.arch;
  auto Slices = readUniversal(Name, Bytes);
  if (!Slices)
    return Slices.takeError();
  if (A == Arch::Unknown && Slices->size() == 1)
    return Slices->front().bytes;
  // Of the slices of TT's arch, the one of its variant (arm64e or not)
  // first, as llvm-jitlink matches the subtype too.
  bool WantE = TT.str.starts_with("arm64e");
  auto IsE = [](const Slice &S) {
    return S.cpuType == macho::CPU_TYPE_ARM64 && (S.cpuSubtype & ~macho::CPU_SUBTYPE_MASK) == macho::CPU_SUBTYPE_ARM64E;
  };
  for (const Slice &S : *Slices)
    if (S.arch == A && A != Arch::Unknown && IsE(S) == WantE)
      return S.bytes;
  std::string Have;
  for (const Slice &S : *Slices) {
    if (S.arch == A && A != Arch::Unknown)
      return S.bytes;
    Have += (Have.empty() ? "" : ", ") + cpuName(S.cpuType, S.cpuSubtype);
  }
  if (A == Arch::Unknown)
    return makeError(formatv("%s: universal file (slices: %s): give -triple to choose one", Name.c_str(),
                             Have.empty() ? "none" : Have.c_str()));
  // llvm-jitlink's words, then the slices there are.
  return makeError(formatv("%s does not contain a relocatable object file or archive compatible with %s (slices: %s)",
                           Name.c_str(), fullTriple(TT).c_str(), Have.empty() ? "none" : Have.c_str()));
}

} // namespace linklab::macho
