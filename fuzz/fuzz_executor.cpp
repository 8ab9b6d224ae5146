// The executor's message handler (emulator/session.cpp) with a real emulated
// process: the bytes are what a client sends, served by emu::serveSession
// from a memory file. Runs are bounded: the harness lowers every run/call's
// time and memory limits before the session sees them (a client may
// legitimately ask for unbounded runs, which would only measure the guest),
// and drops instruction budgets: a budgeted run flushes Unicorn's whole
// translation cache twice (emulator/process.cpp), which under ASan costs a
// second per run; budgets are exercised by the unit tests instead. Sizes a
// client names (reservations, zero fill, reads, TLS) are capped likewise. Guest memory takes Unicorn's software TLB:
// the direct-memory host window (emulator/direct_memory.cpp) cannot coexist with ASan's shadow mappings, so it is not
// fuzzed here.
#include "fuzz_support.h"

#include "protocol/protocol.h"
#include "session.h"

#include <algorithm>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

using namespace linklab;
using namespace linklab::executor;

namespace {

constexpr uint32_t MaxWallMillis = 50;
constexpr uint64_t MaxMemory = 64 << 20;

void bound(Limits &L) {
  L.instructions = 0;
  if (L.wallMillis == 0 || L.wallMillis > MaxWallMillis)
    L.wallMillis = MaxWallMillis;
  if (L.memoryBytes == 0 || L.memoryBytes > MaxMemory)
    L.memoryBytes = MaxMemory;
}

int DevNull = -1;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("LINKLAB_EXECUTOR_SOFTMMU", "1", 1);
  DevNull = open("/dev/null", O_WRONLY);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Frames that decode are re-encoded with bounded limits; from the first
  // that does not, the rest goes as it is (the session's own decoder meets it).
  std::vector<uint8_t> Stream;
  FrameReader R;
  R.feed({Data, Size});
  size_t Consumed = 0;
  for (;;) {
    auto F = R.next();
    if (!F) {
      consumeError(F.takeError());
      break;
    }
    if (!*F)
      break;
    Frame &Fr = **F;
    if (auto *M = std::get_if<RunMainMsg>(&Fr.message)) {
      bound(M->limits);
      // A debugged run waits at each stop for the input's debug-resume frames (then its end).
      if (M->debugIdleMillis == 0 || M->debugIdleMillis > MaxWallMillis)
        M->debugIdleMillis = MaxWallMillis;
    }
    if (auto *M = std::get_if<CallMsg>(&Fr.message))
      bound(M->limits);
    // Sizes a client names are served in time proportional to them (zeroing,
    // copying): lowered as the run limits are, or one input could legitimately
    // ask for gigabytes and exceed the per-input timeout.
    if (auto *M = std::get_if<ReserveMsg>(&Fr.message))
      M->size = std::min<uint64_t>(M->size, MaxMemory);
    if (auto *M = std::get_if<FinalizeMsg>(&Fr.message))
      for (SegmentWrite &W : M->segments)
        W.zeroFill = std::min<uint64_t>(W.zeroFill, MaxMemory);
    if (auto *M = std::get_if<ReadMemoryMsg>(&Fr.message))
      M->size = std::min<uint64_t>(M->size, MaxMemory);
    if (auto *M = std::get_if<SetupTLSMsg>(&Fr.message))
      M->memSize = std::min<uint64_t>(M->memSize, MaxMemory);
    std::vector<uint8_t> Bytes = encode(Fr.seq, Fr.message);
    Stream.insert(Stream.end(), Bytes.begin(), Bytes.end());
    Consumed = Size - R.buffered();
  }
  Stream.insert(Stream.end(), Data + Consumed, Data + Size);

  int In = memfd_create("fuzz-executor", 0);
  if (In < 0 || write(In, Stream.data(), Stream.size()) != ssize_t(Stream.size()) || lseek(In, 0, SEEK_SET) != 0) {
    std::perror("fuzz_executor: memfd");
    std::abort();
  }
  (void)emu::serveSession(In, DevNull);
  close(In);
  return 0;
}
