// The C runtime each architecture's programs link against, from Debian's
// packages as shipped: which archives, how a program starts, where TLS sits.
// One row per architecture; everything that differs between musl and
// picolibc is a field here, not a branch elsewhere.
#pragma once

#include "executor/protocol.h"
#include "link/tls_layout.h"

#include <memory>

namespace linklab::exec {

struct RuntimeSpec {
  Arch arch;
  const char *description;
  const char *libDir;                 // where the archives and start object live
  std::vector<const char *> archives; // searched in this order; relative to libDir unless absolute
  // Linked when the entry is `main` and entered like an exec'd process
  // (ProcessEntry startup): it runs the libc's own initialisation,
  // constructors, main and exit. Null: call main directly.
  const char *startObject;
  const char *startSymbol;
  TLSVariant tls;
  uint16_t firstArgDwarf; // the register carrying a call's first integer argument
};

const RuntimeSpec *findRuntime(Arch A);
// A whole file, shared by the graphs that point into it.
Expected<std::shared_ptr<const std::vector<char>>> readFileBytes(const std::string &Path);
// The archive paths of a runtime (libDir + name), checked to exist.
Expected<std::vector<std::string>> runtimeArchives(const RuntimeSpec &R);

} // namespace linklab::exec
