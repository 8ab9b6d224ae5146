// Arm EHABI's unwind index as a static linker lays it out: one table of
// every graph's .ARM.exidx entries, sorted by the address of the function
// each describes and bracketed by __exidx_start/__exidx_end, which libgcc's
// unwinder (unwind-arm.o) binary-searches in a static executable (EHABI
// section 5, "Index table entries"; lld's ARMExidxSyntheticSection).
//
// Each object keeps its own .ARM.exidx sections, alive with the graph: their
// PREL31 edges keep their functions and .ARM.extab entries, their R_ARM_NONE
// edges the personality routines. Once a graph is allocated its entries are
// read from those edges: the function's address, and the second word, a
// copied EXIDX_CANTUNWIND or inline unwind description or the address of
// the .ARM.extab entry it points at. At link end a graph of its own holds
// the table, one 8-byte entry per function in address order, its PREL31
// edges aimed at absolute symbols for those addresses. A graph allocated
// after the table was laid out (a later lookup's) is not in it: its frames
// do not unwind, as a late graph's .eh_frame is not registered elsewhere.
//
// In a static link, unwind-arm.o's weak reference to __gnu_Unwind_Find_exidx
// (glibc's lookup through dl_iterate_phdr, for dynamic programs) extracts
// no archive member and stays 0, so the unwinder reads the brackets.
// linklab's archive search links members for weak references too, so the
// reference is bound to 0 here as each graph is added.
#pragma once

#include "session/session.h"

namespace linklab {

class ArmExidxTable : public Plugin, public LinkEndGenerator {
public:
  Error notifyAdded(ResourceKey K, LinkGraph &G) override;
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;
  bool claims(std::string_view Name) const override;
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override;

private:
  struct Entry {
    Addr function;   // with the Thumb bit, as PREL31 encodes it
    bool extab;      // the second word points at an .ARM.extab entry
    uint32_t second; // ... at address `second`, or is this word
  };
  std::vector<Entry> Entries;
  bool LaidOut = false;
};

} // namespace linklab
