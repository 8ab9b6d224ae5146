// The Embind layer: a thin skin over core/ for JavaScript. Core errors never
// cross as C++ exceptions (the wasm build has none); every entry point
// returns {ok: true, value} or {ok: false, error: "<core message>"} and the
// JS wrapper (linklab.mjs) throws. Asynchronous core callbacks are queued
// here and run from the JS event loop, so a link yields between phases.
#include "api/graph_edit.h"
#include "api/json_export.h"
#include "callconv/call.h"
#include "callconv/plan.h"
#include "driver/command.h"
#include "driver/conventions.h"
#include "driver/link.h"
#include "driver/options.h"
#include "driver/sectcreate.h"
#include "driver/settings.h"
#include "link/slab_memory_manager.h"
#include "macho/universal.h"
#include "object/archive.h"
#include "platform/init_arrays.h"
#include "platform/linker_symbols.h"
#include "program/program.h"
#include "program/runtime_fetch.h"
#include "protocol/executor_client.h"
#include "protocol/remote_memory_manager.h"
#include "repro/export_test.h"
#include "repro/reduce.h"
#include "session/link_info.h"
#include "session/session.h"
#include "target/target.h"

#include <deque>
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <map>

using namespace linklab;
using emscripten::val;

namespace {

// ---- results and values -------------------------------------------------------

val ok(val V = val::undefined()) {
  val R = val::object();
  R.set("ok", true);
  R.set("value", V);
  return R;
}
val fail(const std::string &Msg) {
  val R = val::object();
  R.set("ok", false);
  R.set("error", Msg);
  return R;
}
val fail(Error E) { return fail(E.message()); }
template <typename T> val failOr(Expected<T> &E) { return fail(E.takeError()); }

// Copies a JS Uint8Array into wasm memory in one typed-array set().
std::vector<char> bytesFrom(const val &Arr) {
  size_t N = Arr["length"].as<size_t>();
  std::vector<char> V(N);
  if (N)
    val(emscripten::typed_memory_view(N, reinterpret_cast<uint8_t *>(V.data()))).call<void>("set", Arr);
  return V;
}
// The same, as bytes the core shares (not zero-filled first: every link's
// objects come this way).
SharedBytes sharedBytesFrom(const val &Arr) {
  size_t N = Arr["length"].as<size_t>();
  std::unique_ptr<char[]> B(new char[N ? N : 1]); // an empty input is still an input
  if (N)
    val(emscripten::typed_memory_view(N, reinterpret_cast<uint8_t *>(B.get()))).call<void>("set", Arr);
  return SharedBytes(std::move(B), N);
}
template <typename C> val bytesTo(const C &Bytes) {
  return val::global("Uint8Array")
      .new_(emscripten::typed_memory_view(Bytes.size(), reinterpret_cast<const uint8_t *>(Bytes.data())));
}
std::vector<std::string> stringsFrom(const val &Arr) {
  std::vector<std::string> V;
  for (size_t I = 0, N = Arr["length"].as<size_t>(); I < N; ++I)
    V.push_back(Arr[I].as<std::string>());
  return V;
}
// 64-bit quantities travel as decimal or 0x strings (JS numbers stop being
// exact at 2^53); results go back as numbers, which is what a UI wants.
Expected<uint64_t> number(const char *What, const std::string &S) { return driver::parseNumber({What, S}); }
val addresses(const std::vector<Addr> &As) {
  val A = val::array();
  for (Addr X : As)
    A.call<void>("push", double(X));
  return A;
}

// ---- the task queue: core continuations run from the JS event loop -----------

std::deque<std::function<void()>> Tasks;
val Wake = val::undefined(); // JS: schedule a runTasks() call soon

void post(std::function<void()> F) {
  bool WasEmpty = Tasks.empty();
  Tasks.push_back(std::move(F));
  if (WasEmpty && !Wake.isUndefined())
    Wake();
}
// Runs queued continuations (and those they queue) for about BudgetMs, so
// a long chain of links gives the event loop a turn between slices; returns
// how many are left (the JS side schedules another slice for them).
unsigned runTasks(double BudgetMs) {
  double End = emscripten_get_now() + BudgetMs;
  while (!Tasks.empty() && emscripten_get_now() < End) {
    auto F = std::move(Tasks.front());
    Tasks.pop_front();
    F();
  }
  return unsigned(Tasks.size());
}
void setWake(val F) { Wake = F; }

// Holds a move-only value for a copyable std::function.
template <typename T> auto shared(T V) { return std::make_shared<T>(std::move(V)); }

// A memory manager that answers through the task queue: between allocation
// and finalization the link gives the event loop a turn.
class DeferredAlloc : public InFlightAlloc {
public:
  explicit DeferredAlloc(std::unique_ptr<InFlightAlloc> A) : Inner(std::move(A)) {}
  void finalize(std::function<void(Expected<FinalizedAlloc>)> Done) override {
    Inner->finalize([Done](Expected<FinalizedAlloc> F) {
      auto H = shared(std::move(F));
      post([Done, H] { Done(std::move(*H)); });
    });
  }
  void abandon(std::function<void(Error)> Done) override { Inner->abandon(std::move(Done)); }

private:
  std::unique_ptr<InFlightAlloc> Inner;
};

class DeferringMemoryManager : public MemoryManager {
public:
  explicit DeferringMemoryManager(std::unique_ptr<MemoryManager> M) : Inner(std::move(M)) {}
  void allocate(const void *D, LinkGraph &G, OnAllocatedFn Done) override {
    Inner->allocate(D, G, [Done](Expected<std::unique_ptr<InFlightAlloc>> A) {
      if (A)
        A = std::unique_ptr<InFlightAlloc>(std::make_unique<DeferredAlloc>(std::move(*A)));
      auto H = shared(std::move(A));
      post([Done, H] { Done(std::move(*H)); });
    });
  }
  void deallocate(std::vector<FinalizedAlloc> As, std::function<void(Error)> Done) override {
    Inner->deallocate(std::move(As), std::move(Done));
  }

private:
  std::unique_ptr<MemoryManager> Inner;
};

// ---- object inspection --------------------------------------------------------

val inspectObject(std::string Name, val Bytes) {
  auto B = std::make_shared<const std::vector<char>>(bytesFrom(Bytes));
  auto J = Archive::isArchive({B->data(), B->size()}) ? api::inspectArchiveJson(Name, B)
                                                      : api::inspectObjectJson(Name, {B->data(), B->size()});
  return J ? ok(val(*J)) : failOr(J);
}

// ---- the graph as seen by a JS pass ---------------------------------------------

// A JS number as a 64-bit integer: offsets, sizes and addends must be whole.
Expected<int64_t> integer(const char *What, double D) {
  if (!(D >= -9.2e18 && D <= 9.2e18) || D != double(int64_t(D)))
    return makeError(formatv("%s: %g is not an integer", What, D));
  return int64_t(D);
}
val result(Error E) { return E ? fail(std::move(E)) : ok(); }
val result(Expected<uint32_t> E) { return E ? ok(val(*E)) : failOr(E); }

// A handle on the graph a JS pass is running on: core's checked GraphEditor
// (api/graph_edit.h). JS owns its copy of the handle; all copies share one
// editor, which the plugin drops when the pass returns, so a handle kept past
// its pass gets an error, not a crash.
class GraphView {
public:
  GraphView(LinkGraph &G, api::LinkPhase P)
      : Ed(std::make_shared<std::optional<api::GraphEditor>>(std::in_place, G, P)) {}
  void detach() { Ed->reset(); }

