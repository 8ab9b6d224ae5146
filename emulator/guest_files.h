// Read-only files the executor serves the emulated process from its own
// copy, not the host's: the C.UTF-8 locale, which glibc loads for
// setlocale(..., "C.UTF-8") from /usr/lib/locale/C.utf8 (Debian's, embedded
// when the executor is built, as the reference systems have it). Every
// other path stays refused or absent (linux_syscalls.cpp, openPath).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace linklab::emu {

struct GuestFileData {
  const char *path; // relative to the folder embedded
  std::span<const uint8_t> bytes;
};
extern const std::span<const GuestFileData> LocaleCUtf8; // generated (embed_files.cmake)

struct GuestFile {
  std::span<const uint8_t> bytes; // a folder's are empty
  bool folder = false;
  uint64_t inode = 0; // distinct for each file and folder
};
// What the executor serves at the absolute Path, if anything.
std::optional<GuestFile> findGuestFile(std::string_view Path);

} // namespace linklab::emu
