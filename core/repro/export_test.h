// A reproducer as an LLVM-style regression test for tests/lit/run-lit.py:
// the objects as assembly (or yaml2obj YAML), `# RUN:` lines that rebuild
// them and link as the session did, the recorded outcome (the error text,
// or the exit status and output), and `# jitlink-check:` rules, one per
// fixup site, stating that the fixed-up field equals its target expression.
#pragma once

#include "repro/object_text.h"
#include "repro/repro_case.h"

#include <functional>

namespace linklab::repro {

// What the session did.
struct Outcome {
  bool linkError = false; // the link failed: Error holds the message
  std::string error;      // without the "linklab error: " prefix
  int exitCode = 0;       // a run's exit status (0 for a -noexec link)
  std::string output;     // a run's standard output
  // A run a signal ended (a fault's, or one the program raised): linklab
  // exits 128+Signal, and Report is what it printed ("program <kind> at pc
  // <pc>, <address>"); the test checks the report's stable part (the kind,
  // a null pointer's offset), not the addresses that move with the layout.
  int signal = 0;
  std::string report; // without the "linklab error: " prefix
};

struct ExportOptions {
  std::string name = "repro"; // the test's file stem
  // Fixup sites to check: "SYMBOL" (every edge of its block) or
  // "SYMBOL+OFFSET" (the edges at that address); empty: every edge of the
  // user's objects' blocks.
  std::vector<std::string> marks;
  // Decides whether an object's assembly re-assembles to the same object
  // (the CLI runs llvm-mc); null, or false: the object is written as YAML.
  std::function<bool(const ElfObject &, const Assembly &)> acceptAssembly;
  // Checks an object's YAML (the CLI runs yaml2obj); a non-empty answer is
  // the problem, and the export an error naming the object: a test that
  // does not rebuild its inputs reproduces nothing.
  std::function<std::string(const ElfObject &, const std::string &)> checkYaml;
  // Non-empty: the test is marked REQUIRES-LINKLAB-ONLY with this reason.
  std::string linklabOnly;
  // A run's output is part of the expectation; false when only its exit
  // status matters (a case reduced for its exit status may print whatever
  // its removed data left, which depends on the layout).
  bool compareOutput = true;
};

struct ExportedTest {
  std::vector<std::pair<std::string, std::string>> files; // path relative to the export folder -> text
  std::string testFile;                                   // which of them run-lit.py runs
  unsigned checks = 0;                                    // jitlink-check rules written
  std::vector<std::string> notes;                         // what could not be expressed, and why
};

Expected<ExportedTest> exportTest(const ReproCase &C, const Outcome &O, const ExportOptions &Opts);

// The jitlink-check rules for a -noexec link of C at the test's fixed slab
// (each verified against that link; a rule that does not hold is reported
// in Notes and left out).
Expected<std::vector<std::string>> fixupChecks(const ReproCase &C, const std::vector<std::string> &Marks,
                                               std::vector<std::string> &Notes);

// Why a test of a run a signal ended is linklab's only: what it checks is
// linklab's fault report.
inline constexpr const char *SignalLinklabOnly =
    "the fault report checked is linklab's (llvm-jitlink-22 dies of the signal itself)";

// The options every exported link uses, so its layout is reproducible.
inline constexpr const char *SlabOptions = "-slab-allocate=64Mb -slab-address=0x10000 -slab-page-size=4096";

} // namespace linklab::repro
