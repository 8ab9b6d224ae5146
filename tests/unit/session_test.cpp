// The session layer: lazy linking on lookup, plugins' hooks, generators,
// harness overrides, and continuations that answer later.
#include "test_support.h"

#include "link/slab_memory_manager.h"
#include "session/graph_prefetch.h"
#include "session/session.h"

#include <deque>
#include <functional>

using namespace linklab;
using namespace linklab::test;

namespace {

// A memory manager whose answers arrive later, from an event queue, as the
// browser's executor transport answers.
class DeferredMemoryManager : public MemoryManager {
public:
  explicit DeferredMemoryManager(std::deque<std::function<void()>> &Q) : Q(Q), Inner(0x40000, 4096, 1 << 24) {}
  void allocate(const void *D, LinkGraph &G, OnAllocatedFn OnAllocated) override {
    Q.push_back([this, D, &G, OnAllocated] {
      Inner.allocate(D, G, [this, OnAllocated](Expected<std::unique_ptr<InFlightAlloc>> A) {
        if (!A)
          return OnAllocated(A.takeError());
        OnAllocated(std::unique_ptr<InFlightAlloc>(new Deferred(Q, std::move(*A))));
      });
    });
  }
  void deallocate(std::vector<FinalizedAlloc> A, std::function<void(Error)> Done) override {
    Inner.deallocate(std::move(A), std::move(Done));
  }

private:
  struct Deferred : InFlightAlloc {
    Deferred(std::deque<std::function<void()>> &Q, std::unique_ptr<InFlightAlloc> I) : Q(Q), I(std::move(I)) {}
    void finalize(std::function<void(Expected<FinalizedAlloc>)> F) override {
      Q.push_back([this, F] { I->finalize(F); });
    }
    void abandon(std::function<void(Error)> F) override { I->abandon(std::move(F)); }
    std::deque<std::function<void()>> &Q;
    std::unique_ptr<InFlightAlloc> I;
  };
  std::deque<std::function<void()>> &Q;
  SlabMemoryManager Inner;
};

struct RecordingPlugin : Plugin {
  std::vector<std::string> Events;
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &C) override {
    Events.push_back("config " + MR.objectName);
    C.postFixupPasses.push_back([this](LinkGraph &G) {
      Events.push_back("post-fixup " + G.name());
      return Error::success();
    });
  }
  void notifyLoaded(const MaterializationInfo &MR) override { Events.push_back("loaded " + MR.objectName); }
  Error notifyEmitted(const MaterializationInfo &MR) override {
    Events.push_back("emitted " + MR.objectName);
    return Error::success();
  }
  Error notifyFailed(const MaterializationInfo &MR) override {
    Events.push_back("failed " + MR.objectName);
    return Error::success();
  }
  Error notifyRemovingResources(ResourceKey K) override {
    Events.push_back("removing " + std::to_string(K));
    return Error::success();
  }
  void notifyTransferringResources(ResourceKey Dst, ResourceKey Src) override {
    Events.push_back("transfer " + std::to_string(Src) + "->" + std::to_string(Dst));
  }
};

struct SessionFixture : ::testing::Test {
  TempDir D;
  std::string obj(const std::string &Name, const std::string &C) {
    return compile(D, D.write(Name + ".c", C), "x86_64-linux-gnu", "-O1", Name + ".o");
  }
  // main.o, and libdemo.a of one.o (needed by main), two.o (by one.o) and
  // three.o (by nothing); an empty archive path if llvm-ar failed.
  std::pair<std::string, std::string> demoArchive() {
    std::string Main = obj("main", "int lib_one(void); int main(void) { return lib_one(); }");
    std::string One = obj("one", "int lib_two(void); int lib_one(void) { return lib_two() + 1; }");
    std::string Two = obj("two", "int lib_two(void) { return 1; }");
    std::string Three = obj("three", "int lib_three(void) { return 3; }");
    std::string Lib = D.file("libdemo.a");
    auto Ar = runCommand("llvm-ar-22 rcs '" + Lib + "' '" + One + "' '" + Two + "' '" + Three + "'");
    EXPECT_EQ(Ar.status, 0) << Ar.output;
    return {Main, Ar.status == 0 ? Lib : ""};
  }
};

