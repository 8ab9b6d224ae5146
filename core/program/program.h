// A program linked into an executor and run there, as a process runs:
// the session links the user's objects and, lazily, the C runtime's archive
// members they need into the executor's memory; the executor's own symbols
// (__heap_start...) resolve like a process's; one TLS image is built for all
// graphs; constructors run before the entry and exit() after it.
//
// Every step is asynchronous: answers come through the executor client's
// callbacks, from a blocking transport (the CLI, via the *Sync wrappers
// below, which pull bytes until the callback has run) or from an event loop
// (the wasm build feeds bytes as they arrive). There is one implementation;
// the wrappers only wait for it. A Program must outlive its pending calls.
#pragma once

#include "platform/eh_frame_registration.h"
#include "platform/ifunc.h"
#include "platform/init_arrays.h"
#include "platform/tls_layout.h"
#include "program/runtime.h"
#include "program/runtime_image.h"
#include "protocol/executor_client.h"
#include "session/graph_prefetch.h"
#include "session/link_info.h"
#include "session/session.h"

namespace linklab::exec {

// The session-wide services a run links with: one TLS image, the init
// arrays, the static link tables (link/linker_symbols.h). A session that
// does not run (-noexec) adds them too, to link what a run would.
struct LinkServices {
  std::shared_ptr<TLSLayout> tls;
  std::shared_ptr<InitArrays> inits;
  std::shared_ptr<IRelativeTable> irelatives;
};
LinkServices addLinkServices(Session &S, uint64_t PageSize);
// The executor's own symbols (its setup answer; protocol/address_plan.h
// for a link that runs nothing), defined in S when a link names them.
void addExecutorSymbols(Session &S, std::vector<executor::ExposedSymbol> Symbols);

// Adds runtime R's archives to S (as libraries, named by their Debian paths)
// from Files, which must hold each of R's files by name (on-demand archives
// may be left out: neededFiles); StartObject, when
// given, receives the start object's bytes (null: it is not needed, as in a
// link that starts no process). Given the session's init arrays, each
// graph's .eh_frame is registered with R's unwinder, if it has one
// (link/eh_frame_registration.h: a .preinit_array entry).
// Archives holds archives of R parsed already (partial ones: program/runtime_fetch.h)
// by file name, which Files then need not hold.
// Registration, when given, receives the .eh_frame registration plugin (if any).
Error addRuntimeArchives(Session &S, const RuntimeSpec &R, const RuntimeFiles &Files, SharedBytes *StartObject,
                         std::shared_ptr<InitArrays> Inits = nullptr, std::map<std::string, Archive> Archives = {},
                         std::shared_ptr<EHFrameRegistration> *Registration = nullptr);
// The plugins a runtime adds to every link of a session: .eh_frame
// registration (returned, or null) and the runtime's own passes.
std::shared_ptr<EHFrameRegistration> addRuntimePlugins(Session &S, const RuntimeSpec &R,
                                                       std::shared_ptr<InitArrays> Inits);

// Whether a run of Entry with runtime R (null: none) enters through R's
// start object: for main and any other entry but the start symbol itself,
// when R has one. The runtime initialises itself there (glibc: TLS, IFUNCs,
// stdio, init arrays) before the entry, and exits with its result (atexit
// handlers, destructors, stdio flushed), as for main.
bool entersThroughStart(const RuntimeSpec *R, std::string_view Entry);
// Adds R's start object to S as a library, linked when needed. Its
// reference to main names Entry instead, so the start code calls
// Entry(argc, argv, envp) where it would call main.
Expected<ResourceKey> addStartObject(Session &S, const RuntimeSpec &R, SharedBytes Bytes, std::string_view Entry);

class Program {
public:
  using OnCreated = std::function<void(Expected<std::unique_ptr<Program>>)>;
  using OnResult = executor::Callback<executor::RunResultMsg>;

  // Sets the executor up for TT (or reuses its setup when it already has one
  // for TT's architecture). With a runtime (null: none, the program is
  // freestanding) its archives join the session as libraries; Files holds
  // the bytes of every file of the runtime by name.
  static void create(executor::ExecutorClient &C, const Triple &TT, const RuntimeSpec *Runtime, RuntimeFiles Files,
                     OnCreated Done);
  // Blocking: the runtime's files Objects need are read from their Debian
  // paths (readRuntimeFiles). While the executor starts, the graphs of
  // Objects (the objects and archives the program will add, as named
  // there) and of the runtime's members they pull are
  // built ahead (link/graph_prefetch.h), and the program links without
  // waiting for the executor's setup answer (the addresses are the
  // address plan's): the *Sync calls below check that answer, and report
  // it if it failed or differs from the plan.

  // With Cache, the runtime is linked when the first run starts: from a
  // prepared image (program/runtime_image.h) in Cache->dir when the
  // program's objects allow one (built and stored there on a miss), else
  // from its archives.
  struct ImageCache {
    std::string dir;
    std::string identity; // linklab's own build, part of the key
  };
  static Expected<std::unique_ptr<Program>> createSync(executor::ExecutorClient &C, const Triple &TT,
                                                       const RuntimeSpec *Runtime,
                                                       const std::vector<PrefetchedGraphs::Input> &Objects = {},
                                                       const ImageCache *Cache = nullptr);
  ~Program();

