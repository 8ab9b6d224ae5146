#include "cli/inputs.h"

#include "driver/command.h"
#include "driver/sectcreate.h"
#include "macho/universal.h"
#include "object/archive.h"

#include <algorithm>
#include <unistd.h>

namespace linklab::cli {

bool Input::isArchive() const { return Archive::isArchive(bytes.span()); }

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
  // The first -L path with a readable lib<NAME>.a, as linklab-run finds it.
  for (auto &L : O.libraries) {
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
        Named.push_back({I.path, I.bytes.span()});
    auto Given = driver::inputTriple(O.triple, Named);
    Triple TT = Given ? *Given : Triple();
    if (!Given)
      consumeError(Given.takeError()); // no other object: a single slice still picks itself
    for (Input &I : In)
      if (macho::isUniversal(I.bytes.span())) {
        auto Slice = macho::selectSlice(I.path, I.bytes, TT);
        if (!Slice)
          return Slice.takeError();
        I.bytes = std::move(*Slice);
      }
  }
  return In;
}

Error addInputs(const driver::Options &O, const std::vector<Input> &Inputs, Session &S) {
  for (const Input &I : Inputs) {
    if (I.isArchive()) {
      if (Error E = O.allLoad ? S.addAllArchiveMembers(I.path, I.bytes) : S.addArchive(I.path, I.bytes))
        return E;
      continue;
    }
    auto K = S.addObject(I.path, I.bytes, I.kind);
    if (!K)
      return K.takeError();
  }
  for (auto &A : O.absolutes) {
    auto Abs = driver::parseAbsolute({"-abs", A});
    if (!Abs)
      return Abs.takeError();
    if (Error E = S.defineAbsolute(Abs->name, Abs->address))
      return E;
  }
  for (auto &Arg : O.sectCreates) {
    auto Spec = driver::parseSectCreate(Arg);
    if (!Spec)
      return Spec.takeError();
    auto Content = SharedBytes::readFile(Spec->file);
    if (!Content)
      return Content.takeError();
    auto G = driver::sectCreateGraph(*Spec, std::move(*Content), S.triple());
    if (!G)
      return G.takeError();
    if (auto K = S.addGraph(std::move(*G)); !K)
      return K.takeError();
  }
  S.setPhonyExternals(O.phonyExternals);
  return Error::success();
}

Expected<Triple> inputTriple(const driver::Options &O, const std::vector<Input> &Inputs) {
  std::vector<driver::InputBytes> Named; // -l libraries name no target
  for (const Input &I : Inputs)
    if (!I.library)
      Named.push_back({I.path, I.bytes.span()});
  return driver::inputTriple(O.triple, Named);
}

Expected<const exec::RuntimeSpec *> selectRuntime(const driver::Options &O, const Triple &TT, bool Required) {
  // -no-process-syms is llvm-jitlink's -runtime=none.
  return driver::selectRuntime({"-runtime", O.noProcessSyms ? "none" : O.runtime}, TT, Required);
}

} // namespace linklab::cli
