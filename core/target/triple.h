// Target triples: just enough structure to pick a backend and an emulator.
#pragma once

#include <string>
#include <string_view>

namespace linklab {

// One enumerator per row of the target registry (target/targets.def).
enum class Arch {
  Unknown,
#define LINKLAB_ARCH(Enumerator, Row) Enumerator,
#include "target/targets.def"
};
enum class ObjectFormat { Unknown, ELF, MachO, COFF };

struct Triple {
  Arch arch = Arch::Unknown;
  ObjectFormat format = ObjectFormat::Unknown;
  std::string str; // as given or as derived from the object

  static Triple parse(std::string_view S);
};

// The registry row's triple spelling ("x86_64"), "unknown" for Arch::Unknown.
const char *archName(Arch A);

} // namespace linklab
