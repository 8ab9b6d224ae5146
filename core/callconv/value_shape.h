// How a target passes one value: which register class, split into which
// parts. Shared by materialization (to place values) and plan validation (to
// check a plan places each value the way the target can carry it).
#pragma once

#include "callconv/plan.h"
#include "support/bits.h"

#include <algorithm>

namespace linklab::callconv {

enum class PartClass : uint8_t { Gpr, Fpr, Memory };

struct ValueShape {
  PartClass Class = PartClass::Gpr;
  std::vector<std::pair<uint32_t, uint32_t>> Parts; // offset, size
  uint32_t Flags = 0;                               // SRetPointer, ByValue, Indirect
  uint32_t PassedSize = 0;                          // bytes passed: 8 when a pointer to a copy is passed
  uint32_t Align = 1;                               // of the passed bytes
  uint32_t partAlign() const { return Parts.size() > 1 ? std::min(Align, 8u) : Align; }
};

inline ValueShape shapeOf(const ArchConventions &T, const ValueType &V) {
  ValueShape S;
  S.PassedSize = V.Size;
  S.Align = V.Align;
  bool FpLike = V.Kind == ValueKind::Float || (V.Kind == ValueKind::Vector && T.VectorsInFpr);
  if (V.Kind == ValueKind::SRet) {
    S.Flags = SRetPointer;
    S.PassedSize = S.Align = 8;
  } else if (V.Kind == ValueKind::ByVal) {
    // Only integer-class aggregates are modelled: SysV, AAPCS64 and LP64D
    // all pass those of up to 16 bytes in one or two GPRs.
    S.Flags = ByValue;
    if (V.Size > 16 && T.BigAggregateByRef) {
      S.Flags |= Indirect;
      S.PassedSize = S.Align = 8;
    } else if (V.Size > 16) {
      S.Class = PartClass::Memory;
    }
  } else if (FpLike && V.Size <= T.FprMaxBytes) {
    S.Class = PartClass::Fpr;
  }
  if (S.Class != PartClass::Gpr)
    S.Parts = {{0, S.PassedSize}};
  else // eightbytes, like SysV's classification and LP64D's XLEN chunks
    for (uint32_t Off = 0; Off < S.PassedSize; Off += 8)
      S.Parts.push_back({Off, std::min(8u, S.PassedSize - Off)});
  return S;
}

// Without leading and trailing blanks (spaces, tabs, newlines).
inline std::string_view trim(std::string_view S) {
  auto Blank = [](char C) { return C == ' ' || C == '\t' || C == '\n'; };
  while (!S.empty() && Blank(S.front()))
    S.remove_prefix(1);
  while (!S.empty() && Blank(S.back()))
    S.remove_suffix(1);
  return S;
}

// Lower case without blanks: "R8 + R9" reads as "r8+r9", "I64 (I32)" as "i64(i32)".
inline std::string lower(std::string_view S) {
  std::string Out;
  for (char C : S)
    if (C != ' ' && C != '\t' && C != '\n')
      Out += char(C >= 'A' && C <= 'Z' ? C - 'A' + 'a' : C);
  return Out;
}

// "a,b,,c" -> {"a", "b", "", "c"}: plan fields and multi-part `args` tokens.
inline std::vector<std::string_view> split(std::string_view S, char Sep) {
  std::vector<std::string_view> Out;
  for (size_t End; (End = S.find(Sep)) != std::string_view::npos; S.remove_prefix(End + 1))
    Out.push_back(S.substr(0, End));
  Out.push_back(S);
  return Out;
}

} // namespace linklab::callconv
