// One set-up for every link, whoever asks for it: the `linklab` command (a
// run, -noexec), the package's sessions (wasm-bindings), the exporter's
// checked link and the reducer (repro). Around the user's objects a link has
// what a process would have: the link services (one TLS layout, the init
// arrays, IRELATIVE slots, the static link tables), the executor's own
// symbols, the C runtime's archives and start code, the calling conventions
// of -cc and of each object's .linklab.callconv section; and it links its
// entry as a run enters it, through the runtime's start code. A link into an
// executor is an exec::Program's session, which sets the process's part up
// itself; a link into a slab (-noexec) gets the same part here. Inputs come
// as bytes: reading files stays with the callers (the wasm build has none).
#pragma once

#include "driver/conventions.h"
#include "driver/options.h"
#include "program/program.h"

#include <functional>
#include <memory>
#include <span>

namespace linklab::driver {

// One input as the command line gave it: an object, a harness object or an
// archive (-l libraries included).
struct Input {
  std::string name;
  SharedBytes bytes;
  ObjectKind kind = ObjectKind::Regular;
  bool library = false; // found through -l: it names no target
  bool isArchive() const;
};

// The bytes of a file an option names (-sectcreate's FILE).
using ReadFile = std::function<Expected<SharedBytes>(const std::string &Path)>;

class Link {
public:
  using WarningFn = SessionConventions::WarningFn;
  // Puts a memory manager in front of the slab's (the wasm build answers
  // allocations from its event loop); null: the slab's own.
  using WrapSlab = std::function<std::unique_ptr<MemoryManager>(std::unique_ptr<SlabMemoryManager>)>;

  // A link into Slab, as -noexec links (driver::makeSlab). AsRun: Slab
  // places the link where a run would (no -slab-* option), so the executor's
  // own symbols are defined where it would define them. TT unknown: only
  // archives and no -triple, so no target to lay TLS out for (the static
  // link tables only). Record: the link info recorder joins (it copies every
  // symbol name of every graph: only for a caller that shows or checks what
  // was linked). Planner warnings go to Warn.
  static std::unique_ptr<Link> slab(const Triple &TT, std::unique_ptr<SlabMemoryManager> Slab, bool AsRun,
                                    WarningFn Warn, bool Record, const WrapSlab &Wrap = nullptr);
  // A link into an executor: P's session, the process's part set up by P.
  static std::unique_ptr<Link> program(std::unique_ptr<exec::Program> P, WarningFn Warn);
  ~Link();

  Session &session() { return *S; }
  // Null for a slab link.
  exec::Program *program() { return Prog.get(); }
  LinkInfoRecorder &linkInfo() { return *Info; }
  SessionConventions &conventions() { return *Conventions; }
  // The C runtime linked (null: none).
  const exec::RuntimeSpec *runtime() const;

  // The C runtime R's archives, as libraries (Files and Archives as
  // exec::addRuntimeArchives takes them); into a slab also its start object,
  // which joins when the entry is linked (linkEntry).
  Error addRuntime(const exec::RuntimeSpec &R, exec::RuntimeFiles Files, std::map<std::string, Archive> Archives = {});
  // One input (AllLoad: every object member of an archive, -all_load). A
  // named object's .linklab.callconv section joins the conventions; an -l
  // library's does not.
  Error addInput(const Input &I, bool AllLoad = false);
  // -cc's entries, the inputs, -abs, -sectcreate (Read gives FILE's bytes)
  // and -phony-externals of O.
  Error addInputs(std::span<const Input> Inputs, const Options &O, const ReadFile &Read);

  // Links Entry (empty: the format's C main, driver::entrySymbol) into a
  // slab as a run would link it: with a runtime that has start code, its
  // start object joins, calling Entry as main, every object starts linking
  // and the entry and then the start symbol are looked up (an object that
  // failed to link is the error once the entry is found). Done gets the
  // entry's address.
  void linkEntry(std::string Entry, std::function<void(Expected<Addr>)> Done);

private:
  Link() = default;
  void makeConventions(WarningFn Warn);

  std::unique_ptr<MemoryManager> MM; // a slab link's
  std::unique_ptr<Session> OwnSession;
  std::unique_ptr<exec::Program> Prog; // an executor link's
  Session *S = nullptr;
  std::shared_ptr<LinkInfoRecorder> OwnInfo;
  LinkInfoRecorder *Info = nullptr;
  std::unique_ptr<SessionConventions> Conventions;
  // A slab link's runtime: its init arrays (with a target), the runtime, its
  // start object and the entry the start object was added for.
  std::shared_ptr<InitArrays> Inits;
  const exec::RuntimeSpec *SlabRuntime = nullptr;
  SharedBytes StartObject;
  std::optional<std::string> StartEntry;
};

} // namespace linklab::driver
