// The GDB remote stub's protocol layer (emulator/gdb_stub.cpp) against
// hostile bytes: bad checksums, runaway packets, dangling escapes, huge
// lengths and malformed commands each get an error, never a crash or an
// unbounded buffer. (tests/debug/gdb_test.py drives it with a real gdb.)
#include "gdb_stub.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sys/socket.h>
#include <tuple>
#include <unistd.h>

using namespace linklab::emu::gdb;

namespace {

std::string checksummed(std::string_view Body) {
  unsigned Sum = 0;
  for (char C : Body)
    Sum += uint8_t(C);
  char Hex[3];
  std::snprintf(Hex, sizeof Hex, "%02x", Sum & 0xff);
  return "$" + std::string(Body) + "#" + Hex;
}

std::vector<Event> events(std::string_view Bytes) {
  PacketReader R;
  R.feed(Bytes);
  std::vector<Event> E;
  while (auto Next = R.next())
    E.push_back(*Next);
  return E;
}

class OneThread : public Target {
public:
  std::string targetXml() const override { return "<target/>"; }
  size_t registerCount() const override { return 2; }
  std::vector<uint64_t> threads() const override { return {1000}; }
  uint64_t pid() const override { return 1000; }
  std::optional<std::string> readRegister(uint64_t Tid, unsigned N) override {
    return Tid == 1000 && N < 2 ? std::optional<std::string>(std::string(8, char(N + 1))) : std::nullopt;
  }
  bool writeRegister(uint64_t, unsigned, std::string_view) override { return true; }
  std::optional<std::string> readMemory(uint64_t Addr, size_t Len) override {
    return Addr == 0x1000 ? std::optional<std::string>(std::string(Len, 'a')) : std::nullopt;
  }
  bool writeMemory(uint64_t, std::string_view) override { return true; }
  bool breakpoint(BreakKind, uint64_t, uint64_t, bool) override { return true; }
  bool supports(BreakKind K) const override { return K <= BreakKind::Write; }
  bool pristine() const override { return Pristine; }
  std::optional<std::string> siginfo() const override {
    return Signal ? std::optional<std::string>(std::string(128, char(Signal))) : std::nullopt;
  }
  std::string auxv() const override { return std::string("\x06\0\0\0\0\x10\0\0\0\0\0\0\0\0\0\0", 16); }
  bool Pristine = true;
  int Signal = 0;
};

// A target offering every kind of watchpoint, recording what gdb asks.
class Watching : public OneThread {
public:
  std::vector<std::tuple<BreakKind, uint64_t, uint64_t, bool>> Calls;
  bool breakpoint(BreakKind K, uint64_t Addr, uint64_t Len, bool Insert) override {
    Calls.emplace_back(K, Addr, Len, Insert);
    return true;
  }
  bool supports(BreakKind) const override { return true; }
};

} // namespace

TEST(GdbStub, FramesReadBack) {
  std::string Payload = "a$b#c}d*e";
  auto E = events(frame(Payload));
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0].kind, Event::Packet);
  EXPECT_EQ(E[0].data, Payload);
}

TEST(GdbStub, BadChecksumIsABadPacket) {
  std::string P = checksummed("g");
  P.back() = P.back() == '0' ? '1' : '0';
  auto E = events(P + checksummed("?"));
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(E[0].kind, Event::BadPacket);
  EXPECT_EQ(E[1].kind, Event::Packet); // the next packet still reads
  EXPECT_EQ(E[1].data, "?");
  EXPECT_EQ(events("$g#zz")[0].kind, Event::BadPacket);
}

TEST(GdbStub, DanglingEscapeIsABadPacket) { EXPECT_EQ(events(checksummed("m}"))[0].kind, Event::BadPacket); }

TEST(GdbStub, RunawayPacketIsDroppedNotBuffered) {
  PacketReader R;
  std::string Chunk(4096, 'x');
  int Bad = 0;
  R.feed("$");
  for (int I = 0; I < 64; ++I) { // 256 KiB with no end
    R.feed(Chunk);
    while (auto E = R.next())
      Bad += E->kind == Event::BadPacket;
  }
  EXPECT_GE(Bad, 1);
  R.feed(checksummed("?"));
  std::optional<Event> Last;
  while (auto E = R.next())
    Last = E;
  ASSERT_TRUE(Last);
  EXPECT_EQ(Last->kind, Event::Packet);
  EXPECT_EQ(Last->data, "?");
}

