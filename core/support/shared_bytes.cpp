#include "support/shared_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace linklab {

SharedBytes::SharedBytes(std::vector<char> V) {
  auto P = std::make_shared<const std::vector<char>>(std::move(V));
  View = {P->data(), P->size()};
  Owner = std::move(P);
}

namespace {
// Unmaps when the last view of the file goes.
struct Mapping {
  Mapping(void *B, size_t S) : Base(B), Size(S) {}
  Mapping(const Mapping &) = delete;
  ~Mapping() { munmap(Base, Size); }
  void *Base;
  size_t Size;
};

Expected<SharedBytes> readAll(int Fd, const std::string &Path) {
  std::vector<char> Out;
  char Buf[1 << 16];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0)
      return makeError(formatv("%s: read error", Path.c_str()));
    if (N == 0)
      return SharedBytes(std::move(Out));
    Out.insert(Out.end(), Buf, Buf + N);
  }
}
} // namespace

Expected<SharedBytes> SharedBytes::readFile(const std::string &Path) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return makeError(formatv("%s: cannot open file", Path.c_str()));
  struct stat St;
  if (fstat(Fd, &St) != 0 || S_ISDIR(St.st_mode)) {
    ::close(Fd);
    return makeError(formatv("%s: cannot open file", Path.c_str()));
  }
  // Pipes, terminals and empty files have nothing to map.
  if (!S_ISREG(St.st_mode) || St.st_size == 0) {
    auto Bytes = readAll(Fd, Path);
    ::close(Fd);
    return Bytes;
  }
  size_t Size = size_t(St.st_size);
  void *Base = mmap(nullptr, Size, PROT_READ, MAP_PRIVATE, Fd, 0);
  if (Base == MAP_FAILED) {
    auto Bytes = readAll(Fd, Path);
    ::close(Fd);
    return Bytes;
  }
  ::close(Fd);
  auto M = std::make_shared<const Mapping>(Base, Size);
  return SharedBytes(std::shared_ptr<const void>(M), std::span<const char>(static_cast<const char *>(Base), Size));
}

} // namespace linklab
