// Function signatures in a compact text notation, e.g. "i64(ptr,i32,f64)".
// Only sizes, alignments and kinds matter to a calling convention; C type
// names would add nothing but parsing.
#pragma once

#include "support/error.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linklab::callconv {

enum class ValueKind : uint8_t {
  Int,    // i8 i16 i32 i64 i128
  Ptr,    // ptr
  Float,  // f16 f32 f64 f128
  Vector, // v64 v128 (short vectors; element type does not change the ABI here)
  ByVal,  // byval(SIZE[:ALIGN]): an aggregate passed by value
  SRet,   // sret(SIZE[:ALIGN]): pointer to caller memory receiving the result
};

struct ValueType {
  ValueKind Kind;
  uint32_t Size;  // bytes (for sret: of the pointed-to result)
  uint32_t Align; // bytes, a power of two
  std::string str() const;
  bool operator==(const ValueType &) const = default;
};

struct Signature {
  std::optional<ValueType> Return; // nullopt: void
  std::vector<ValueType> Params;
  bool Variadic = false;
  std::string str() const; // the notation parseSignature reads
  bool operator==(const Signature &) const = default;
};

// "RET(PARAM,...)"; RET is a scalar type or "void"; a trailing "..." makes the
// function variadic. Whitespace is ignored.
Expected<Signature> parseSignature(std::string_view Text);

} // namespace linklab::callconv