TEST(GdbStub, InterruptAndAcks) {
  auto E = events("+-\x03+");
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0].kind, Event::Interrupt);
}

TEST(GdbStub, MalformedCommandsGetErrors) {
  OneThread T;
  Stub S(T);
  S.stopReply({Stop::Signal, 5, 0, 1000});
  EXPECT_EQ(*S.handle("m1000,ffffffffffffffff").reply, "E01"); // a length past the packet size
  EXPECT_EQ(*S.handle("m1000").reply, "E01");
  EXPECT_EQ(*S.handle("m10000000000000000000,4").reply, "E01"); // more than 64 bits
  EXPECT_EQ(*S.handle("m2000,4").reply, "E0e");                 // unreadable
  EXPECT_EQ(*S.handle("m1000,2").reply, "6161");
  EXPECT_EQ(*S.handle("M1000,2:6").reply, "E01");  // odd hex
  EXPECT_EQ(*S.handle("X1000,5:ab").reply, "E01"); // length and data disagree
  EXPECT_EQ(*S.handle("p99").reply, "E01");
  EXPECT_EQ(*S.handle("p1").reply, "0202020202020202");
  EXPECT_EQ(*S.handle("P0=00").reply, "E01"); // the register is 8 bytes
  EXPECT_EQ(*S.handle("Z9,1000,1").reply, "E01");
  EXPECT_EQ(*S.handle("Z2,1000,0").reply, "E01"); // an empty watched range
  EXPECT_EQ(*S.handle("Z3,1000,4").reply, "");    // not offered
  EXPECT_EQ(*S.handle("Hg77").reply, "E03");      // no such thread
  EXPECT_EQ(*S.handle("vCont;x").reply, "E01");
  EXPECT_EQ(*S.handle("qXfer:features:read:other.xml:0,10").reply, "E00");
  EXPECT_EQ(*S.handle("qXfer:features:read:target.xml:999,10").reply, "E01");
  EXPECT_EQ(*S.handle("qXfer:features:read:target.xml:0,4").reply, "m<tar");
  EXPECT_EQ(*S.handle("qXfer:features:read:target.xml:4,100").reply, "lget/>");
  EXPECT_EQ(*S.handle("?").reply, "T05thread:3e8;");
}

TEST(GdbStub, ResumesAnswerLater) {
  OneThread T;
  Stub S(T);
  auto Step = S.handle("vCont;s:3e8;c");
  EXPECT_FALSE(Step.reply);
  EXPECT_EQ(Step.resume.kind, Resume::Step);
  EXPECT_EQ(Step.resume.thread, 0x3e8u);
  auto Go = S.handle("c");
  EXPECT_FALSE(Go.reply);
  EXPECT_EQ(Go.resume.kind, Resume::Continue);
  EXPECT_EQ(S.handle("k").resume.kind, Resume::Kill);
  EXPECT_EQ(S.stopReply({Stop::Exited, 0, 3}), "W03");
  EXPECT_EQ(S.stopReply({Stop::Terminated, 11}), "X0b");
  EXPECT_EQ(S.stopReply({Stop::Signal, 5, 0, 1000, BreakKind::Write, 0x4000}), "T05thread:3e8;watch:4000;");
}

TEST(GdbStub, WatchpointsOfEveryKind) {
  Watching T;
  Stub S(T);
  EXPECT_EQ(*S.handle("Z2,4000,4").reply, "OK"); // watch
  EXPECT_EQ(*S.handle("Z3,4000,8").reply, "OK"); // rwatch
  EXPECT_EQ(*S.handle("Z4,4004,1").reply, "OK"); // awatch
  EXPECT_EQ(*S.handle("z3,4000,8").reply, "OK");
  EXPECT_EQ(*S.handle("Z4,4000,9").reply, "E01"); // wider than a register holds
  EXPECT_EQ(*S.handle("Z3,4000,0").reply, "E01");
  EXPECT_EQ(*S.handle("Z4,,4").reply, "E01");
  using C = std::tuple<BreakKind, uint64_t, uint64_t, bool>;
  EXPECT_EQ(T.Calls, (std::vector<C>{{BreakKind::Write, 0x4000, 4, true},
                                     {BreakKind::Read, 0x4000, 8, true},
                                     {BreakKind::Access, 0x4004, 1, true},
                                     {BreakKind::Read, 0x4000, 8, false}}));
  EXPECT_EQ(S.stopReply({Stop::Signal, 5, 0, 1000, BreakKind::Read, 0x4000}), "T05thread:3e8;rwatch:4000;");
  EXPECT_EQ(S.stopReply({Stop::Signal, 5, 0, 1000, BreakKind::Access, 0x4004}), "T05thread:3e8;awatch:4004;");
}

