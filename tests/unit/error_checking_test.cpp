// core's Error must be checked before it goes (LLVM's rule), in builds with
// assertions (debug, and -DLINKLAB_SANITIZE): a dropped one aborts naming
// its message. Also the unchecked drops this exposed, as regressions.
#include "test_support.h"

#include "driver/conventions.h"
#include "graph/link_graph.h"
#include "link/slab_memory_manager.h"
#include "session/session.h"

using namespace linklab;

#ifndef NDEBUG
TEST(ErrorChecking, DroppedFailureAborts) {
  EXPECT_DEATH({ Error E = makeError("lost"); }, "error dropped unchecked: lost");
}

TEST(ErrorChecking, DroppedSuccessAborts) {
  EXPECT_DEATH({ Error E = Error::success(); }, "error dropped unchecked \\(a success value\\)");
}

TEST(ErrorChecking, OverwritingAnUncheckedErrorAborts) {
  EXPECT_DEATH(
      {
        Error E = makeError("first");
        E = makeError("second");
        (void)bool(E);
      },
      "error dropped unchecked: first");
}

TEST(ErrorChecking, ExpectedHoldingAnUntakenErrorAborts) {
  EXPECT_DEATH(
      {
        Expected<int> V = makeError("never taken");
        (void)bool(V);
      },
      "error dropped unchecked: never taken");
}

TEST(ErrorChecking, MovedFromErrorIsNotReported) {
  EXPECT_DEATH(
      {
        Error A = makeError("moved");
        Error B = std::move(A); // A is done; B carries the obligation
      },
      "error dropped unchecked: moved");
}
#endif

TEST(ErrorChecking, CheckedAndConsumedErrorsPass) {
  Error A = makeError("seen");
  EXPECT_TRUE(bool(A));
  Error B = makeError("read");
  EXPECT_EQ(B.message(), "read");
  consumeError(makeError("dropped on purpose"));
  Expected<int> V = makeError("taken");
  EXPECT_EQ(V.takeError().message(), "taken");
  Expected<int> W = 3;
  EXPECT_TRUE(bool(W));
}

// Found by the sanitizer build: an empty name viewed through a null pointer
// was copied with memcpy(dst, nullptr, 0).
TEST(ErrorChecking, EmptyStringFromNullView) {
  LinkGraph G("g", Triple::parse("x86_64-unknown-linux-gnu"), [](EdgeKind) { return "k"; });
  EXPECT_EQ(G.allocateString(std::string_view()), "");
}

// Found by fuzz_session: a target the calling-convention planner does not
// know is an error only when a convention is asked for; with none, the
// session goes on (the error used to be dropped unchecked).
TEST(ErrorChecking, UnknownConventionTargetWithoutEntriesIsNotAnError) {
  SlabMemoryManager MM(0x10000, 4096, 1 << 20);
  Session S(Triple::parse("riscv64-unknown-windows-gnu"), MM);
  driver::SessionConventions CC(S, [](const std::string &) {});
  EXPECT_FALSE(bool(CC.addObject("a.o", {})));
  Session S2(Triple::parse("riscv64-unknown-windows-gnu"), MM);
  driver::SessionConventions CC2(S2, [](const std::string &) {});
  Error E = CC2.addEntry("f=i64(i64);gpr:a1", "-cc"); // asked for: now the unknown target is the error
  EXPECT_NE(E.message().find("callconv: unsupported triple 'riscv64-unknown-windows-gnu'"), std::string::npos)
      << E.message();
}
