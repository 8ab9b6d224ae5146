// Universal ("fat") MachO files: a big-endian header listing one slice per
// architecture (an object or an archive each), as llvm-lipo writes them. A
// link takes the slice of its own architecture, as llvm-jitlink does.
#pragma once

#include "support/error.h"
#include "support/shared_bytes.h"
#include "target/triple.h"

#include <span>
#include <string>
#include <vector>

namespace linklab::macho {

// FAT_MAGIC or FAT_MAGIC_64, and not a Java class file (which shares
// 0xcafebabe: its next word, the class version, is 43 or more, where a
// universal file's is its slice count).
bool isUniversal(std::span<const char> Bytes);

struct Slice {
  Arch arch; // Arch::Unknown for a CPU type no MachO target links
  uint32_t cpuType;
  uint32_t cpuSubtype; // the low bits: 2 for arm64e (macho::CPU_SUBTYPE_ARM64E)
  SharedBytes bytes;   // shares the file's bytes
};
// Every slice, each checked to lie inside the file; errors name the file
// and the slice.
Expected<std::vector<Slice>> readUniversal(const std::string &Name, const SharedBytes &Bytes);
// The slice for TT's arch (Arch::Unknown: the only slice); an error naming
// the file and listing its slices when it has none.
// The arch variant a thin MachO file's header names where its triple
// differs from its CPU type's: "arm64e" for an arm64 subtype 2; else null.
const char *archVariant(std::span<const char> Bytes);
Expected<SharedBytes> selectSlice(const std::string &Name, const SharedBytes &Bytes, const Triple &TT);

} // namespace linklab::macho