  val data(bool WithContent) {
    return with([&](api::GraphEditor &E) { return ok(val(E.data(WithContent))); });
  }
  val dump() {
    return with([&](api::GraphEditor &E) { return ok(val(E.graph().dump())); });
  }
  val edgeKindNames() {
    return with([&](api::GraphEditor &E) {
      val A = val::array();
      for (const std::string &N : E.edgeKindNames())
        A.call<void>("push", N);
      return ok(A);
    });
  }
  val addExternalSymbol(std::string Name, bool Weak) {
    return with([&](api::GraphEditor &E) { return result(E.addExternalSymbol(Name, Weak)); });
  }
  val addAbsoluteSymbol(std::string Name, std::string Address, std::string Scope) {
    return with([&](api::GraphEditor &E) {
      auto A = number("addAbsoluteSymbol address", Address);
      return A ? result(E.addAbsoluteSymbol(Name, *A, Scope)) : failOr(A);
    });
  }
  val addDefinedSymbol(uint32_t Block, double Offset, std::string Name, double Size, std::string Linkage,
                       std::string Scope, bool Callable, bool Live) {
    return with([&](api::GraphEditor &E) {
      auto O = integer("addDefinedSymbol offset", Offset);
      auto S = integer("addDefinedSymbol size", Size);
      if (!O)
        return failOr(O);
      if (!S)
        return failOr(S);
      return result(E.addDefinedSymbol(Block, *O, Name, uint64_t(*S), Linkage, Scope, Callable, Live));
    });
  }
  val removeSymbol(uint32_t Id) {
    return with([&](api::GraphEditor &E) { return result(E.removeSymbol(Id)); });
  }
  val makeExternal(uint32_t Id) {
    return with([&](api::GraphEditor &E) { return result(E.makeExternal(Id)); });
  }
  val setLive(uint32_t Id, bool Live) {
    return with([&](api::GraphEditor &E) { return result(E.setLive(Id, Live)); });
  }
  val addEdge(uint32_t Block, std::string Kind, double Offset, uint32_t Target, double Addend) {
    return with([&](api::GraphEditor &E) {
      auto O = integer("addEdge offset", Offset);
      auto A = integer("addEdge addend", Addend);
      if (!O)
        return failOr(O);
      if (!A)
        return failOr(A);
      return result(E.addEdge(Block, Kind, *O, Target, *A));
    });
  }
  val setEdgeKind(uint32_t Block, uint32_t Index, std::string Kind) {
    return with([&](api::GraphEditor &E) { return result(E.setEdgeKind(Block, Index, Kind)); });
  }
  val setEdgeTarget(uint32_t Block, uint32_t Index, uint32_t Target) {
    return with([&](api::GraphEditor &E) { return result(E.setEdgeTarget(Block, Index, Target)); });
  }
  val setEdgeAddend(uint32_t Block, uint32_t Index, double Addend) {
    return with([&](api::GraphEditor &E) {
      auto A = integer("setEdgeAddend addend", Addend);
      return A ? result(E.setEdgeAddend(Block, Index, *A)) : failOr(A);
    });
  }
  val removeEdge(uint32_t Block, uint32_t Index) {
    return with([&](api::GraphEditor &E) { return result(E.removeEdge(Block, Index)); });
  }
  val createSection(std::string Name, std::string Prot) {
    return with([&](api::GraphEditor &E) { return result(E.createSection(Name, Prot)); });
  }
  val addContentBlock(std::string Section, val Bytes, double Alignment) {
    return with([&](api::GraphEditor &E) {
      auto A = integer("addContentBlock alignment", Alignment);
      if (!A)
        return failOr(A);
      std::vector<char> B = bytesFrom(Bytes);
      return result(E.addContentBlock(Section, B, uint64_t(*A)));
    });
  }
  val setBlockContent(uint32_t Block, val Bytes) {
    return with([&](api::GraphEditor &E) { return result(E.setBlockContent(Block, bytesFrom(Bytes))); });
  }
  val removeBlock(uint32_t Block) {
    return with([&](api::GraphEditor &E) { return result(E.removeBlock(Block)); });
  }

private:
  template <typename Fn> val with(Fn F) {
    if (!*Ed)
      return fail("this graph view belonged to a pass that has returned; it cannot be used any more");
    return F(**Ed);
  }
  std::shared_ptr<std::optional<api::GraphEditor>> Ed;
};

// Forwards a session's plugin hooks to a JS object (see linklab.mjs), for
// the pass points and notifications JS has something for (setInterest): a
// C runtime's ~450 archive members then link with no call into JS, where
// three calls each (points, loaded, emitted) were ~1,400 crossings a link.
// Hooks return error strings rather than throwing (a JS throw cannot unwind
// through wasm frames safely).
class JsPlugin : public Plugin {
public:
  // Pass points (bit I: api::LinkPhase I) for every object and per object
  // name, and which notifications have a listener.
  struct Interest {
    unsigned All = 0;
    std::map<std::string, unsigned, std::less<>> Objects;
    bool Loaded = false, Emitted = false, Failed = false;
  };
  explicit JsPlugin(val H) : Hooks(std::move(H)) {}
  void setInterest(Interest I) { In = std::move(I); }
  // performance.now() when an object last finished linking (0: none has).
  double lastEmittedAt() const { return LastEmitted; }

  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &C) override {
    unsigned Mask = In.All;
    if (auto It = In.Objects.find(MR.objectName); It != In.Objects.end())
      Mask |= It->second;
    for (unsigned I = 0; I < api::phaseNames().size(); ++I)
      if (Mask & (1u << I))
        api::addPassAt(C, api::LinkPhase(I),
                       [this, P = api::LinkPhase(I), Name = MR.objectName](LinkGraph &G) { return run(P, Name, G); });
  }
  void notifyLoaded(const MaterializationInfo &MR) override {
    if (In.Loaded)
      (void)Hooks.call<val>("loaded", MR.objectName);
  }
  Error notifyEmitted(const MaterializationInfo &MR) override {
    LastEmitted = emscripten_get_now();
    return In.Emitted ? hookError(Hooks.call<val>("emitted", MR.objectName)) : Error::success();
  }
  Error notifyFailed(const MaterializationInfo &MR) override {
    return In.Failed ? hookError(Hooks.call<val>("failed", MR.objectName)) : Error::success();
  }

private:
  Error run(api::LinkPhase P, const std::string &Name, LinkGraph &G) {
    GraphView View(G, P);
    val R = Hooks.call<val>("phase", std::string(api::phaseName(P)), Name, val(View));
    View.detach();
    return hookError(R);
  }
  static Error hookError(const val &R) { return R.isString() ? makeError(R.as<std::string>()) : Error::success(); }
  val Hooks;
  Interest In;
  double LastEmitted = 0;
};

// ---- executor: the client over a byte transport supplied by JS ------------------

val debugStop(const executor::DebugStopMsg &M);

class WasmExecutor : public executor::ByteTransport {
public:
  // Send is called when frames are queued after none were: JS then takes
  // them with takeOutgoing, all at once (a link sends ~450 frames,
  // and a call into JS and a Uint8Array each cost more than their bytes).
  explicit WasmExecutor(val Send) : SendFn(std::move(Send)), Client(*this) {
    Client.setOutputHandler([this](executor::Stream S, std::string_view Text) {
      if (!OutputFn.isUndefined())
        OutputFn(int(S), bytesTo(Text));
    });
    // The program's stdin: the bytes setStdin gave, then end of file.
    Client.setInputHandler([this](uint32_t Max) {
      size_t N = std::min<size_t>(Max, Stdin.size() - StdinPos);
      std::vector<uint8_t> B(Stdin.begin() + StdinPos, Stdin.begin() + StdinPos + N);
      StdinPos += N;
      return B;
    });
  }
  Error send(std::span<const uint8_t> Bytes) override {
    bool First = Out.empty();
    Out.insert(Out.end(), Bytes.begin(), Bytes.end());
    Ends.push_back(Out.size());
    if (!First)
      return Error::success();
    val R = SendFn();
    return R.isString() ? makeError("executor transport: " + R.as<std::string>()) : Error::success();
  }
  // The frames queued, oldest first, as one Uint8Array of at most MaxBytes
  // (or one frame, if that is larger); null when none are.
  val takeOutgoing(double MaxBytes) {
    if (Ends.empty())
      return val::null();
    size_t N = 1;
    while (N < Ends.size() && double(Ends[N]) <= MaxBytes)
      ++N;
    size_t Len = Ends[N - 1];
    val Chunk = bytesTo(std::span<const uint8_t>(Out.data(), Len));
    Out.erase(Out.begin(), Out.begin() + Len);
    Ends.erase(Ends.begin(), Ends.begin() + N);
    for (size_t &E : Ends)
      E -= Len;
    return Chunk;
  }
  executor::ExecutorClient &client() { return Client; }

