// STT_GNU_IFUNC symbols, lowered as a static linker lowers them.
//
// An IFUNC symbol names a resolver that returns the implementation to use
// (glibc picks memcpy/strlen variants by CPU features). Every reference to the
// symbol -- a call, its address taken here or in another object, a GOT load --
// reaches one PLT-style stub that jumps through a pointer slot: the stub is the
// function's canonical address, so pointers to it compare equal everywhere.
// The slot is filled at run time from an IRELATIVE record {slot,
// R_<ARCH>_IRELATIVE, resolver}. The records of every graph form one table of
// ElfN_Rela bracketed by __rela_iplt_start/__rela_iplt_end, or where the psABI
// uses REL (i386, Arm) of ElfN_Rel bracketed by __rel_iplt_start/end with the
// resolver's address already in the slot, which a static C library's start
// code walks (glibc's apply_irel, after it has read the CPU's features);
// records no such table covers (a runtime without that start code, or a graph
// linked after the table was laid out) are left for the host to apply by
// calling the resolver (IRelativeTable::takeUncovered).
#pragma once

#include "elf/elf_ifunc.h"
#include "session/session.h"

namespace linklab {

struct IRelative {
  Addr slot, resolver;
};

class IRelativeTable : public Plugin, public LinkEndGenerator {
public:
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;
  bool claims(std::string_view Name) const override;
  // Lays out one table of every record so far, as a graph of its own.
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override;

  // Records that no laid-out table holds and that were not taken before.
  std::vector<IRelative> takeUncovered();
  const std::vector<IRelative> &records() const { return Records; }

private:
  std::vector<IRelative> Records; // in link order
  size_t Covered = 0;             // Records[0, Covered) are in the table
  size_t Taken = 0;               // Records[Covered.., Taken) were handed to the host
  bool LaidOut = false;
};

} // namespace linklab
