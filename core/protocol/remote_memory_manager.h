// A MemoryManager whose memory lives in an executor, placed as
// link/process_layout.h says (the policy -noexec follows too).
#pragma once

#include "link/process_layout.h"
#include "protocol/executor_client.h"

#include <deque>

namespace linklab::executor {

class RemoteMemoryManager : public MemoryManager {
public:
  RemoteMemoryManager(ExecutorClient &C, uint64_t PageSize) : C(C), Layout(PageSize) {}
  // Answers at once: the executor's reservations are predicted
  // (ExecutorClient::reserveNow), so a link waits for no round trip, and
  // it places graphs in the order -noexec does. A reservation the executor
  // then refuses fails the finalizes of its allocations that come after the
  // answer, and the next run (ExecutorClient::unchecked).
  void allocate(const void *Dylib, LinkGraph &G, OnAllocatedFn OnAllocated) override;
  void deallocate(std::vector<FinalizedAlloc> Allocs, std::function<void(Error)> OnDeallocated) override;

  // Forgets allocations (by id); reservations left empty go back to the executor.
  void handBack(std::vector<uint64_t> Ids, std::function<void(Error)> Done);
  // Why a reservation of allocation Id failed in the executor, if one did.
  std::optional<std::string> refusal(uint64_t Id) const;

private:
  ExecutorClient &C;
  ProcessLayout Layout;
  std::map<Addr, std::string> Refused; // reservation base -> why it failed
};

} // namespace linklab::executor
