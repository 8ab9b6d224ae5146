// The executor protocol: length-prefixed binary messages between a linker
// (CLI or browser) and a linklab-executor. PROTOCOL.md is the specification;
// this file is its only encoder/decoder, shared by the native and wasm builds.
//
// Each message struct lists its fields once, in wire order, in `fields(IO&)`
// (and compares member by member, so a test can tell a field fields() left out);
// the same function drives encoding and decoding, so the two cannot drift.
#pragma once

#include "support/error.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

namespace linklab::executor {

constexpr uint32_t ProtocolVersion = 10;
// Frame: u32 size | u16 kind | u16 flags | u32 seq | payload; size counts
// every byte after itself.
constexpr size_t HeaderSize = 12;
// Largest frame accepted (size field); bigger ones end the session.
constexpr uint32_t MaxFrameSize = 64u << 20;

enum class MsgKind : uint16_t {
  // client -> executor
  Setup = 0x01,
  Reserve = 0x02,
  Finalize = 0x03,
  Deallocate = 0x04,
  Lookup = 0x05,
  RunMain = 0x06,
  Call = 0x07,
  ReadMemory = 0x08,
  WriteMemory = 0x09,
  SetupTLS = 0x0a,
  Hangup = 0x0b,
  Input = 0x0c,
  DebugResume = 0x0d,
  Write = 0x0e,
  MapFile = 0x0f,
  // executor -> client
  Ok = 0x80,
  Failure = 0x81,
  SetupResult = 0x82,
  Address = 0x83,
  LookupResult = 0x84,
  Output = 0x85,
  RunResult = 0x86,
  Memory = 0x87,
  TLSResult = 0x88,
  InputRequest = 0x89,
  DebugStop = 0x8a,
};

// Segment protections on the wire (same bits as linklab::MemProt).
enum ProtBits : uint8_t { ProtRead = 1, ProtWrite = 2, ProtExec = 4 };

// Per-run limits. 0 selects the executor's default (see PROTOCOL.md).
struct Limits {
  static constexpr uint32_t DefaultWallMillis = 60000;
  static constexpr uint64_t DefaultMemoryBytes = 1ull << 30;
  uint64_t instructions = 0;
  uint32_t wallMillis = 0;
  uint64_t memoryBytes = 0;
  template <class IO> void fields(IO &io) { io(instructions), io(wallMillis), io(memoryBytes); }
  uint32_t wall() const { return wallMillis ? wallMillis : DefaultWallMillis; }
  uint64_t memory() const { return memoryBytes ? memoryBytes : DefaultMemoryBytes; }
  bool operator==(const Limits &) const = default;
};

// A register named by its DWARF number (the callconv planner's numbering);
// value little-endian, 1..16 bytes.
struct RegValue {
  uint16_t dwarf = 0;
  std::vector<uint8_t> value;
  template <class IO> void fields(IO &io) { io(dwarf), io(value); }
  bool operator==(const RegValue &) const = default;
};

struct SegmentWrite {
  uint64_t address = 0;
  uint8_t prot = 0;
  std::vector<uint8_t> content;
  uint64_t zeroFill = 0; // zero bytes after content
  template <class IO> void fields(IO &io) { io(address), io(prot), io(content), io(zeroFill); }
  bool operator==(const SegmentWrite &) const = default;
};

// Bytes at address, then zeroFill zero bytes (write, version 8): a linked
// segment's content with its longer runs of zeros left off the wire.
struct WritePiece {
  uint64_t address = 0;
  std::vector<uint8_t> content;
  uint64_t zeroFill = 0;
  template <class IO> void fields(IO &io) { io(address), io(content), io(zeroFill); }
  bool operator==(const WritePiece &) const = default;
};

// A segment whose content is [offset, offset+size) of a file (map-file).
struct FileSegment {
  uint64_t address = 0;
  uint8_t prot = 0;
  uint64_t offset = 0, size = 0;
  uint64_t zeroFill = 0; // zero bytes after the content
  template <class IO> void fields(IO &io) { io(address), io(prot), io(offset), io(size), io(zeroFill); }
  bool operator==(const FileSegment &) const = default;
};

// A range of executor memory.
struct MemoryRange {
  uint64_t address = 0, size = 0;
  template <class IO> void fields(IO &io) { io(address), io(size); }
  bool operator==(const MemoryRange &) const = default;
};

// An input file the program may read (run-main): its path in the
// process's file system and its bytes.
struct InputFile {
  std::string path;
  std::vector<uint8_t> bytes;
  template <class IO> void fields(IO &io) { io(path), io(bytes); }
  bool operator==(const InputFile &) const = default;
};

struct ExposedSymbol {
  std::string name;
  uint64_t address = 0;
  template <class IO> void fields(IO &io) { io(name), io(address); }
  bool operator==(const ExposedSymbol &) const = default;
};

#define LINKLAB_MSG(NAME, KIND)                                                                                        \
  static constexpr MsgKind Kind = MsgKind::KIND;                                                                       \
  static constexpr const char *Name = NAME;

// ---- client -> executor -----------------------------------------------------
struct SetupMsg {
  LINKLAB_MSG("setup", Setup)
  uint32_t version = ProtocolVersion;
  std::string triple;
  template <class IO> void fields(IO &io) { io(version), io(triple); }
  bool operator==(const SetupMsg &) const = default;
};
struct ReserveMsg {
  LINKLAB_MSG("reserve", Reserve)
  uint64_t size = 0, alignment = 0;
  uint8_t region = 0; // executor::Region (address_plan.h): the objects' (0) or the C runtime's (1)
  template <class IO> void fields(IO &io) { io(size), io(alignment), io(region); }
  bool operator==(const ReserveMsg &) const = default;
};
struct FinalizeMsg {
  LINKLAB_MSG("finalize", Finalize)
  std::vector<SegmentWrite> segments;
  template <class IO> void fields(IO &io) { io(segments); }
  bool operator==(const FinalizeMsg &) const = default;
};
// finalize with the contents in a file: the descriptor comes beside the
// frame, on the session's descriptor channel (a spawned executor's only).
struct MapFileMsg {
  LINKLAB_MSG("map-file", MapFile)
  std::vector<FileSegment> segments;
  template <class IO> void fields(IO &io) { io(segments); }
  bool operator==(const MapFileMsg &) const = default;
};
struct DeallocateMsg {
  LINKLAB_MSG("deallocate", Deallocate)
  std::vector<uint64_t> addresses; // reservation bases
  template <class IO> void fields(IO &io) { io(addresses); }
  bool operator==(const DeallocateMsg &) const = default;
};
struct LookupMsg {
  LINKLAB_MSG("lookup", Lookup)
  std::vector<std::string> names;
  template <class IO> void fields(IO &io) { io(names); }
  bool operator==(const LookupMsg &) const = default;
};
// How RunMain enters the program.
enum class Startup : uint8_t {
  CallMain = 0,     // entry(argc, argv, envp) returning to the trap: a linked `main`
  ProcessEntry = 1, // entry with sp at argc/argv/envp/auxv, as exec leaves it: crt1's `_start`
};
struct RunMainMsg {
  LINKLAB_MSG("run-main", RunMain)
  uint64_t entry = 0;
  uint8_t startup = 0;           // Startup
  std::vector<std::string> args; // argv[0] first
  std::vector<std::string> env;  // "NAME=VALUE" strings: envp (empty by default, as a clean exec)
  Limits limits;
  std::vector<InputFile> files; // read-only files the program finds in its file system
  // Debugged (version 5): stopped at its first instruction, a debug-stop
  // then waits for the client's debug-resume, at most debugIdleMillis at a
  // stop (0: the default, 10 minutes).
  uint8_t debug = 0;
  uint32_t debugIdleMillis = 0;
  // Debugged (version 6): the linked image's .eh_frame sections, which a
  // stop's backtrace unwinds through (none: a stack scan).
  std::vector<MemoryRange> ehFrames;
  // Version 10: when not 0, the run does not start if the session's latest
  // failed request has a seq this large or larger (the link's requests,
  // whose answers the client sent this run without waiting for).
  uint32_t okSince = 0;
  template <class IO> void fields(IO &io) {
    io(entry), io(startup), io(args), io(env), io(limits), io(files), io(debug), io(debugIdleMillis), io(ehFrames),
        io(okSince);
  }
  bool operator==(const RunMainMsg &) const = default;
};
// Calls `entry` with exactly these register values and these bytes at the
// stack pointer on entry (above the return address where the ABI pushes
// one), then reports the registers named in `results`.
struct CallMsg {
  LINKLAB_MSG("call", Call)
  uint64_t entry = 0;
  std::vector<RegValue> registers;
  std::vector<uint8_t> stack;
  std::vector<uint16_t> results;
  Limits limits;
  template <class IO> void fields(IO &io) { io(entry), io(registers), io(stack), io(results), io(limits); }
  bool operator==(const CallMsg &) const = default;
};
struct ReadMemoryMsg {
  LINKLAB_MSG("read-memory", ReadMemory)
  uint64_t address = 0, size = 0;
  template <class IO> void fields(IO &io) { io(address), io(size); }
  bool operator==(const ReadMemoryMsg &) const = default;
};
struct WriteMemoryMsg {
  LINKLAB_MSG("write-memory", WriteMemory)
  uint64_t address = 0;
  std::vector<uint8_t> bytes;
  template <class IO> void fields(IO &io) { io(address), io(bytes); }
  bool operator==(const WriteMemoryMsg &) const = default;
};
// A graph's segments, written into reservations whatever their protection
// (version 8): one frame, zero runs as zeroFill.
struct WriteMsg {
  LINKLAB_MSG("write", Write)
  std::vector<WritePiece> pieces;
  template <class IO> void fields(IO &io) { io(pieces); }
  bool operator==(const WriteMsg &) const = default;
};
// Allocates the initial thread's TLS block (image, then zeros up to
// memSize), places it per the arch's TLS variant and sets the thread pointer.
struct SetupTLSMsg {
  LINKLAB_MSG("setup-tls", SetupTLS)
  std::vector<uint8_t> image;
  uint64_t memSize = 0, alignment = 1;
  template <class IO> void fields(IO &io) { io(image), io(memSize), io(alignment); }
  bool operator==(const SetupTLSMsg &) const = default;
};
struct HangupMsg {
  LINKLAB_MSG("hangup", Hangup)
  template <class IO> void fields(IO &) {}
  bool operator==(const HangupMsg &) const = default;
};

// The program's stdin, answering an input-request under its seq (no reply):
// at most the bytes asked for; none = end of file.
struct InputMsg {
  LINKLAB_MSG("input", Input)
  std::vector<uint8_t> bytes;
  template <class IO> void fields(IO &io) { io(bytes); }
  bool operator==(const InputMsg &) const = default;
};

// What a debugged run does next, answering a debug-stop under the run's seq.
enum class DebugAction : uint8_t {
  Continue = 0, // until a breakpoint, a fault or the end
  Step = 1,     // one instruction
  StepOver = 2, // one instruction; a call runs until it returns to this frame
  Read = 3,     // stays stopped; a debug-stop of reason Memory answers with the bytes
  Kill = 4,     // the run ends as killed by SIGKILL
};
constexpr uint32_t MaxDebugBreakpoints = 256;
constexpr uint32_t MaxDebugRead = 64 << 10;
struct DebugResumeMsg {
  LINKLAB_MSG("debug-resume", DebugResume)
  uint8_t action = 0;                // DebugAction
  std::vector<uint64_t> breakpoints; // where the run stops from now on (all of them, each time)
  uint64_t address = 0;              // Read
  uint32_t size = 0;                 // Read: at most MaxDebugRead bytes
  template <class IO> void fields(IO &io) { io(action), io(breakpoints), io(address), io(size); }
  bool operator==(const DebugResumeMsg &) const = default;
};

// ---- executor -> client -----------------------------------------------------
enum class StopReason : uint8_t {
  Entry = 0,      // the run's first instruction
  Breakpoint = 1, // before the instruction at a breakpoint
  Step = 2,       // a step (or step over) done
  Fault = 3,      // before the faulting instruction takes its course (faultKind, faultAddress)
  Memory = 4,     // answers a Read: `memory` holds the bytes at `address`
  Refused = 5,    // a debug-resume was refused (`message` says why); still stopped where it was
};
struct DebugRegister {
  std::string name;           // gdb's name for it
  std::vector<uint8_t> value; // little-endian
  template <class IO> void fields(IO &io) { io(name), io(value); }
  bool operator==(const DebugRegister &) const = default;
};
// A debugged run stopped (seq: the run's); the client answers with one debug-resume.
struct DebugStopMsg {
  LINKLAB_MSG("debug-stop", DebugStop)
  uint8_t reason = 0; // StopReason
  uint64_t pc = 0, thread = 0;
  uint32_t instructionSize = 0; // bytes of the instruction at pc, when the executor decoded it (0: not known)
  uint8_t faultKind = 0;        // Fault: FaultKind
  uint64_t faultAddress = 0;
  std::vector<DebugRegister> registers; // the general registers
  // Return addresses, innermost first: each caller's, unwound through the
  // call-frame information (unwound 1), or else the link register's and the
  // stack's words that follow a call (a scan, unwound 0).
  std::vector<uint64_t> returns;
  uint8_t unwound = 0;
  uint64_t address = 0; // where `memory` starts: the stack pointer, or a Read's address
  std::vector<uint8_t> memory;
  std::string message; // Refused: why
  template <class IO> void fields(IO &io) {
    io(reason), io(pc), io(thread), io(instructionSize), io(faultKind), io(faultAddress), io(registers), io(returns),
        io(unwound), io(address), io(memory), io(message);
  }
  bool operator==(const DebugStopMsg &) const = default;
};

// The running program reads fd 0 and nothing is buffered: the client
// answers with an input message of at most maxBytes (seq = the run's).
struct InputRequestMsg {
  LINKLAB_MSG("input-request", InputRequest)
  uint32_t maxBytes = 0;
  template <class IO> void fields(IO &io) { io(maxBytes); }
  bool operator==(const InputRequestMsg &) const = default;
};
struct OkMsg {
  LINKLAB_MSG("ok", Ok)
  template <class IO> void fields(IO &) {}
  bool operator==(const OkMsg &) const = default;
};
// A request failed (seq = the request's), or the session is ending (seq 0).
struct FailureMsg {
  LINKLAB_MSG("failure", Failure)
  std::string message;
  template <class IO> void fields(IO &io) { io(message); }
  bool operator==(const FailureMsg &) const = default;
};
struct SetupResultMsg {
  LINKLAB_MSG("setup-result", SetupResult)
  uint32_t version = ProtocolVersion;
  std::string triple;
  uint64_t pageSize = 0;
  std::vector<ExposedSymbol> symbols;
  template <class IO> void fields(IO &io) { io(version), io(triple), io(pageSize), io(symbols); }
  bool operator==(const SetupResultMsg &) const = default;
};
struct AddressMsg {
  LINKLAB_MSG("address", Address)
  uint64_t address = 0;
  template <class IO> void fields(IO &io) { io(address); }
  bool operator==(const AddressMsg &) const = default;
};
struct LookupResultMsg {
  LINKLAB_MSG("lookup-result", LookupResult)
  std::vector<uint64_t> addresses; // 0: not exposed
  template <class IO> void fields(IO &io) { io(addresses); }
  bool operator==(const LookupResultMsg &) const = default;
};
enum class Stream : uint8_t { Stdout = 1, Stderr = 2 };
struct OutputMsg {
  LINKLAB_MSG("output", Output)
  uint8_t stream = 1;
  std::vector<uint8_t> bytes;
  template <class IO> void fields(IO &io) { io(stream), io(bytes); }
  bool operator==(const OutputMsg &) const = default;
};

enum class RunStatus : uint8_t {
  Returned = 0,         // reached the return trap; `value` = return register
  Exited = 1,           // exit/exit_group; `value` = status
  InstructionLimit = 2, // budget spent
  TimeLimit = 3,        // wall time spent
  MemoryLimit = 4,      // program asked for memory beyond the cap
  Fault = 5,            // see FaultKind; `pc`, `address`
  Error = 6,            // the executor could not run it; see `message`
  Signaled = 7,         // killed by a signal it sent itself (abort: SIGABRT); `value` = signal number
};
// "SIGABRT" for 6; null for a number without a name.
const char *signalName(int64_t Signal);
enum class FaultKind : uint8_t {
  None = 0,
  ReadUnmapped,
  WriteUnmapped,
  FetchUnmapped,
  ReadProtected,
  WriteProtected,
  FetchProtected,
  IllegalInstruction,
  Other,
};
const char *runStatusName(RunStatus S);
const char *faultKindName(FaultKind K);
// The signal that ends a process with such a fault (SIGSEGV, SIGILL).
int faultSignal(FaultKind K);

struct RunResultMsg {
  LINKLAB_MSG("run-result", RunResult)
  uint8_t status = 0;    // RunStatus
  uint8_t faultKind = 0; // FaultKind
  int64_t value = 0;
  uint64_t pc = 0, address = 0;
  uint64_t instructions = 0; // executed, when counted (budget given)
  std::string message;
  std::vector<RegValue> results; // Call: the requested registers
  template <class IO> void fields(IO &io) {
    io(status), io(faultKind), io(value), io(pc), io(address), io(instructions), io(message), io(results);
  }
  bool operator==(const RunResultMsg &) const = default;
  RunStatus runStatus() const { return RunStatus(status); }
};
struct MemoryMsg {
  LINKLAB_MSG("memory", Memory)
  std::vector<uint8_t> bytes;
  template <class IO> void fields(IO &io) { io(bytes); }
  bool operator==(const MemoryMsg &) const = default;
};
struct TLSResultMsg {
  LINKLAB_MSG("tls-result", TLSResult)
  uint64_t threadPointer = 0, block = 0;
  template <class IO> void fields(IO &io) { io(threadPointer), io(block); }
  bool operator==(const TLSResultMsg &) const = default;
};
#undef LINKLAB_MSG

using Message = std::variant<SetupMsg, ReserveMsg, FinalizeMsg, DeallocateMsg, LookupMsg, RunMainMsg, CallMsg,
                             ReadMemoryMsg, WriteMemoryMsg, SetupTLSMsg, HangupMsg, OkMsg, FailureMsg, SetupResultMsg,
                             AddressMsg, LookupResultMsg, OutputMsg, RunResultMsg, MemoryMsg, TLSResultMsg, InputMsg,
                             InputRequestMsg, DebugResumeMsg, DebugStopMsg, WriteMsg, MapFileMsg>;

struct Frame {
  uint32_t seq = 0;
  Message message;
};

const char *messageName(const Message &M);
// The complete frame, header included.
std::vector<uint8_t> encode(uint32_t Seq, const Message &M);
// Decodes one frame's kind and payload (header already split off).
Expected<Message> decodePayload(uint16_t Kind, uint16_t Flags, std::span<const uint8_t> Payload);

// Splits a byte stream into frames. After an error the stream is unusable:
// the session must end (there is no way to resynchronise).
class FrameReader {
public:
  void feed(std::span<const uint8_t> Bytes);
  // The next complete frame, nothing if more bytes are needed, or an error
  // for an oversized or malformed frame.
  Expected<std::optional<Frame>> next();
  size_t buffered() const { return Buf.size() - Pos; }

private:
  std::vector<uint8_t> Buf;
  size_t Pos = 0;
  bool Failed = false;
};

} // namespace linklab::executor
