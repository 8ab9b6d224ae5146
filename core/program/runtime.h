// The C runtime each architecture's programs link against, from Debian's
// packages as shipped: which files, how a program starts.
// Rows per architecture, the first its default; what differs between rows
// is a field here, not a branch elsewhere.
//
// Every file has a short name ("libc.a", "crt1.o") and the Debian path it is
// read from. The native build reads the paths; the wasm build cannot, so its
// JS side hands the bytes over by name (Node reads the same paths, a browser
// fetches them from its server). Sessions name each file by its path either
// way, so diagnostics and fault reports read the same in both builds.
#pragma once

#include "link/linker.h"
#include "object/archive.h"
#include "protocol/protocol.h"
#include "support/shared_bytes.h"
#include "target/triple.h"

#include <map>
#include <memory>
#include <set>

namespace linklab::exec {

struct RuntimeFile {
  const char *name; // unique within its row: the key callers supply bytes under
  const char *path; // where Debian installs it
  // An archive only some programs link (libstdc++, libm): needed when the
  // program's objects reference a name its symbol index lists, or when an
  // archive before it in the row is needed (whose members may reference
  // it: archives are searched in order, as `ld` does). Every link leaves
  // the others out (neededFiles), as a C program's static link has no
  // libstdc++: the runtime's own weak references (Arm's unwinder names
  // __cxa_begin_cleanup) pull nothing from them then, natively as in the
  // package and the page.
  bool onDemand = false;
};

struct RuntimeSpec {
  Arch arch;
  const char *name; // what -runtime= selects it by ("glibc")
  const char *description;
  std::vector<RuntimeFile> archives; // searched in this order
  // Linked when the entry is `main` and entered like an exec'd process
  // (ProcessEntry startup): it runs the libc's own initialisation,
  // constructors, main and exit. Null name: call main directly.
  RuntimeFile startObject;
  const char *startSymbol;
  // The register carrying a call's first integer argument, or OnStack: the
  // first word above the return address (i386).
  uint16_t firstArgDwarf;
  static constexpr uint16_t OnStack = 0xffff;
  // clang-22 flags that compile C for this runtime: target, ABI and the
  // runtime's headers.
  const char *cflags;
  // The unwinder's `void f(const void *eh_frame, struct object *)` each
  // graph's .eh_frame is registered with (link/eh_frame_registration.h),
  // or null where the runtime has no unwinder.
  const char *registerFrames = nullptr;
  // Passes each of the runtime's own graphs adds, or null: what the
  // runtime's code assumes of a static link that a JIT link's defaults differ
  // from.
  void (*addPasses)(LinkGraph &G, PassConfiguration &Config) = nullptr;

  // Every file of the row: the archives, then the start object if any.
  std::vector<RuntimeFile> files() const;
};

// A runtime's file contents by RuntimeFile::name.
using RuntimeFiles = std::map<std::string, SharedBytes>;

// A's runtime called Name, or its default ("default": the first row).
const RuntimeSpec *findRuntime(Arch A, std::string_view Name = "default");
// Every file of R read from its Debian path (the native build's source).
Expected<RuntimeFiles> readRuntimeFiles(const RuntimeSpec &R);
// The files of R a link of Objects (archives' members included) needs,
// read from their Debian paths: every file but the on-demand archives
// Objects reach no symbol of (neededFiles).
Expected<RuntimeFiles> readRuntimeFiles(const RuntimeSpec &R,
                                        const std::vector<std::pair<std::string, SharedBytes>> &Objects);

// The names objects reference: every external symbol of each object's
// graph, and of every member of an archive among them (as if each member
// were linked: a superset is safe). An input that does not parse adds
// nothing: its link reports it.
std::set<std::string, std::less<>> referencedNames(const std::vector<std::pair<std::string, SharedBytes>> &Objects);
// The files of R a link referencing Names needs, in row order: every file
// but the on-demand archives nothing reaches (RuntimeFile::onDemand).
// Heads holds each on-demand archive's head (Archive::readHead); one
// missing or incomplete counts as needed.
std::vector<RuntimeFile> neededFiles(const RuntimeSpec &R, const std::set<std::string, std::less<>> &Names,
                                     const std::map<std::string, Archive::Head> &Heads);

} // namespace linklab::exec
