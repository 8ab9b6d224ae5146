// Symbols a static linker (or its start files) provides that a JIT link has
// no object for, defined at link end only if nothing else defines them (a
// crtbegin object's __dso_handle, the executor's own symbols win):
//
//   __dso_handle  the module handle __cxa_atexit and atexit pass around
//                 (crtbegin's `void *__dso_handle = 0`): an 8-byte object.
//   _end, end     the end of the program's data. A JIT has no single data
//                 segment, so they name the start of a page of the link's
//                 own memory that nothing else uses: what a static
//                 executable's last data page offers past _end (glibc's
//                 minimal malloc carves [&_end, end of page) before mmap).
//   __global_pointer$  RISC-V's gp (crt1.o loads it): the same page, as no
//                 code is relaxed to gp-relative addressing here.
//   __ehdr_start, _init, _fini  the executor's in a run; the same page in a
//                 link that runs nothing (-noexec).
//
// __start_/__stop_ are section_merge.h's, __exidx_start/__exidx_end
// arm_exidx.h's, __rela_iplt_* ifunc.h's,
// __init_array_* and the rest the executor's program's.
#pragma once

#include "platform/ifunc.h"
#include "session/session.h"

namespace linklab {

class LinkerDefinedSymbols : public LinkEndGenerator {
public:
  explicit LinkerDefinedSymbols(uint64_t PageSize) : PageSize(PageSize) {}
  bool claims(std::string_view Name) const override;
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override;

private:
  uint64_t PageSize;
};

// Adds what a static link lays out over all of a session's objects: the
// IRELATIVE table (returned: a host may apply what it does not cover),
// merged __start_/__stop_ sections, Arm's sorted unwind index, and the
// symbols above.
std::shared_ptr<IRelativeTable> addStaticLinkTables(Session &S, uint64_t PageSize);

} // namespace linklab
