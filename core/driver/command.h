// The decisions of the `linklab` command that its JavaScript twin,
// `linklab-run` (wasm-bindings/lib/cli.mjs), makes too, in one place so the
// two cannot drift: where -lNAME is found, what -abs=NAME=ADDR means, which
// C runtime a link takes, the target of a command line's inputs, and the
// -show-times line. Reading files stays with each caller (the wasm build
// has no file system); these take what they need as arguments.
#pragma once

#include "driver/settings.h"
#include "program/runtime.h"
#include "support/error.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace linklab::driver {

// -lName: lib<Name>.a in the first of Paths where Exists says it is; an
// error naming the library when no path has it.
Expected<std::string> findLibrary(std::string_view Name, std::span<const std::string> Paths,
                                  const std::function<bool(const std::string &)> &Exists);

// An absolute symbol given as NAME=ADDRESS (-abs, -define-abs).
struct Absolute {
  std::string name;
  uint64_t address;
};
Expected<Absolute> parseAbsolute(Field F);
// The page's and a bundle's absolute symbols: one NAME=ADDRESS a line
// (blanks around '=' and blank lines allowed); an error names the line.
Expected<std::vector<Absolute>> parseAbsoluteLines(std::string_view Text);
// The page's and a bundle's run limits as their fields hold them:
// instructions, wall-clock milliseconds and memory in MiB, each a number
// or empty for the executor's default; errors name the field.
Expected<executor::Limits> parseRunFields(std::string_view Instructions, std::string_view WallMillis,
                                          std::string_view MemoryMiB);

// The C runtime Runtime ("default", "none" or a runtime's name) selects for
// TT: null for "none", for a format other than ELF (its programs run
// freestanding) and, unless Required (a run), for a triple without one; an
// error naming the field for another value.
Expected<const exec::RuntimeSpec *> selectRuntime(Field Runtime, const Triple &TT, bool Required);

// One input as the command line gave it: an object, or an archive (-l
// libraries included).
struct InputBytes {
  std::string name;
  std::span<const char> bytes;
};
// A triple the user gave (-triple), checked against the target registry:
// an error naming the field and listing the triples linklab links for when
// no format x arch pair handles it ("bogus", "sparc-linux-gnu").
Expected<Triple> parseTriple(Field F);

// The link's triple: Given (-triple, checked as parseTriple does), else the first object's (archives do
// not say); an error when only archives were given.
Expected<Triple> inputTriple(std::string_view Given, std::span<const InputBytes> Inputs);

// -show-times: "linklab timings: load 1.234 ms, link 5.678 ms, total 7.000 ms\n".
std::string formatTimings(double LoadMs, double LinkMs, double TotalMs);

} // namespace linklab::driver
