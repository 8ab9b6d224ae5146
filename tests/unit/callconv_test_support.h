// Shared by the per-target planner tests: a plan for a spec (or plan text)
// and a signature, and its layout as Plan::describe prints it.
#pragma once

#include "callconv/plan.h"

#include <gtest/gtest.h>

namespace linklab::callconv::test {

inline Expected<Plan> planFor(Arch A, std::string_view Input, std::string_view Sig) {
  auto S = parseSignature(Sig);
  if (!S)
    return S.takeError();
  return materialize(Input, *S, archConventions(A));
}

inline std::string layoutFor(Arch A, std::string_view Input, std::string_view Sig) {
  auto P = planFor(A, Input, Sig);
  return P ? P->describe() : "error: " + P.takeError().message();
}

} // namespace linklab::callconv::test
