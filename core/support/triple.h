// Target triples: just enough structure to pick a backend and an emulator.
#pragma once

#include <string>
#include <string_view>

namespace linklab {

enum class Arch { Unknown, X86_64, AArch64, RISCV64 };
enum class ObjectFormat { Unknown, ELF, MachO, COFF };

struct Triple {
  Arch arch = Arch::Unknown;
  ObjectFormat format = ObjectFormat::Unknown;
  std::string str; // as given or as derived from the object

  static Triple parse(std::string_view S);
};

const char *archName(Arch A);

} // namespace linklab
