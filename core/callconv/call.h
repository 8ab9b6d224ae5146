// Calling a linked function through a plan: typed argument values placed
// exactly where the plan says (registers by DWARF number, stack bytes at the
// plan's offsets, copies for by-reference aggregates, a buffer per sret
// parameter), and the results read back where the plan says they come from.
//
// The browser (asynchronous transport) and the CLI (blocking transport)
// share all of it:
//   parseCallArguments -> prepareCall -> [write memory, call, read sret] ->
//   decodeCall -> formatCall.
// callThroughPlan does the bracketed part asynchronously; callWithPlan
// waits for it over a blocking exec::Program.
#pragma once

#include "callconv/plan.h"
#include "protocol/executor_client.h"
#include "protocol/protocol.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace linklab::exec {
class Program;
}

namespace linklab::callconv {

// A value as its bytes in target memory order (all three targets are
// little-endian); exactly the type's size.
using ValueBytes = std::vector<uint8_t>;

// Parses one value per parameter from a comma-separated list, sret
// parameters excepted (their buffer is made by prepareCall). Integers and
// pointers: decimal or 0x hex, signed or unsigned, range-checked against the
// type; f32/f64: decimal; any type: "bytes:HEX" with exactly the type's size
// in memory order (the only form for f16, f128, vectors and byval).
// The result has one entry per parameter (empty for sret parameters).
Expected<std::vector<ValueBytes>> parseCallArguments(const Signature &Sig, std::string_view Text);

struct MemoryWrite {
  uint64_t Address = 0;
  std::vector<uint8_t> Bytes;
};

// A call ready to send: Msg.entry is left 0 for the caller to fill in.
struct PreparedCall {
  executor::CallMsg Msg;
  std::vector<MemoryWrite> Writes; // before the call: by-reference copies, zeroed sret buffers
  struct Buffer {
    uint32_t Param;
    uint64_t Address, Size;
  };
  std::vector<Buffer> SRet; // read these back after the call
  // Callee-saved registers of the plan not carrying arguments are set to
  // these values and read back, so a callee breaking its plan is reported.
  std::vector<std::pair<uint16_t, uint64_t>> Sentinels;
};

// Executor memory prepareCall needs for copies and sret buffers (16-aligned).
uint64_t scratchBytes(const Plan &P);
// Args: as parseCallArguments returns them. Scratch: scratchBytes(P) bytes
// of writable executor memory, 16-aligned (unused when scratchBytes is 0).
Expected<PreparedCall> prepareCall(const Plan &P, const std::vector<ValueBytes> &Args, uint64_t Scratch);

struct CallResults {
  std::optional<ValueBytes> Return;                  // nullopt for void
  std::vector<std::pair<uint32_t, ValueBytes>> SRet; // parameter index, buffer content
  // "rbx: set 0x… before the call, 0x… after" per callee-saved register the
  // callee did not preserve.
  std::vector<std::string> Clobbered;
};

// R must be a returned run (status Returned); SRetMemory holds the bytes read
// from each PC.SRet buffer, in order.
Expected<CallResults> decodeCall(const Plan &P, const PreparedCall &PC, const executor::RunResultMsg &R,
                                 const std::vector<ValueBytes> &SRetMemory);

// One line per result: "return: 7", "sret 0: bytes:0100…", and one
// "clobbered: rbx: …" line per broken callee-saved register.
std::vector<std::string> formatCall(const Plan &P, const CallResults &C);
// The text form of one value of type T ("7", "-1", "0x10", "2.5", "bytes:…").
std::string formatValue(const ValueType &T, const ValueBytes &B);

// A call's run, and its decoded results when the run returned.
struct PlanCallOutcome {
  executor::RunResultMsg Run;
  std::optional<CallResults> Results;
};
// Makes the call (M.entry still 0): links and calls a symbol, or calls an
// address.
using IssueCall = std::function<void(executor::CallMsg M, executor::Callback<executor::RunResultMsg> Done)>;
// Scratch memory for copies and sret buffers (reserved, and released after),
// the argument writes, the call through Issue, the sret buffers read back
// and decoded.
void callThroughPlan(executor::ExecutorClient &C, const Plan &P, std::vector<ValueBytes> Args, executor::Limits L,
                     IssueCall Issue, executor::Callback<PlanCallOutcome> Done);

// The whole round trip over a blocking program: links Symbol, reserves
// scratch memory, writes, calls, reads back and decodes. A run that does not
// return (fault, limit, exit) is an error naming the symbol and how it ended.
Expected<CallResults> callWithPlan(exec::Program &Prog, const std::string &Symbol, const Plan &P,
                                   const std::vector<ValueBytes> &Args, executor::Limits L = {});

} // namespace linklab::callconv
