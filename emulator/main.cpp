// linklab-executor: an emulated process, as llvm-jitlink-executor is a real
// one. `linklab-executor [stdio]` serves one session on stdin/stdout (the CLI
// spawns it that way); `linklab-executor listen=HOST:PORT` accepts TCP
// connections (loopback unless told otherwise), one forked session each, and
// prints "listening on HOST:PORT" once bound (PORT 0 picks a free port).
// `stdio gdb-fd=N`: N is a listening socket (the CLI's -gdb binds it) that
// gdb connects to when the program starts (gdb_target.h). `files-fd=N`: a
// Unix socket map-file requests' descriptors come on (the CLI's, which maps
// its prepared runtime images that way).
// Either way each session runs confined (sandbox.h); `namespaces=off`
// keeps it in the host's namespaces (the rest of the sandbox stays).
// `output-cap=BYTES` keeps at most that much of each run's output
// (SessionOptions), as the public service asks.
#include "sandbox.h"
#include "session.h"

#include "support/huge_heap.h"

#include <arpa/inet.h>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static int listenOn(const std::string &Spec, bool Namespaces, const linklab::emu::SessionOptions &Session) {
  size_t Colon = Spec.rfind(':');
  std::string Host = Colon == std::string::npos ? "127.0.0.1" : Spec.substr(0, Colon);
  std::string Port = Colon == std::string::npos ? Spec : Spec.substr(Colon + 1);
  sockaddr_in Addr{};
  Addr.sin_family = AF_INET;
  char *End = nullptr;
  long P = std::strtol(Port.c_str(), &End, 10);
  if (Port.empty() || *End || P < 0 || P > 65535 || inet_pton(AF_INET, Host.c_str(), &Addr.sin_addr) != 1) {
    std::fprintf(stderr, "linklab-executor: bad listen address '%s' (want IPv4:PORT)\n", Spec.c_str());
    return 1;
  }
  Addr.sin_port = htons(uint16_t(P));
  int S = socket(AF_INET, SOCK_STREAM, 0);
  int One = 1;
  setsockopt(S, SOL_SOCKET, SO_REUSEADDR, &One, sizeof(One));
  if (S < 0 || bind(S, (sockaddr *)&Addr, sizeof(Addr)) || listen(S, 8)) {
    std::fprintf(stderr, "linklab-executor: cannot listen on %s: %s\n", Spec.c_str(), std::strerror(errno));
    return 1;
  }
  socklen_t Len = sizeof(Addr);
  getsockname(S, (sockaddr *)&Addr, &Len);
  std::printf("listening on %s:%u\n", Host.c_str(), ntohs(Addr.sin_port));
  std::fflush(stdout);
  std::signal(SIGCHLD, SIG_IGN); // sessions are reaped automatically
  for (;;) {
    int C = accept(S, nullptr, nullptr);
    if (C < 0) {
      if (errno == EINTR)
        continue;
      std::fprintf(stderr, "linklab-executor: accept: %s\n", std::strerror(errno));
      return 1;
    }
    // A session per process: one program's crash or hang cannot touch another.
    pid_t Pid = fork();
    if (Pid == 0) {
      close(S);
      linklab::emu::sandbox::confineAtStart({.keepFd = C, .namespaces = Namespaces, .pidNamespace = false});
      linklab::backHeapWithHugePages();
      linklab::emu::serveSessionThenExit(C, C, Session);
    }
    close(C);
  }
}

int main(int Argc, char **Argv) {
  std::signal(SIGPIPE, SIG_IGN); // a vanished peer is an error value, not a signal
  std::string Mode = Argc > 1 ? Argv[1] : "stdio";
  if (Mode == "-version" || Mode == "--version") { // LINKLAB_VERSION: as linklab -version prints it
    std::printf("linklab version %s\n", LINKLAB_VERSION);
    return 0;
  }
  bool Namespaces = true, Bad = false;
  linklab::emu::SessionOptions Session;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    char *End = nullptr;
    if (A == "namespaces=off") {
      Namespaces = false;
    } else if (A.rfind("output-cap=", 0) == 0 && A.size() > 11) {
      Session.outputCap = std::strtoull(A.c_str() + 11, &End, 10), Bad |= *End != 0;
    } else if (A.rfind("gdb-fd=", 0) == 0 && Mode == "stdio") {
      long Fd = std::strtol(A.c_str() + 7, &End, 10);
      int Type = 0;
      socklen_t Len = sizeof(Type);
      if (A.size() == 7 || *End || Fd < 3 || Fd > 1 << 20 || getsockopt(int(Fd), SOL_SOCKET, SO_TYPE, &Type, &Len)) {
        std::fprintf(stderr, "linklab-executor: '%s' is not a listening socket's descriptor\n", A.c_str());
        return 1;
      }
      Session.gdbListenFd = int(Fd);
    } else if (A.rfind("files-fd=", 0) == 0 && Mode == "stdio") {
      long Fd = std::strtol(A.c_str() + 9, &End, 10);
      int Type = 0, Domain = 0;
      socklen_t Len = sizeof(Type), DLen = sizeof(Domain);
      if (A.size() == 9 || *End || Fd < 3 || Fd > 1 << 20 || getsockopt(int(Fd), SOL_SOCKET, SO_TYPE, &Type, &Len) ||
          getsockopt(int(Fd), SOL_SOCKET, SO_DOMAIN, &Domain, &DLen) || Domain != AF_UNIX) {
        std::fprintf(stderr, "linklab-executor: '%s' is not a Unix socket's descriptor\n", A.c_str());
        return 1;
      }
      Session.filesFd = int(Fd);
    } else {
      Bad = true;
    }
  }
  if (Bad || Mode == "-h" || Mode == "--help") {
    std::fprintf(stderr, "usage: linklab-executor [stdio [gdb-fd=N] [files-fd=N] | listen=[IPv4:]PORT | --version] "
                         "[namespaces=off] [output-cap=BYTES]\n");
    return Bad ? 1 : 0;
  }
  if (Mode == "stdio") {
    linklab::emu::sandbox::confineAtStart(
        {.keepFd = Session.gdbListenFd, .filesFd = Session.filesFd, .namespaces = Namespaces, .pidNamespace = true});
    // In the process that serves (after the PID namespace's fork, where a
    // huge page written before would be copied page by page): the engine's
    // tables, several hundred KB, then cost a fault or two, not hundreds.
    linklab::backHeapWithHugePages();
    linklab::emu::serveSessionThenExit(0, 1, Session);
  }
  if (Mode.rfind("listen=", 0) == 0)
    return listenOn(Mode.substr(7), Namespaces, Session);
  std::fprintf(stderr, "linklab-executor: unknown mode '%s'\n", Mode.c_str());
  return 1;
}
