// QEMU 5.0's TCG numbering, as Unicorn 2.0.x's translators use it: the ops
// the executor's own code generators emit (block_chaining.cpp,
// x86_helpers.cpp). TCGOpcode follows include/tcg/tcg-opc.h's order; another
// Unicorn gets none of those generators (isUnicorn20()).
#pragma once

namespace linklab::emu::tcg {

enum Opcode : unsigned {
  SetLabel = 1,
  MoviI32 = 6,
  LdI32 = 13,
  StI32 = 16,
  MoviI64 = 64,
  Ld8uI64 = 67,
  Ld16uI64 = 69,
  Ld32uI64 = 71,
  LdI64 = 73,
  St8I64 = 74,
  St16I64 = 75,
  St32I64 = 76,
  StI64 = 77,
  AddI64 = 78,
  SubI64 = 79,
  MulI64 = 80,
  AndI64 = 87,
  OrI64 = 88,
  XorI64 = 89,
};
enum Type : int { TypeI32 = 0, TypeI64 = 1, TypeV64 = 2 };
enum Cond : unsigned { CondEq = 8, CondNe = 9 };
enum MemOpSize : unsigned { Mo8 = 0, Mo16 = 1, Mo32 = 2, Mo64 = 3 }; // a lane's log2 size

} // namespace linklab::emu::tcg
