#include "target/triple.h"

#include "target/target.h"

namespace linklab {

Triple Triple::parse(std::string_view S) {
  Triple T;
  T.str = std::string(S);
  std::string_view ArchPart = S.substr(0, S.find('-'));
  if (const ArchRow *R = findArchRow(ArchPart))
    T.arch = R->arch;
  if (S.find("darwin") != std::string_view::npos || S.find("macos") != std::string_view::npos)
    T.format = ObjectFormat::MachO;
  else if (S.find("windows") != std::string_view::npos || S.ends_with("-coff"))
    T.format = ObjectFormat::COFF;
  else
    T.format = ObjectFormat::ELF;
  return T;
}

const char *archName(Arch A) { return A == Arch::Unknown ? "unknown" : archRow(A).name; }

} // namespace linklab
