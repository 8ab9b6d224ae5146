// The bytes of an input (an object file, an archive, one member of it, a
// buffer from JS), immutable and shared by whatever views them: the graphs
// built from an object keep its bytes alive, since blocks point into them.
// A file is mapped, not read, and an archive member is a slice of the
// archive's bytes, so loading a runtime's archives copies and zero-fills
// nothing (reading Debian's libc.a, libstdc++.a... into vectors was a third
// of a hello-world link).
#pragma once

#include "support/error.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace linklab {

class SharedBytes {
public:
  SharedBytes() = default;
  // Owns V.
  SharedBytes(std::vector<char> V);
  // Owns Size bytes at Data, filled in place (the bindings copy an object
  // from JS straight in, with none of a vector's zero fill first).
  SharedBytes(std::unique_ptr<char[]> Data, size_t Size)
      : View(Data.get(), Size), Owner(std::shared_ptr<char[]>(std::move(Data))) {}
  // Shares a vector already held by a shared_ptr (what tests and the
  // bindings build).
  template <typename V>
  requires std::is_same_v<std::remove_const_t<V>, std::vector<char>> SharedBytes(std::shared_ptr<V> P)
      : View(P ? std::span<const char>(P->data(), P->size()) : std::span<const char>()), Owner(std::move(P)) {}

  // The whole file at Path, mapped read-only (read into memory where mapping
  // is unavailable, as under Emscripten's file systems).
  static Expected<SharedBytes> readFile(const std::string &Path);
  // The same for a caller that words its own error: on failure the bytes are
  // empty and Errno says why (EISDIR for a directory).
  static SharedBytes tryReadFile(const std::string &Path, int &Errno);
  // Everything left to read from an open descriptor (a pipe, stdin).
  static SharedBytes tryReadAll(int Fd, int &Errno);

  // Bytes [Offset, Offset+Size) of these, sharing their owner.
  SharedBytes slice(size_t Offset, size_t Size) const { return SharedBytes(Owner, View.subspan(Offset, Size)); }

  const char *data() const { return View.data(); }
  size_t size() const { return View.size(); }
  bool empty() const { return View.empty(); }
  const char *begin() const { return View.data(); }
  const char *end() const { return View.data() + View.size(); }
  char operator[](size_t I) const { return View[I]; }
  std::span<const char> span() const { return View; }
  // Whether these are some input's bytes (an empty file's included).
  explicit operator bool() const { return Owner != nullptr; }

private:
  SharedBytes(std::shared_ptr<const void> O, std::span<const char> V) : View(V), Owner(std::move(O)) {}
  std::span<const char> View;
  std::shared_ptr<const void> Owner;
};

} // namespace linklab
