// A reproducer: the inputs of a link as editable objects (archives as their
// members) and the options that matter to its outcome. The exporter writes
// it as a lit test; the reducer shrinks it.
#pragma once

#include "repro/elf_object.h"
#include "support/shared_bytes.h"

#include <memory>

namespace linklab::repro {

struct ReproInput {
  std::string name; // file name as the user gave it
  bool harness = false;
  bool archive = false;
  std::vector<ElfObject> objects; // one, or an archive's members (named by ElfObject::name)
};

struct ReproCase {
  std::vector<ReproInput> inputs;
  std::string triple;                 // empty: from the first object
  std::string entry;                  // empty: the format's C main (driver::entrySymbol)
  std::vector<std::string> args;      // the program's whole argv (empty: the first input's name)
  std::vector<std::string> absolutes; // NAME=ADDR
  bool noExec = false, phonyExternals = false;
  std::string runtime = "default"; // or "none"
  std::string stdin_;              // what a run's program reads (its whole standard input)
};

// Reads an object or an archive (every member must be an ELF object).
Expected<ReproInput> readInput(std::string Name, std::span<const char> Data, bool Harness);
// The file an input stands for: the object, or a GNU archive with a symbol
// index of its members' global definitions.
SharedBytes inputBytes(const ReproInput &In);
// The base name of Path ("dir/a.o" -> "a.o").
std::string baseName(const std::string &Path);

} // namespace linklab::repro
