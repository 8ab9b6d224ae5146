// Blocking byte transports for the native build: a spawned executor's pipes,
// or a TCP connection. The wasm build has neither (its bytes come from a
// WebSocket through ExecutorClient::feed), so all of this is excluded there.
#pragma once

#ifndef __EMSCRIPTEN__

#include "executor/executor_client.h"

#include <functional>
#include <memory>
#include <sys/types.h>

namespace linklab::executor {

// Writes all of Bytes to Out; whatever arrives on In meanwhile goes to
// Incoming (In may equal Out, a socket). Two peers that each write a burst
// before reading cannot block each other this way, whatever the bursts'
// sizes. InClosed is set when In reaches its end (and then not polled).
Error writeDraining(int Out, int In, std::span<const uint8_t> Bytes,
                    const std::function<void(std::span<const uint8_t>)> &Incoming, bool &InClosed);

// Requests are buffered and go out together when the client waits for an
// answer: the link's hundreds of write-memory requests then cost a few
// system calls and wake-ups instead of one each.
class FdTransport : public ByteTransport {
public:
  FdTransport(int In, int Out, pid_t Child) : In(In), Out(Out), Child(Child) {}
  ~FdTransport() override; // sends what is buffered; closes; waits for a spawned executor (after it saw EOF)
  Error send(std::span<const uint8_t> Bytes) override;
  Error flush() override;
  Expected<size_t> receive(std::span<uint8_t> Buf) override;

private:
  int In, Out;
  pid_t Child;                   // 0 for a connection
  std::vector<uint8_t> Outbox;   // sent on the next receive (or once large)
  std::vector<uint8_t> Inbox;    // received while flushing, handed out first
  size_t InboxPos = 0;
  bool InClosed = false;
  // A pipe's capacity: a link's segment writes reach the executor while the
  // link goes on (a glibc hello world writes 650 KB), not all at its end.
  static constexpr size_t FlushAt = 64 << 10;
};

// Starts `Path stdio` with its stdin/stdout on pipes (stderr inherited).
// GdbListenFd >= 0: a listening socket (not close-on-exec) the executor
// serves gdb on (`linklab-executor stdio gdb-fd=N`).
Expected<std::unique_ptr<FdTransport>> spawnExecutor(const std::string &Path, int GdbListenFd = -1);
// Connects to `linklab-executor listen=...` at HOST:PORT (IPv4 or a name).
Expected<std::unique_ptr<FdTransport>> connectExecutor(const std::string &HostPort);

} // namespace linklab::executor

#endif