  void setOutput(val F) { OutputFn = F; }
  void setStdin(val Bytes) {
    std::vector<char> B = bytesFrom(Bytes);
    Stdin.assign(B.begin(), B.end());
    StdinPos = 0;
  }
  val feed(val Bytes) {
    std::vector<char> B = bytesFrom(Bytes);
    Error E = Client.feed({reinterpret_cast<const uint8_t *>(B.data()), B.size()});
    return E ? fail(std::move(E)) : ok();
  }
  static val setupInfo(const executor::SetupInfo &I) {
    val V = val::object();
    V.set("triple", I.triple);
    V.set("pageSize", double(I.pageSize));
    val Syms = val::object();
    for (auto &S : I.symbols)
      Syms.set(S.name, double(S.address));
    V.set("symbols", Syms);
    return V;
  }
  void setup(std::string Triple, val Done) {
    Client.setup(
        Triple, [Done](Expected<executor::SetupInfo> I) mutable { Done(I ? ok(setupInfo(*I)) : fail(I.takeError())); });
  }
  // The answer setup will give, now (ExecutorClient::setupUnchecked).
  val setupUnchecked(std::string Triple) {
    Client.setupUnchecked(Triple);
    return setupInfo(*Client.setupInfo());
  }
  void runMain(std::string Entry, val Args, std::string Instructions, std::string WallMillis, std::string MemoryBytes,
               bool ProcessEntry, val Done);
  void callWithPlan(std::string Entry, std::string PlanText, std::string Signature, std::string Target,
                    std::string Args, std::string Instructions, std::string WallMillis, val Done);
  void readMemory(std::string Address, double Size, val Done) {
    auto A = number("readMemory address", Address);
    if (!A)
      return (void)Done(failOr(A));
    Client.readMemory(*A, uint64_t(Size),
                      [Done](Expected<std::vector<uint8_t>> M) mutable { Done(M ? ok(bytesTo(*M)) : failOr(M)); });
  }
  void hangup(val Done) {
    Client.hangup([Done](Error E) mutable { Done(E ? fail(std::move(E)) : ok()); });
  }
  // Debugging (the package's Debugger): Fn(seq, stop) hears each
  // debug-stop; null stops listening.
  void setDebugHandler(val Fn) {
    if (Fn.isNull() || Fn.isUndefined())
      return Client.setDebugHandler(nullptr);
    Client.setDebugHandler([Fn](uint32_t Seq, executor::DebugStopMsg M) mutable { Fn(double(Seq), debugStop(M)); });
  }
  val debugNextRun(std::string IdleMillis) {
    auto N = number("idleMillis", IdleMillis);
    if (!N)
      return failOr(N);
    if (*N > UINT32_MAX)
      return fail("idleMillis: " + IdleMillis + " is more than 2^32-1 ms");
    Client.debugNextRun(uint32_t(*N));
    return ok();
  }
  val debugResume(double Seq, int Action, val Breakpoints, std::string Address, double Size) {
    executor::DebugResumeMsg M;
    M.action = uint8_t(Action);
    for (const std::string &B : stringsFrom(Breakpoints)) {
      auto A = number("breakpoint", B);
      if (!A)
        return failOr(A);
      M.breakpoints.push_back(*A);
    }
    auto A = number("address", Address);
    if (!A)
      return failOr(A);
    M.address = *A;
    M.size = uint32_t(std::min(Size, double(UINT32_MAX)));
    Error E = Client.debugResume(uint32_t(Seq), std::move(M));
    return E ? fail(std::move(E)) : ok();
  }

private:
  val SendFn, OutputFn = val::undefined();
  std::vector<uint8_t> Stdin; // what runs read from fd 0 (from StdinPos)
  size_t StdinPos = 0;
  std::vector<uint8_t> Out; // frames not yet taken by JS
  std::vector<size_t> Ends; // where each ends in Out
  executor::ExecutorClient Client;
};

// A debug-stop as the package's Debugger reads it: addresses as 0x strings
// (exact to 64 bits), register values and memory as bytes.
val debugStop(const executor::DebugStopMsg &M) {
  val V = val::object();
  V.set("reason", M.reason);
  V.set("pc", hex(M.pc));
  V.set("thread", double(M.thread));
  V.set("instructionSize", M.instructionSize);
  V.set("faultKind", std::string(M.faultKind ? executor::faultKindName(executor::FaultKind(M.faultKind)) : ""));
  V.set("faultAddress", hex(M.faultAddress));
  val Regs = val::array();
  for (const auto &R : M.registers) {
    val X = val::object();
    X.set("name", R.name);
    X.set("value", bytesTo(R.value));
    Regs.call<void>("push", X);
  }
  V.set("registers", Regs);
  val Returns = val::array();
  for (uint64_t A : M.returns)
    Returns.call<void>("push", hex(A));
  V.set("returns", Returns);
  V.set("unwound", M.unwound != 0);
  V.set("address", hex(M.address));
  V.set("memory", bytesTo(M.memory));
  V.set("message", M.message);
  return V;
}

val runResult(executor::ExecutorClient &C, const executor::RunResultMsg &R) {
  val V = val::object();
  V.set("status", std::string(executor::runStatusName(R.runStatus())));
  V.set("value", double(R.value));
  V.set("description", C.describe(R));
  auto Code = C.exitCode(R);
  if (Code)
    V.set("exitCode", double(*Code));
  else
    V.set("error", Code.takeError().message());
  if (int Signal = executor::ExecutorClient::terminatingSignal(R)) // a process ends so (abort, a fault's SIGSEGV)
    V.set("signal", Signal);
  if (R.runStatus() == executor::RunStatus::Fault) {
    V.set("fault", std::string(executor::faultKindName(executor::FaultKind(R.faultKind))));
    V.set("pc", double(R.pc));
    V.set("address", double(R.address));
  }
  V.set("instructions", double(R.instructions));
  val Regs = val::array();
  for (auto &RV : R.results) {
    val X = val::object();
    X.set("dwarf", RV.dwarf);
    X.set("value", bytesTo(RV.value));
    Regs.call<void>("push", X);
  }
  V.set("results", Regs);
  return V;
}

void WasmExecutor::runMain(std::string Entry, val Args, std::string Instructions, std::string WallMillis,
                           std::string MemoryBytes, bool ProcessEntry, val Done) {
  auto E = number("entry address", Entry);
  if (!E)
    return (void)Done(failOr(E));
  auto L =
      driver::parseLimits({"instructions", Instructions}, {"wallMillis", WallMillis}, {"memoryBytes", MemoryBytes});
  if (!L)
    return (void)Done(failOr(L));
  Client.runMain(
      *E, stringsFrom(Args), *L,
      [this, Done](Expected<executor::RunResultMsg> R) mutable { Done(R ? ok(runResult(Client, *R)) : failOr(R)); },
      ProcessEntry ? executor::Startup::ProcessEntry : executor::Startup::CallMain);
}

// Calls Entry through the plan PlanText (as plan() made it for Signature and
// Target) with Args in parseCallArguments' text form: core's call path, the
// same the CLI's -call takes. The run result gains `returnBytes` (the
// return value's bytes) and `lines` (formatCall) when the call returned.
void WasmExecutor::callWithPlan(std::string Entry, std::string PlanText, std::string Signature, std::string Target,
                                std::string Args, std::string Instructions, std::string WallMillis, val Done) {
  auto E = number("entry address", Entry);
  if (!E)
    return (void)Done(failOr(E));
  auto L = driver::parseLimits({"instructions", Instructions}, {"wallMillis", WallMillis}, {"memoryBytes", ""});
  if (!L)
    return (void)Done(failOr(L));
  auto T = callconv::targetForTriple(Target); // a plan's target name is its triple's arch
  if (!T)
    return (void)Done(failOr(T));
  auto Sig = callconv::parseSignature(Signature);
  if (!Sig)
    return (void)Done(failOr(Sig));
  auto P = callconv::materialize(PlanText, *Sig, **T);
  if (!P)
    return (void)Done(failOr(P));
  auto Values = callconv::parseCallArguments(*Sig, Args);
  if (!Values)
    return (void)Done(failOr(Values));
  callconv::callThroughPlan(
      Client, *P, std::move(*Values), *L,
      [this, Entry = *E](executor::CallMsg M, executor::Callback<executor::RunResultMsg> D) {
        M.entry = Entry;
        Client.call(std::move(M), std::move(D));
      },
      [this, Done, P = *P](Expected<callconv::PlanCallOutcome> R) mutable {
        if (!R)
          return (void)Done(failOr(R));
        val V = runResult(Client, R->Run);
        if (R->Results) {
          if (R->Results->Return)
            V.set("returnBytes", bytesTo(*R->Results->Return));
          val Lines = val::array();
          for (auto &Line : callconv::formatCall(P, *R->Results))
            Lines.call<void>("push", Line);
          V.set("lines", Lines);
        }
        Done(ok(V));
      });
}

// ---- link sessions --------------------------------------------------------------

// The C runtime fetched a member at a time (program/runtime_fetch.h): init,
// rounds of wanted() and addMembers(), then a session's useRuntimeFetch
// takes it.
class WasmRuntimeFetch {
public:
  // Objects: [{name, bytes}], the program's; Heads: {name: {size, bytes}}
  // for each archive of the triple's runtime; Start: the start object's bytes.
  val init(std::string Triple, val Objects, val Heads, val Start) {
    if (F)
      return fail("runtime fetch already initialized");
    R = exec::findRuntime(linklab::Triple::parse(Triple).arch);
    if (!R)
      return fail(formatv("no C runtime is known for %s", Triple.c_str()));
    std::vector<PrefetchedGraphs::Input> Objs;
    for (size_t I = 0, N = Objects["length"].as<size_t>(); I < N; ++I)
      Objs.push_back({Objects[I]["name"].as<std::string>(), sharedBytesFrom(Objects[I]["bytes"])});
    std::map<std::string, exec::RuntimeFetch::Head> H;
    for (auto &A : R->archives)
      if (Heads.hasOwnProperty(A.name))
        H[A.name] = {uint64_t(Heads[A.name]["size"].as<double>()), sharedBytesFrom(Heads[A.name]["bytes"])};
    auto Made = exec::RuntimeFetch::create(
        *R, Objs, H, Start.isNull() || Start.isUndefined() ? SharedBytes() : sharedBytesFrom(Start));
    if (!Made)
      return failOr(Made);
    F = std::move(*Made);
    return ok();
  }
  // [{file, begin, end}]: what to fetch next; [] once complete.
  val wanted() {
    if (!F)
      return notReady();
    val Out = val::array();
    for (auto &Rg : F->wanted()) {
      val X = val::object();
      X.set("file", Rg.file);
      X.set("begin", double(Rg.begin));
      X.set("end", double(Rg.end));
      Out.call<void>("push", X);
    }
    return ok(Out);
  }
  val addMembers(std::string File, double Offset, val Bytes) {
    if (!F)
      return notReady();
    Error E = F->addMembers(File, uint64_t(Offset), sharedBytesFrom(Bytes));
    return E ? fail(std::move(E)) : ok();
  }
  val membersPulled() { return F ? ok(val(double(F->membersPulled()))) : notReady(); }