// Extended mode: gdb's `run` kills the process it found and starts one;
// before anything ran, the stub keeps the process and reports its first
// stop again. Once it has run, vRun fails and vKill kills.
TEST(GdbStub, RunBeforeTheProgramRan) {
  OneThread T;
  Stub S(T);
  S.stopReply({Stop::Signal, 5, 0, 1000});
  EXPECT_EQ(*S.handle("vRun;70726f67").reply, "E01"); // not in extended mode
  EXPECT_EQ(*S.handle("!").reply, "OK");
  auto Kill = S.handle("vKill;a410");
  EXPECT_EQ(*Kill.reply, "OK");
  EXPECT_EQ(Kill.resume.kind, Resume::None);
  EXPECT_TRUE(S.killed());
  EXPECT_EQ(*S.handle("vRun;70726f67").reply, "T05thread:3e8;");
  EXPECT_FALSE(S.killed());
  EXPECT_EQ(S.handle("vKill;a410").resume.kind, Resume::None);
  EXPECT_EQ(S.handle("D").resume.kind, Resume::Kill); // killed, then gone: it ends
  T.Pristine = false;
  EXPECT_EQ(*S.handle("vRun;70726f67").reply, "E01");
  EXPECT_EQ(S.handle("vKill;a410").resume.kind, Resume::Kill);
}

// Extended mode keeps the connection after the process ends: gdb may ask
// how it ended, find no thread, run it again, and detach.
TEST(GdbStub, AfterTheProcessEnded) {
  OneThread T;
  Stub S(T);
  EXPECT_EQ(*S.handle("!").reply, "OK");
  EXPECT_EQ(S.stopReply({Stop::Exited, 0, 3}), "W03");
  EXPECT_EQ(*S.handle("?").reply, "W03");
  EXPECT_EQ(*S.handle("qfThreadInfo").reply, "l");
  EXPECT_EQ(*S.handle("g").reply, ""); // no registers of a process that is gone
  auto Run = S.handle("vRun;70726f67");
  EXPECT_FALSE(Run.reply); // the new process's first stop answers
  EXPECT_EQ(Run.resume.kind, Resume::Run);
  EXPECT_FALSE(S.handle("k").reply);
  auto D = S.handle("D");
  EXPECT_EQ(*D.reply, "OK");
  EXPECT_EQ(D.resume.kind, Resume::Detach);
}

// Not in extended mode, a program that ended cannot run again.
TEST(GdbStub, NoRunOutsideExtendedMode) {
  OneThread T;
  Stub S(T);
  S.stopReply({Stop::Exited, 0, 3});
  EXPECT_EQ(*S.handle("vRun;70726f67").reply, "E01");
}

// gdb kills a process that has run (vKill's OK tells it the end), then runs
// the program again: the stub serves the new process with the
// conversation's modes kept and the old process's stop forgotten.
TEST(GdbStub, KilledThenRunAgain) {
  OneThread T, Fresh;
  Stub S(T);
  EXPECT_EQ(*S.handle("QStartNoAckMode").reply, "OK");
  EXPECT_EQ(*S.handle("!").reply, "OK");
  S.stopReply({Stop::Signal, 5, 0, 1000, BreakKind::Software});
  T.Pristine = false;
  auto Kill = S.handle("vKill;a410");
  EXPECT_EQ(*Kill.reply, "OK");
  EXPECT_EQ(Kill.resume.kind, Resume::Kill);
  EXPECT_TRUE(S.endKnown()); // its end is not reported again
  S.stopReply({Stop::Terminated, 9});
  EXPECT_EQ(S.handle("vRun;").resume.kind, Resume::Run);
  S.restart(Fresh);
  EXPECT_FALSE(S.endKnown());
  EXPECT_TRUE(S.noAck() && S.extended());
  EXPECT_EQ(S.stopReply({Stop::Signal, 5, 0, 1000}), "T05thread:3e8;");
  EXPECT_EQ(*S.handle("g").reply, "01010101010101010202020202020202");
}

