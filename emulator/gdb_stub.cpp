#include "gdb_stub.h"

#include <cerrno>
#include <charconv>
#include <poll.h>
#include <unistd.h>
#include <utility>

namespace linklab::emu::gdb {

namespace {

constexpr char Hex[] = "0123456789abcdef";

// A whole hex number (1-16 digits): nullopt for anything else.
std::optional<uint64_t> parseHex(std::string_view S) {
  if (S.empty() || S.size() > 16)
    return std::nullopt;
  uint64_t V = 0;
  auto [End, Ec] = std::from_chars(S.data(), S.data() + S.size(), V, 16);
  if (Ec != std::errc() || End != S.data() + S.size())
    return std::nullopt;
  return V;
}

std::optional<std::string> fromHex(std::string_view S) {
  if (S.size() % 2)
    return std::nullopt;
  std::string Out;
  Out.reserve(S.size() / 2);
  for (size_t I = 0; I < S.size(); I += 2) {
    auto B = parseHex(S.substr(I, 2));
    if (!B)
      return std::nullopt;
    Out.push_back(char(*B));
  }
  return Out;
}

std::string hexNumber(uint64_t V) {
  std::string S;
  do
    S.insert(S.begin(), Hex[V & 15]), V >>= 4;
  while (V);
  return S;
}

std::string hexByte(unsigned V) { return {Hex[(V >> 4) & 15], Hex[V & 15]}; }

// Splits "A,B" (or "A,B,C"...) at Sep; false if the count differs.
bool split(std::string_view S, char Sep, std::vector<std::string_view> &Parts, size_t Count) {
  Parts.clear();
  for (;;) {
    size_t At = S.find(Sep);
    Parts.push_back(S.substr(0, At));
    if (At == std::string_view::npos)
      break;
    S.remove_prefix(At + 1);
  }
  return Parts.size() == Count;
}

// "addr,len" as two hex numbers.
bool addressAndLength(std::string_view S, uint64_t &Addr, uint64_t &Len) {
  std::vector<std::string_view> P;
  if (!split(S, ',', P, 2))
    return false;
  auto A = parseHex(P[0]), L = parseHex(P[1]);
  if (!A || !L)
    return false;
  Addr = *A, Len = *L;
  return true;
}

// gdb's error replies carry an errno-like number.
const std::string ErrBadPacket = "E01", ErrFault = "E0e", ErrNoThread = "E03";

} // namespace

void PacketReader::feed(std::string_view Bytes) {
  if (Pos > 0 && Pos == Buf.size())
    Buf.clear(), Pos = 0;
  else if (Pos > MaxPacket)
    Buf.erase(0, Pos), Pos = 0;
  Buf.append(Bytes);
}

std::optional<Event> PacketReader::next() {
  while (Pos < Buf.size()) {
    char C = Buf[Pos];
    if (C == 0x03) {
      ++Pos;
      return Event{Event::Interrupt, {}};
    }
    if (C != '$') { // acks ('+', '-') and noise between packets
      ++Pos;
      continue;
    }
    // The payload may not hold an unescaped '#', so the first one ends it.
    size_t Hash = Buf.find('#', Pos + 1);
    if (Hash == std::string::npos) {
      if (Buf.size() - Pos > 2 * MaxPacket + 4) { // no end in sight: drop the start
        ++Pos;
        return Event{Event::BadPacket, {}};
      }
      return std::nullopt;
    }
    if (Hash + 3 > Buf.size())
      return std::nullopt; // the checksum is still coming
    std::string_view Raw(Buf.data() + Pos + 1, Hash - Pos - 1);
    auto Sum = parseHex(std::string_view(Buf.data() + Hash + 1, 2));
    Pos = Hash + 3;
    uint8_t Mine = 0;
    for (char B : Raw)
      Mine += uint8_t(B);
    if (!Sum || *Sum != Mine || Raw.size() > 2 * MaxPacket)
      return Event{Event::BadPacket, {}};
    std::string Data;
    Data.reserve(Raw.size());
    for (size_t I = 0; I < Raw.size(); ++I) {
      if (Raw[I] != '}') {
        Data.push_back(Raw[I]);
        continue;
      }
      if (++I == Raw.size())
        return Event{Event::BadPacket, {}}; // an escape with nothing after it
      Data.push_back(char(Raw[I] ^ 0x20));
    }
    if (Data.size() > MaxPacket)
      return Event{Event::BadPacket, {}};
    return Event{Event::Packet, std::move(Data)};
  }
  return std::nullopt;
}

std::string escapeBinary(std::string_view Data) {
  std::string Out;
  Out.reserve(Data.size());
  for (char C : Data) {
    if (C == '#' || C == '$' || C == '}' || C == '*')
      Out.push_back('}'), C = char(C ^ 0x20);
    Out.push_back(C);
  }
  return Out;
}

std::string frame(std::string_view Payload) {
  std::string Body = escapeBinary(Payload);
  uint8_t Sum = 0;
  for (char C : Body)
    Sum += uint8_t(C);
  return "$" + Body + "#" + hexByte(Sum);
}

std::string toHex(std::string_view Bytes) {
  std::string S;
  S.reserve(2 * Bytes.size());
  for (char C : Bytes)
    S += hexByte(uint8_t(C));
  return S;
}

// ---- commands ----------------------------------------------------------

uint64_t Stub::regThread() const { return RegThread ? RegThread : Last.thread; }

std::string Stub::threadId(uint64_t Tid) const {
  return Multiprocess ? "p" + hexNumber(T->pid()) + "." + hexNumber(Tid) : hexNumber(Tid);
}

// A thread id: TID, or pPID.TID (pPID alone: the process's threads); -1 and
// 0 (all, any) as 0. nullopt for anything else, or another process.
std::optional<uint64_t> Stub::parseThread(std::string_view S) const {
  if (S.starts_with("p")) {
    size_t Dot = S.find('.');
    std::string_view Pid = S.substr(1, Dot == std::string_view::npos ? std::string_view::npos : Dot - 1);
    if (Pid != "-1" && parseHex(Pid) != T->pid())
      return std::nullopt;
    S = Dot == std::string_view::npos ? std::string_view("-1") : S.substr(Dot + 1);
  }
  return S == "-1" ? std::optional<uint64_t>(0) : parseHex(S);
}

std::string Stub::stopReply(const Stop &S) {
  if (S.kind == Stop::Exited)
    return *(Ended = "W" + hexByte(uint8_t(S.code)));
  if (S.kind == Stop::Terminated)
    return *(Ended = "X" + hexByte(S.signal));
  Last = S;
  RegThread = 0;
  std::string R = "T" + hexByte(S.signal) + "thread:" + threadId(S.thread) + ";";
  if (S.breakpoint) {
    static const char *const Keys[] = {"swbreak:", "hwbreak:", "watch:", "rwatch:", "awatch:"};
    R += Keys[size_t(*S.breakpoint)];
    if (*S.breakpoint >= BreakKind::Write)
      R += hexNumber(S.watchAddress);
    R += ";";
  }
  return R;
}

std::string Stub::readRegisters() {
  std::string R;
  for (unsigned N = 0; N < T->registerCount(); ++N) {
    auto V = T->readRegister(regThread(), N);
    if (!V)
      return ErrNoThread;
    R += toHex(*V);
  }
  return R;
}

std::string Stub::breakpointPacket(std::string_view P) {
  // Z/z type,addr,kind (conditions and commands after ';' are not offered)
  bool Insert = P[0] == 'Z';
  std::vector<std::string_view> F;
  if (!split(P.substr(1), ',', F, 3) || F[0].size() != 1 || F[0][0] < '0' || F[0][0] > '4')
    return ErrBadPacket;
  auto Addr = parseHex(F[1]), Kind = parseHex(F[2]);
  if (!Addr || !Kind)
    return ErrBadPacket;
  BreakKind K = BreakKind(F[0][0] - '0');
  if (!T->supports(K))
    return "";
  if (K >= BreakKind::Write && (*Kind == 0 || *Kind > 8))
    return ErrBadPacket; // a watched range as one register of the CPU would hold
  return T->breakpoint(K, *Addr, *Kind, Insert) ? "OK" : ErrFault;
}

std::string Stub::query(std::string_view P) {
  if (P.starts_with("qSupported")) {
    // Process ids in thread ids where gdb offers them (it then names the
    // process by its pid, as a native one).
    Multiprocess = P.find("multiprocess+") != std::string_view::npos;
    return "PacketSize=" + hexNumber(MaxPacket) + (Multiprocess ? ";multiprocess+" : "") +
           ";qXfer:features:read+;qXfer:siginfo:read+;qXfer:auxv:read+;QStartNoAckMode+;swbreak+;hwbreak+;"
           "vContSupported+";
  }
  // qXfer:OBJECT:read:ANNEX:OFFSET,LENGTH: the target description
  // (target.xml), the stop's siginfo, the auxiliary vector (no annex).
  for (std::string_view Object : {"features", "siginfo", "auxv"}) {
    std::string Prefix = "qXfer:" + std::string(Object) + ":read:";
    if (!P.starts_with(Prefix))
      continue;
    std::string_view Rest = P.substr(Prefix.size());
    size_t Colon = Rest.find(':');
    uint64_t Off, Len;
    if (Colon == std::string_view::npos || !addressAndLength(Rest.substr(Colon + 1), Off, Len))
      return ErrBadPacket;
    std::optional<std::string> Data;
    if (Object == "features" && Rest.substr(0, Colon) == "target.xml")
      Data = T->targetXml();
    else if (Object == "siginfo" && Colon == 0)
      Data = T->siginfo();
    else if (Object == "auxv" && Colon == 0)
      Data = T->auxv();
    else
      return "E00"; // no such annex
    if (!Data || Off > Data->size())
      return ErrBadPacket;
    Len = std::min<uint64_t>(Len, MaxPacket / 2); // escaped, at most twice as long
    std::string Part = Data->substr(Off, Len);
    return (Off + Part.size() < Data->size() ? "m" : "l") + escapeBinary(Part);
  }
  if (P == "qfThreadInfo") {
    std::string R = "m";
    for (uint64_t Tid : T->threads())
      R += (R.size() > 1 ? "," : "") + threadId(Tid);
    return R;
  }
  if (P == "qsThreadInfo")
    return "l";
  if (P == "qC")
    return "QC" + threadId(Last.thread);
  if (P.starts_with("qAttached"))
    return "0"; // the stub started the process: gdb kills it when it quits
  if (P.starts_with("qSymbol"))
    return "OK";
  return "";
}

std::string Stub::vPacket(std::string_view P, Resume &R) {
  if (P == "vCont?")
    return "vCont;c;C;s;S";
  if (P.starts_with("vCont;")) {
    // Actions in order; the first whose thread matches applies. All
    // threads stop and go together (all-stop), so a step of one thread
    // and a continue of the others is a step.
    std::vector<std::string_view> Actions;
    split(P.substr(6), ';', Actions, 0);
    for (std::string_view A : Actions) {
      size_t Colon = A.find(':');
      std::string_view Op = A.substr(0, Colon);
      uint64_t Tid = 0;
      if (Colon != std::string_view::npos) {
        auto V = parseThread(A.substr(Colon + 1));
        if (!V)
          return ErrBadPacket;
        Tid = *V;
      }
      if (Op.empty())
        return ErrBadPacket;
      if (Op[0] != 'c' && Op[0] != 'C' && Op[0] != 's' && Op[0] != 'S')
        return ErrBadPacket; // 't' (stop) and ranges are not offered
      bool WithSignal = Op[0] == 'C' || Op[0] == 'S';
      auto Sig = WithSignal ? parseHex(Op.substr(1)) : std::optional<uint64_t>(0);
      if ((!WithSignal && Op.size() > 1) || !Sig || *Sig > 0xff)
        return ErrBadPacket;
      if (Op[0] == 's' || Op[0] == 'S') {
        R = {Resume::Step, Tid, uint8_t(*Sig)};
        return "";
      }
      if (R.kind == Resume::None)
        R = {Resume::Continue, 0, uint8_t(*Sig)};
    }
    return R.kind == Resume::None ? ErrBadPacket : "";
  }
  if (P.starts_with("vKill")) {
    // Extended mode's `run` kills the process it found, then starts one
    // (vRun): while nothing has run, that one is this one, as it was.
    if (Extended && T->pristine())
      Killed = true;
    else
      R.kind = Resume::Kill, EndKnown = true;
    return "OK";
  }
  if (P.starts_with("vRun")) {
    if (!Extended || !T->pristine())
      return ErrBadPacket; // a live process that has run: gdb kills it first
    Killed = false;
    return stopReply(Last); // stopped at its first instruction
  }
  return ""; // vMustReplyEmpty, vFile, vRun...: not offered
}

void Stub::restart(Target &NewT) {
  T = &NewT;
  Last = {};
  RegThread = 0;
  Killed = EndKnown = false;
  Ended.reset();
}

// What gdb may still ask once the process is gone (extended mode keeps the
// connection): how it ended, that no thread is left, to detach, to run the
// program again (a new process answers).
Stub::Outcome Stub::afterEnd(std::string_view P) {
  Outcome O;
  if (P == "?")
    O.reply = *Ended;
  else if (P == "qfThreadInfo" || P == "qsThreadInfo")
    O.reply = "l";
  else if (P == "D" || P.starts_with("D;"))
    O.reply = "OK", O.resume.kind = Resume::Detach;
  else if (P.starts_with("vKill") || P == "!")
    O.reply = "OK";
  else if (P.starts_with("vRun") && Extended)
    O.resume.kind = Resume::Run;
  else if (P.starts_with("vRun"))
    O.reply = ErrBadPacket;
  else if (P != "k") // k has no reply
    O.reply = "";
  return O;
}

Stub::Outcome Stub::handle(std::string_view P) {
  Outcome O;
  if (P.empty())
    return O.reply = "", O;
  if (Ended)
    return afterEnd(P);
  std::string_view Args = P.substr(1);
  switch (P[0]) {
  case '?': O.reply = stopReply(Last); break;
  case 'g': O.reply = readRegisters(); break;
  case 'G': {
    auto Bytes = fromHex(Args);
    if (!Bytes)
      return O.reply = ErrBadPacket, O;
    size_t At = 0;
    for (unsigned N = 0; N < T->registerCount() && At < Bytes->size(); ++N) {
      auto Old = T->readRegister(regThread(), N);
      if (!Old || At + Old->size() > Bytes->size() || !T->writeRegister(regThread(), N, Bytes->substr(At, Old->size())))
        return O.reply = ErrBadPacket, O;
      At += Old->size();
    }
    O.reply = "OK";
    break;
  }
  case 'p': {
    auto N = parseHex(Args);
    auto V = N && *N < T->registerCount() ? T->readRegister(regThread(), unsigned(*N)) : std::nullopt;
    O.reply = V ? toHex(*V) : ErrBadPacket;
    break;
  }
  case 'P': {
    size_t Eq = Args.find('=');
    auto N = parseHex(Args.substr(0, Eq));
    auto V = Eq == std::string_view::npos ? std::nullopt : fromHex(Args.substr(Eq + 1));
    auto Old = N && V && *N < T->registerCount() ? T->readRegister(regThread(), unsigned(*N)) : std::nullopt;
    O.reply = Old && Old->size() == V->size() && T->writeRegister(regThread(), unsigned(*N), *V) ? "OK" : ErrBadPacket;
    break;
  }
  case 'm': {
    uint64_t Addr, Len;
    if (!addressAndLength(Args, Addr, Len) || Len > MaxPacket / 2)
      return O.reply = ErrBadPacket, O;
    auto B = T->readMemory(Addr, Len);
    O.reply = B ? toHex(*B) : ErrFault;
    break;
  }
  case 'M':
  case 'X': {
    size_t Colon = Args.find(':');
    uint64_t Addr, Len;
    if (Colon == std::string_view::npos || !addressAndLength(Args.substr(0, Colon), Addr, Len))
      return O.reply = ErrBadPacket, O;
    std::optional<std::string> Data =
        P[0] == 'M' ? fromHex(Args.substr(Colon + 1)) : std::optional<std::string>(Args.substr(Colon + 1));
    if (!Data || Data->size() != Len)
      return O.reply = ErrBadPacket, O;
    O.reply = Len == 0 || T->writeMemory(Addr, *Data) ? "OK" : ErrFault;
    break;
  }
  case 'Z':
  case 'z': O.reply = breakpointPacket(P); break;
  case 'c':
  case 's':
  case 'C':
  case 'S': {
    // Resuming at another address is not offered (gdb sets the pc instead).
    bool WithSignal = P[0] == 'C' || P[0] == 'S';
    auto Sig = WithSignal ? parseHex(Args) : std::optional<uint64_t>(0);
    if ((!WithSignal && !Args.empty()) || !Sig || *Sig > 0xff)
      return O.reply = ErrBadPacket, O;
    O.resume.kind = P[0] == 'c' || P[0] == 'C' ? Resume::Continue : Resume::Step;
    O.resume.signal = uint8_t(*Sig);
    break;
  }
  case 'H': {
    if (Args.empty())
      return O.reply = ErrBadPacket, O;
    std::optional<uint64_t> Tid = parseThread(Args.substr(1));
    if (!Tid)
      return O.reply = ErrBadPacket, O;
    bool Known = *Tid == 0;
    for (uint64_t K : T->threads())
      Known |= K == *Tid;
    if (!Known)
      return O.reply = ErrNoThread, O;
    if (Args[0] == 'g')
      RegThread = *Tid;
    O.reply = "OK";
    break;
  }
  case 'T': {
    auto Tid = parseThread(Args);
    bool Known = false;
    for (uint64_t K : T->threads())
      Known |= Tid && K == *Tid;
    O.reply = Known ? "OK" : ErrNoThread;
    break;
  }
  case 'k': O.resume.kind = Resume::Kill, EndKnown = true; break;
  case 'D':
    O.reply = "OK";
    O.resume.kind = Killed ? Resume::Kill : Resume::Detach;
    break;
  case '!':
    Extended = true;
    O.reply = "OK";
    break;
  case 'q': O.reply = query(P); break;
  case 'Q':
    if (P == "QStartNoAckMode") {
      NoAck = true;
      O.reply = "OK";
    } else {
      O.reply = "";
    }
    break;
  case 'v':
    O.reply = vPacket(P, O.resume);
    if (O.resume.kind == Resume::Continue || O.resume.kind == Resume::Step)
      O.reply.reset();
    break;
  default: O.reply = "";
  }
  return O;
}

// ---- the socket ----------------------------------------------------------

Connection::~Connection() {
  if (Fd >= 0)
    close(Fd);
}

bool Connection::send(const std::string &Payload, bool NoAck) {
  std::string Bytes = frame(Payload);
  size_t Done = 0;
  while (Fd >= 0 && Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      close(Fd), Fd = -1;
      return false;
    }
    Done += size_t(N);
  }
  (void)NoAck; // gdb's acks are read and dropped with the next packet
  return Fd >= 0;
}

