// The CLI's debugging options: -gdb binds the socket gdb attaches to (the
// executor serves it, emulator/gdb_target.h) and says how to attach;
// -debug-script writes the gdb script that loads each linked object's
// symbols and DWARF at its linked addresses (docs/debugging.md).
#pragma once

#include "session/link_info.h"
#include "support/error.h"

#include <string>
#include <vector>

namespace linklab::cli {

// A listening IPv4 socket on HOST:PORT (PORT 0: a free one), inherited by
// the executor; Bound gets the address it listens on.
Expected<int> listenForGdb(const std::string &HostPort, std::string &Bound);
// add-symbol-file for every linked object with DWARF, each allocated
// section at its address; archive members with DWARF are written to files
// in Path.members/ first.
Error writeDebugScript(const std::string &Path, const std::vector<ObjectLinkInfo> &Objects);
// The command line that attaches gdb-multiarch (Script: "" for none).
std::string gdbCommand(const std::string &Bound, const std::string &Script);

} // namespace linklab::cli
