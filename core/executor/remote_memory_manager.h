// A MemoryManager whose memory lives in an executor: each graph gets one
// reservation, laid out by BasicLayout with every segment page-aligned (so
// each can carry its own protection); finalize ships the bytes and
// protections in one message; deallocation is batched into one message.
#pragma once

#include "executor/executor_client.h"
#include "link/memory_manager.h"

namespace linklab::executor {

class RemoteMemoryManager : public MemoryManager {
public:
  RemoteMemoryManager(ExecutorClient &C, uint64_t PageSize) : C(C), PageSize(PageSize) {}
  void allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) override;
  void deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) override;

private:
  ExecutorClient &C;
  uint64_t PageSize;
};

} // namespace linklab::executor
