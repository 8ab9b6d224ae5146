#include "target/target.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <vector>

namespace linklab {

#define LINKLAB_ARCH(Enumerator, Row) extern const ArchRow Row;
#define LINKLAB_FORMAT(Row) extern const ObjectFormatRow Row;
#define LINKLAB_TARGET(Row) extern const TargetInfo Row;
#include "target/targets.def"

namespace {
// Indexed by Arch: the enum lists the same rows in the same order.
const ArchRow *const Arches[] = {
    nullptr,
#define LINKLAB_ARCH(Enumerator, Row) &Row,
#include "target/targets.def"
};
const ObjectFormatRow *const Formats[] = {
#define LINKLAB_FORMAT(Row) &Row,
#include "target/targets.def"
};
const TargetInfo *const Targets[] = {
#define LINKLAB_TARGET(Row) &Row,
#include "target/targets.def"
};
} // namespace

const ArchRow &archRow(Arch A) {
  assert(A != Arch::Unknown && size_t(A) < std::size(Arches) && "no registry row for this Arch");
  return *Arches[size_t(A)];
}

EdgeKindNameFn edgeKindNamesOf(const Triple &TT) {
  return TT.arch == Arch::Unknown ? nullptr : archRow(TT.arch).edgeKindName;
}

const ArchRow *findArchRow(std::string_view Name) {
  for (size_t I = 1; I < std::size(Arches); ++I) {
    const ArchRow *R = Arches[I];
    if (Name == R->name)
      return R;
    for (std::string_view Rest = R->aliases; !Rest.empty();) {
      size_t Sp = Rest.find(' ');
      if (Rest.substr(0, Sp) == Name)
        return R;
      Rest = Sp == std::string_view::npos ? std::string_view() : Rest.substr(Sp + 1);
    }
  }
  return nullptr;
}

std::span<const ArchRow *const> allArchRows() { return {Arches + 1, std::size(Arches) - 1}; }
std::span<const TargetInfo *const> allTargets() { return Targets; }

const TargetInfo *findTarget(const Triple &TT) {
  for (const TargetInfo *T : Targets)
    if (T->arch.arch == TT.arch && T->format.format == TT.format)
      return T;
  return nullptr;
}

Triple targetTriple(const TargetInfo &T) {
  Triple TT;
  TT.arch = T.arch.arch;
  TT.format = T.format.format;
  TT.str = std::string(T.arch.name) + T.format.tripleSuffix;
  return TT;
}

std::string fullTriple(const Triple &TT) {
  const TargetInfo *T = findTarget(TT);
  if (!T)
    return TT.str;
  if (TT.format != ObjectFormat::ELF)
    return T->triple; // one OS per format
  // arch-vendor-os[-env] (LLVM's object spelling has an empty vendor:
  // "x86_64--freebsd"); arch-os-env when the vendor is left out.
  std::vector<std::string_view> Parts;
  for (std::string_view Rest = TT.str;;) {
    size_t Dash = Rest.find('-');
    Parts.push_back(Rest.substr(0, Dash));
    if (Dash == std::string_view::npos)
      break;
    Rest = Rest.substr(Dash + 1);
  }
  if (Parts.size() < 3 || Parts[1] == "linux" || Parts[2].empty() || Parts[2] == "linux" || Parts[2] == "unknown")
    return T->triple;
  std::string Out = std::string(T->arch.name) + "-" + (Parts[1].empty() ? "unknown" : std::string(Parts[1]));
  for (size_t I = 2; I < Parts.size(); ++I)
    Out += "-" + std::string(Parts[I]);
  return Out;
}

// What a buffer no format row recognises is, as an error naming it.
static Error unknownFormat(const std::string &Name, std::span<const char> B) {
  if (B.size() >= 8 && std::memcmp(B.data(), "!<arch>\n", 8) == 0)
    return makeError(Name + ": is a static archive; pass it with -l/-L or as an archive input");
  // LLVM bitcode, bare ('BC' 0xC0DE) or in its wrapper (0x0B17C0DE): what -flto writes.
  if (B.size() >= 4 &&
      (std::memcmp(B.data(), "BC\xc0\xde", 4) == 0 || std::memcmp(B.data(), "\xde\xc0\x17\x0b", 4) == 0))
    return makeError(Name + ": is LLVM bitcode (compiled with -flto?); linklab links machine-code objects: "
                            "compile without -flto");
  return makeError(Name + (B.size() < 4 ? ": file too small to be an object" : ": unrecognized object file format"));
}

bool isObjectFile(std::span<const char> Bytes) {
  return std::any_of(std::begin(Formats), std::end(Formats),
                     [&](const ObjectFormatRow *F) { return F->matches(Bytes); });
}

Expected<const TargetInfo *> identifyObject(const std::string &Name, std::span<const char> Bytes) {
  for (const ObjectFormatRow *F : Formats) {
    if (!F->matches(Bytes))
      continue;
    auto Id = F->identify(Name, Bytes);
    if (!Id)
      return Id.takeError();
    for (const TargetInfo *T : Targets)
      if (&T->format == F && T->machine == Id->machine && T->arch.pointerSize == Id->pointerSize &&
          T->arch.bigEndian == Id->bigEndian)
        return T;
    const char *MName = F->machineName ? F->machineName(Id->machine) : nullptr;
    std::string Supported;
    for (const TargetInfo *T : Targets)
      if (&T->format == F)
        Supported += std::string(Supported.empty() ? "" : ", ") + T->arch.name;
    return makeError(formatv("%s: unsupported %s object: machine %s%s%u%s, %u-bit %s-endian (supported: %s)",
                             Name.c_str(), F->name, MName ? MName : "", MName ? " (" : "", Id->machine,
                             MName ? ")" : "", Id->pointerSize * 8u, Id->bigEndian ? "big" : "little",
                             Supported.c_str()));
  }
  return unknownFormat(Name, Bytes);
}

Expected<Triple> tripleOfObject(const std::string &Name, std::span<const char> Bytes) {
  auto T = identifyObject(Name, Bytes);
  if (!T)
    return T.takeError();
  Triple TT = targetTriple(**T);
  auto Id = (*T)->format.identify(Name, Bytes);
  if (!Id)
    return Id.takeError();
  TT.str += Id->os; // as the graph's triple names it
  return TT;
}

Error checkRunnable(const Triple &TT) {
  if (TT.arch == Arch::Unknown || !archRow(TT.arch).cannotRun)
    return Error::success();
  return makeError(
      formatv("cannot run %s code: %s; link it with -noexec", archRow(TT.arch).name, archRow(TT.arch).cannotRun));
}

} // namespace linklab
