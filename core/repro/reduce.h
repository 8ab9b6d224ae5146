// Test-case reduction for links: shrinks a ReproCase while a caller-given
// predicate (the failure: an error substring, an exit status, an output
// mismatch...) keeps holding. Stages run coarse to fine: whole inputs,
// archive members, sections, symbols (a definition becomes an undefined
// reference; an unreferenced one goes), then relocations. Each stage tries
// removing chunks of items from the last to the first, halving the chunk
// until single items, so the result is deterministic for a deterministic
// predicate, and 1-minimal per stage when the time allows.
#pragma once

#include "repro/repro_case.h"

#include <functional>

namespace linklab::repro {

struct ReduceOptions {
  double seconds = 60; // stop trying candidates after this long
  std::function<void(const std::string &)> progress; // one line per stage and per removal
};

struct ReduceResult {
  ReproCase reduced;
  std::vector<std::string> removed; // "section .data of a.o", ...
  unsigned tests = 0;               // predicate calls
  bool timedOut = false;
};

using FailurePredicate = std::function<bool(const ReproCase &)>;

// Fails(C) must hold for the input; an error otherwise.
Expected<ReduceResult> reduce(ReproCase C, const FailurePredicate &Fails, const ReduceOptions &Opts);

} // namespace linklab::repro
