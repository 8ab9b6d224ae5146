// A program linked into an executor and run there, as a process runs:
// the session links the user's objects and, lazily, the C runtime's archive
// members they need into the executor's memory; the executor's own symbols
// (__heap_start...) resolve like a process's; one TLS image is built for all
// graphs; constructors run before the entry and exit() after it.
// Used by the linklab CLI; the wasm build and callers of single functions
// reuse it with their own transport.
#pragma once

#include "exec/runtime.h"
#include "executor/executor_client.h"
#include "link/link_info.h"
#include "link/session.h"

namespace linklab::exec {

class InitArrays;

class Program {
public:
  // Sets the executor up for TT. With a runtime (null: none, the program is
  // freestanding) its archives join the session as libraries.
  static Expected<std::unique_ptr<Program>> create(executor::ExecutorClient &C, const Triple &TT,
                                                   const RuntimeSpec *Runtime);
  ~Program();

  Session &session() { return *S; }
  executor::ExecutorClient &client() { return C; }
  LinkInfoRecorder &linkInfo() { return *Info; }

  // Links Entry and everything it needs, installs TLS and the init arrays,
  // then runs Entry(argc, argv) as main: through the runtime's start object
  // when Entry is main and the runtime has one, otherwise constructors, the
  // entry, and exit(result). Args is the whole argv.
  Expected<executor::RunResultMsg> runMain(const std::string &Entry, std::vector<std::string> Args,
                                           executor::Limits L);
  // Links Entry and calls it with M's registers (M.entry is filled in).
  Expected<executor::RunResultMsg> call(const std::string &Entry, executor::CallMsg M);

  // "main+0x10 (hello.o, .text)" for an executor address; empty if unknown.
  std::string symbolize(uint64_t A) const;

private:
  Program(executor::ExecutorClient &C, const RuntimeSpec *R) : C(C), Runtime(R) {}
  Error prepareRun(); // TLS image and init arrays, once everything is linked
  Expected<executor::RunResultMsg> callAddress(uint64_t Entry, executor::CallMsg M);

  executor::ExecutorClient &C;
  const RuntimeSpec *Runtime;
  std::unique_ptr<MemoryManager> MM;
  std::unique_ptr<Session> S;
  std::shared_ptr<LinkInfoRecorder> Info;
  std::shared_ptr<TLSLayout> TLS;
  std::shared_ptr<InitArrays> Inits;
  bool TLSInstalled = false;
};

} // namespace linklab::exec
