#include "support/triple.h"

namespace linklab {

Triple Triple::parse(std::string_view S) {
  Triple T;
  T.str = std::string(S);
  std::string_view ArchPart = S.substr(0, S.find('-'));
  if (ArchPart == "x86_64" || ArchPart == "amd64")
    T.arch = Arch::X86_64;
  else if (ArchPart == "aarch64" || ArchPart == "arm64")
    T.arch = Arch::AArch64;
  else if (ArchPart == "riscv64")
    T.arch = Arch::RISCV64;
  if (S.find("darwin") != std::string_view::npos || S.find("macos") != std::string_view::npos)
    T.format = ObjectFormat::MachO;
  else if (S.find("windows") != std::string_view::npos)
    T.format = ObjectFormat::COFF;
  else
    T.format = ObjectFormat::ELF;
  return T;
}

const char *archName(Arch A) {
  switch (A) {
  case Arch::X86_64: return "x86_64";
  case Arch::AArch64: return "aarch64";
  case Arch::RISCV64: return "riscv64";
  case Arch::Unknown: break;
  }
  return "unknown";
}

} // namespace linklab
