// Where a process's graphs lie: one policy for a run (the executor's memory)
// and for -noexec, so that -noexec shows the link that runs.
//
// Address space comes in reservations, made in the order `needs` lists them
// (a run asks the executor; -noexec follows the executor's plan,
// protocol/address_plan.h):
//  - an object's graph gets a reservation of its own, its segments one after
//    another, each on a page boundary, as llvm-jitlink's slab and a static
//    linker keep a small program's code beside its data (AArch64's
//    -mcmodel=tiny reaches data with ADR and literal loads, +-1 MiB);
//  - the C runtime's graphs (ProcessDylib) share arenas, one series per
//    protection, as a static executable's sections share its segments:
//    glibc is hundreds of graphs (one per archive member), every protected
//    range is one emulator memory region (QEMU caps them near a thousand,
//    emulator/process.cpp), and the runtime's code stays together, within
//    reach of short branches (RISC-V JAL reaches +-1 MiB).
// A runtime graph's segment is carved from its protection's arena at the
// segment's own alignment (no page per graph). Arenas are mapped once with
// their final protection, are zero when mapped and never reused; one is
// handed back when the last graph in it is.
#pragma once

#include "link/memory_manager.h"

#include <map>
#include <optional>

namespace linklab {

class ProcessLayout {
public:
  // The arenas' size unless a segment needs more.
  static constexpr uint64_t ArenaSize = 4 << 20;

  // A range of a reservation and its protection.
  struct Piece {
    uint64_t offset, size;
    MemProt prot;
  };
  // Address space to reserve, and the protections to give it at once.
  struct Reservation {
    uint64_t size, alignment;
    std::vector<Piece> pieces;
    bool arena; // else a graph's own
  };

  explicit ProcessLayout(uint64_t PageSize) : PageSize(PageSize) {}
  uint64_t pageSize() const { return PageSize; }

  // What L needs reserved before place(); empty when reserved memory holds it.
  std::vector<Reservation> needs(const void *Dylib, BasicLayout &L) const;
  // Records that R (from needs) was reserved at Base.
  void reserved(const Reservation &R, Addr Base);
  // Gives L's segments their addresses; returns the allocation's id.
  uint64_t place(const void *Dylib, BasicLayout &L);
  // The reservations allocation Id has segments in.
  const std::vector<Addr> &reservationsOf(uint64_t Id) const;
  // Forgets allocations; returns the reservations they leave empty.
  std::vector<Addr> release(const std::vector<uint64_t> &Ids);

private:
  struct Arena {
    Addr base;
    uint64_t size, used;
    MemProt prot;
    unsigned live; // allocations with a segment here
    bool own;      // one object graph's: no other segment goes there
  };
  const Arena *arenaFor(MemProt P, uint64_t Size, uint64_t Align) const;
  // A graph's own reservation: its segments' offsets in it.
  Reservation ownReservation(BasicLayout &L) const;

  uint64_t PageSize;
  std::vector<Arena> Arenas; // the last of each protection takes new segments
  std::optional<Addr> Own;   // reserved for the next object's graph
  uint64_t NextId = 1;
  std::map<uint64_t, std::vector<Addr>> Allocs; // id -> the reservation of each of its segments (by base)
};

} // namespace linklab
