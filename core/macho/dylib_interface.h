// The names a library exports, for -weak_library (ld64's -weak_library:
// link against a library that may be missing at run time, so every name it
// exports resolves to null). The library is a text stub (a .tbd file: TAPI
// YAML, versions 1 to 4) or a MachO dylib, thin or universal, as
// llvm-jitlink reads them.
#pragma once

#include "support/error.h"
#include "support/shared_bytes.h"
#include "target/triple.h"

#include <string>
#include <vector>

namespace linklab::macho {

// TT's architecture as MachO and text stubs spell it ("x86_64", "arm64",
// "arm64e"), or "" for one MachO has no CPU type for.
std::string machoArchName(const Triple &TT);

// The names Path's library exports for TT's architecture. A stub or a
// universal dylib must have TT's architecture (an arm64 link also takes
// arm64e, which runs arm64 code); a thin dylib's names are taken whatever
// its CPU, as llvm-jitlink takes them. Errors name the file and, for a
// missing architecture, the triple, in llvm-jitlink's words.
Expected<std::vector<std::string>> dylibInterface(const std::string &Path, const SharedBytes &Bytes, const Triple &TT);

} // namespace linklab::macho
