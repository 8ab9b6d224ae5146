// The files a command line names, read for the link (driver::Link adds
// them, whether the link runs or not): objects, harness objects, -l
// archives from the -L paths.
#pragma once

#include "driver/link.h"
#include "driver/options.h"
#include "program/runtime.h"

namespace linklab::cli {

using driver::Input;

// The inputs, the harnesses, then the -l archives found in the -L paths,
// each file read once (named by their paths).
Expected<std::vector<Input>> readInputs(const driver::Options &O);
// What only the native command links with, reading or writing host files:
// -weak_library names, -add-self-relocations, -write-symtab (the package
// refuses these options).
Error addNativeOptions(const driver::Options &O, Session &S);

// The link's triple: -triple, else the first object's (driver::inputTriple).
Expected<Triple> inputTriple(const driver::Options &O, const std::vector<Input> &Inputs);
// The C runtime -runtime (-no-process-syms: none) selects for TT
// (driver::selectRuntime).
Expected<const exec::RuntimeSpec *> selectRuntime(const driver::Options &O, const Triple &TT, bool Required);

} // namespace linklab::cli