TEST_F(SessionFixture, LinksOnlyWhatLookupsReach) {
  std::string A = obj("a", "int b(void); int a(void) { return b() + 1; }");
  std::string B = obj("b", "int b(void) { return 41; }");
  std::string Unused = obj("unused", "int unused(void) { return 0; }");
  SlabMemoryManager MM(0x10000, 4096, 1 << 24);
  Session S(Triple(), MM);
  auto P = std::make_shared<RecordingPlugin>();
  S.addPlugin(P);
  for (auto &F : {A, B, Unused})
    ASSERT_TRUE(bool(S.addObject(F, readBytes(F))));
  EXPECT_TRUE(P->Events.empty()) << "nothing links before a lookup";
  auto R = S.lookupNow({"a"});
  ASSERT_TRUE(bool(R)) << R.takeError().message();
  EXPECT_NE((*R)[0], 0u);
  EXPECT_TRUE(S.addressOf("b").has_value());
  EXPECT_FALSE(S.addressOf("unused").has_value());
  // b links inside a's lookup; a continues as soon as b's addresses are
  // known, so a reaches its fixups first.
  std::vector<std::string> Expected = {"loaded " + A,     "config " + A,  "loaded " + B,     "config " + B,
                                       "post-fixup " + A, "emitted " + A, "post-fixup " + B, "emitted " + B};
  EXPECT_EQ(P->Events, Expected);
}

TEST_F(SessionFixture, ContinuationsMayAnswerLater) {
  std::string A = obj("a", "int b(void); int a(void) { return b(); }");
  std::string B = obj("b", "int a(void); int b(void) { return 2; } int c(void) { return a(); }");
  std::deque<std::function<void()>> Queue;
  DeferredMemoryManager MM(Queue);
  Session S(Triple(), MM);
  ASSERT_TRUE(bool(S.addObject(A, readBytes(A))));
  ASSERT_TRUE(bool(S.addObject(B, readBytes(B))));
  std::optional<Expected<std::vector<Addr>>> Result;
  S.lookup({"a", "c"}, [&](Expected<std::vector<Addr>> R) { Result = std::move(R); });
  EXPECT_FALSE(Result.has_value()) << "answered before the event loop ran";
  int Steps = 0;
  while (!Queue.empty() && Steps++ < 100) {
    auto F = std::move(Queue.front());
    Queue.pop_front();
    F();
  }
  ASSERT_TRUE(Result.has_value());
  ASSERT_TRUE(bool(*Result)) << Result->takeError().message();
  EXPECT_EQ((**Result)[0], *S.addressOf("a"));
  EXPECT_EQ((**Result)[1], *S.addressOf("c"));
}

TEST_F(SessionFixture, FailureReachesPluginsAndTheLookup) {
  std::string A = obj("a", "int missing(void); int a(void) { return missing(); }");
  SlabMemoryManager MM(0x10000, 4096, 1 << 24);
  Session S(Triple(), MM);
  auto P = std::make_shared<RecordingPlugin>();
  S.addPlugin(P);
  ASSERT_TRUE(bool(S.addObject(A, readBytes(A))));
  auto R = S.lookupNow({"a"});
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(R.takeError().message(), "Symbols not found: [ missing ] (referenced by " + A + ")");
  EXPECT_EQ(P->Events.back(), "failed " + A);
}

// An absolute definition (-abs) replaces a pending weak one and is strong:
// a later strong definition is a duplicate, not an override.
TEST_F(SessionFixture, AbsoluteDefinitionIsStrong) {
  std::string A = obj("a", "__attribute__((weak)) int foo = 1; int a(void) { return foo; }");
  std::string B = obj("b", "int foo = 2;");
  SlabMemoryManager MM(0x10000, 4096, 1 << 24);
  Session S(Triple(), MM);
  ASSERT_TRUE(bool(S.addObject(A, readBytes(A))));
  ASSERT_FALSE(bool(S.defineAbsolute("foo", 0x1234)));
  auto KB = S.addObject(B, readBytes(B));
  ASSERT_FALSE(bool(KB));
  EXPECT_EQ(KB.takeError().message(),
            "In " + B + ", duplicate definition of symbol 'foo' (in <absolute> and " + B + ")");
}

