#include "cli/inputs.h"

#include "exec/runtime.h"
#include "object/archive.h"

#include <fstream>

namespace linklab::cli {

Error addInputs(const Options &O, Session &S) {
  auto Add = [&](const std::string &Path, ObjectKind Kind) -> Error {
    auto Bytes = exec::readFileBytes(Path);
    if (!Bytes)
      return Bytes.takeError();
    if (Archive::isArchive({(*Bytes)->data(), (*Bytes)->size()}))
      return S.addArchive(Path, std::move(*Bytes));
    auto K = S.addObject(Path, std::move(*Bytes), Kind);
    return K ? Error::success() : K.takeError();
  };
  for (auto &In : O.inputs)
    if (Error E = Add(In, ObjectKind::Regular))
      return E;
  for (auto &H : O.harnesses)
    if (Error E = Add(H, ObjectKind::Harness))
      return E;
  for (auto &L : O.libraries) {
    std::string Found;
    for (auto &Dir : O.libraryPaths)
      if (std::ifstream(Dir + "/lib" + L + ".a")) {
        Found = Dir + "/lib" + L + ".a";
        break;
      }
    if (Found.empty())
      return makeError(formatv("library -l%s: lib%s.a not found in the -L paths", L.c_str(), L.c_str()));
    if (Error E = Add(Found, ObjectKind::Regular))
      return E;
  }
  for (auto &A : O.absolutes) {
    size_t Eq = A.find('=');
    if (Eq == std::string::npos || Eq == 0)
      return makeError(formatv("-abs: '%s' is not NAME=ADDRESS", A.c_str()));
    auto V = parseNumber("abs", A.substr(Eq + 1));
    if (!V)
      return V.takeError();
    if (Error E = S.defineAbsolute(A.substr(0, Eq), *V))
      return E;
  }
  S.setPhonyExternals(O.phonyExternals);
  return Error::success();
}


} // namespace linklab::cli
