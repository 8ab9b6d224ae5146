#ifndef __EMSCRIPTEN__

#include "executor/native_transport.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <cstring>
#include <netdb.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace linklab::executor {

FdTransport::~FdTransport() {
  close(Out);
  if (In != Out)
    close(In);
  if (Child > 0)
    waitpid(Child, nullptr, 0);
}

Error FdTransport::send(std::span<const uint8_t> Bytes) {
  for (size_t Done = 0; Done < Bytes.size();) {
    // MSG_NOSIGNAL is for sockets; pipes rely on SIGPIPE being ignored.
    ssize_t N = ::write(Out, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return makeError(std::string("write: ") + std::strerror(errno));
    Done += size_t(N);
  }
  return Error::success();
}

Expected<size_t> FdTransport::receive(std::span<uint8_t> Buf) {
  for (;;) {
    ssize_t N = ::read(In, Buf.data(), Buf.size());
    if (N >= 0)
      return size_t(N);
    if (errno != EINTR)
      return makeError(std::string("read: ") + std::strerror(errno));
  }
}

Expected<std::unique_ptr<FdTransport>> spawnExecutor(const std::string &Path) {
  // A dead executor must surface as a write error, not kill the linker.
  std::signal(SIGPIPE, SIG_IGN);
  int ToChild[2], FromChild[2];
  if (pipe(ToChild))
    return makeError(std::string("pipe: ") + std::strerror(errno));
  if (pipe(FromChild)) {
    close(ToChild[0]), close(ToChild[1]);
    return makeError(std::string("pipe: ") + std::strerror(errno));
  }
  // Report exec failure through a close-on-exec pipe, so a wrong path is an
  // error here rather than a mysterious EOF later.
  int ExecErr[2];
  if (pipe2(ExecErr, O_CLOEXEC)) {
    for (int Fd : {ToChild[0], ToChild[1], FromChild[0], FromChild[1]})
      close(Fd);
    return makeError(std::string("pipe: ") + std::strerror(errno));
  }
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(ToChild[0], 0);
    dup2(FromChild[1], 1);
    for (int Fd : {ToChild[0], ToChild[1], FromChild[0], FromChild[1], ExecErr[0]})
      close(Fd);
    execl(Path.c_str(), Path.c_str(), "stdio", (char *)nullptr);
    int E = errno;
    (void)!::write(ExecErr[1], &E, sizeof(E));
    _exit(127);
  }
  close(ToChild[0]), close(FromChild[1]), close(ExecErr[1]);
  int E = 0;
  ssize_t Got = Pid < 0 ? 0 : ::read(ExecErr[0], &E, sizeof(E));
  close(ExecErr[0]);
  if (Pid < 0 || Got == sizeof(E)) {
    close(ToChild[1]), close(FromChild[0]);
    if (Pid > 0)
      waitpid(Pid, nullptr, 0);
    return makeError(formatv("cannot start executor '%s': %s", Path.c_str(), std::strerror(Pid < 0 ? errno : E)));
  }
  return std::make_unique<FdTransport>(FromChild[0], ToChild[1], Pid);
}

Expected<std::unique_ptr<FdTransport>> connectExecutor(const std::string &HostPort) {
  std::signal(SIGPIPE, SIG_IGN);
  size_t Colon = HostPort.rfind(':');
  if (Colon == std::string::npos || Colon + 1 == HostPort.size())
    return makeError(formatv("executor address '%s' is not HOST:PORT", HostPort.c_str()));
  std::string Host = HostPort.substr(0, Colon), Port = HostPort.substr(Colon + 1);
  addrinfo Hints{}, *List = nullptr;
  Hints.ai_socktype = SOCK_STREAM;
  if (int E = getaddrinfo(Host.c_str(), Port.c_str(), &Hints, &List))
    return makeError(formatv("executor address '%s': %s", HostPort.c_str(), gai_strerror(E)));
  int S = -1, Err = 0;
  for (addrinfo *A = List; A && S < 0; A = A->ai_next) {
    S = socket(A->ai_family, A->ai_socktype, A->ai_protocol);
    if (S >= 0 && connect(S, A->ai_addr, A->ai_addrlen)) {
      Err = errno;
      close(S), S = -1;
    }
  }
  freeaddrinfo(List);
  if (S < 0)
    return makeError(formatv("cannot connect to executor at %s: %s", HostPort.c_str(), std::strerror(Err)));
  return std::make_unique<FdTransport>(S, S, 0);
}

} // namespace linklab::executor

#endif