// The signal gdb passes on resuming (a fault's, or none to go on without it).
TEST(GdbStub, ResumesCarryTheSignal) {
  OneThread T;
  Stub S(T);
  EXPECT_EQ(S.handle("C0b").resume.signal, 0x0b);
  EXPECT_EQ(S.handle("c").resume.signal, 0);
  auto V = S.handle("vCont;C0b:3e8");
  EXPECT_EQ(V.resume.kind, Resume::Continue);
  EXPECT_EQ(V.resume.signal, 0x0b);
  EXPECT_EQ(S.handle("vCont;S04:3e8;c").resume.signal, 4);
  EXPECT_EQ(*S.handle("C1ff").reply, "E01");
  EXPECT_EQ(*S.handle("vCont;Czz").reply, "E01");
  EXPECT_EQ(*S.handle("vCont;s1").reply, "E01");
}

// $_siginfo: the stop's siginfo_t read in pieces; none for a stop without one.
TEST(GdbStub, SiginfoOfTheStop) {
  OneThread T;
  Stub S(T);
  EXPECT_EQ(*S.handle("qXfer:siginfo:read::0,80").reply, "E01");
  T.Signal = 11;
  EXPECT_EQ(*S.handle("qXfer:siginfo:read::0,4").reply, "m" + std::string(4, '\x0b'));
  EXPECT_EQ(*S.handle("qXfer:siginfo:read::7c,10").reply, "l" + std::string(4, '\x0b'));
  EXPECT_EQ(*S.handle("qXfer:siginfo:read::81,4").reply, "E01");
  EXPECT_EQ(*S.handle("qXfer:siginfo:read:x:0,4").reply, "E00");
  EXPECT_EQ(*S.handle("qXfer:siginfo:read::0").reply, "E01");
  EXPECT_EQ(*S.handle("qXfer:auxv:read::0,1000").reply, "l" + T.auxv()); // AT_PAGESZ 0x1000, AT_NULL
  EXPECT_EQ(*S.handle("qXfer:auxv:read::10,10").reply, "l");
}

// A ^C that comes in the same read as the packet resuming the process is
// not lost: the running process sees it (it would otherwise wait on a
// socket with nothing more to read).
TEST(GdbStub, InterruptReadWithTheResume) {
  int Fds[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, Fds), 0);
  OneThread T;
  Stub S(T);
  Connection C(Fds[0]);
  std::string Bytes = checksummed("QStartNoAckMode") + checksummed("c") + "\x03";
  ASSERT_EQ(write(Fds[1], Bytes.data(), Bytes.size()), ssize_t(Bytes.size()));
  EXPECT_EQ(C.stopped(S, {Stop::Signal, 5, 0, 1000}).kind, Resume::Continue);
  EXPECT_TRUE(C.interruptPending());
  EXPECT_TRUE(C.interrupted());
  EXPECT_FALSE(C.interrupted());          // taken
  ASSERT_EQ(write(Fds[1], "\x03", 1), 1); // one that comes later, through the socket
  EXPECT_TRUE(C.interrupted());
  close(Fds[1]);
}

// gdb's multiprocess extensions, where gdb offers them: thread ids carry the
// process id (pPID.TID) both ways, and gdb names the process by its pid.
TEST(GdbStub, ProcessIdsInThreadIds) {
  OneThread T;
  Stub S(T);
  EXPECT_NE(S.handle("qSupported:multiprocess+;swbreak+").reply->find(";multiprocess+;"), std::string::npos);
  EXPECT_EQ(S.stopReply({Stop::Signal, 5, 0, 1000}), "T05thread:p3e8.3e8;");
  EXPECT_EQ(*S.handle("qfThreadInfo").reply, "mp3e8.3e8");
  EXPECT_EQ(*S.handle("qC").reply, "QCp3e8.3e8");
  EXPECT_EQ(*S.handle("Hgp3e8.3e8").reply, "OK");
  EXPECT_EQ(*S.handle("Hgp-1.-1").reply, "OK");
  EXPECT_EQ(*S.handle("Tp3e8.3e8").reply, "OK");
  EXPECT_EQ(*S.handle("Tp3e9.3e8").reply, "E03"); // another process
  EXPECT_EQ(*S.handle("Hgp3e8.").reply, "E01");
  EXPECT_EQ(S.handle("vCont;s:p3e8.3e8;c:p3e8.-1").resume.thread, 0x3e8u);
  EXPECT_EQ(S.handle("vCont;c:p3e8").resume.kind, Resume::Continue);
  // Without the offer, plain thread ids.
  Stub Plain(T);
  EXPECT_EQ(Plain.handle("qSupported:swbreak+").reply->find("multiprocess"), std::string::npos);
  EXPECT_EQ(Plain.stopReply({Stop::Signal, 5, 0, 1000}), "T05thread:3e8;");
}
