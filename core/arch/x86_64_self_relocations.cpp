#include "arch/x86_64_self_relocations.h"

#include "arch/x86_64.h"

#include <algorithm>
#include <bitset>
#include <initializer_list>
#include <utility>

namespace linklab::x86_64 {

namespace {

// A set of opcodes, written as inclusive ranges.
std::bitset<256> opcodes(std::initializer_list<std::pair<unsigned, unsigned>> Ranges) {
  std::bitset<256> S;
  for (auto [Lo, Hi] : Ranges)
    for (unsigned Op = Lo; Op <= Hi; ++Op)
      S.set(Op);
  return S;
}

// One-byte map (Intel SDM vol. 2, table A-2), 64-bit mode.
const std::bitset<256> OneInvalid = opcodes({{0x06, 0x07},
                                             {0x0E, 0x0E},
                                             {0x16, 0x17},
                                             {0x1E, 0x1F},
                                             {0x27, 0x27},
                                             {0x2F, 0x2F},
                                             {0x37, 0x37},
                                             {0x3F, 0x3F},
                                             {0x60, 0x61},
                                             {0x82, 0x82},
                                             {0x9A, 0x9A},
                                             {0xCE, 0xCE},
                                             {0xD4, 0xD6},
                                             {0xEA, 0xEA}});
const std::bitset<256> OneModRM = opcodes({{0x00, 0x03},
                                           {0x08, 0x0B},
                                           {0x10, 0x13},
                                           {0x18, 0x1B},
                                           {0x20, 0x23},
                                           {0x28, 0x2B},
                                           {0x30, 0x33},
                                           {0x38, 0x3B},
                                           {0x63, 0x63},
                                           {0x69, 0x69},
                                           {0x6B, 0x6B},
                                           {0x80, 0x8F},
                                           {0xC0, 0xC1},
                                           {0xC6, 0xC7},
                                           {0xD0, 0xD3},
                                           {0xD8, 0xDF},
                                           {0xF6, 0xF7},
                                           {0xFE, 0xFF}});
// imm8 / rel8
const std::bitset<256> OneImm8 = opcodes({{0x04, 0x04},
                                          {0x0C, 0x0C},
                                          {0x14, 0x14},
                                          {0x1C, 0x1C},
                                          {0x24, 0x24},
                                          {0x2C, 0x2C},
                                          {0x34, 0x34},
                                          {0x3C, 0x3C},
                                          {0x6A, 0x6B},
                                          {0x70, 0x80},
                                          {0x83, 0x83},
                                          {0xA8, 0xA8},
                                          {0xB0, 0xB7},
                                          {0xC0, 0xC1},
                                          {0xC6, 0xC6},
                                          {0xCD, 0xCD},
                                          {0xE0, 0xE7},
                                          {0xEB, 0xEB}});
// imm16/32 by operand size
const std::bitset<256> OneImmZ = opcodes({{0x05, 0x05},
                                          {0x0D, 0x0D},
                                          {0x15, 0x15},
                                          {0x1D, 0x1D},
                                          {0x25, 0x25},
                                          {0x2D, 0x2D},
                                          {0x35, 0x35},
                                          {0x3D, 0x3D},
                                          {0x68, 0x69},
                                          {0x81, 0x81},
                                          {0xA9, 0xA9},
                                          {0xC7, 0xC7}});

// Two-byte map (0F xx, table A-3): the opcodes without ModRM, and those with
// an imm8.
const std::bitset<256> TwoInvalid = opcodes({{0x04, 0x04},
                                             {0x0A, 0x0A},
                                             {0x0C, 0x0C},
                                             {0x24, 0x27},
                                             {0x36, 0x36},
                                             {0x39, 0x39},
                                             {0x3B, 0x3F},
                                             {0x7A, 0x7B},
                                             {0xA6, 0xA7},
                                             {0xFF, 0xFF}});
const std::bitset<256> TwoNoModRM = opcodes({{0x05, 0x09},
                                             {0x0B, 0x0B},
                                             {0x0E, 0x0E},
                                             {0x30, 0x37},
                                             {0x77, 0x77},
                                             {0x80, 0x8F},
                                             {0xA0, 0xA2},
                                             {0xA8, 0xAA},
                                             {0xC8, 0xCF}});
const std::bitset<256> TwoImm8 =
    opcodes({{0x0F, 0x0F}, {0x70, 0x73}, {0xA4, 0xA4}, {0xAC, 0xAC}, {0xBA, 0xBA}, {0xC2, 0xC2}, {0xC4, 0xC6}});

constexpr uint8_t LegacyPrefixes[] = {0x66, 0x67, 0xF2, 0xF3, 0x2E, 0x36, 0x3E, 0x26, 0x64, 0x65, 0xF0};
constexpr unsigned MaxLength = 15;

} // namespace

std::optional<InstructionShape> instructionShape(std::span<const uint8_t> B) {
  size_t P = 0;
  auto Has = [&](size_t N) { return P + N <= B.size() && P + N <= MaxLength; };
  bool OpSize = false, AddrSize = false;
  while (Has(1) && std::find(std::begin(LegacyPrefixes), std::end(LegacyPrefixes), B[P]) != std::end(LegacyPrefixes)) {
    OpSize |= B[P] == 0x66;
    AddrSize |= B[P] == 0x67;
    ++P;
  }
  uint8_t Rex = 0;
  if (Has(1) && (B[P] & 0xF0) == 0x40)
    Rex = B[P++];
  if (!Has(1))
    return std::nullopt;
  uint8_t Op = B[P++];
  InstructionShape S;
  bool ModRM = false;
  unsigned Imm = 0;
  unsigned Map = 0; // 0: one-byte, 1: 0F, 2: 0F 38, 3: 0F 3A, 5/6: EVEX maps
  if (Op == 0xC4 || Op == 0xC5 || Op == 0x62) {
    // VEX (C4: 3 bytes, C5: 2) and EVEX (62: 4): always these in 64-bit mode.
    if (Rex)
      return std::nullopt;
    unsigned Payload = Op == 0xC5 ? 1 : Op == 0xC4 ? 2 : 3;
    if (!Has(Payload + 1))
      return std::nullopt;
    Map = Op == 0xC5 ? 1 : Op == 0xC4 ? (B[P] & 0x1F) : (B[P] & 0x07);
    if (Map == 0 || Map == 4 || Map > 6 || (Op == 0xC4 && Map > 3))
      return std::nullopt;
    P += Payload;
    Op = B[P++];
    // VZEROUPPER / VZEROALL are the only VEX forms without ModRM.
    ModRM = !(Op == 0x77 && Map == 1);
    Imm = Map == 3 || (Map == 1 && TwoImm8[Op] && Op != 0x0F) ? 1 : 0;
  } else if (Op == 0x0F) {
    if (!Has(1))
      return std::nullopt;
    Op = B[P++];
    if (Op == 0x38 || Op == 0x3A) {
      Map = Op == 0x38 ? 2 : 3;
      if (!Has(1))
        return std::nullopt;
      Op = B[P++];
      ModRM = true;
      Imm = Map == 3 ? 1 : 0;
    } else {
      Map = 1;
      if (TwoInvalid[Op])
        return std::nullopt;
      ModRM = !TwoNoModRM[Op];
      Imm = Op >= 0x80 && Op <= 0x8F ? 4 : TwoImm8[Op] ? 1 : 0;
    }
  } else {
    if (OneInvalid[Op])
      return std::nullopt;
    ModRM = OneModRM[Op];
    Imm = OneImm8[Op] ? 1 : OneImmZ[Op] ? (OpSize ? 2 : 4) : 0;
    if (Op == 0xE8 || Op == 0xE9) // rel32 whatever the operand size in 64-bit mode
      Imm = 4;
    else if (Op >= 0xB8 && Op <= 0xBF) // MOV r, imm: imm64 with REX.W
      Imm = Rex & 8 ? 8 : OpSize ? 2 : 4;
    else if (Op >= 0xA0 && Op <= 0xA3) // MOV moffs: an address-sized offset
      Imm = AddrSize ? 4 : 8;
    else if (Op == 0xC2 || Op == 0xCA) // RET/RETF imm16
      Imm = 2;
    else if (Op == 0xC8) // ENTER imm16, imm8
      Imm = 3;
  }
  if (ModRM) {
    if (!Has(1))
      return std::nullopt;
    uint8_t M = B[P++];
    unsigned Mod = M >> 6, Reg = (M >> 3) & 7, RM = M & 7;
    if (Map == 0 && (Op == 0xF6 || Op == 0xF7) && Reg < 2) // TEST r/m, imm
      Imm = Op == 0xF6 ? 1 : OpSize ? 2 : 4;
    if (Mod != 3) {
      unsigned Disp = Mod == 1 ? 1 : Mod == 2 ? 4 : 0;
      if (RM == 4) { // SIB
        if (!Has(1))
          return std::nullopt;
        if ((B[P++] & 7) == 5 && Mod == 0)
          Disp = 4; // no base: disp32
      } else if (RM == 5 && Mod == 0) {
        S.ripDisplacement = unsigned(P);
        Disp = 4;
      }
      if (!Has(Disp))
        return std::nullopt;
      P += Disp;
    }
    S.lea64 = Map == 0 && Op == 0x8D && (Rex & 8) && !AddrSize && S.ripDisplacement;
  }
  if (!Has(Imm))
    return std::nullopt;
  S.length = unsigned(P + Imm);
  return S;
}

Error addSelfRelocations(LinkGraph &G) {
  for (Symbol *Sym : G.definedSymbols()) {
    if (!Sym->callable || Sym->block().isZeroFill())
      continue;
    Block &B = Sym->block();
    std::span<const char> All = B.content();
    if (Sym->offset > All.size())
      continue;
    uint64_t Size = Sym->size ? std::min<uint64_t>(Sym->size, All.size() - Sym->offset) : All.size() - Sym->offset;
    auto Code = std::span(reinterpret_cast<const uint8_t *>(All.data()) + Sym->offset, size_t(Size));
    for (uint64_t I = 0; I < Code.size();) {
      Addr Start = Sym->address() + I;
      auto Shape = instructionShape(Code.subspan(size_t(I)));
      if (!Shape)
        return makeError(formatv("failed to disassemble at address 0x%016llx (%s: %s+%s, -add-self-relocations)",
                                 (unsigned long long)Start, G.name().c_str(), std::string(Sym->name).c_str(),
                                 hex(I).c_str()));
      uint64_t At = I;
      I += Shape->length;
      // LLVM forms a pointer only with LEA64r, whose displacement ends it.
      if (!Shape->lea64)
        continue;
      int32_t Disp = readLE<int32_t>(All.data() + Sym->offset + At + *Shape->ripDisplacement);
      if (Start + Shape->length + Addr(int64_t(Disp)) != Sym->address())
        continue;
      uint32_t Offset = uint32_t(Sym->offset + At + *Shape->ripDisplacement);
      if (std::any_of(B.edges.begin(), B.edges.end(),
                      [&](const Edge &E) { return E.isRelocation() && E.offset == Offset; }))
        continue;
      B.addEdge(Delta32, Offset, *Sym, -4);
    }
  }
  return Error::success();
}

} // namespace linklab::x86_64
