// Blocking byte transports for the native build: a spawned executor's pipes,
// or a TCP connection. The wasm build has neither (its bytes come from a
// WebSocket through ExecutorClient::feed), so all of this is excluded there.
#pragma once

#ifndef __EMSCRIPTEN__

#include "executor/executor_client.h"

#include <memory>
#include <sys/types.h>

namespace linklab::executor {

class FdTransport : public ByteTransport {
public:
  FdTransport(int In, int Out, pid_t Child) : In(In), Out(Out), Child(Child) {}
  ~FdTransport() override; // closes; waits for a spawned executor (after it saw EOF)
  Error send(std::span<const uint8_t> Bytes) override;
  Expected<size_t> receive(std::span<uint8_t> Buf) override;

private:
  int In, Out;
  pid_t Child; // 0 for a connection
};

// Starts `Path stdio` with its stdin/stdout on pipes (stderr inherited).
Expected<std::unique_ptr<FdTransport>> spawnExecutor(const std::string &Path);
// Connects to `linklab-executor listen=...` at HOST:PORT (IPv4 or a name).
Expected<std::unique_ptr<FdTransport>> connectExecutor(const std::string &HostPort);

} // namespace linklab::executor

#endif
