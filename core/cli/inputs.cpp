#include "cli/inputs.h"

#include "arch/x86_64_self_relocations.h"
#include "driver/command.h"
#include "macho/dylib_interface.h"
#include "macho/universal.h"
#include "object/archive.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <unordered_set>

namespace linklab::cli {

namespace {
// -weak_library: a name the library exports resolves to null once nothing
// else defines it, as the library's JITDylib, last in llvm-jitlink's search
// order, defines it.
class WeakLibraryGenerator : public DefinitionGenerator {
public:
  explicit WeakLibraryGenerator(const std::vector<std::string> &Exports) : Names(Exports.begin(), Exports.end()) {}
  Error tryToGenerate(Session &S, const std::vector<std::string> &Missing) override {
    for (const std::string &N : Missing)
      if (Names.count(N))
        if (Error E = S.defineAbsolute(N, 0))
          return E;
    return Error::success();
  }

private:
  std::unordered_set<std::string> Names;
};

// -add-self-relocations: llvm-jitlink's pass is x86-64's alone; it runs
// once dead code is gone, before addresses are assigned.
class SelfRelocations : public Plugin {
public:
  void modifyPassConfig(const MaterializationInfo &, LinkGraph &G, PassConfiguration &Config) override {
    if (G.triple().arch == Arch::X86_64)
      Config.postPrunePasses.push_back(x86_64::addSelfRelocations);
  }
};

// -write-symtab: each object's line ("name" in quotes), then its named
// non-local symbols as "0xADDRESS name", written as the object is allocated
// so that a program that crashes leaves it behind (llvm-jitlink's format).
// The C runtime's graphs are the process's to llvm-jitlink: not written.
class SymtabWriter : public Plugin {
public:
  explicit SymtabWriter(std::FILE *F) : File(F) {}
  ~SymtabWriter() override { std::fclose(File); }
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override {
    if (MR.kind == ObjectKind::Runtime)
      return;
    Config.postAllocationPasses.push_back([this, Name = MR.objectName](LinkGraph &G) {
      std::vector<std::pair<Addr, std::string_view>> Syms;
      G.forEachDefinedSymbol([&](Symbol &S) {
        if (S.hasName() && S.scope != Scope::Local)
          Syms.emplace_back(S.address(), S.name);
      });
      std::sort(Syms.begin(), Syms.end());
      std::fprintf(File, "\"%s\"\n", Name.c_str());
      for (auto &[A, N] : Syms)
        std::fprintf(File, "%s %.*s\n", hex(A).c_str(), int(N.size()), N.data());
      std::fflush(File);
      return Error::success();
    });
  }

private:
  std::FILE *File;
};
} // namespace

Expected<std::vector<Input>> readInputs(const driver::Options &O) {
  std::vector<Input> In;
  auto Read = [&](const std::string &Path, ObjectKind Kind, bool Library) -> Error {
    auto Bytes = SharedBytes::readFile(Path);
    if (!Bytes)
      return Bytes.takeError();
    In.push_back({Path, std::move(*Bytes), Kind, Library});
    return Error::success();
  };
  for (auto &Path : O.inputs)
    if (Error E = Read(Path, ObjectKind::Regular, false))
      return E;
  for (auto &Path : O.harnesses)
    if (Error E = Read(Path, ObjectKind::Harness, false))
      return E;
  // -lNAME of a -jd NAME links that JITDylib: its inputs are this link's.
  auto IsJD = [&](const std::string &L) {
    return std::find(O.jitDylibs.begin(), O.jitDylibs.end(), L) != O.jitDylibs.end();
  };
  for (auto &JD : O.jitDylibs)
    if (std::find(O.libraries.begin(), O.libraries.end(), JD) == O.libraries.end())
      return makeError(formatv("-jd %s: linklab links every input in one namespace, so JITDylib %s must be linked "
                               "(-l%s), which makes its symbols visible as one namespace shows them",
                               JD.c_str(), JD.c_str(), JD.c_str()));
  // The first -L path with a readable lib<NAME>.a, as linklab-run finds it.
  for (auto &L : O.libraries) {
    if (IsJD(L))
      continue;
    auto Path =
        driver::findLibrary(L, O.libraryPaths, [](const std::string &P) { return access(P.c_str(), R_OK) == 0; });
    if (!Path)
      return Path.takeError();
    if (Error E = Read(*Path, ObjectKind::Regular, true))
      return E;
  }
  // A universal MachO file links as its slice for the link's arch: -triple's,
  // else the first other object's (llvm-jitlink's choice).
  if (std::any_of(In.begin(), In.end(), [](const Input &I) { return macho::isUniversal(I.bytes.span()); })) {
    std::vector<driver::InputBytes> Named;
    for (const Input &I : In)
      if (!I.library && !macho::isUniversal(I.bytes.span()))
        Named.push_back({I.name, I.bytes.span()});
    auto Given = driver::inputTriple(O.triple, Named);
    Triple TT = Given ? *Given : Triple();
    if (!Given)
      consumeError(Given.takeError()); // no other object: a single slice still picks itself
    for (Input &I : In)
      if (macho::isUniversal(I.bytes.span())) {
        auto Slice = macho::selectSlice(I.name, I.bytes, TT);
        if (!Slice)
          return Slice.takeError();
        I.bytes = std::move(*Slice);
      }
  }
  return In;
}

Error addNativeOptions(const driver::Options &O, Session &S) {
  for (auto &Path : O.weakLibraries) {
    auto Bytes = SharedBytes::readFile(Path);
    if (!Bytes)
      return Bytes.takeError();
    auto Exports = macho::dylibInterface(Path, *Bytes, S.triple());
    if (!Exports)
      return Exports.takeError();
    S.addGenerator(std::make_shared<WeakLibraryGenerator>(*Exports));
  }
  if (O.addSelfRelocations)
    S.addPlugin(std::make_shared<SelfRelocations>());
  if (!O.writeSymtab.empty()) {
    std::FILE *F = std::fopen(O.writeSymtab.c_str(), "w");
    if (!F)
      return makeError(formatv("-write-symtab: '%s': %s", O.writeSymtab.c_str(), std::strerror(errno)));
    S.addPlugin(std::make_shared<SymtabWriter>(F));
  }
  return Error::success();
}

Expected<Triple> inputTriple(const driver::Options &O, const std::vector<Input> &Inputs) {
  std::vector<driver::InputBytes> Named; // -l libraries name no target
  for (const Input &I : Inputs)
    if (!I.library)
      Named.push_back({I.name, I.bytes.span()});
  return driver::inputTriple(O.triple, Named);
}

Expected<const exec::RuntimeSpec *> selectRuntime(const driver::Options &O, const Triple &TT, bool Required) {
  // -no-process-syms is llvm-jitlink's -runtime=none.
  return driver::selectRuntime({"-runtime", O.noProcessSyms ? "none" : O.runtime}, TT, Required);
}

} // namespace linklab::cli