  // Links the C runtime R into a program created without one; Files as for
  // create(). Objects already linked keep their resolutions.
  Error addRuntime(const RuntimeSpec &R, RuntimeFiles Files, std::map<std::string, Archive> Archives = {});
  const RuntimeSpec *runtime() const { return Runtime; }
  // The environment runMain hands the program ("NAME=VALUE" strings; empty
  // by default, as a clean exec).
  void setEnvironment(std::vector<std::string> E) { Env = std::move(E); }
  // Read-only files the program finds in its file system (-file).
  void setInputFiles(std::vector<executor::InputFile> F) { Files = std::move(F); }

  Session &session() { return *S; }
  executor::ExecutorClient &client() { return C; }
  LinkInfoRecorder &linkInfo() { return *Info; }

  // Links Entry and everything it needs, installs TLS and the init arrays,
  // then runs Entry(argc, argv) as main: through the runtime's start object
  // when it has one (entersThroughStart), otherwise constructors, the
  // entry, and with a runtime exit(result). Args is the whole argv. Done
  // gets the last run's result: the exit, or the first constructor/entry
  // that did not return (a fault or a limit). The start object is bound to
  // the first entry run through it: a later run of another entry is an
  // error.
  void runMain(std::string Entry, std::vector<std::string> Args, executor::Limits L, OnResult Done);
  // Called once the program is linked, just before its main run starts
  // (the CLI's -gdb and -debug-script need the linked addresses then).
  void setBeforeMainRun(std::function<void()> F) { BeforeMainRun = std::move(F); }
  Expected<executor::RunResultMsg> runMainSync(std::string Entry, std::vector<std::string> Args, executor::Limits L);
  // Links Entry and calls it with M's registers (M.entry is filled in).
  // With a runtime that has start code, the process is started first if no
  // run has (the runtime initialised, constructors run, as before main),
  // and stdio is flushed after the call.
  void call(std::string Entry, executor::CallMsg M, OnResult Done);
  Expected<executor::RunResultMsg> callSync(std::string Entry, executor::CallMsg M);

  // The executor's setup answer, for a program created before it came
  // (createSync): its error, or one if it differs from what was linked for;
  // checked once. A blocking step that waits on the client itself rather
  // than through the *Sync calls asks this after it.
  Error checkSetup();

  // "main+0x10 in .text of hello.o" for an executor address; empty if unknown.
  std::string symbolize(uint64_t A) const;

private:
  Program(executor::ExecutorClient &C) : C(C) {}
  static Expected<std::unique_ptr<Program>> build(executor::ExecutorClient &C, const Triple &TT,
                                                  const executor::SetupInfo &Info, const RuntimeSpec *Runtime,
                                                  RuntimeFiles Files,
                                                  std::unique_ptr<PrefetchedGraphs> Prefetched = nullptr);
  template <typename T> Expected<T> afterSetup(Expected<T> R);
  struct SetupAnswer {
    std::optional<Expected<executor::SetupInfo>> info;
    bool done = false;
  };
  std::shared_ptr<SetupAnswer> PendingSetup;
  executor::SetupInfo Predicted;
  // TLS image, IFUNC slots and init arrays, once everything is linked.
  void prepareRun(executor::Limits L, std::function<void(Error)> Done);
  void applyIRelatives(std::vector<IRelative> Recs, size_t Next, executor::Limits L, std::function<void(Error)> Done);
  void startProcess(std::string Entry, std::vector<std::string> Args, executor::Limits L, OnResult Done);
  void callMain(std::string Entry, std::vector<std::string> Args, executor::Limits L, OnResult Done);
  void startForCalls(Addr Start, executor::Limits L, std::function<void(Error)> Done);
  void callResolved(executor::CallMsg M, Addr Flush, OnResult Done);
  void callInOrder(std::vector<uint64_t> Fns, size_t Next, executor::Limits L, OnResult Done);
  // Every linked object's .eh_frame (a debugged run's backtraces unwind through them).
  std::vector<executor::MemoryRange> ehFrames() const;
  // The runtime, deferred by createSync's Cache: an image or the archives.
  Error linkRuntime(const ImageCache &Cache, std::string_view Entry);
  void installImage(RuntimeImage I);
  // The image's fixups against the entry and its .eh_frame chain's slot.
  Error fixUpImage();

  executor::ExecutorClient &C;
  const RuntimeSpec *Runtime = nullptr;
  SharedBytes StartObject;               // the runtime's, added on the first process start
  std::optional<std::string> StartEntry; // the entry it was added for
  bool ProcessStarted = false;           // its start code has run
  std::unique_ptr<MemoryManager> MM;
  std::unique_ptr<Session> S;
  std::shared_ptr<LinkInfoRecorder> Info;
  std::shared_ptr<TLSLayout> TLS;
  std::shared_ptr<InitArrays> Inits;
  std::shared_ptr<IRelativeTable> IRelatives;
  bool TLSInstalled = false;
  std::vector<std::string> Env;
  std::function<void()> BeforeMainRun;
  std::vector<executor::InputFile> Files;
  std::optional<ImageCache> PendingCache;
  std::shared_ptr<const RuntimeImage> Image;
  std::shared_ptr<EHFrameRegistration> Registration;
  std::optional<std::string> ImageFailure; // its memory is not where the executor reserves
  bool ImageFixedUp = false;
  mutable std::optional<std::vector<ObjectLinkInfo>> ImageInfo; // decoded when symbolizing
};

} // namespace linklab::exec
