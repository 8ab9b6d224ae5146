#include "support/shared_bytes.h"

#include <cerrno>
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

} // namespace

SharedBytes SharedBytes::tryReadAll(int Fd, int &Errno) {
  std::vector<char> Out;
  char Buf[1 << 16];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0) {
      Errno = errno;
      return {};
    }
    if (N == 0) {
      Errno = 0;
      return SharedBytes(std::move(Out));
    }
    Out.insert(Out.end(), Buf, Buf + N);
  }
}

SharedBytes SharedBytes::tryReadFile(const std::string &Path, int &Errno) {
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    Errno = errno;
    return {};
  }
  struct stat St;
  Errno = fstat(Fd, &St) != 0 ? errno : S_ISDIR(St.st_mode) ? EISDIR : 0;
  // Pipes, terminals and empty files have nothing to map.
  void *Base = Errno || !S_ISREG(St.st_mode) || St.st_size == 0
                   ? MAP_FAILED
                   : mmap(nullptr, size_t(St.st_size), PROT_READ, MAP_PRIVATE, Fd, 0);
  SharedBytes Bytes;
  if (Base != MAP_FAILED) {
    auto M = std::make_shared<const Mapping>(Base, size_t(St.st_size));
    Bytes =
        SharedBytes(std::shared_ptr<const void>(M), std::span<const char>(static_cast<const char *>(Base), M->Size));
  } else if (!Errno) {
    Bytes = tryReadAll(Fd, Errno);
  }
  ::close(Fd);
  return Bytes;
}

Expected<SharedBytes> SharedBytes::readFile(const std::string &Path) {
  int Errno = 0;
  SharedBytes Bytes = tryReadFile(Path, Errno);
  if (Errno)
    return makeError(formatv("%s: cannot open file", Path.c_str()));
  return Bytes;
}

} // namespace linklab