  const exec::RuntimeSpec *R = nullptr;
  std::unique_ptr<exec::RuntimeFetch> F; // null before init and once a session took it
private:
  static val notReady() { return fail("runtime fetch not initialized, or a session has taken it"); }
};

// {name: Uint8Array} → the core's runtime files.
exec::RuntimeFiles runtimeFilesFrom(const val &Files) {
  exec::RuntimeFiles Map;
  val Keys = val::global("Object").call<val>("keys", Files);
  for (size_t I = 0, N = Keys["length"].as<size_t>(); I < N; ++I) {
    std::string K = Keys[I].as<std::string>();
    Map[K] = sharedBytesFrom(Files[K]);
  }
  return Map;
}

// A C runtime's files copied in once, its archives' heads read once
// (Archive::parseForLink), for any number of sessions: each links a copy
// of the archives (their members are read as its link asks), sharing the
// bytes.
class WasmPreparedRuntime {
public:
  val init(std::string Triple, val Files) {
    if (R)
      return fail("prepared runtime already initialized");
    const exec::RuntimeSpec *Row = exec::findRuntime(linklab::Triple::parse(Triple).arch);
    if (!Row)
      return fail(formatv("no C runtime is known for %s; use runtime 'none'", Triple.c_str()));
    exec::RuntimeFiles Map = runtimeFilesFrom(Files);
    std::map<std::string, Archive> Read;
    for (auto &F : Row->archives) {
      auto It = Map.find(F.name);
      if (It == Map.end() || !Archive::isArchive(It->second.span()))
        continue; // left out (on demand), or not an archive: the session's link says what is wrong
      auto A = Archive::parseForLink(F.path, It->second); // named as addRuntimeArchives names them
      if (!A)
        return failOr(A);
      Read.emplace(F.name, std::move(*A));
    }
    R = Row;
    this->Files = std::move(Map);
    Archives = std::move(Read);
    return ok();
  }

  const exec::RuntimeSpec *R = nullptr;
  exec::RuntimeFiles Files;
  std::map<std::string, Archive> Archives;
};

// ---- the CLI's option parser, so linklab-run accepts exactly what linklab does ----

// The options only the native command has, refused by name: their effect is
// a host file, a host process or a tool of its own, which linklab-run does
// not make (a bundle replays with `linklab-run --replay`). One table: the
// option parser refuses them (commandOptions), and nativeOnlyOptions()
// lists them for the package's callers and tests.
struct NativeOnlyOption {
  const char *name;
  bool (*given)(const driver::Options &);
  const char *what; // why it is the native command's
};
const NativeOnlyOption NativeOnlyOptions[] = {
    {"-perf-support", [](const driver::Options &O) { return O.perfSupport; }, "writes /tmp/perf-<pid>.map"},
    {"-gdb", [](const driver::Options &O) { return !O.gdb.empty(); }, "serves gdb from the host"},
    {"-debug-script", [](const driver::Options &O) { return !O.debugScript.empty(); }, "writes a gdb script"},
    {"-write-symtab", [](const driver::Options &O) { return !O.writeSymtab.empty(); }, "writes a symbol table"},
    {"-symbolicate-with", [](const driver::Options &O) { return !O.symbolicateWith.empty(); },
     "reads backtraces, links nothing"},
    {"-jd", [](const driver::Options &O) { return !O.jitDylibs.empty(); }, "names JITDylibs"},
    {"-weak_library", [](const driver::Options &O) { return !O.weakLibraries.empty(); }, "reads MachO stubs"},
    {"-add-self-relocations", [](const driver::Options &O) { return O.addSelfRelocations; }, "adds host edges"},
    {"-debugger-support", [](const driver::Options &O) { return O.debuggerSupport; }, "registers with a debugger"},
    {"-check", [](const driver::Options &O) { return !O.checkFiles.empty(); }, "checks the link"},
    {"-call", [](const driver::Options &O) { return !O.callSymbol.empty(); }, "calls through a plan"},
    {"-export-test", [](const driver::Options &O) { return !O.exportTest.empty(); }, "writes a lit test"},
    {"-reduce", [](const driver::Options &O) { return O.reduce; }, "reduces in child processes"},
    {"-save-bundle", [](const driver::Options &O) { return !O.saveBundle.empty(); }, "writes a bundle"},
    {"-share-url", [](const driver::Options &O) { return !O.shareUrl.empty(); }, "prints a share link"},
};

// Args (a linklab command line without argv[0]) as driver::parseOptions
// reads it; an error for the options only the native command has.
Expected<driver::Options> commandOptions(const val &Args) {
  std::vector<std::string> A = stringsFrom(Args);
  A.insert(A.begin(), "linklab-run");
  std::vector<char *> Argv;
  for (auto &S : A)
    Argv.push_back(S.data());
  Argv.push_back(nullptr); // argv[argc], as main() gets it
  auto O = driver::parseOptions(int(Argv.size() - 1), Argv.data());
  if (!O)
    return O.takeError();
  for (auto &N : NativeOnlyOptions)
    if (N.given(*O))
      return makeError(
          formatv("option '%s' is not supported by linklab-run (it %s): use the native linklab CLI", N.name, N.what));
  return O;
}

// [{name, what}]: NativeOnlyOptions.
val nativeOnlyOptions() {
  val Out = val::array();
  for (auto &N : NativeOnlyOptions) {
    val X = val::object();
    X.set("name", std::string(N.name));
    X.set("what", std::string(N.what));
    Out.call<void>("push", X);
  }
  return Out;
}

