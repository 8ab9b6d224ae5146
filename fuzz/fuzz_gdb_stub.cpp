// The executor's GDB remote stub (emulator/gdb_stub.cpp): bytes from gdb,
// fed to the packet reader in pieces (the first byte sets the piece size,
// as reads from a socket split a stream anywhere), each packet handled by
// the command dispatcher against a small in-memory target. Every reply must
// frame and read back to itself, and stay within the packet size.
#include "fuzz_support.h"

#include "gdb_stub.h"

#include <cstring>

using namespace linklab::emu::gdb;

namespace {

// Eight 8-byte registers, one page of memory at 0x1000, two threads.
class FakeTarget : public Target {
public:
  std::string targetXml() const override { return std::string(300, 'x') + "<target/>"; }
  size_t registerCount() const override { return 8; }
  std::vector<uint64_t> threads() const override { return {1000, 1001}; }
  uint64_t pid() const override { return 1000; }
  std::optional<std::string> readRegister(uint64_t Tid, unsigned N) override {
    if ((Tid != 1000 && Tid != 1001) || N >= 8)
      return std::nullopt;
    return std::string(Regs[N], 8);
  }
  bool writeRegister(uint64_t Tid, unsigned N, std::string_view B) override {
    FUZZ_EXPECT(N < 8 && B.size() == 8, "register %u written with %zu bytes", N, B.size());
    std::memcpy(Regs[N], B.data(), 8);
    return true;
  }
  std::optional<std::string> readMemory(uint64_t Addr, size_t Len) override {
    FUZZ_EXPECT(Len <= MaxPacket, "a %zu-byte read", Len);
    if (Addr < 0x1000 || Addr - 0x1000 > sizeof Mem || Len > sizeof Mem - (Addr - 0x1000))
      return std::nullopt;
    return std::string(Mem + (Addr - 0x1000), Len);
  }
  bool writeMemory(uint64_t Addr, std::string_view B) override {
    if (Addr < 0x1000 || Addr - 0x1000 > sizeof Mem || B.size() > sizeof Mem - (Addr - 0x1000))
      return false;
    std::memcpy(Mem + (Addr - 0x1000), B.data(), B.size());
    return true;
  }
  bool breakpoint(BreakKind K, uint64_t, uint64_t, bool) override { return K != BreakKind::Access; }
  bool supports(BreakKind K) const override { return K != BreakKind::Read; }
  bool pristine() const override { return !Resumed; }
  std::optional<std::string> siginfo() const override { return std::string(128, '\x0b'); }
  std::string auxv() const override { return std::string(64, '#'); } // needs escaping
  bool Resumed = false;                                              // the process ran (vRun fails while it lives)

private:
  char Regs[8][8] = {};
  char Mem[0x1000] = {};
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  size_t Piece = 1 + Data[0] % 64;
  std::string_view Stream(reinterpret_cast<const char *>(Data + 1), Size - 1);
  FakeTarget T;
  Stub S(T);
  S.stopReply({Stop::Signal, 5, 0, 1000});
  PacketReader R;
  for (size_t At = 0; At < Stream.size(); At += Piece) {
    R.feed(Stream.substr(At, Piece));
    while (auto E = R.next()) {
      FUZZ_EXPECT(E->kind != Event::Packet || E->data.size() <= MaxPacket, "a %zu-byte packet", E->data.size());
      if (E->kind != Event::Packet)
        continue;
      Stub::Outcome O = S.handle(E->data);
      T.Resumed |= O.resume.kind == Resume::Continue || O.resume.kind == Resume::Step;
      if (O.resume.kind == Resume::Kill || O.resume.kind == Resume::Detach)
        S.stopReply({Stop::Terminated, 9}); // gone: what gdb may ask then
      if (O.resume.kind == Resume::Run) {   // run again: a new process, stopped at its start
        FUZZ_EXPECT(!O.reply, "a reply to a run before the new process stopped");
        S.restart(T);
        T.Resumed = false;
        S.stopReply({Stop::Signal, 5, 0, 1000});
      }
      if (!O.reply)
        continue;
      FUZZ_EXPECT(O.reply->size() <= MaxPacket + 16, "a %zu-byte reply", O.reply->size());
      PacketReader Back;
      Back.feed(frame(*O.reply));
      auto F = Back.next();
      FUZZ_EXPECT(F && F->kind == Event::Packet && F->data == *O.reply, "a reply that does not read back");
    }
  }
  return 0;
}
