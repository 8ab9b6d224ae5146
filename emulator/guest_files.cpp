#include "guest_files.h"

namespace linklab::emu {

std::optional<GuestFile> findGuestFile(std::string_view Path) {
  constexpr std::string_view Root = "/usr/lib/locale/C.utf8";
  if (LocaleCUtf8.empty() || !Path.starts_with(Root))
    return std::nullopt;
  Path.remove_prefix(Root.size());
  while (Path.ends_with('/'))
    Path.remove_suffix(1);
  // Inodes: the folder 1, file I 2 + 2I, a folder holding it 3 + 2I.
  if (Path.empty())
    return GuestFile{{}, true, 1};
  if (!Path.starts_with('/'))
    return std::nullopt;
  Path.remove_prefix(1);
  for (size_t I = 0; I < LocaleCUtf8.size(); ++I) {
    std::string_view Name = LocaleCUtf8[I].path;
    if (Name == Path)
      return GuestFile{LocaleCUtf8[I].bytes, false, 2 + 2 * I};
    if (Name.starts_with(Path) && Name[Path.size()] == '/')
      return GuestFile{{}, true, 3 + 2 * I};
  }
  return std::nullopt;
}

} // namespace linklab::emu