class WasmSession {
public:
  // A -noexec session over a slab at a fixed address (deterministic layouts).
  // PlaceAsRun (with no slab field given): every graph where a run would
  // place it, as linklab -noexec without a -slab-* option (driver::makeSlab(Options)).
  val initSlab(std::string Triple, std::string SlabAddress, std::string PageSize, std::string SlabSize, bool PlaceAsRun,
               bool RecordLinkInfo) {
    if (S)
      return fail("session already initialized");
    if (PlaceAsRun && !(SlabAddress.empty() && PageSize.empty() && SlabSize.empty()))
      return fail("placeAsRun: a run's placement has no slab, but a slab address, page size or size was given");
    auto Slab = PlaceAsRun ? driver::makeSlab(driver::Options())
                           : driver::makeSlab({"slabAddress", SlabAddress}, {"slabPageSize", PageSize},
                                              {"slabAllocate", SlabSize}); // "": defaults
    if (!Slab)
      return failOr(Slab);
    Triple_ T = Triple.empty() ? Triple_() : Triple_::parse(Triple);
    if (!Triple.empty() && !findTarget(T))
      return fail("unsupported target triple '" + Triple + "'");
    // Recording copies every symbol name of every graph: a session that
    // never asks for linkInfo/linkReport (linklab-run without -show-addrs
    // and the like, as the native command) links without it.
    L = driver::Link::slab(T, std::move(*Slab), PlaceAsRun, warn(), RecordLinkInfo,
                           [](std::unique_ptr<SlabMemoryManager> M) -> std::unique_ptr<MemoryManager> {
                             return std::make_unique<DeferringMemoryManager>(std::move(M));
                           });
    S = &L->session();
    if (RecordLinkInfo)
      Recorder = &L->linkInfo();
    return ok();
  }
  // A -noexec session as `linklab -noexec` with the command line Args sets
  // its link up (driver::Link::slab): the slab of its -slab-* options (none:
  // placed as a run), the link info its options show. Triple: the inputs'
  // (driver::inputTriple), empty when only archives name none.
  val initCommandSlab(val Args, std::string Triple) {
    if (S)
      return fail("session already initialized");
    auto O = commandOptions(Args);
    if (!O)
      return failOr(O);
    auto Slab = driver::makeSlab(*O);
    if (!Slab)
      return failOr(Slab);
    Triple_ T = Triple.empty() ? Triple_() : Triple_::parse(Triple);
    if (!Triple.empty() && !findTarget(T))
      return fail("unsupported target triple '" + Triple + "'");
    // The slab answers at once, as the native command's does: an answer
    // through the task queue would let other graphs link in between, and
    // the layout (allocation order) would not be the command's.
    L = driver::Link::slab(T, std::move(*Slab), driver::placesAsRun(*O), warn(), driver::recordsLinkInfo(*O));
    S = &L->session();
    if (driver::recordsLinkInfo(*O)) {
      Recorder = &L->linkInfo();
      Recorder->setRecordContents(driver::recordsContents(*O));
    }
    return ok();
  }
  // What the command line Args adds to a link, as `linklab` adds it
  // (driver::Link::addInputs): -cc's entries, the inputs (-all_load's
  // archives whole), -abs, -sectcreate, -phony-externals. Inputs:
  // [{name, bytes, harness, library}] (the objects, harnesses and -l
  // archives, read by the caller); ReadFile(path) -> bytes, or null when
  // it cannot: the file -sectcreate names, read when the link reaches it.
  val addCommandInputs(val Args, val Inputs, val ReadFile) {
    if (!S)
      return notReady();
    auto O = commandOptions(Args);
    if (!O)
      return failOr(O);
    std::vector<driver::Input> In;
    for (unsigned I = 0, N = Inputs["length"].as<unsigned>(); I < N; ++I) {
      val V = Inputs[I];
      std::string Name = V["name"].as<std::string>();
      auto Linked = linkedBytes(Name, V["bytes"]);
      if (!Linked)
        return failOr(Linked);
      In.push_back({Name, std::move(*Linked), V["harness"].as<bool>() ? ObjectKind::Harness : ObjectKind::Regular,
                    V["library"].as<bool>()});
    }
    auto Read = [&ReadFile](const std::string &Path) -> Expected<SharedBytes> {
      val B = ReadFile(Path);
      if (B.isUndefined() || B.isNull())
        return makeError(Path + ": cannot open file");
      return sharedBytesFrom(B);
    };
    return result(L->addInputs(In, *O, Read));
  }
  // A session whose memory is in the executor (after its setup()): an
  // exec::Program, freestanding until useRuntime() links a C runtime in.
  val initRemote(std::string Triple, WasmExecutor &E) {
    if (S)
      return fail("session already initialized");
    auto &Info = E.client().setupInfo();
    if (!Info)
      return fail("the executor has not been set up (call setup first)");
    Triple_ T = Triple_::parse(Triple.empty() ? Info->triple : Triple);
    if (!findTarget(T))
      return fail("unsupported target triple '" + T.str + "'");
    // The executor is set up already, so this answers at once.
    std::optional<Expected<std::unique_ptr<exec::Program>>> Made;
    exec::Program::create(E.client(), T, nullptr, {},
                          [&](Expected<std::unique_ptr<exec::Program>> P) { Made.emplace(std::move(P)); });
    if (!Made)
      return fail("internal error: program creation did not answer");
    if (!*Made)
      return fail(Made->takeError());
    L = driver::Link::program(std::move(**Made), warn());
    S = &L->session();
    Recorder = &L->linkInfo();
    return ok();
  }
  // Links T's C runtime (program/runtime.cpp's row) into the program; Files is
  // {name: Uint8Array} with every file of the row (the on-demand archives
  // only when the program needs them: runtimeFilesNeeded).
  // With an executor the runtime is the program's (start object included);
  // in a slab (-noexec) its archives join as libraries, so libc calls
  // resolve as they would in a run.
  val useRuntime(val Files) {
    if (!S)
      return notReady();
    const exec::RuntimeSpec *R = exec::findRuntime(S->triple().arch);
    if (!R)
      return fail(formatv("no C runtime is known for %s; use runtime 'none'", fullTriple(S->triple()).c_str()));
    return addRuntime(*R, runtimeFilesFrom(Files), {});
  }
  // As useRuntime, with files copied and archives read once for many
  // sessions: this one links copies of the archives' indexes.
  val usePreparedRuntime(WasmPreparedRuntime &P) {
    if (!S)
      return notReady();
    if (!P.R)
      return fail("useRuntime: this prepared runtime is not initialized");
    if (P.R->arch != S->triple().arch)
      return fail(formatv("useRuntime: the runtime prepared is %s, not for %s", P.R->description,
                          fullTriple(S->triple()).c_str()));
    return addRuntime(*P.R, P.Files, P.Archives);
  }
  // As useRuntime, with the runtime a WasmRuntimeFetch fetched (partial
  // archives, and the graphs it built for the link to take).
  val addRuntime(const exec::RuntimeSpec &R, exec::RuntimeFiles Files, std::map<std::string, Archive> Archives) {
    return result(L->addRuntime(R, std::move(Files), std::move(Archives)));
  }
  val useRuntimeFetch(WasmRuntimeFetch &Fetch) {
    if (!S)
      return notReady();
    if (!Fetch.F)
      return fail("useRuntime: this runtime fetch is not initialized, or a session has taken it");
    const exec::RuntimeSpec *R = Fetch.R;
    if (R->arch != S->triple().arch)
      return fail(
          formatv("useRuntime: the runtime fetched is %s, not for %s", R->description, S->triple().str.c_str()));
    if (!L->program() && L->runtime())
      return fail(formatv("this session already links the C runtime %s", L->runtime()->description));
    exec::RuntimeFiles Files = Fetch.F->files();
    std::map<std::string, Archive> Archives = Fetch.F->takeArchives();
    S->usePrefetched(Fetch.F->takeGraphs());
    Fetch.F.reset();
    return addRuntime(*R, std::move(Files), std::move(Archives));
  }
  // Links what Entry needs; Done gets {ok, value: [address]}. A slab
  // session with a runtime enters main (or another entry) through its start
  // object, as linklab -noexec does (driver::Link::linkEntry). Entry empty:
  // the C main as the objects' format spells it (driver::entrySymbol).
  void linkEntry(std::string Entry, val Done) {
    if (!S)
      return (void)Done(notReady());
    L->linkEntry(Entry, [Done](Expected<Addr> A) mutable { Done(A ? ok(addresses({*A})) : failOr(A)); });
  }
  bool hasRuntime() const { return L && L->runtime() != nullptr; }
  // Runs Entry as main, as the native CLI does (exec::Program::runMain).
  void run(std::string Entry, val Args, std::string Instructions, std::string WallMillis, std::string MemoryBytes,
           val Done) {
    exec::Program *Prog = L ? L->program() : nullptr;
    if (!Prog)
      return (void)Done(fail("run: this session links into a slab (-noexec); create it with an executor"));
    auto Limits =
        driver::parseLimits({"instructions", Instructions}, {"wallMillis", WallMillis}, {"memoryBytes", MemoryBytes});
    if (!Limits)
      return (void)Done(failOr(Limits));
    Prog->runMain(driver::entrySymbol(Entry, S->triple()), stringsFrom(Args), *Limits,
                  [Prog, Done](Expected<executor::RunResultMsg> R) mutable {
                    Done(R ? ok(runResult(Prog->client(), *R)) : failOr(R));
                  });
  }

  // An input's bytes as the link takes them: a universal MachO file's slice
  // for the session's arch, as linklab's inputs (an untold triple takes the
  // file's only slice).
  Expected<SharedBytes> linkedBytes(const std::string &Name, val Bytes) {
    SharedBytes B = sharedBytesFrom(Bytes);
    if (!macho::isUniversal(B.span()))
      return B;
    return macho::selectSlice(Name, B, S->triple());
  }

