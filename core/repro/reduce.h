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

// An item of a stage: input, object (archive member), and the index of the
// section/symbol/relocation (with its section for relocations).
struct ReduceItem {
  size_t in = 0, obj = 0, index = 0, section = 0;
};

struct ReduceOptions {
  double seconds = 60;                               // stop trying candidates after this long
  std::function<void(const std::string &)> progress; // one line per stage and per removal
};

struct ReduceResult {
  ReproCase reduced;
  std::vector<std::string> removed; // "section .data of a.o", ...
  unsigned tests = 0;               // predicate calls
  bool timedOut = false;
};

using FailurePredicate = std::function<bool(const ReproCase &)>;

// The reduction as steps, for callers whose test of a candidate is
// asynchronous (the wasm package links or runs it in an executor): next()
// gives the candidate to test (first the input itself), report() whether it
// still fails; when next() returns null, result() is the outcome.
class Reducer {
public:
  Reducer(ReproCase C, ReduceOptions Opts);
  const ReproCase *next();
  // The input itself must fail: an error otherwise (and the reduction ends).
  Error report(bool Fails);
  ReduceResult result() &&;

private:
  bool advance(); // positions the search at the next candidate; false when done
  void say(const std::string &S) const;
  double elapsed() const;

  ReduceOptions Opts;
  ReproCase C, Cand;
  ReduceResult R;
  std::vector<std::string> What; // the candidate's removals
  std::vector<ReduceItem> Items;
  unsigned StageIndex = 0;
  bool StageStarted = false, Tested = false, Done = false;
  size_t Chunk = 0, Begin = 0, End = 0;
  double Start;
};

// Fails(C) must hold for the input; an error otherwise.
Expected<ReduceResult> reduce(ReproCase C, const FailurePredicate &Fails, const ReduceOptions &Opts);

} // namespace linklab::repro
