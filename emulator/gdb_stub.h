// The GDB remote serial protocol (gdb's manual, "Remote Protocol"), the
// side a stub serves: packet framing ($data#checksum, acks, escapes, the
// 0x03 interrupt), and the commands gdb-multiarch sends to a Linux process
// stub, answered from a Target. Nothing here knows Unicorn: the emulated
// process is behind Target (gdb_target.cpp), so the parser can be fuzzed
// alone (fuzz/fuzz_gdb_stub.cpp). Every byte from gdb is untrusted: lengths
// are bounded, numbers checked, and a bad packet gets an error reply.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linklab::emu::gdb {

// The largest packet payload we accept and advertise (qSupported PacketSize).
constexpr size_t MaxPacket = 0x4000;

// What a byte stream from gdb holds, event by event.
struct Event {
  enum Kind : uint8_t { Packet, BadPacket, Interrupt } kind;
  std::string data; // Packet: the payload, escapes undone
};

class PacketReader {
public:
  void feed(std::string_view Bytes);
  std::optional<Event> next();

private:
  std::string Buf;
  size_t Pos = 0;
};

// "$" payload "#" checksum, with '#', '$', '}' and '*' escaped.
std::string frame(std::string_view Payload);
// Binary data escaped for a reply (qXfer) or undone (X packets, whose
// payload PacketReader has already unescaped: nothing more to do there).
std::string escapeBinary(std::string_view Data);
std::string toHex(std::string_view Bytes);

enum class BreakKind : uint8_t { Software, Hardware, Write, Read, Access };

// Why the process stopped, or how it ended.
struct Stop {
  enum Kind : uint8_t { Signal, Exited, Terminated } kind = Signal;
  uint8_t signal = 5;                                 // gdb's signal number (Signal, Terminated)
  int code = 0;                                       // Exited: the exit status
  uint64_t thread = 0;                                // Signal: the thread that stopped
  std::optional<BreakKind> breakpoint = std::nullopt; // a breakpoint or watchpoint caused it
  uint64_t watchAddress = 0;                          // for a watchpoint
};

// What the stub needs of the stopped process.
class Target {
public:
  virtual ~Target() = default;
  virtual std::string targetXml() const = 0;
  virtual size_t registerCount() const = 0;
  virtual std::vector<uint64_t> threads() const = 0;
  virtual uint64_t pid() const = 0;
  // Register N of thread Tid in the target description's order, as the
  // bytes of the target's order; nullopt if there is no such register.
  virtual std::optional<std::string> readRegister(uint64_t Tid, unsigned N) = 0;
  virtual bool writeRegister(uint64_t Tid, unsigned N, std::string_view Bytes) = 0;
  virtual std::optional<std::string> readMemory(uint64_t Addr, size_t Len) = 0;
  virtual bool writeMemory(uint64_t Addr, std::string_view Bytes) = 0;
  // False: not supported (an empty reply) or refused.
  virtual bool breakpoint(BreakKind K, uint64_t Addr, uint64_t Len, bool Insert) = 0;
  virtual bool supports(BreakKind K) const = 0;
  // Whether the process is still where it started (nothing has run since
  // the first stop): `run` may then start it "again" (extended mode).
  virtual bool pristine() const = 0;
  // The siginfo_t of the signal the process stopped for, in the target's
  // layout (gdb's $_siginfo); nullopt when it stopped for none it has one of.
  virtual std::optional<std::string> siginfo() const = 0;
  // The auxiliary vector the process started with, in the target's layout
  // (gdb's `info auxv`).
  virtual std::string auxv() const = 0;
};

// What gdb asked the process to do next.
struct Resume {
  // StepOver: the protocol front end's (a call runs until it returns); gdb steps over calls itself.
  // Run: gdb starts the program again once it has ended (extended mode's
  // vRun): a new process, whose first stop is the reply.
  enum Kind : uint8_t { None, Continue, Step, Kill, Detach, StepOver, Run } kind = None;
  uint64_t thread = 0; // Step: the thread to step (0: the selected one)
  uint8_t signal = 0;  // Continue, Step: the signal to pass (gdb's number; 0: none)
};

// One conversation's state: the selected thread, no-ack mode.
class Stub {
public:
  explicit Stub(Target &T) : T(&T) {}
  struct Outcome {
    std::optional<std::string> reply; // nothing when the process resumes (the next stop answers)
    Resume resume;
  };
  Outcome handle(std::string_view Packet);
  // The reply that tells gdb about S (remembered for '?').
  std::string stopReply(const Stop &S);
  bool noAck() const { return NoAck; }
  // gdb killed the process before it ran (extended mode's `run` kills the
  // process it found first): it ends unless gdb runs it (vRun).
  bool killed() const { return Killed; }
  // Extended mode: gdb stays connected after the process ends.
  bool extended() const { return Extended; }
  // gdb knows the process ended (it killed it: vKill's OK, or k): its end
  // is not reported again.
  bool endKnown() const { return EndKnown; }
  void setThread(uint64_t Tid) { RegThread = Tid; }
  // The program starts again (Resume::Run) as a new process, NewT: the
  // conversation's modes (no-ack, extended) stay, the old process's state goes.
  void restart(Target &NewT);

private:
  std::string readRegisters();
  std::string query(std::string_view P);
  std::string vPacket(std::string_view P, Resume &R);
  std::string breakpointPacket(std::string_view P);
  uint64_t regThread() const;
  std::string threadId(uint64_t Tid) const;
  std::optional<uint64_t> parseThread(std::string_view S) const;

  Target *T;
  Stop Last;
  uint64_t RegThread = 0; // Hg: 0 = the stopped thread
  bool NoAck = false;
  bool Multiprocess = false; // gdb's multiprocess extensions: thread ids pPID.TID
  bool Extended = false;     // '!': gdb's `run` starts the program (vRun)
  bool Killed = false;
  bool EndKnown = false;
  std::optional<std::string> Ended; // the process is gone: how it ended (W/X)
  Outcome afterEnd(std::string_view P);
};

// The socket to gdb: one connection, served while the process is stopped.
class Connection {
public:
  explicit Connection(int Fd) : Fd(Fd) {}
  ~Connection();
  Connection(const Connection &) = delete;
  Connection &operator=(const Connection &) = delete;
  // Tells gdb about S and serves its packets until it resumes the process
  // (Detach when gdb hangs up).
  Resume stopped(Stub &S, const Stop &St);
  // The process ended (S is Exited or Terminated): tell gdb (unless it
  // knows), then close, in extended mode once gdb detaches or hangs up.
  // True instead when gdb asks to run the program again (vRun): the
  // connection stays, and the new process's first stop is the reply.
  bool ended(Stub &S, const Stop &St);
  // The program could not start again: gdb's vRun fails, and the
  // conversation goes on as after the end (true: gdb asks again).
  bool runRefused(Stub &S);
  // gdb's console output packet: text gdb prints.
  void console(std::string_view Text);
  // Whether gdb sent an interrupt (^C) meanwhile; does not wait.
  bool interrupted();
  // Whether one came with what was read already (no read of the socket).
  bool interruptPending();
  bool open() const { return Fd >= 0; }
  int fd() const { return Fd; }

private:
  bool send(const std::string &Payload, bool NoAck);
  bool serveEnded(Stub &S);
  // The next event; nullopt when gdb hung up.
  std::optional<Event> receive();

  int Fd;
  PacketReader Reader;
  bool Interrupt = false; // a ^C read already, not yet taken by interrupted()
};

} // namespace linklab::emu::gdb