  val addObject(std::string Name, val Bytes, bool Harness) {
    if (!S)
      return notReady();
    auto Linked = linkedBytes(Name, Bytes);
    if (!Linked)
      return failOr(Linked);
    // An object's .linklab.callconv entries join, as the native CLI reads every input's.
    return result(L->addInput({Name, std::move(*Linked), Harness ? ObjectKind::Harness : ObjectKind::Regular}));
  }
  // llvm-jitlink's -all_load: every object member of the archive, now.
  val addArchiveMembers(std::string Name, val Bytes) {
    if (!S)
      return notReady();
    auto Linked = linkedBytes(Name, Bytes);
    if (!Linked)
      return failOr(Linked);
    return result(L->addInput({Name, std::move(*Linked)}, /*AllLoad=*/true));
  }
  // -sectcreate=Arg with Content, the bytes of the file Arg names
  // (driver::sectCreateFile gives its path).
  val addSectCreate(std::string Arg, val Content) {
    if (!S)
      return notReady();
    auto Spec = driver::parseSectCreate(Arg);
    if (!Spec)
      return failOr(Spec);
    auto G = driver::sectCreateGraph(*Spec, std::make_shared<const std::vector<char>>(bytesFrom(Content)), S->triple());
    if (!G)
      return failOr(G);
    auto K = S->addGraph(std::move(*G));
    return K ? ok() : failOr(K);
  }
  // -show-init-es / -show-entry-es: record which process symbols main's
  // objects look up (before objects are added), then print the tables;
  // HasProcess: the link has a C runtime. A run prints the entry tables
  // from Fn(), called once main's objects are linked and before it runs.
  val recordProcessLookups() {
    if (!S)
      return notReady();
    S->recordProcessLookups();
    return ok();
  }
  val symbolTables(bool HasProcess) { return S ? ok(val(S->dumpSymbolTables(HasProcess))) : notReady(); }
  // The program's environment ("NAME=VALUE" strings, -env) and the
  // read-only files it finds in its file system ([{path, bytes}], -file), as
  // the native command hands them to its run.
  val setRunInputs(val Env, val Files) {
    exec::Program *Prog = L ? L->program() : nullptr;
    if (!Prog)
      return fail("run: this session links into a slab (-noexec); create it with an executor");
    std::vector<executor::InputFile> In;
    for (size_t I = 0, N = Files["length"].as<size_t>(); I < N; ++I) {
      std::vector<char> B = bytesFrom(Files[I]["bytes"]);
      In.push_back({Files[I]["path"].as<std::string>(), std::vector<uint8_t>(B.begin(), B.end())});
    }
    Prog->setEnvironment(stringsFrom(Env));
    Prog->setInputFiles(std::move(In));
    return ok();
  }
  val setBeforeMainRun(val Fn) {
    exec::Program *Prog = L ? L->program() : nullptr;
    if (!Prog)
      return fail("setBeforeMainRun: this session links into a slab (-noexec)");
    Prog->setBeforeMainRun([Fn] { Fn(); });
    return ok();
  }
  // One "SYMBOL=SIGNATURE;SPEC-OR-PLAN" entry, as -cc gives it; Origin names it in errors.
  val addConvention(std::string Entry, std::string Origin) {
    if (!S)
      return notReady();
    Error E = L->conventions().addEntry(Entry, Origin);
    return E ? fail(std::move(E)) : ok();
  }
  // Planner warnings (from entries as they are added, and from the
  // bridge-thunk pass as objects link) go to Fn(message).
  val setWarningHandler(val Fn) {
    if (!S)
      return notReady();
    OnWarning = Fn;
    return ok();
  }
  val defineAbsolute(std::string Name, std::string Address) {
    if (!S)
      return notReady();
    auto A = number("defineAbsolute address", Address);
    if (!A)
      return failOr(A);
    Error E = S->defineAbsolute(Name, *A);
    return E ? fail(std::move(E)) : ok();
  }
  val setPhonyExternals(bool On) {
    if (!S)
      return notReady();
    S->setPhonyExternals(On);
    return ok();
  }
  val setHooks(val Hooks) {
    if (!S)
      return notReady();
    Js = std::make_shared<JsPlugin>(Hooks);
    S->addPlugin(Js);
    return ok();
  }
  // Which hooks JS wants (JsPlugin::Interest): Objects is [[name, mask]].
  val setHookInterest(unsigned All, val Objects, bool Loaded, bool Emitted, bool Failed) {
    if (!Js)
      return fail("setHookInterest before setHooks");
    JsPlugin::Interest I{All, {}, Loaded, Emitted, Failed};
    for (unsigned K = 0, N = Objects["length"].as<unsigned>(); K < N; ++K)
      I.Objects[Objects[K][0].as<std::string>()] |= Objects[K][1].as<unsigned>();
    Js->setInterest(std::move(I));
    return ok();
  }
  double lastEmittedAt() const { return Js ? Js->lastEmittedAt() : 0; }
  val setRecordContents(bool On) {
    if (!S)
      return notReady();
    if (!Recorder)
      return On ? noLinkInfo() : ok();
    Recorder->setRecordContents(On);
    return ok();
  }
  // Links whatever the names need; Done gets {ok, value: [addresses]}.
  void lookup(val Names, val Done) {
    if (!S)
      return (void)Done(notReady());
    S->lookup(stringsFrom(Names),
              [Done](Expected<std::vector<Addr>> R) mutable { Done(R ? ok(addresses(*R)) : failOr(R)); });
  }
  val triple() { return S ? ok(val(fullTriple(S->triple()))) : notReady(); }
  // Entry, or the C main as the session's object format spells it (core's default).
  val entrySymbol(std::string Entry) { return S ? ok(val(driver::entrySymbol(Entry, S->triple()))) : notReady(); }
  // What LinkInfoRecorder kept for each linked object, as JSON; contents only
  // for the objects ContentOf names, when it is an array.
  val linkInfo(val ContentOf) {
    if (!S)
      return notReady();
    if (!Recorder)
      return noLinkInfo();
    if (ContentOf.isUndefined())
      return ok(val(api::linkInfoToJson(Recorder->objects())));
    std::vector<std::string> Names = stringsFrom(ContentOf);
    std::set<std::string> Only(Names.begin(), Names.end());
    return ok(val(api::linkInfoToJson(Recorder->objects(), &Only)));
  }
  // -show-addrs and -show-relocated-section-contents, as the native CLI prints them.
  val linkReport(bool Addresses, bool Relocated) {
    if (!S)
      return notReady();
    if (!Recorder)
      return noLinkInfo();
    std::string Out;
    if (Addresses)
      Out += formatAddresses(Recorder->objects());
    for (auto &O : Recorder->objects())
      if (Relocated)
        Out += formatRelocatedContents(O);
    return ok(val(Out));
  }

private:
  val notReady() { return fail("session not initialized (initSlab or initRemote first)"); }
  val noLinkInfo() { return fail("this session records no link info: it was created with linkInfo false"); }
  // Planner warnings, to JS's handler when it set one. (The conventions join
  // with the link, before the JS hooks: the JS 'prune' point, inserted in
  // front of the post-prune passes later, still sees the graph right after
  // dead-stripping, before the bridge thunks.)
  driver::Link::WarningFn warn() {
    return [this](const std::string &W) {
      if (!OnWarning.isUndefined())
        OnWarning(W);
    };
  }
  using Triple_ = linklab::Triple;

  std::shared_ptr<JsPlugin> Js;         // setHooks's
  std::unique_ptr<driver::Link> L;      // the session's link: into a slab, or an executor's program
  Session *S = nullptr;                 // L's
  LinkInfoRecorder *Recorder = nullptr; // L's, when it records link info
  val OnWarning = val::undefined();
};

// ---- the calling-convention planner --------------------------------------------

val locations(const std::vector<callconv::Location> &Ls) {
  val A = val::array();
  for (auto &L : Ls) {
    val X = val::object();
    X.set("inRegister", L.InRegister);
    X.set("value", L.Value);
    X.set("offset", L.Offset);
    X.set("size", L.Size);
    X.set("align", L.Align);
    if (L.InRegister) {
      X.set("register", L.Register);
      X.set("registerName", L.RegisterName);
      X.set("registerBytes", L.RegisterBytes);
    } else {
      X.set("stackOffset", double(L.StackOffset));
    }
    X.set("flags", L.Flags);
    A.call<void>("push", X);
  }
  return A;
}

val planValue(const callconv::Plan &P) {
  val V = val::object();
  V.set("text", P.text());
  V.set("describe", P.describe());
  V.set("target", std::string(P.target().Name));
  V.set("targetId", P.target().targetId());
  V.set("schema", P.target().Schema);
  V.set("convention", P.convention().str());
  V.set("signature", P.signature().str());
  V.set("stackBytes", P.stackBytes());
  V.set("returns", locations(P.returns()));
  V.set("arguments", locations(P.arguments()));
  val CS = val::array();
  for (uint16_t R : P.calleeSaved())
    CS.call<void>("push", R);
  V.set("calleeSaved", CS);
  val W = val::array();
  for (auto &S : P.warnings())
    W.call<void>("push", S);
  V.set("warnings", W);
  return V;
}

// Input: a spec, a plan text ("v1;..."), or "" for the target's standard
// convention. ExpectSpec, when not empty, declares the function's convention
// (a spec, or "standard"): a plan for another one is refused.
val plan(std::string Input, std::string Signature, std::string Triple, std::string ExpectSpec) {
  auto P = callconv::planFor(Triple, Signature, Input, ExpectSpec);
  return P ? ok(planValue(*P)) : failOr(P);
}

// The C runtime table row for a triple: what the JS side must supply to
// useRuntime() (Node reads the paths; a browser fetches the files by name).
val runtimeInfo(std::string Triple) {
  const exec::RuntimeSpec *R = exec::findRuntime(linklab::Triple::parse(Triple).arch);
  if (!R)
    return fail(formatv("no C runtime is known for %s", Triple.c_str()));
  val V = val::object();
  V.set("description", std::string(R->description));
  V.set("cflags", std::string(R->cflags));
  val Files = val::array();
  for (auto &F : R->files()) {
    val X = val::object();
    X.set("name", std::string(F.name));
    X.set("path", std::string(F.path));
    X.set("onDemand", F.onDemand);
    Files.call<void>("push", X);
  }
  V.set("files", Files);
  if (R->startObject.name)
    V.set("startObject", std::string(R->startObject.name));
  return ok(V);
}

// How much of an archive's start holds its head (magic and symbol index),
// from any prefix of it: {size, complete} (Archive::readHead).
val archiveHead(val Bytes) {
  std::vector<char> B = bytesFrom(Bytes);
  auto H = Archive::readHead("archive", {B.data(), B.size()});
  if (!H)
    return failOr(H);
  val V = val::object();
  V.set("size", double(H->size));
  V.set("complete", H->complete);
  return ok(V);
}

