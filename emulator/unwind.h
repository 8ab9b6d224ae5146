// A stopped process's backtrace through the linked image's call-frame
// information, as gdb's DWARF frame unwinder reads it: the .eh_frame
// sections the client names (run-main's ehFrames), their CIEs and FDEs
// (the LSB's .eh_frame format: DWARF CFI with pointer encodings and the
// "zRSPLB" augmentations), each frame's CFA rule and saved registers.
// Nothing here trusts the guest: the ranges come from the client and the
// bytes from the program's memory; every walk is bounded by the bytes read,
// every unwind by a frame count, and a record that does not parse ends
// only the walk of its own range.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace linklab::emu::unwind {

// Reads Len bytes of guest memory at Addr; nullopt where it is not mapped.
using ReadFn = std::function<std::optional<std::string>(uint64_t Addr, size_t Len)>;

struct ArchFacts {
  uint8_t wordSize;
  bool bigEndian;
  uint16_t spColumn; // the stack pointer's DWARF number; the CFA is the caller's sp
  // The link register's DWARF number (AArch64 x30, RISC-V ra), or -1 where
  // a call pushes the return address (x86): a frame without an FDE is then
  // a function's first instruction (its return address at sp), else a leaf
  // (in the link register), as gdb's prologue analysers take a stub.
  int linkColumn;
};

// Every FDE of the ranges, by the code it covers.
class FrameTable {
public:
  // Reads the ranges (at most MaxBytes in all; a range that cannot be read
  // is skipped) and indexes their FDEs.
  FrameTable(const std::vector<std::pair<uint64_t, uint64_t>> &Ranges, const ReadFn &Read, const ArchFacts &A);
  static constexpr uint64_t MaxBytes = 64ull << 20;

  // Return addresses, innermost first: each caller's, unwound from Regs
  // (DWARF number -> value) at Pc, at most MaxFrames; the walk ends at a
  // frame whose return address is undefined (the process's entry), at one
  // without call-frame information or a rule it cannot evaluate, or where
  // the stack does not grow towards the caller.
  std::vector<uint64_t> unwind(std::map<uint16_t, uint64_t> Regs, uint64_t Pc, const ReadFn &Read,
                               size_t MaxFrames) const;

private:
  struct Cie {
    uint64_t codeAlign = 1;
    int64_t dataAlign = 1;
    uint16_t raColumn = 0;
    uint8_t fdeEncoding = 0;
    bool augmented = false, signalFrame = false;
    size_t insns = 0, insnsEnd = 0; // in Bytes[range]
  };
  struct Fde {
    uint64_t begin, end;
    size_t range, cie; // cie: index in Cies
    size_t insns, insnsEnd;
  };
  std::optional<size_t> parseCie(size_t Range, size_t At);
  void index(size_t Range);
  std::optional<uint64_t> readEncoded(size_t Range, size_t &At, size_t End, uint8_t Enc) const;
  ArchFacts A;
  std::vector<std::pair<uint64_t, std::string>> Bytes; // each range: its address and bytes
  std::vector<Cie> Cies;
  std::map<std::pair<size_t, size_t>, size_t> CieAt; // (range, offset) -> index in Cies
  std::vector<Fde> Fdes;                             // sorted by begin
};

} // namespace linklab::emu::unwind