std::optional<Event> Connection::receive() {
  char Buf[4096];
  for (;;) {
    if (auto E = Reader.next())
      return E;
    if (Fd < 0)
      return std::nullopt;
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      close(Fd), Fd = -1;
      return std::nullopt;
    }
    Reader.feed({Buf, size_t(N)});
  }
}

Resume Connection::stopped(Stub &S, const Stop &St) {
  Interrupt = false; // stopped anyway
  if (!send(S.stopReply(St), S.noAck()))
    return {Resume::Detach};
  for (;;) {
    auto E = receive();
    if (!E)
      return {Resume::Detach}; // gdb went away: the program runs on
    if (E->kind == Event::Interrupt)
      continue; // already stopped
    bool Ack = !S.noAck();
    if (E->kind == Event::BadPacket) {
      if (Ack && ::write(Fd, "-", 1) != 1)
        return {Resume::Detach};
      continue;
    }
    if (Ack && ::write(Fd, "+", 1) != 1)
      return {Resume::Detach};
    Stub::Outcome O = S.handle(E->data);
    if (O.reply && !send(*O.reply, S.noAck()))
      return {Resume::Detach};
    if (O.resume.kind != Resume::None)
      return O.resume;
  }
}

bool Connection::ended(Stub &S, const Stop &St) {
  std::string Reply = S.stopReply(St);
  if (!S.endKnown())
    send(Reply, S.noAck());
  return serveEnded(S);
}