// The files of Triple's C runtime a link of Objects ([{name, bytes}])
// needs (exec::neededFiles): Heads is {name: bytes} with the head of each
// on-demand archive (archiveHead); the answer is their names, in row order.
val runtimeFilesNeeded(std::string Triple, val Objects, val Heads) {
  const exec::RuntimeSpec *R = exec::findRuntime(linklab::Triple::parse(Triple).arch);
  if (!R)
    return fail(formatv("no C runtime is known for %s", Triple.c_str()));
  std::vector<std::pair<std::string, SharedBytes>> Objs;
  for (size_t I = 0, N = Objects["length"].as<size_t>(); I < N; ++I)
    Objs.push_back({Objects[I]["name"].as<std::string>(),
                    std::make_shared<const std::vector<char>>(bytesFrom(Objects[I]["bytes"]))});
  std::map<std::string, std::vector<char>> HeadBytes; // the heads' names point into these
  std::map<std::string, Archive::Head> Read;
  for (auto &F : R->files()) {
    if (!F.onDemand || !Heads.hasOwnProperty(F.name))
      continue;
    std::vector<char> &B = HeadBytes[F.name] = bytesFrom(Heads[F.name]);
    auto H = Archive::readHead(F.path, {B.data(), B.size()});
    if (!H)
      return failOr(H);
    Read[F.name] = std::move(*H);
  }
  val Names = val::array();
  for (auto &F : exec::neededFiles(*R, exec::referencedNames(Objs), Read))
    Names.call<void>("push", std::string(F.name));
  return ok(Names);
}

// The link phases passes and snapshots run at, in order (api::phaseNames).
val phases() {
  val A = val::array();
  for (const char *N : api::phaseNames())
    A.call<void>("push", std::string(N));
  return A;
}

val targets() {
  val A = val::array();
  for (const ArchRow *R : allArchRows())
    A.call<void>("push", std::string(R->name));
  return A;
}

// ---- reproducers: a session exported as a lit test, reduced ---------------------

// A case from the JS wrapper's checked object: {objects: [{name, bytes,
// harness}], triple, entry, args, absolutes, noExec, phonyExternals, runtime, stdin}.
Expected<repro::ReproCase> reproCase(const val &V) {
  repro::ReproCase C;
  val Objs = V["objects"];
  for (size_t I = 0, N = Objs["length"].as<size_t>(); I < N; ++I) {
    std::vector<char> B = bytesFrom(Objs[I]["bytes"]);
    auto In = repro::readInput(Objs[I]["name"].as<std::string>(), B, Objs[I]["harness"].as<bool>());
    if (!In)
      return In.takeError();
    C.inputs.push_back(std::move(*In));
  }
  C.triple = V["triple"].as<std::string>();
  C.entry = V["entry"].as<std::string>();
  C.args = stringsFrom(V["args"]);
  C.absolutes = stringsFrom(V["absolutes"]);
  C.noExec = V["noExec"].as<bool>();
  C.phonyExternals = V["phonyExternals"].as<bool>();
  C.runtime = V["runtime"].as<std::string>();
  C.stdin_ = V["stdin"].as<std::string>(); // the wrapper's bytes, as they are
  return C;
}
// A case's inputs as files: [{name, bytes, harness}] (archives rebuilt with their index).
val reproObjects(const repro::ReproCase &C) {
  val A = val::array();
  for (auto &In : C.inputs) {
    val O = val::object();
    O.set("name", In.name);
    O.set("bytes", bytesTo(repro::inputBytes(In)));
    O.set("harness", In.harness);
    A.call<void>("push", O);
  }
  return A;
}

// Outcome: {linkError, error, exitCode, output, signal, report}; Opts: {name, marks,
// linklabOnly, compareOutput, acceptAssembly?(objectName, text, mcFlags) -> bool}.
val exportTest(val Case, val Outcome, val Opts) {
  auto C = reproCase(Case);
  if (!C)
    return failOr(C);
  repro::Outcome O;
  O.linkError = Outcome["linkError"].as<bool>();
  O.error = Outcome["error"].as<std::string>();
  O.exitCode = Outcome["exitCode"].as<int>();
  O.output = Outcome["output"].as<std::string>();
  O.signal = Outcome["signal"].as<int>();
  O.report = Outcome["report"].as<std::string>();
  repro::ExportOptions EO;
  EO.name = Opts["name"].as<std::string>();
  EO.marks = stringsFrom(Opts["marks"]);
  EO.linklabOnly = Opts["linklabOnly"].as<std::string>();
  EO.compareOutput = Opts["compareOutput"].as<bool>();
  val Accept = Opts["acceptAssembly"];
  if (!Accept.isUndefined())
    EO.acceptAssembly = [Accept](const repro::ElfObject &Obj, const repro::Assembly &A) {
      return Accept(Obj.name, A.text, A.mcFlags).as<bool>();
    };
  auto T = repro::exportTest(*C, O, EO);
  if (!T)
    return failOr(T);
  val Files = val::array();
  for (auto &F : T->files) {
    val X = val::object();
    X.set("path", F.first);
    X.set("text", F.second);
    Files.call<void>("push", X);
  }
  val V = val::object();
  V.set("files", Files);
  V.set("testFile", T->testFile);
  V.set("checks", T->checks);
  val Notes = val::array();
  for (auto &N : T->notes)
    Notes.call<void>("push", N);
  V.set("notes", Notes);
  return ok(V);
}

// core's stepwise reducer: JS tests each candidate (a link or a run, which
// is asynchronous) and reports whether it still fails.
class WasmReducer {
public:
  val init(val Case, double Seconds, val Progress) {
    auto C = reproCase(Case);
    if (!C)
      return failOr(C);
    repro::ReduceOptions O;
    O.seconds = Seconds;
    O.progress = [Progress](const std::string &Line) { Progress(Line); };
    R.emplace(std::move(*C), std::move(O));
    return ok();
  }
  // The next candidate's objects, or null when the reduction is over.
  val next() {
    if (!R)
      return notReady();
    const repro::ReproCase *C = R->next();
    return ok(C ? reproObjects(*C) : val::null());
  }
  val report(bool Fails) {
    if (!R)
      return notReady();
    Error E = R->report(Fails);
    return E ? fail(std::move(E)) : ok();
  }
  // {objects, removed, tests, timedOut}; the reducer is spent afterwards.
  val result() {
    if (!R)
      return notReady();
    repro::ReduceResult Res = std::move(*R).result();
    R.reset();
    val V = val::object();
    V.set("objects", reproObjects(Res.reduced));
    val Removed = val::array();
    for (auto &W : Res.removed)
      Removed.call<void>("push", W);
    V.set("removed", Removed);
    V.set("tests", Res.tests);
    V.set("timedOut", Res.timedOut);
    return ok(V);
  }

private:
  val notReady() { return fail("reducer not initialized, or its result already taken"); }
  std::optional<repro::Reducer> R;
};

// ---- linklab-run's option parser (commandOptions) ----

val parseOptions(val Args) {
  auto O = commandOptions(Args);
  if (!O)
    return failOr(O);
  // The values linklab checks before it links (the slab) or runs (limits),
  // so that linklab-run's errors name the options as linklab's do.
  if (O->noExec) {
    if (auto Slab = driver::makeSlab(*O); !Slab)
      return failOr(Slab);
  } else if (auto L = driver::runLimits(*O); !L) {
    return failOr(L);
  }
  auto Strings = [](const std::vector<std::string> &V) {
    val R = val::array();
    for (auto &S : V)
      R.call<void>("push", S);
    return R;
  };
  val V = val::object();
  V.set("inputs", Strings(O->inputs));
  V.set("harnesses", Strings(O->harnesses));
  V.set("args", Strings(O->args));
  V.set("libraries", Strings(O->libraries));
  V.set("libraryPaths", Strings(O->libraryPaths));
  V.set("absolutes", Strings(O->absolutes));
  V.set("showGraphs", Strings(O->showGraphs));
  V.set("checkFiles", Strings(O->checkFiles));
  V.set("entry", O->entry);
  V.set("triple", O->triple);
  V.set("slabAllocate", O->slabAllocate);
  V.set("slabAddress", O->slabAddress);
  V.set("slabPageSize", O->slabPageSize);
  V.set("oopExecutor", O->oopExecutor);
  V.set("oopExecutorConnect", O->oopExecutorConnect);
  V.set("noExec", O->noExec);
  V.set("phonyExternals", O->phonyExternals);
  V.set("showAddrs", O->showAddrs);
  V.set("showTimes", O->showTimes);
  V.set("showRelocated", O->showRelocated);
  V.set("showInitEs", O->showInitEs);
  V.set("showEntryEs", O->showEntryEs);
  V.set("allLoad", O->allLoad);
  V.set("sectCreates", Strings(O->sectCreates));
  V.set("env", Strings(O->env));
  V.set("files", Strings(O->files));
  V.set("help", O->help);
  V.set("version", O->version);
  V.set("runtime", O->noProcessSyms ? std::string("none") : O->runtime); // llvm-jitlink's spelling of none
  V.set("maxInstructions", O->maxInstructions);
  V.set("timeoutMs", O->timeoutMs);
  V.set("maxMemory", O->maxMemory);
  V.set("conventions", Strings(O->conventions));
  V.set("callSymbol", O->callSymbol);
  V.set("usage", driver::usage());
  return ok(V);
}

// ---- the command's decisions (core/driver/command.h), shared with linklab ----

// The path of -lName among Paths, Exists(path) answering from JS's file system.
val findLibrary(std::string Name, val Paths, val Exists) {
  std::vector<std::string> P = stringsFrom(Paths);
  auto Path = driver::findLibrary(Name, P, [&](const std::string &F) { return Exists(F).as<bool>(); });
  return Path ? ok(val(*Path)) : failOr(Path);
}

