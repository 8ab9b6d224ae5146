// Blocking byte transports for the native build: a spawned executor's pipes,
// or a TCP connection. The wasm build has neither (its bytes come from a
// WebSocket through ExecutorClient::feed), so all of this is excluded there.
#pragma once

#ifndef __EMSCRIPTEN__

#include "protocol/executor_client.h"

#include <chrono>
#include <functional>
#include <memory>
#include <sys/types.h>

namespace linklab::executor {

// Writes all of Bytes to Out; whatever arrives on In meanwhile goes to
// Incoming (In may equal Out, a socket). Two peers that each write a burst
// before reading cannot block each other this way, whatever the bursts'
// sizes. InClosed is set when In reaches its end (and then not polled).
// With a Deadline, a peer that stops reading makes it give up then: an
// error, with the bytes written so far in *TimedOutAfter. *PeerGone is set
// when the write fails because Out's peer closed it.
Error writeDraining(int Out, int In, std::span<const uint8_t> Bytes,
                    const std::function<void(std::span<const uint8_t>)> &Incoming, bool &InClosed,
                    std::chrono::steady_clock::time_point Deadline = std::chrono::steady_clock::time_point::max(),
                    size_t *TimedOutAfter = nullptr, bool *PeerGone = nullptr);

// Requests are buffered and go out together when the client waits for an
// answer: the link's hundreds of write requests then cost a few
// system calls and wake-ups instead of one each.
class FdTransport : public ByteTransport {
public:
  // Files (-1: none): a Unix socket to the executor's files-fd, ours to close.
  FdTransport(int In, int Out, pid_t Child, int Files = -1);
  ~FdTransport() override; // sends what is buffered; closes; reaps a spawned executor (closeAndReap)
  Error send(std::span<const uint8_t> Bytes) override;
  Error flush() override;
  // A spawned executor that dies is reported with its signal (a seccomp
  // kill by name); one silent for longer than the silence limit is killed.
  Expected<size_t> receive(std::span<uint8_t> Buf) override;
  // Longest wait for any byte from the executor (0: none). A run streams its
  // output as it comes and ends by its wall-time limit, so a live executor
  // is never silent for longer than that limit: the caller derives this
  // from it (silenceLimitFor).
  void setSilenceLimit(uint32_t Millis) { SilenceMs = Millis; }
  // Sends what is buffered, closes both ends and waits for a spawned
  // executor to end (it ends at end of input), killing it if it has not
  // within the silence limit; idempotent.
  void closeAndReap();
  std::string peerGone() override;
  bool carriesDescriptors() const override { return Files >= 0; }
  Error sendDescriptor(int Fd) override;

private:
  // Reaps the executor once its connection has ended (by then it is
  // exiting or dead): why it ended, if a signal ended it.
  Error ended(Error Otherwise);
  bool waitChild(int &Status, int TimeoutMs);
  int In, Out;
  pid_t Child;    // 0 for a connection
  int Files = -1; // the descriptor channel
  bool Reaped = false, Closed = false;
  bool Gone = false;  // a read met the end, or a write a closed pipe or a reset
  std::string EndWhy; // the signal that ended the executor, once reaped
  uint32_t SilenceMs = 0;
  // What the peer takes now, without waiting; the rest stays in Outbox.
  Error sendReady();
  std::vector<uint8_t> Outbox; // sent on the next receive (or once large)
  size_t OutboxSent = 0;       // of which the peer has this much already
  bool OutNonBlocking = false; // Out is O_NONBLOCK: a write takes what fits
  std::vector<uint8_t> Inbox;  // received while flushing, handed out first
  size_t InboxPos = 0;
  bool InClosed = false;
  // A pipe's capacity: a link's segment writes reach the executor while the
  // link goes on (a glibc hello world writes 650 KB), not all at its end.
  // Past FlushAt what the executor takes now goes out, and the link goes on
  // without waiting for it: an executor still starting (the CLI links while
  // it does) takes nothing yet. Past HoldAt unsent bytes, a send waits.
  static constexpr size_t FlushAt = 64 << 10, HoldAt = 64 << 20;
};

// Starts `Path stdio files-fd=N` with its stdin/stdout on pipes (stderr
// inherited) and N a Unix socket for map-file's descriptors.
// GdbListenFd >= 0: a listening socket (not close-on-exec) the executor
// serves gdb on (`linklab-executor stdio gdb-fd=N`).
// From then on SIGINT, SIGTERM and SIGHUP end that executor before they end
// this process, as they would a native program (the executor's
// parent-death signal covers SIGKILL).
Expected<std::unique_ptr<FdTransport>> spawnExecutor(const std::string &Path, int GdbListenFd = -1);
// Kills and reaps the executor spawnExecutor started last, if it runs (for
// a caller about to end abruptly: a broken output pipe).
void killSpawnedExecutor();
// How a spawned executor ended, as a message: "killed by its sandbox
// (seccomp) ...", "killed by signal N (NAME)", or empty for an exit.
std::string describeExecutorEnd(int WaitStatus);
// The silence limit for a session whose runs have these limits: twice the
// run's wall time (the executor's default when none is set) plus 5 s for a
// loaded machine's start-up.
uint32_t silenceLimitFor(const Limits &L);
// Connects to `linklab-executor listen=...` at HOST:PORT (IPv4 or a name).
Expected<std::unique_ptr<FdTransport>> connectExecutor(const std::string &HostPort);

} // namespace linklab::executor

#endif
