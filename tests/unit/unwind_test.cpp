// emulator/unwind.h, the debugger's backtrace through .eh_frame, on
// hand-assembled call-frame information (x86-64's register numbers) and on
// hostile bytes: every walk bounded, nothing read outside the memory given.
#include "unwind.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace linklab::emu::unwind;

namespace {

// Guest memory: a few regions, reads outside them fail.
struct Memory {
  std::map<uint64_t, std::string> Regions;
  std::optional<std::string> read(uint64_t Addr, size_t Len) const {
    for (auto &[Base, B] : Regions)
      if (Addr >= Base && Addr - Base <= B.size() && Len <= B.size() - (Addr - Base))
        return B.substr(Addr - Base, Len);
    return std::nullopt;
  }
  void put64(uint64_t Addr, uint64_t V) {
    for (auto &[Base, B] : Regions)
      if (Addr >= Base && Addr + 8 <= Base + B.size())
        for (int I = 0; I < 8; ++I)
          B[Addr - Base + I] = char(V >> (8 * I));
  }
};

void le32(std::string &S, uint32_t V) {
  for (int I = 0; I < 4; ++I)
    S += char(V >> (8 * I));
}

// A CIE (code alignment 1, data alignment -8, return address in column 16,
// FDE pointers pc-relative sdata4) then one FDE per {begin, size, program}.
std::string ehFrame(uint64_t At, const std::vector<std::tuple<uint64_t, uint32_t, std::string>> &Fdes) {
  std::string S;
  std::string Cie =
      std::string("\0\0\0\0\x01zR\0\x01\x78\x10\x01\x1b", 13) + "\x0c\x07\x08\x90\x01"; // CFA rsp+8, RA [CFA-8]
  while ((Cie.size() + 4) % 8)
    Cie += '\0';
  le32(S, uint32_t(Cie.size()));
  S += Cie;
  for (auto &[Begin, Size, Program] : Fdes) {
    std::string F;
    size_t Start = S.size();
    le32(F, uint32_t(Start + 4)); // back to the CIE at 0
    le32(F, uint32_t(Begin - (At + Start + 8)));
    le32(F, Size);
    F += '\0'; // no augmentation data
    F += Program;
    while ((F.size() + 4) % 8)
      F += '\0';
    le32(S, uint32_t(F.size()));
    S += F;
  }
  le32(S, 0); // the terminator
  return S;
}

const ArchFacts X86{8, false, 7, -1};

} // namespace

// A frame-pointer function (push rbp; mov rsp,rbp) called by one whose CFI
// ends the stack: pc inside the first gives the caller's return address,
// then the walk ends where the return address is undefined.
TEST(Unwind, test_frame_pointer_then_outermost) {
  Memory M;
  // callee 0x1000..0x1020: after push rbp (1 byte) CFA rsp+16, rbp at
  // CFA-16; after mov rsp,rbp (3 bytes) CFA rbp+16.
  // caller 0x2000..0x2010: RA undefined (the process's entry).
  M.Regions[0x5000] = ehFrame(0x5000, {{0x1000, 0x20, "\x41\x0e\x10\x86\x02\x43\x0d\x06"}, {0x2000, 0x10, "\x07\x10"}});
  M.Regions[0x7000] = std::string(0x1000, '\0');
  M.put64(0x7ff8, 0x2005); // the call's return address
  M.put64(0x7ff0, 0x7fa0); // the caller's rbp
  ReadFn Read = [&](uint64_t A, size_t N) { return M.read(A, N); };
  FrameTable T({{0x5000, M.Regions[0x5000].size()}}, Read, X86);
  std::map<uint16_t, uint64_t> Regs = {{7, 0x7fe0}, {6, 0x7ff0}};
  EXPECT_EQ(T.unwind(Regs, 0x1008, Read, 64), std::vector<uint64_t>{0x2005});
  // At the first instruction: CFA rsp+8, the return address at rsp.
  M.put64(0x7fe0, 0x2003);
  EXPECT_EQ(T.unwind(Regs, 0x1000, Read, 64), std::vector<uint64_t>{0x2003});
  // No FDE covers pc (a stub): its return address is at sp, and the caller unwinds on.
  M.put64(0x7fe0, 0x2004);
  EXPECT_EQ(T.unwind(Regs, 0x3000, Read, 64), std::vector<uint64_t>{0x2004});
  // A frame limit holds.
  EXPECT_TRUE(T.unwind(Regs, 0x1008, Read, 0).empty());
}

// A caller whose CFA is not above its callee's ends the walk (gdb: "previous
// frame inner to this frame"), as does a return address that cannot be read.
TEST(Unwind, test_stack_must_grow_towards_the_caller) {
  Memory M;
  // CFA rsp+0: a caller's CFA would be its callee's.
  M.Regions[0x5000] = ehFrame(0x5000, {{0x1000, 0x100, std::string("\x0e\x00", 2)}});
  M.Regions[0x7000] = std::string(0x1000, '\0');
  M.put64(0x7ef8, 0x1050);
  ReadFn Read = [&](uint64_t A, size_t N) { return M.read(A, N); };
  FrameTable T({{0x5000, M.Regions[0x5000].size()}}, Read, X86);
  EXPECT_EQ(T.unwind({{7, 0x7f00}}, 0x1010, Read, 64), (std::vector<uint64_t>{0x1050}));
  EXPECT_TRUE(T.unwind({{7, 0x9000}}, 0x1010, Read, 64).empty()); // the return address is not mapped
}

// Hostile call-frame information: random bytes, and valid records with
// random bytes spliced in (lengths, CIE pointers, encodings, opcodes). Each
// walk ends within its frame limit; every read stays in the memory given.
TEST(Unwind, test_hostile_bytes_stay_bounded) {
  std::mt19937_64 R(30);
  std::string Valid = ehFrame(0x5000, {{0x1000, 0x20, "\x41\x0e\x10\x86\x02\x43\x0d\x06\x0a\x0a\x0b"},
                                       {0x1020, 0x20, "\x0f\x02\x77\x08\x10\x10\x01\x00\x2e\x04"}});
  for (int Round = 0; Round < 1000; ++Round) {
    Memory M;
    std::string B = Valid;
    if (Round % 2)
      for (char &C : B)
        C = char(R());
    else
      for (int K = 0; K < 4; ++K)
        B[R() % B.size()] = char(R());
    M.Regions[0x5000] = B;
    M.Regions[0x7000] = std::string(0x1000, '\0');
    for (uint64_t A = 0x7000; A < 0x8000; A += 8)
      M.put64(A, 0x1000 + R() % 0x40);
    ReadFn Read = [&](uint64_t A, size_t N) { return M.read(A, N); };
    FrameTable T({{0x5000, B.size()}, {0x5000, ~uint64_t(0)}, {0, 16}}, Read, X86);
    std::map<uint16_t, uint64_t> Regs;
    for (uint16_t N = 0; N < 17; ++N)
      Regs[N] = 0x7000 + R() % 0x1000;
    EXPECT_LE(T.unwind(Regs, 0x1000 + R() % 0x40, Read, 64).size(), 64u);
  }
}