// {name, address} of a NAME=ADDRESS text; Field names it in errors ("-abs").
val parseAbsolute(std::string Text, std::string Field) {
  auto A = driver::parseAbsolute({Field, Text});
  if (!A)
    return failOr(A);
  val V = val::object();
  V.set("name", A->name);
  V.set("address", std::to_string(A->address)); // exact: a decimal string, as 64-bit inputs travel
  return ok(V);
}

// The page's absolute-symbol lines: [{name, address}] (decimal strings).
val parseAbsoluteLines(std::string Text) {
  auto As = driver::parseAbsoluteLines(Text);
  if (!As)
    return failOr(As);
  val Out = val::array();
  for (auto &A : *As) {
    val V = val::object();
    V.set("name", A.name);
    V.set("address", std::to_string(A.address));
    Out.call<void>("push", V);
  }
  return ok(Out);
}

// The page's run-limit fields (memory in MiB): {instructions, wallMillis,
// memoryBytes} as LinkSession.run takes them (64-bit values as decimal strings).
val parseRunFields(std::string Instructions, std::string WallMillis, std::string MemoryMiB) {
  auto L = driver::parseRunFields(Instructions, WallMillis, MemoryMiB);
  if (!L)
    return failOr(L);
  val V = val::object();
  V.set("instructions", std::to_string(L->instructions));
  V.set("wallMillis", double(L->wallMillis));
  V.set("memoryBytes", std::to_string(L->memoryBytes));
  return ok(V);
}

// Whether a link for Triple takes a C runtime, as Runtime ("default",
// "none", a runtime's name) selects it; Required for a run.
val selectRuntime(std::string Runtime, std::string Field, std::string Triple, bool Required) {
  auto R = driver::selectRuntime({Field, Runtime}, linklab::Triple::parse(Triple), Required);
  return R ? ok(val(*R != nullptr)) : failOr(R);
}

// The triple of a command line's inputs ([{name, bytes}]) as linklab's
// session takes it: Given, else the first object's. Only that object's bytes are copied in: archives, which
// do not name a target and may be large, are told by their magic.
val inputTriple(std::string Given, val Inputs) {
  std::string Name;
  std::vector<char> Bytes;
  for (size_t I = 0, N = Given.empty() ? Inputs["length"].as<size_t>() : 0; I < N && Name.empty(); ++I) {
    val B = Inputs[I]["bytes"];
    std::vector<char> Head = bytesFrom(B.call<val>("subarray", 0, 8));
    if (Archive::isArchive({Head.data(), Head.size()}) || macho::isUniversal({Head.data(), Head.size()}))
      continue;
    Name = Inputs[I]["name"].as<std::string>();
    Bytes = bytesFrom(B);
  }
  std::vector<driver::InputBytes> In;
  if (!Name.empty())
    In.push_back({Name, {Bytes.data(), Bytes.size()}});
  auto T = driver::inputTriple(Given, In);
  return T ? ok(val(T->str)) : failOr(T);
}

std::string formatTimings(double Load, double Link, double Total) { return driver::formatTimings(Load, Link, Total); }

// The file a -sectcreate argument names (its errors in llvm-jitlink's words).
val sectCreateFile(std::string Arg) {
  auto Spec = driver::parseSectCreate(Arg);
  return Spec ? ok(val(Spec->file)) : failOr(Spec);
}

} // namespace

EMSCRIPTEN_BINDINGS(linklab) {
  using namespace emscripten;
  function("parseOptions", &parseOptions);
  function("findLibrary", &findLibrary);
  function("parseAbsolute", &parseAbsolute);
  function("parseAbsoluteLines", &parseAbsoluteLines);
  function("parseRunFields", &parseRunFields);
  function("selectRuntime", &selectRuntime);
  function("inputTriple", &inputTriple);
  function("formatTimings", &formatTimings);
  function("sectCreateFile", &sectCreateFile);
  function("inspectObject", &inspectObject);
  function("plan", &plan);
  function("targets", &targets);
  function("phases", &phases);
  function("runtimeInfo", &runtimeInfo);
  function("archiveHead", &archiveHead);
  function("runtimeFilesNeeded", &runtimeFilesNeeded);
  function("nativeOnlyOptions", &nativeOnlyOptions);
  function("exportTest", &exportTest);
  function("runTasks", &runTasks);
  function("setWake", &setWake);
  class_<GraphView>("GraphView")
      .function("data", &GraphView::data)
      .function("dump", &GraphView::dump)
      .function("edgeKindNames", &GraphView::edgeKindNames)
      .function("addExternalSymbol", &GraphView::addExternalSymbol)
      .function("addAbsoluteSymbol", &GraphView::addAbsoluteSymbol)
      .function("addDefinedSymbol", &GraphView::addDefinedSymbol)
      .function("removeSymbol", &GraphView::removeSymbol)
      .function("makeExternal", &GraphView::makeExternal)
      .function("setLive", &GraphView::setLive)
      .function("addEdge", &GraphView::addEdge)
      .function("setEdgeKind", &GraphView::setEdgeKind)
      .function("setEdgeTarget", &GraphView::setEdgeTarget)
      .function("setEdgeAddend", &GraphView::setEdgeAddend)
      .function("removeEdge", &GraphView::removeEdge)
      .function("createSection", &GraphView::createSection)
      .function("addContentBlock", &GraphView::addContentBlock)
      .function("setBlockContent", &GraphView::setBlockContent)
      .function("removeBlock", &GraphView::removeBlock);
  class_<WasmExecutor>("Executor")
      .constructor<val>()
      .function("setOutput", &WasmExecutor::setOutput)
      .function("setStdin", &WasmExecutor::setStdin)
      .function("feed", &WasmExecutor::feed)
      .function("takeOutgoing", &WasmExecutor::takeOutgoing)
      .function("setup", &WasmExecutor::setup)
      .function("setupUnchecked", &WasmExecutor::setupUnchecked)
      .function("runMain", &WasmExecutor::runMain)
      .function("callWithPlan", &WasmExecutor::callWithPlan)
      .function("readMemory", &WasmExecutor::readMemory)
      .function("hangup", &WasmExecutor::hangup)
      .function("setDebugHandler", &WasmExecutor::setDebugHandler)
      .function("debugNextRun", &WasmExecutor::debugNextRun)
      .function("debugResume", &WasmExecutor::debugResume);
  class_<WasmReducer>("Reducer")
      .constructor<>()
      .function("init", &WasmReducer::init)
      .function("next", &WasmReducer::next)
      .function("report", &WasmReducer::report)
      .function("result", &WasmReducer::result);
  class_<WasmRuntimeFetch>("RuntimeFetch")
      .constructor<>()
      .function("init", &WasmRuntimeFetch::init)
      .function("wanted", &WasmRuntimeFetch::wanted)
      .function("addMembers", &WasmRuntimeFetch::addMembers)
      .function("membersPulled", &WasmRuntimeFetch::membersPulled);
  class_<WasmPreparedRuntime>("PreparedRuntime").constructor<>().function("init", &WasmPreparedRuntime::init);
  class_<WasmSession>("Session")
      .constructor<>()
      .function("initSlab", &WasmSession::initSlab)
      .function("initRemote", &WasmSession::initRemote)
      .function("initCommandSlab", &WasmSession::initCommandSlab)
      .function("addCommandInputs", &WasmSession::addCommandInputs)
      .function("addObject", &WasmSession::addObject)
      .function("addArchiveMembers", &WasmSession::addArchiveMembers)
      .function("addSectCreate", &WasmSession::addSectCreate)
      .function("recordProcessLookups", &WasmSession::recordProcessLookups)
      .function("symbolTables", &WasmSession::symbolTables)
      .function("setBeforeMainRun", &WasmSession::setBeforeMainRun)
      .function("setRunInputs", &WasmSession::setRunInputs)
      .function("defineAbsolute", &WasmSession::defineAbsolute)
      .function("setPhonyExternals", &WasmSession::setPhonyExternals)
      .function("setHooks", &WasmSession::setHooks)
      .function("setHookInterest", &WasmSession::setHookInterest)
      .function("lastEmittedAt", &WasmSession::lastEmittedAt)
      .function("addConvention", &WasmSession::addConvention)
      .function("setWarningHandler", &WasmSession::setWarningHandler)
      .function("setRecordContents", &WasmSession::setRecordContents)
      .function("lookup", &WasmSession::lookup)
      .function("linkEntry", &WasmSession::linkEntry)
      .function("useRuntime", &WasmSession::useRuntime)
      .function("useRuntimeFetch", &WasmSession::useRuntimeFetch)
      .function("usePreparedRuntime", &WasmSession::usePreparedRuntime)
      .function("hasRuntime", &WasmSession::hasRuntime)
      .function("run", &WasmSession::run)
      .function("triple", &WasmSession::triple)
      .function("entrySymbol", &WasmSession::entrySymbol)
      .function("linkInfo", &WasmSession::linkInfo)
      .function("linkReport", &WasmSession::linkReport);
}