TEST_F(SessionFixture, RemoveAndTransferResources) {
  std::string A = obj("a", "int a(void) { return 1; }");
  std::string B = obj("b", "int b(void) { return 2; }");
  SlabMemoryManager MM(0x10000, 4096, 1 << 24);
  Session S(Triple(), MM);
  auto P = std::make_shared<RecordingPlugin>();
  S.addPlugin(P);
  auto KA = S.addObject(A, readBytes(A));
  auto KB = S.addObject(B, readBytes(B));
  ASSERT_TRUE(KA && KB);
  ASSERT_TRUE(bool(S.lookupNow({"a", "b"})));
  size_t Segments = MM.segments().size();
  S.transferResources(*KA, *KB);
  EXPECT_EQ(P->Events.back(), "transfer " + std::to_string(*KB) + "->" + std::to_string(*KA));
  bool Done = false;
  S.removeObject(*KA, [&](Error E) {
    EXPECT_FALSE(bool(E));
    Done = true;
  });
  EXPECT_TRUE(Done);
  EXPECT_EQ(P->Events.back(), "removing " + std::to_string(*KA));
  EXPECT_LT(MM.segments().size(), Segments) << "both objects' memory is freed with A";
  EXPECT_TRUE(MM.segments().empty());
  EXPECT_FALSE(S.addressOf("a").has_value());
}

TEST_F(SessionFixture, ArchiveMembersLinkOnDemand) {
  auto [Main, Lib] = demoArchive();
  ASSERT_FALSE(Lib.empty());
  SlabMemoryManager MM(0x10000, 4096, 1 << 24);
  Session S(Triple(), MM);
  ASSERT_TRUE(bool(S.addObject(Main, readBytes(Main))));
  ASSERT_FALSE(bool(S.addArchive(Lib, readBytes(Lib))));
  ASSERT_TRUE(bool(S.lookupNow({"main"})));
  EXPECT_TRUE(S.addressOf("lib_two").has_value());
  EXPECT_FALSE(S.addressOf("lib_three").has_value()) << "unneeded members stay out";
  auto Names = S.objectNames();
  EXPECT_NE(std::find(Names.begin(), Names.end(), Lib + "(two.o)"), Names.end());
  // A corrupt archive is reported by name.
  auto Bad = std::make_shared<std::vector<char>>(*readBytes(Lib));
  Bad->resize(70);
  Error E = S.addArchive("bad.a", Bad);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(E.message().find("bad.a: archive member header at 0x8:"), std::string::npos) << E.message();
}

// Graphs built ahead (link/graph_prefetch.h): the objects and the members
// their names pull, found by the same scan; the session takes them instead
// of parsing again and links exactly what it links without them.
TEST_F(SessionFixture, PrefetchedGraphsAreTakenAndChangeNothing) {
  auto [Main, Lib] = demoArchive();
  ASSERT_FALSE(Lib.empty());
  SharedBytes MainBytes(readBytes(Main)), LibBytes(readBytes(Lib));

  auto P = PrefetchedGraphs::scan({{Main, MainBytes}}, {{Lib, LibBytes}});
  EXPECT_EQ(P->size(), 3u) << "main and the two members it pulls, not three.o";
  EXPECT_FALSE(P->take("other-name.o", MainBytes)) << "a graph is only for the name it was built under";

  auto Link = [&](std::unique_ptr<PrefetchedGraphs> Pre) {
    SlabMemoryManager MM(0x10000, 4096, 1 << 24);
    Session S(Triple(), MM);
    PrefetchedGraphs *Held = Pre.get();
    if (Pre)
      S.usePrefetched(std::move(Pre));
    EXPECT_TRUE(bool(S.addObject(Main, MainBytes)));
    EXPECT_FALSE(bool(S.addArchive(Lib, LibBytes)));
    auto A = S.lookupNow({"main", "lib_one", "lib_two"});
    EXPECT_TRUE(bool(A));
    EXPECT_FALSE(S.addressOf("lib_three").has_value());
    if (Held)
      EXPECT_EQ(Held->size(), 0u) << "every graph built ahead was taken";
    return std::make_pair(A ? *A : std::vector<Addr>{}, S.objectNames());
  };
  auto Fresh = Link(nullptr);
  auto Ahead = Link(std::move(P));
  EXPECT_EQ(Ahead.first, Fresh.first) << "the same addresses";
  EXPECT_EQ(Ahead.second, Fresh.second) << "the same objects, in the same order";
}

} // namespace
