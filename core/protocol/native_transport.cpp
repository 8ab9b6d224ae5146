#ifndef __EMSCRIPTEN__

#include "protocol/native_transport.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace linklab::executor {

Error writeDraining(int Out, int In, std::span<const uint8_t> Bytes,
                    const std::function<void(std::span<const uint8_t>)> &Incoming, bool &InClosed,
                    std::chrono::steady_clock::time_point Deadline, size_t *TimedOutAfter, bool *PeerGone) {
  using Clock = std::chrono::steady_clock;
  for (size_t Done = 0; Done < Bytes.size();) {
    pollfd Fds[2] = {{Out, POLLOUT, 0}, {In, POLLIN, 0}};
    bool Same = In == Out;
    if (Same && !InClosed)
      Fds[0].events |= POLLIN;
    nfds_t N = Same || InClosed ? 1 : 2;
    int Timeout = -1;
    if (Deadline != Clock::time_point::max()) {
      auto Left = std::chrono::ceil<std::chrono::milliseconds>(Deadline - Clock::now()).count();
      Timeout = int(std::clamp<int64_t>(Left, 0, INT32_MAX));
    }
    int Ready = poll(Fds, N, Timeout);
    if (Ready < 0) {
      if (errno == EINTR)
        continue;
      return makeError(std::string("poll: ") + std::strerror(errno));
    }
    if (Ready == 0) {
      if (TimedOutAfter)
        *TimedOutAfter = Done;
      return makeError("write: the peer read nothing before the deadline");
    }
    short InEvents = Same ? Fds[0].revents : N == 2 ? Fds[1].revents : 0;
    if (!InClosed && (InEvents & (POLLIN | POLLHUP | POLLNVAL))) {
      uint8_t Buf[1 << 16];
      ssize_t R = ::read(In, Buf, sizeof Buf);
      if (R > 0)
        Incoming({Buf, size_t(R)});
      else if (R == 0 || errno != EINTR)
        InClosed = true; // an error ends the input as its end does; the next read reports it
    }
    if (!(Fds[0].revents & (POLLOUT | POLLERR | POLLHUP | POLLNVAL)))
      continue;
    // With a deadline no write may block: a socket's send does not wait,
    // and a pipe that polls writable has room for PIPE_BUF bytes at once.
    ssize_t W;
    if (Deadline == Clock::time_point::max()) {
      W = ::write(Out, Bytes.data() + Done, Bytes.size() - Done);
    } else {
      W = ::send(Out, Bytes.data() + Done, Bytes.size() - Done, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (W < 0 && errno == ENOTSOCK)
        W = ::write(Out, Bytes.data() + Done, std::min<size_t>(Bytes.size() - Done, PIPE_BUF));
    }
    if (W < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (W <= 0) {
      int E = W < 0 ? errno : EPIPE;
      if (PeerGone)
        *PeerGone |= E == EPIPE || E == ECONNRESET;
      return makeError(std::string("write: ") + std::strerror(E));
    }
    Done += size_t(W);
  }
  return Error::success();
}

namespace {

// The executor spawnExecutor started last, for the signal handlers.
volatile sig_atomic_t SpawnedPid = 0;

// SIGINT, SIGTERM, SIGHUP: the executor first, then this process by the
// same signal (SA_RESETHAND restored its default action).
void endWithExecutor(int Sig) {
  int Saved = errno;
  if (pid_t P = SpawnedPid; P > 0) {
    kill(P, SIGKILL);
    waitpid(P, nullptr, 0);
  }
  errno = Saved;
  raise(Sig);
}

void watchSignals() {
  struct sigaction SA = {};
  SA.sa_handler = endWithExecutor;
  SA.sa_flags = SA_RESETHAND | SA_NODEFER;
  sigemptyset(&SA.sa_mask);
  for (int Sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction Old;
    if (sigaction(Sig, nullptr, &Old) == 0 && Old.sa_handler == SIG_IGN)
      continue; // ignored by whoever started us (nohup): stays so
    sigaction(Sig, &SA, nullptr);
  }
}

} // namespace

std::string describeExecutorEnd(int Status) {
  if (!WIFSIGNALED(Status))
    return "";
  int Sig = WTERMSIG(Status);
  if (Sig == SIGSYS)
    return "the executor was killed by its sandbox (seccomp): it made a system call its filter forbids (SIGSYS)";
  const char *Name = sigabbrev_np(Sig);
  return formatv("the executor was killed by signal %d (SIG%s: %s)", Sig, Name ? Name : "?", strsignal(Sig));
}

uint32_t silenceLimitFor(const Limits &L) {
  uint64_t Wall = L.wall();
  return uint32_t(std::min<uint64_t>(2 * Wall + 5000, INT32_MAX));
}

void killSpawnedExecutor() {
  if (pid_t P = SpawnedPid; P > 0) {
    SpawnedPid = 0;
    kill(P, SIGKILL);
    waitpid(P, nullptr, 0);
  }
}

bool FdTransport::waitChild(int &Status, int TimeoutMs) {
  int Fd = int(syscall(SYS_pidfd_open, Child, 0));
  if (Fd >= 0) {
    pollfd P = {Fd, POLLIN, 0};
    while (poll(&P, 1, TimeoutMs) < 0 && errno == EINTR) {
    }
    close(Fd);
  }
  pid_t R;
  while ((R = waitpid(Child, &Status, Fd >= 0 ? WNOHANG : 0)) < 0 && errno == EINTR) {
  }
  if (R == Child) {
    Reaped = true;
    if (SpawnedPid == Child)
      SpawnedPid = 0;
  }
  return R == Child;
}

Error FdTransport::ended(Error Otherwise) {
  if (Child <= 0 || Reaped)
    return Otherwise;
  int Status = 0;
  // Its end of the pipe is closed: it is on its way out, unless something
  // stopped it (then this kills it).
  if (!waitChild(Status, int(SilenceMs ? SilenceMs : 5000))) {
    kill(Child, SIGKILL);
    waitChild(Status, -1);
    return Otherwise;
  }
  std::string Why = describeExecutorEnd(Status);
  if (Why.empty())
    return Otherwise;
  EndWhy = Why;
  consumeError(std::move(Otherwise));
  return makeError(Why);
}

std::string FdTransport::peerGone() {
  if (!Gone)
    return {};
  return EndWhy.empty() ? "executor closed the connection" : EndWhy;
}

void FdTransport::closeAndReap() {
  if (Closed)
    return;
  Closed = true;
  consumeError(flush()); // a hang-up's reply was awaited; anything later goes out if it can
  close(Out);
  if (In != Out)
    close(In);
  if (Files >= 0)
    close(Files);
  if (Child > 0 && !Reaped) {
    int Status;
    if (!waitChild(Status, int(SilenceMs ? SilenceMs : 5000))) {
      kill(Child, SIGKILL);
      waitChild(Status, -1);
    }
  }
}

FdTransport::~FdTransport() { closeAndReap(); }

FdTransport::FdTransport(int In, int Out, pid_t Child, int Files) : In(In), Out(Out), Child(Child), Files(Files) {
  int Flags = fcntl(Out, F_GETFL);
  OutNonBlocking = Flags >= 0 && (Flags & O_NONBLOCK);
}

Error FdTransport::sendDescriptor(int Fd) {
  char Byte = 0;
  iovec V = {&Byte, 1};
  alignas(cmsghdr) char Control[CMSG_SPACE(sizeof(int))] = {};
  msghdr H = {};
  H.msg_iov = &V, H.msg_iovlen = 1;
  H.msg_control = Control, H.msg_controllen = sizeof Control;
  cmsghdr *C = CMSG_FIRSTHDR(&H);
  C->cmsg_level = SOL_SOCKET, C->cmsg_type = SCM_RIGHTS, C->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(C), &Fd, sizeof Fd);
  ssize_t N;
  do
    N = sendmsg(Files, &H, MSG_NOSIGNAL | MSG_DONTWAIT);
  while (N < 0 && errno == EINTR);
  if (N < 0)
    return makeError(std::string("passing a descriptor to the executor: ") + std::strerror(errno));
  return Error::success();
}

Error FdTransport::send(std::span<const uint8_t> Bytes) {
  Outbox.insert(Outbox.end(), Bytes.begin(), Bytes.end());
  size_t Unsent = Outbox.size() - OutboxSent;
  return Unsent >= HoldAt ? flush() : Unsent >= FlushAt ? sendReady() : Error::success();
}

Error FdTransport::sendReady() {
  if (InboxPos == Inbox.size())
    Inbox.clear(), InboxPos = 0;
  while (OutboxSent < Outbox.size()) {
    bool Same = In == Out;
    pollfd Fds[2] = {{Out, short(POLLOUT | (Same && !InClosed ? POLLIN : 0)), 0}, {In, POLLIN, 0}};
    nfds_t N = Same || InClosed ? 1 : 2;
    if (poll(Fds, N, 0) < 0) {
      if (errno == EINTR)
        continue;
      return ended(makeError(std::string("poll: ") + std::strerror(errno)));
    }
    // Replies are taken too: an executor whose replies fill its pipe stops reading.
    short InEvents = Same ? Fds[0].revents : N == 2 ? Fds[1].revents : 0;
    if (!InClosed && (InEvents & (POLLIN | POLLHUP | POLLNVAL))) {
      uint8_t Buf[1 << 16];
      ssize_t R = ::read(In, Buf, sizeof Buf);
      if (R > 0)
        Inbox.insert(Inbox.end(), Buf, Buf + R);
      else if (R == 0 || errno != EINTR)
        InClosed = true; // the next receive reports it
    }
    if (!(Fds[0].revents & POLLOUT))
      break; // full, or gone: flush() says which
    size_t Left = Outbox.size() - OutboxSent;
    ssize_t W = ::send(Out, Outbox.data() + OutboxSent, Left, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (W < 0 && errno == ENOTSOCK) // a pipe has room for PIPE_BUF bytes once it polls writable
      W = ::write(Out, Outbox.data() + OutboxSent, OutNonBlocking ? Left : std::min<size_t>(Left, PIPE_BUF));
    if (W < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (W <= 0)
      break; // flush() reports it
    OutboxSent += size_t(W);
  }
  if (OutboxSent == Outbox.size())
    Outbox.clear(), OutboxSent = 0;
  return Error::success();
}

// MSG_NOSIGNAL is for sockets; pipes rely on SIGPIPE being ignored.
Error FdTransport::flush() {
  if (OutboxSent == Outbox.size()) {
    Outbox.clear(), OutboxSent = 0;
    return Error::success();
  }
  if (InboxPos == Inbox.size())
    Inbox.clear(), InboxPos = 0;
  Error E = writeDraining(
      Out, In, std::span<const uint8_t>(Outbox).subspan(OutboxSent),
      [this](std::span<const uint8_t> B) { Inbox.insert(Inbox.end(), B.begin(), B.end()); }, InClosed,
      std::chrono::steady_clock::time_point::max(), nullptr, &Gone);
  Outbox.clear(), OutboxSent = 0;
  return E ? ended(std::move(E)) : Error::success();
}

Expected<size_t> FdTransport::receive(std::span<uint8_t> Buf) {
  if (Error E = flush())
    return E;
  if (InboxPos < Inbox.size()) {
    size_t N = std::min(Buf.size(), Inbox.size() - InboxPos);
    std::memcpy(Buf.data(), Inbox.data() + InboxPos, N);
    InboxPos += N;
    return N;
  }
  for (;;) {
    if (SilenceMs) {
      pollfd P = {In, POLLIN, 0};
      int R = poll(&P, 1, int(SilenceMs));
      if (R < 0 && errno == EINTR)
        continue;
      if (R == 0) {
        std::string Why = formatv("the executor sent nothing for %u ms (stopped or hung)", SilenceMs);
        if (Child > 0) {
          int Status;
          kill(Child, SIGKILL);
          waitChild(Status, -1);
          Why += ": killed";
        }
        return makeError(Why);
      }
    }
    ssize_t N = ::read(In, Buf.data(), Buf.size());
    if (N > 0)
      return size_t(N);
    if (N == 0) {
      Gone = true;
      if (Error E = ended(Error::success()))
        return E;
      return size_t(0);
    }
    if (errno != EINTR) {
      Gone |= errno == ECONNRESET;
      return ended(makeError(std::string("read: ") + std::strerror(errno)));
    }
  }
}

Expected<std::unique_ptr<FdTransport>> spawnExecutor(const std::string &Path, int GdbListenFd) {
  // A dead executor must surface as a write error, not kill the linker.
  std::signal(SIGPIPE, SIG_IGN);
  int ToChild[2], FromChild[2], Files[2];
  if (pipe(ToChild))
    return makeError(std::string("pipe: ") + std::strerror(errno));
  if (pipe(FromChild)) {
    close(ToChild[0]), close(ToChild[1]);
    return makeError(std::string("pipe: ") + std::strerror(errno));
  }
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, Files)) {
    close(ToChild[0]), close(ToChild[1]), close(FromChild[0]), close(FromChild[1]);
    return makeError(std::string("socketpair: ") + std::strerror(errno));
  }
  // posix_spawn, not fork: the child shares the linker's memory until it
  // execs (vfork), so neither copies page tables nor makes the linker's
  // heap copy-on-write (each page it then writes would fault once more);
  // and an exec failure is its result, so a wrong path is an error here
  // rather than a mysterious EOF later.
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_adddup2(&Actions, ToChild[0], 0);
  posix_spawn_file_actions_adddup2(&Actions, FromChild[1], 1);
  for (int Fd : {ToChild[0], ToChild[1], FromChild[0], FromChild[1]})
    posix_spawn_file_actions_addclose(&Actions, Fd);
  // The channel's number in the child (after those closes, one of which may
  // have had it): 3, or 4 where gdb's socket is 3.
  int FilesChild = GdbListenFd == 3 ? 4 : 3;
  posix_spawn_file_actions_adddup2(&Actions, Files[1], FilesChild);
  std::string Mode = "stdio", FilesArg = "files-fd=" + std::to_string(FilesChild),
              Gdb = "gdb-fd=" + std::to_string(GdbListenFd); // the child inherits it
  char *Argv[] = {const_cast<char *>(Path.c_str()), Mode.data(), FilesArg.data(),
                  GdbListenFd >= 0 ? Gdb.data() : nullptr, nullptr};
  pid_t Pid = 0;
  int E = posix_spawn(&Pid, Path.c_str(), &Actions, nullptr, Argv, environ);
  posix_spawn_file_actions_destroy(&Actions);
  close(ToChild[0]), close(FromChild[1]), close(Files[1]);
  // Requests queue while the executor starts (FdTransport::send): a write
  // takes what fits and never waits for it.
  fcntl(ToChild[1], F_SETFL, fcntl(ToChild[1], F_GETFL) | O_NONBLOCK);
  if (E) {
    close(ToChild[1]), close(FromChild[0]), close(Files[0]);
    return makeError(formatv("cannot start executor '%s': %s", Path.c_str(), std::strerror(E)));
  }
  SpawnedPid = Pid;
  watchSignals();
  return std::make_unique<FdTransport>(FromChild[0], ToChild[1], Pid, Files[0]);
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
