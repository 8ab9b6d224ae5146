#include "cli/inputs.h"

#include "driver/settings.h"

#include "elf/elf_graph_builder.h"
#include "exec/runtime.h"
#include "object/archive.h"
#include "target/target.h"

namespace linklab::cli {

bool Input::isArchive() const { return Archive::isArchive(bytes.span()); }

Expected<std::vector<Input>> readInputs(const Options &O) {
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
  for (auto &L : O.libraries) {
    bool Found = false;
    for (size_t I = 0; I < O.libraryPaths.size() && !Found; ++I) {
      std::string Path = O.libraryPaths[I] + "/lib" + L + ".a";
      auto Bytes = SharedBytes::readFile(Path); // the first that reads is the one
      if ((Found = bool(Bytes)))
        In.push_back({Path, std::move(*Bytes), ObjectKind::Regular, true});
      else
        consumeError(Bytes.takeError()); // the next path, or "not found" below
    }
    if (!Found)
      return makeError(formatv("library -l%s: lib%s.a not found in the -L paths", L.c_str(), L.c_str()));
  }
  return In;
}

Error addInputs(const Options &O, const std::vector<Input> &Inputs, Session &S) {
  for (const Input &I : Inputs) {
    if (I.isArchive()) {
      if (Error E = S.addArchive(I.path, I.bytes))
        return E;
      continue;
    }
    auto K = S.addObject(I.path, I.bytes, I.kind);
    if (!K)
      return K.takeError();
  }
  for (auto &A : O.absolutes) {
    size_t Eq = A.find('=');
    if (Eq == std::string::npos || Eq == 0)
      return makeError(formatv("-abs: '%s' is not NAME=ADDRESS", A.c_str()));
    auto V = driver::parseNumber({"-abs", std::string_view(A).substr(Eq + 1)});
    if (!V)
      return V.takeError();
    if (Error E = S.defineAbsolute(A.substr(0, Eq), *V))
      return E;
  }
  S.setPhonyExternals(O.phonyExternals);
  return Error::success();
}

Expected<Triple> inputTriple(const Options &O, const std::vector<Input> &Inputs) {
  if (!O.triple.empty())
    return Triple::parse(O.triple);
  for (const Input &I : Inputs)
    if (!I.library && !I.isArchive())
      return tripleOfObject(I.path, I.bytes.span());
  return makeError("cannot tell the target from the inputs (only archives); give -triple");
}

Expected<const exec::RuntimeSpec *> selectRuntime(const Options &O, const Triple &TT, bool Required) {
  bool None = O.runtime == "none" || O.noProcessSyms;
  // The C runtimes are ELF archives: other formats run freestanding.
  const exec::RuntimeSpec *R = None || TT.format != ObjectFormat::ELF ? nullptr : exec::findRuntime(TT.arch, O.runtime);
  if (!R && !None && O.runtime != "default")
    return makeError(formatv("option '-runtime': '%s' is not 'default', 'none' or a C runtime for %s", O.runtime.c_str(),
                             fullTriple(TT).c_str()));
  if (!R && Required && !None)
    return makeError(formatv("no C runtime is known for %s; use -runtime=none", fullTriple(TT).c_str()));
  return R;
}


} // namespace linklab::cli
