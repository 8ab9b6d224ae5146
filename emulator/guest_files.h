// Read-only files embedded in the executor when it is built, which the
// process's file system (guest_fs.h) serves from this copy, never the
// host's: the C.UTF-8 locale, which glibc loads for setlocale(...,
// "C.UTF-8") from /usr/lib/locale/C.utf8 (Debian's, as the reference
// systems have it).
#pragma once

#include <cstdint>
#include <span>

namespace linklab::emu {

struct GuestFileData {
  const char *path; // relative to the folder embedded
  std::span<const uint8_t> bytes;
};
extern const std::span<const GuestFileData> LocaleCUtf8; // generated (embed_files.cmake)

} // namespace linklab::emu
