#include "protocol/protocol.h"

#include "support/wire.h"

#include <cstring>
#include <type_traits>

namespace linklab::executor {

namespace {

// Builds the alternative whose Kind matches, by walking the variant's types.
template <size_t I = 0> Expected<Message> decodeAs(uint16_t Kind, wire::Reader &R) {
  if constexpr (I == std::variant_size_v<Message>) {
    return makeError(formatv("unknown message kind 0x%x", Kind));
  } else {
    using T = std::variant_alternative_t<I, Message>;
    if (uint16_t(T::Kind) != Kind)
      return decodeAs<I + 1>(Kind, R);
    T M;
    R(M);
    if (!R.Problem.empty())
      return makeError(formatv("malformed %s message: %s", T::Name, R.Problem.c_str()));
    if (R.Pos != R.In.size())
      return makeError(formatv("malformed %s message: %zu trailing bytes", T::Name, R.In.size() - R.Pos));
    return Message(std::move(M));
  }
}

} // namespace

const char *messageName(const Message &M) {
  return std::visit([](const auto &V) { return std::decay_t<decltype(V)>::Name; }, M);
}

std::vector<uint8_t> encode(uint32_t Seq, const Message &M) {
  std::vector<uint8_t> Out;
  wire::Writer W{Out};
  W(uint32_t(0)); // size, patched below
  std::visit([&](const auto &V) { W(uint16_t(std::decay_t<decltype(V)>::Kind)); }, M);
  W(uint16_t(0));
  W(Seq);
  std::visit([&](const auto &V) { W(V); }, M);
  uint32_t Size = uint32_t(Out.size() - 4);
  std::memcpy(Out.data(), &Size, 4); // all supported hosts are little-endian, as is the wire
  return Out;
}

Expected<Message> decodePayload(uint16_t Kind, uint16_t Flags, std::span<const uint8_t> Payload) {
  // Flags are reserved so a later version can mark optional extensions; a
  // version-1 peer must not silently ignore them.
  if (Flags != 0)
    return makeError(formatv("message kind 0x%x has reserved flags 0x%x set", Kind, Flags));
  wire::Reader R{Payload};
  return decodeAs(Kind, R);
}

void FrameReader::feed(std::span<const uint8_t> Bytes) {
  // Drop consumed bytes before growing, so a long session stays small.
  if (Pos > 0 && Pos == Buf.size())
    Buf.clear(), Pos = 0;
  else if (Pos > (1u << 20))
    Buf.erase(Buf.begin(), Buf.begin() + Pos), Pos = 0;
  Buf.insert(Buf.end(), Bytes.begin(), Bytes.end());
}

Expected<std::optional<Frame>> FrameReader::next() {
  if (Failed)
    return makeError("stream already failed");
  if (buffered() < 4)
    return std::optional<Frame>();
  uint32_t Size;
  std::memcpy(&Size, Buf.data() + Pos, 4);
  if (Size < HeaderSize - 4 || Size > MaxFrameSize) {
    Failed = true;
    return makeError(formatv("frame size %u out of range [%zu, %u]", Size, HeaderSize - 4, MaxFrameSize));
  }
  if (buffered() < 4 + size_t(Size))
    return std::optional<Frame>();
  const uint8_t *P = Buf.data() + Pos;
  uint16_t Kind = uint16_t(P[4] | P[5] << 8), Flags = uint16_t(P[6] | P[7] << 8);
  uint32_t Seq;
  std::memcpy(&Seq, P + 8, 4);
  Pos += 4 + size_t(Size);
  auto M = decodePayload(Kind, Flags, {P + HeaderSize, Size - (HeaderSize - 4)});
  if (!M) {
    Failed = true;
    return M.takeError();
  }
  return std::optional<Frame>(Frame{Seq, std::move(*M)});
}

const char *runStatusName(RunStatus S) {
  static const char *const Names[] = {"returned", "exited", "instruction limit", "time limit", "memory limit",
                                      "fault",    "error",  "killed by a signal"};
  return size_t(S) < std::size(Names) ? Names[size_t(S)] : "unknown status";
}

// Linux's numbering, the same on x86-64, AArch64 and RISC-V (asm-generic/signal.h).
const char *signalName(int64_t Signal) {
  static const char *const Names[] = {nullptr,    "SIGHUP",  "SIGINT",    "SIGQUIT", "SIGILL",  "SIGTRAP",   "SIGABRT",
                                      "SIGBUS",   "SIGFPE",  "SIGKILL",   "SIGUSR1", "SIGSEGV", "SIGUSR2",   "SIGPIPE",
                                      "SIGALRM",  "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT", "SIGSTOP",   "SIGTSTP",
                                      "SIGTTIN",  "SIGTTOU", "SIGURG",    "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
                                      "SIGWINCH", "SIGIO",   "SIGPWR",    "SIGSYS"};
  return Signal > 0 && Signal < int64_t(std::size(Names)) ? Names[Signal] : nullptr;
}

// Each fault kind's name, and the signal Linux kills a process with for it
// when no handler takes it (SIGSEGV = 11, SIGILL = 4).
static const struct {
  const char *name;
  int signal;
} FaultKinds[] = {{"none", 0},
                  {"read of unmapped memory", 11},
                  {"write to unmapped memory", 11},
                  {"jump to unmapped memory", 11},
                  {"read of protected memory", 11},
                  {"write to protected memory", 11},
                  {"execution of non-executable memory", 11},
                  {"illegal instruction", 4},
                  {"fault", 11}};

const char *faultKindName(FaultKind K) {
  return size_t(K) < std::size(FaultKinds) ? FaultKinds[size_t(K)].name : "unknown fault";
}

int faultSignal(FaultKind K) { return size_t(K) < std::size(FaultKinds) ? FaultKinds[size_t(K)].signal : 11; }

} // namespace linklab::executor
