// The linked image's symbols as an ELF executable for a debugger: what gdb
// loads as its main file (`file`, from the -debug-script) so that a session
// names and unwinds what a native process's would. Every linked graph's
// symbols (the C runtime's too, which carries no DWARF), and those its link
// pruned; the linker's stubs as `NAME@plt` with a trampoline to NAME (gdb's
// `step` goes through them into the callee, as through a PLT entry); GOT
// entries as `NAME.got` (gdb reads `NAME@got` as a version of NAME); `main`
// in the main file, where gdb's backtrace stops; every graph's .eh_frame
// in one. Code sections carry no bytes (SHT_NOBITS): gdb reads code from
// the process. DWARF stays in the objects (add-symbol-file);
// docs/debugging.md says why.
#pragma once

#include "session/link_info.h"

#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace linklab {

// (index in Objects, section name): sections gdb reads from the object
// itself (add-symbol-file), whose symbols the image leaves out (gdb would
// find two `main`s), as it leaves out their address ranges (gdb keeps one
// of two sections that overlap).
using DebugImageSections = std::set<std::pair<size_t, std::string>>;

// A symbol of an object's own table that its graph no longer has (a local
// function no relocation names, which the link prunes as JITLink does; a
// native link keeps it in the executable's table), at its linked address.
struct DroppedSymbol {
  std::string name;
  uint64_t address, size;
  bool function;
};

// Header is an ELF object of the link whose class, byte order, machine and
// flags (the float ABI, Arm's EABI version) the image takes.
Expected<std::string> formatDebugImage(const std::vector<ObjectLinkInfo> &Objects, std::string_view Header,
                                       const DebugImageSections &Elsewhere, const std::vector<DroppedSymbol> &Dropped);

} // namespace linklab
