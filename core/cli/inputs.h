// The inputs a command line names, added to a session the same way whether
// the link runs (-oop-executor...) or not (-noexec): objects, harness
// objects, -l archives from the -L paths, -abs symbols, -phony-externals.
#pragma once

#include "driver/options.h"
#include "program/runtime.h"
#include "session/session.h"

namespace linklab::cli {

struct Input {
  std::string path;
  SharedBytes bytes;
  ObjectKind kind;
  bool library; // found through -l
  bool isArchive() const;
};

// The inputs, the harnesses, then the -l archives found in the -L paths,
// each file read once.
Expected<std::vector<Input>> readInputs(const driver::Options &O);
// Adds them (objects, archives), the -abs symbols, -sectcreate sections,
// -weak_library names, -add-self-relocations, -write-symtab and
// -phony-externals.
Error addInputs(const driver::Options &O, const std::vector<Input> &Inputs, Session &S);

// The link's triple: -triple, else the first object's (driver::inputTriple).
Expected<Triple> inputTriple(const driver::Options &O, const std::vector<Input> &Inputs);
// The C runtime -runtime (-no-process-syms: none) selects for TT
// (driver::selectRuntime).
Expected<const exec::RuntimeSpec *> selectRuntime(const driver::Options &O, const Triple &TT, bool Required);

} // namespace linklab::cli
