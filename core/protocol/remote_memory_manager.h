// A MemoryManager whose memory lives in an executor.
//
// Graphs share large reservations ("arenas"), one series per protection,
// as a static executable's sections share its segments: a program linked
// against glibc is hundreds of graphs (one per archive member), and
//  - every uc_mem_map or protection change is one emulator memory region,
//    which QEMU caps near a thousand (emulator/process.cpp), so each arena
//    is mapped once with its final protection and never re-protected;
//  - one program's code lies together, within reach of short branches
//    (RISC-V JAL reaches +-1 MiB, AArch64 B +-128 MiB).
// A graph's segment is carved from its protection's arena at the segment's
// own alignment (no page per graph); finalize writes the content bytes (an
// arena is zero when mapped and never reused, so zero fill needs no bytes).
// An arena is handed back when the last graph in it is deallocated.
#pragma once

#include "protocol/executor_client.h"
#include "link/memory_manager.h"

#include <deque>

namespace linklab::executor {

class RemoteMemoryManager : public MemoryManager {
public:
  RemoteMemoryManager(ExecutorClient &C, uint64_t PageSize) : C(C), PageSize(PageSize) {}
  void allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) override;
  void deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) override;

  // The arenas' size unless a segment needs more.
  static constexpr uint64_t ArenaSize = 4 << 20;

  struct Arena {
    Addr base;
    uint64_t size, used;
    MemProt prot;
    unsigned live; // allocations with a segment here
  };
  // Forgets allocations (by id); arenas left empty go back to the executor.
  void handBack(std::vector<uint64_t> Ids, std::function<void(Error)> Done);

private:
  struct Request {
    std::shared_ptr<BasicLayout> layout;
    std::string name;
    OnAllocatedFn done;
  };
  void pump();
  void mappingFailed(Error E, const std::string &Name);
  Arena *arenaFor(MemProt P, uint64_t Size, uint64_t Align);

  ExecutorClient &C;
  uint64_t PageSize;
  std::vector<Arena> Arenas; // the last of each protection takes new segments
  std::deque<Request> Queue;  // allocations waiting (one allocation's arenas are mapped at a time)
  bool Mapping = false, Pumping = false;
  uint64_t NextId = 1;
  std::map<uint64_t, std::vector<Addr>> Allocs; // id -> the arena of each of its segments (by base)
};

} // namespace linklab::executor