bool Connection::runRefused(Stub &S) {
  send("E01", S.noAck());
  return serveEnded(S);
}

bool Connection::serveEnded(Stub &S) {
  // Extended mode: gdb stays until it detaches, quits or hangs up.
  while (S.extended() && Fd >= 0) {
    auto E = receive();
    if (!E)
      return false;
    if (E->kind == Event::Interrupt)
      continue;
    bool Ack = !S.noAck();
    if (Ack && ::write(Fd, E->kind == Event::BadPacket ? "-" : "+", 1) != 1)
      break;
    if (E->kind == Event::BadPacket)
      continue;
    Stub::Outcome O = S.handle(E->data);
    if (O.resume.kind == Resume::Run)
      return true;
    if ((O.reply && !send(*O.reply, S.noAck())) || O.resume.kind == Resume::Detach)
      break;
  }
  // gdb answers an exit by closing the connection; wait for that (bounded
  // by gdb, whose next packet, if any, gets nothing but the close).
  if (Fd >= 0) {
    pollfd P = {Fd, POLLIN, 0};
    if (::poll(&P, 1, 1000) > 0) {
      char Buf[256];
      (void)!::read(Fd, Buf, sizeof Buf);
    }
    close(Fd), Fd = -1;
  }
  return false;
}

void Connection::console(std::string_view Text) { send("O" + toHex(Text), true); }

bool Connection::interruptPending() {
  // A ^C may come in the same read as the packet that resumed the process.
  while (auto E = Reader.next())
    Interrupt |= E->kind == Event::Interrupt; // packets while running (all-stop): none are due
  return Interrupt;
}

bool Connection::interrupted() {
  if (!interruptPending() && Fd >= 0) {
    pollfd P = {Fd, POLLIN, 0};
    if (::poll(&P, 1, 0) > 0) {
      char Buf[256];
      ssize_t N = ::read(Fd, Buf, sizeof Buf);
      if (N <= 0)
        close(Fd), Fd = -1;
      else
        Reader.feed({Buf, size_t(N)}), interruptPending();
    }
  }
  return std::exchange(Interrupt, false);
}

} // namespace linklab::emu::gdb
