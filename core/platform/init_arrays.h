// Constructor and destructor pointer arrays (.preinit_array, .init_array,
// .fini_array and their numbered .init_array.N forms) across every graph of a
// session, and the symbols a static linker defines around their
// concatenation (__init_array_start...), which libc start-up and exit walk.
//
// Each graph's array blocks are kept alive and their fixed-up pointers
// recorded; once every graph of the link has been allocated (a link-end
// generator: the first reference to an __*_array_start/end symbol waits for
// that) one table for the whole program is laid out, a graph of its own,
// which the host fills (table()) once everything is linked. A graph with
// constructors allocated after the table was laid out is an error rather
// than a silently skipped constructor.
#pragma once

#include "session/session.h"

#include <optional>

namespace linklab {

class InitArrays : public Plugin, public LinkEndGenerator {
public:
  enum Kind { PreInit, Init, Fini, NumKinds };

  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;
  bool claims(std::string_view Name) const override;
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override;

  // One more entry, as if a graph allocated now held it in an unnumbered
  // section (a link service's own function: link/eh_frame_registration.h):
  // its index, or nothing once the table is laid out. repoint() changes
  // where it points until the table is filled (table()).
  std::optional<size_t> add(Kind K, uint64_t Pointer);
  void repoint(Kind K, size_t Index, uint64_t Pointer) { Entries[K][Index].pointer = Pointer; }
  // Pointers in the order a static link would run them (by priority, then
  // link order: the graphs' order of addition, not of linking, which lookups
  // decide; entries add()ed go before the graphs' of their priority).
  std::vector<uint64_t> sorted(Kind K) const;
  // Where the laid-out table is and what it must hold (preinit, init, fini
  // concatenated); nothing if no table was laid out.
  struct Table {
    Addr address;
    std::vector<uint8_t> bytes;
  };
  Expected<std::optional<Table>> table(const Session &S) const;

private:
  struct Entry {
    long prio;
    ResourceKey key; // the graph's: link order
    uint64_t order, pointer;
  };
  bool LaidOut = false;
  uint64_t Counts[NumKinds] = {};
  std::vector<Entry> Entries[NumKinds];
  uint64_t Order = 0;
};

} // namespace linklab
