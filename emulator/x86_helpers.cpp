// x86 instructions that Unicorn 2.0's translator (QEMU 5.0's) sends out of
// line and qemu-user 7.2, the executor's yardstick, does not.
//
// 1. SSE integer operations. QEMU 5.0 translates every SSE2 integer
// instruction (pxor, paddd, pcmpeqb, pshufd, punpck*, pmovmskb, ...) into a
// call of a C helper taking pointers to the two registers in the CPU state.
// The call itself is the small part: a helper call without "no globals"
// flags makes TCG write every guest register it holds in a host register
// back to the CPU state before the call and load them again after it. Code
// compiled at -O2 is full of these (clang vectorizes plain loops, and
// glibc's string functions are SSE2): in the exec benchmark's x86-64
// CPU-bound run the helpers alone took ~40% of the samples, in its
// libc-bound run ~15%. QEMU 7.2 expands most of them inline (its new SSE
// decoder, tcg_gen_gvec_*).
//
// The translator emits each helper call through tcg_gen_callN, which it
// calls through the library's PLT, so the interposer below emits TCG ops
// computing the same thing in its place, through the very register pointers
// the helper would get. The helpers compute pure functions of the two
// registers (no flags, no exceptions, no MXCSR), so nothing else changes.
// How each is computed was chosen by timing chains of one instruction
// (20M x 8 in a loop, CPU time):
//  - whole 64-bit lanes (pand, por, pxor, pandn, paddq, psubq) as two i64
//    operations, loaded and stored in host general registers: the next
//    instruction's load takes its operand from the store buffer quickest
//    so (pxor: 183 ms, against 449 ms as a host vector and 450 ms helper);
//  - 8/16/32-bit lane additions, subtractions and compares as TCG host
//    vector operations on each 64-bit half (V64: the CPU state's registers
//    need not be 16-byte aligned), which QEMU 5.0's x86 backend has with
//    AVX; without it they stay helper calls (TCG's i64 lane arithmetic was
//    no faster than the helper);
//  - lane moves (punpck*dq, pshufd, shufps) as 32-bit loads combined into
//    64-bit stores: a 64-bit load of what two 32-bit stores wrote cannot be
//    forwarded from the store buffer and waits for both stores to complete,
//    which made 32-bit stores slower than the helper in the benchmark;
//  - byte and word interleaves (punpck*bw, punpck*wd) as shifts and masks
//    spreading each 32-bit lane over 64 bits (punpcklbw: 585-635 ms
//    against 1040 ms).
// Which helpers, and what each computes, is one table (Table). A helper
// whose call does not have the shape the table expects (argument count;
// pshufd's immediate not a constant this file saw made) is called as before.
//
// 2. 128-by-64-bit division. QEMU 5.0's div64 divides a 128-bit dividend
// one bit at a time (64 iterations of shift and subtract) whenever RDX is
// not zero, which glibc's printf of doubles (its multi-precision mpn code's
// divq) does all the time: ~8% of the libc-bound run. The divq/idivq
// helpers are replaced by ones dividing with the host's 128-bit division,
// raising #DE exactly where the hardware does (zero divisor, quotient out of
// range) with the caller's return address, as QEMU's helper does.
//
// 3. x87 transcendental instructions. QEMU 5.0 computes f2xm1, fyl2x,
// fyl2xp1, fptan, fpatan, fsin, fcos, fsincos, fprem and fprem1 through
// host doubles (53-bit significands; fprem's quotient from a double
// division), so glibc's long double functions on x86-64 (logl, expl, powl,
// fmodl, ...) and much of i386's libm printed wrong digits: logl(2) ended
// ...286227 where a real CPU gives ...309429. (QEMU 6.1 made them exact.)
// The host is an x86 too, so each of these, and fscale and fxtract with
// them, runs on the host's own x87 unit: the guest's ST0 and ST1 are loaded
// under the guest's control word, the instruction runs, and the stack it
// leaves, its condition codes and its exception flags are written back
// through Unicorn's register API (ST0.., FPSW with TOP, FPTAG), which
// needs no knowledge of the CPU state's layout. What a real x87 computes,
// the native reference computes. Exceptions stay masked on the host: an
// exception the guest unmasked sets its flag and ES, but does not trap.
//
// 5. Signalling NaNs through the x87. A real x87 quiets a signalling NaN
// it converts, raising invalid: fld of a float or double (on i386 every
// float or double return value passes through one) and fst to a float or
// double; only the 80-bit fld and fstp keep it. QEMU 5.0 converts between
// the formats without quieting (QEMU 5.1 fixed it in softfloat), so
// issignaling() of a value that went through the x87 answered 1 where the
// hardware answers 0. The load helpers get the quieted value, with invalid
// raised in softfloat's flags as the load of a signalling NaN raises it
// (section 4 carries them to the status word); the store helpers' result
// is quieted (their conversion raised invalid already).
//
// 1 and 2 need Unicorn 2.0.x (QEMU 5.0's TCG opcode numbers, helper signatures
// and CPU state layout, checked against the library's code); other versions
// keep the library's own, and so does LINKLAB_EXECUTOR_X86_HELPERS=1 (to
// measure what this is worth). The division's #DE checks stay here then, as
// the library's helper, called from here, would see this file's return
// address rather than the translated code's.
#include "qemu_tcg.h"
#include "unicorn_quirks.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <unordered_map>

namespace linklab::emu {
namespace {

bool keepHelpers() {
  static const bool Keep = !isUnicorn20() || std::getenv("LINKLAB_EXECUTOR_X86_HELPERS");
  return Keep;
}

// ---- 1. SSE integer operations -------------------------------------------------

using namespace tcg;

// What a helper computes, destination D from D and source S (16 bytes each).
enum class Form : uint8_t {
  Lanes,      // each lane: D = D op S (Lane: the lane size)
  Permute,    // 32-bit lanes picked from D and S (Pick)
  Shuffle,    // pshufd/shufps: 32-bit lanes picked by the immediate
  Interleave, // punpck*bw/wd: D's and S's 8/16-bit lanes alternating
  MulUDQ,     // pmuludq: D.Q[i] = D.L[2i] * S.L[2i]
  MoveMask,   // pmovmskb: the bytes' top bits, as an i32 result
  MoveL,      // movd/movq xmm, reg: D = the zero-extended value
};
enum class LaneOp : uint8_t { And, Or, Xor, AndNot, Add, Sub, Eq };

struct Lane {
  bool fromS;
  uint8_t index;
};
constexpr Lane D0{false, 0}, D1{false, 1}, D2{false, 2}, D3{false, 3}, S0{true, 0}, S1{true, 1}, S2{true, 2},
    S3{true, 3};

struct Inlined {
  const char *helper; // without the target suffix
  Form form;
  LaneOp op;
  unsigned lane; // Lanes, Interleave: MemOp lane size; Shuffle: lanes 0-1 from D; MoveL: value bits
  Lane pick[4];  // Permute: the result's 32-bit lanes; Interleave: pick[0].index, the first one interleaved
};

// Every helper is (env, D, S) unless noted.
const Inlined Table[] = {
    {"pand_xmm", Form::Lanes, LaneOp::And, Mo64, {}},
    {"por_xmm", Form::Lanes, LaneOp::Or, Mo64, {}},
    {"pxor_xmm", Form::Lanes, LaneOp::Xor, Mo64, {}},
    {"pandn_xmm", Form::Lanes, LaneOp::AndNot, Mo64, {}}, // D = ~D & S
    {"paddb_xmm", Form::Lanes, LaneOp::Add, Mo8, {}},
    {"paddw_xmm", Form::Lanes, LaneOp::Add, Mo16, {}},
    {"paddl_xmm", Form::Lanes, LaneOp::Add, Mo32, {}},
    {"paddq_xmm", Form::Lanes, LaneOp::Add, Mo64, {}},
    {"psubb_xmm", Form::Lanes, LaneOp::Sub, Mo8, {}},
    {"psubw_xmm", Form::Lanes, LaneOp::Sub, Mo16, {}},
    {"psubl_xmm", Form::Lanes, LaneOp::Sub, Mo32, {}},
    {"psubq_xmm", Form::Lanes, LaneOp::Sub, Mo64, {}},
    {"pcmpeqb_xmm", Form::Lanes, LaneOp::Eq, Mo8, {}}, // lanes all ones where equal, else zero
    {"pcmpeqw_xmm", Form::Lanes, LaneOp::Eq, Mo16, {}},
    {"pcmpeql_xmm", Form::Lanes, LaneOp::Eq, Mo32, {}},
    {"punpcklbw_xmm", Form::Interleave, {}, Mo8, {D0}}, // the low halves' lanes
    {"punpckhbw_xmm", Form::Interleave, {}, Mo8, {D2}}, // the high halves'
    {"punpcklwd_xmm", Form::Interleave, {}, Mo16, {D0}},
    {"punpckhwd_xmm", Form::Interleave, {}, Mo16, {D2}},
    {"punpckldq_xmm", Form::Permute, {}, 0, {D0, S0, D1, S1}},
    {"punpckhdq_xmm", Form::Permute, {}, 0, {D2, S2, D3, S3}},
    {"punpcklqdq_xmm", Form::Permute, {}, 0, {D0, D1, S0, S1}},
    {"punpckhqdq_xmm", Form::Permute, {}, 0, {D2, D3, S2, S3}},
    {"pshufd_xmm", Form::Shuffle, {}, 0, {}}, // (D, S, immediate): all four lanes from S
    {"shufps", Form::Shuffle, {}, 1, {}},     // (D, S, immediate): lanes 0-1 from D, 2-3 from S
    {"pmuludq_xmm", Form::MulUDQ, {}, 0, {}},
    {"pmovmskb_xmm", Form::MoveMask, {}, 0, {}}, // i32 (env, S)
    {"movl_mm_T0_xmm", Form::MoveL, {}, 32, {}}, // (D, i32)
    {"movq_mm_T0_xmm", Form::MoveL, {}, 64, {}}, // (D, i64)
};

// The last tcg_const_i32 made on this thread: how pshufd's immediate
// reaches its helper call.
thread_local struct {
  void *context = nullptr;
  uintptr_t handle = 0;
  int32_t value = 0;
} LastConst;

// The TCG generator functions the inline translations below emit with,
// looked up once each. Generator functions take TCGv handles (offsets of
// temps from the context, h()); ops take the temps' addresses (a()).
struct TcgOps {
  using Op2Fn = void (*)(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2);
  using Op3Fn = void (*)(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2, uintptr_t A3);
  using TempNewFn = void *(*)(void *S, int Type, bool Local);
  using TempFreeFn = void (*)(void *S, void *Temp);
  using ImmFn = void (*)(void *S, uintptr_t D, uintptr_t A, int64_t Imm);
  static void *sym(const char *Name) { return dlsym(RTLD_NEXT, (std::string(Name) + "_x86_64").c_str()); }
  Op2Fn Op2 = reinterpret_cast<Op2Fn>(sym("tcg_gen_op2"));
  Op3Fn Op3 = reinterpret_cast<Op3Fn>(sym("tcg_gen_op3"));
  TempNewFn TempNew = reinterpret_cast<TempNewFn>(sym("tcg_temp_new_internal"));
  TempFreeFn TempFree = reinterpret_cast<TempFreeFn>(sym("tcg_temp_free_internal"));
  ImmFn AndI = reinterpret_cast<ImmFn>(sym("tcg_gen_andi_i64"));
  ImmFn ShrI = reinterpret_cast<ImmFn>(sym("tcg_gen_shri_i64"));
  ImmFn ShlI = reinterpret_cast<ImmFn>(sym("tcg_gen_shli_i64"));
  ImmFn MulI = reinterpret_cast<ImmFn>(sym("tcg_gen_muli_i64"));
  bool complete() const { return Op2 && Op3 && TempNew && TempFree && AndI && ShrI && ShlI && MulI; }
  static uintptr_t h(void *S, void *Temp) { return uintptr_t(Temp) - uintptr_t(S); }
  static uintptr_t a(void *Temp) { return uintptr_t(Temp); }
};

class Inliner : TcgOps {
public:
  using CallFn = void (*)(void *S, void *Func, void *Ret, int Nargs, void **Args);
  CallFn real;

  Inliner() {
    real = reinterpret_cast<CallFn>(sym("tcg_gen_callN"));
    AndC = reinterpret_cast<BinFn>(sym("tcg_gen_andc_i64"));
    Extu = reinterpret_cast<CastFn>(sym("tcg_gen_extu_i32_i64"));
    Extrl = reinterpret_cast<CastFn>(sym("tcg_gen_extrl_i64_i32"));
    Concat = reinterpret_cast<BinFn>(sym("tcg_gen_concat_i32_i64"));
    bool Complete = real && complete() && AndC && Extu && Extrl && Concat;
    // Host vectors, when TCG has them (AVX: QEMU 5.0's x86 backend needs it).
    HostAvx = static_cast<const bool *>(sym("have_avx1"));
    LdVec = reinterpret_cast<VecMemFn>(sym("tcg_gen_ld_vec"));
    StVec = reinterpret_cast<VecMemFn>(sym("tcg_gen_st_vec"));
    VecOp[int(LaneOp::And)] = reinterpret_cast<VecFn>(sym("tcg_gen_and_vec"));
    VecOp[int(LaneOp::Or)] = reinterpret_cast<VecFn>(sym("tcg_gen_or_vec"));
    VecOp[int(LaneOp::Xor)] = reinterpret_cast<VecFn>(sym("tcg_gen_xor_vec"));
    VecOp[int(LaneOp::AndNot)] = reinterpret_cast<VecFn>(sym("tcg_gen_andc_vec"));
    VecOp[int(LaneOp::Add)] = reinterpret_cast<VecFn>(sym("tcg_gen_add_vec"));
    VecOp[int(LaneOp::Sub)] = reinterpret_cast<VecFn>(sym("tcg_gen_sub_vec"));
    CmpVec = reinterpret_cast<CmpVecFn>(sym("tcg_gen_cmp_vec"));
    Vectors = HostAvx && LdVec && StVec && CmpVec;
    for (VecFn F : VecOp)
      Vectors &= F != nullptr;
    if (!Complete || keepHelpers())
      return;
    for (const Inlined &I : Table)
      if (void *Helper = dlsym(RTLD_DEFAULT, (std::string("helper_") + I.helper + "_x86_64").c_str()))
        ByHelper.emplace(Helper, &I);
  }

  // Emits Func's computation in place of its call; false when it is not one
  // of the table's, or its call has another shape.
  bool inlined(void *S, void *Func, void *Ret, int Nargs, void **Args) const {
    auto It = ByHelper.find(Func);
    if (It == ByHelper.end())
      return false;
    const Inlined &I = *It->second;
    switch (I.form) {
    case Form::Lanes:
      // Without host vectors only whole 64-bit lanes are one host op each.
      if (Nargs != 3 || (!(Vectors && *HostAvx) && (I.lane != Mo64 || I.op == LaneOp::Eq)))
        return false;
      lanes(S, I, Args[1], Args[2]);
      return true;
    case Form::Permute:
      if (Nargs != 3)
        return false;
      permute(S, Args[1], Args[2], I.pick);
      return true;
    case Form::Shuffle: {
      if (Nargs != 3 || LastConst.context != S || Args[2] != static_cast<char *>(S) + LastConst.handle)
        return false;
      unsigned Imm = unsigned(LastConst.value);
      Lane Pick[4];
      for (unsigned K = 0; K < 4; ++K)
        Pick[K] = {!(I.lane && K < 2), uint8_t((Imm >> (2 * K)) & 3)};
      permute(S, Args[0], Args[1], Pick);
      return true;
    }
    case Form::Interleave:
      if (Nargs != 3)
        return false;
      interleave(S, Args[1], Args[2], I.lane, I.pick[0].index);
      return true;
    case Form::MulUDQ:
      if (Nargs != 3)
        return false;
      mulUDQ(S, Args[1], Args[2]);
      return true;
    case Form::MoveMask:
      if (Nargs != 2 || !Ret)
        return false;
      moveMask(S, Ret, Args[1]);
      return true;
    case Form::MoveL:
      if (Nargs != 2)
        return false;
      moveL(S, Args[0], Args[1], I.lane);
      return true;
    }
    return false;
  }

private:
  using BinFn = void (*)(void *S, uintptr_t D, uintptr_t A, uintptr_t B);
  using CastFn = void (*)(void *S, uintptr_t D, uintptr_t A);
  using VecMemFn = void (*)(void *S, uintptr_t V, uintptr_t Base, uintptr_t Offset);
  using VecFn = void (*)(void *S, unsigned Vece, uintptr_t D, uintptr_t A, uintptr_t B);
  using CmpVecFn = void (*)(void *S, unsigned Cond, unsigned Vece, uintptr_t D, uintptr_t A, uintptr_t B);
  BinFn AndC, Concat;
  CastFn Extu, Extrl;
  const bool *HostAvx;
  VecMemFn LdVec, StVec;
  VecFn VecOp[6];
  CmpVecFn CmpVec;
  bool Vectors;
  std::unordered_map<void *, const Inlined *> ByHelper;

  // Each 64-bit half as an i64 for whole 64-bit lanes, else as one host
  // vector (see the top of the file).
  void lanes(void *S, const Inlined &I, void *D, void *Src) const {
    bool Vec = (I.lane != Mo64 || I.op == LaneOp::Eq) && Vectors && *HostAvx;
    void *X = TempNew(S, Vec ? TypeV64 : TypeI64, false), *Y = TempNew(S, Vec ? TypeV64 : TypeI64, false);
    for (uintptr_t Half : {0, 8}) {
      if (Vec) {
        LdVec(S, h(S, X), h(S, D), Half);
        LdVec(S, h(S, Y), h(S, Src), Half);
        if (I.op == LaneOp::Eq)
          CmpVec(S, CondEq, I.lane, h(S, X), h(S, X), h(S, Y));
        else if (I.op == LaneOp::AndNot)
          VecOp[int(LaneOp::AndNot)](S, I.lane, h(S, X), h(S, Y), h(S, X));
        else
          VecOp[int(I.op)](S, I.lane, h(S, X), h(S, X), h(S, Y));
        StVec(S, h(S, X), h(S, D), Half);
        continue;
      }
      Op3(S, LdI64, a(X), a(D), Half);
      Op3(S, LdI64, a(Y), a(Src), Half);
      static constexpr unsigned Opcode[] = {AndI64, OrI64, XorI64, 0, AddI64, SubI64};
      if (I.op == LaneOp::AndNot)
        AndC(S, h(S, X), h(S, Y), h(S, X));
      else
        Op3(S, Opcode[int(I.op)], a(X), a(X), a(Y));
      Op3(S, StI64, a(X), a(D), Half);
    }
    TempFree(S, X), TempFree(S, Y);
  }

  // D's four 32-bit lanes from Pick, written as two 64-bit halves (see the
  // top of the file). Every source is loaded before any store, as D and S
  // may be one register.
  void permute(void *S, void *D, void *Src, const Lane *Pick) const {
    void *Half[2] = {};
    for (unsigned K = 0; K < 2; ++K) {
      const Lane &Lo = Pick[2 * K], &Hi = Pick[2 * K + 1];
      if (!Lo.fromS && !Hi.fromS && Lo.index == 2 * K && Hi.index == 2 * K + 1)
        continue; // D's own half
      Half[K] = TempNew(S, TypeI64, false);
      if (Lo.fromS == Hi.fromS && Lo.index % 2 == 0 && Hi.index == Lo.index + 1) {
        Op3(S, LdI64, a(Half[K]), a(Lo.fromS ? Src : D), 4 * Lo.index); // a whole half
        continue;
      }
      void *L32 = TempNew(S, TypeI32, false), *H32 = TempNew(S, TypeI32, false);
      Op3(S, LdI32, a(L32), a(Lo.fromS ? Src : D), 4 * Lo.index);
      Op3(S, LdI32, a(H32), a(Hi.fromS ? Src : D), 4 * Hi.index);
      Concat(S, h(S, Half[K]), h(S, L32), h(S, H32));
      TempFree(S, L32), TempFree(S, H32);
    }
    for (unsigned K = 0; K < 2; ++K)
      if (Half[K]) {
        Op3(S, StI64, a(Half[K]), a(D), 8 * K);
        TempFree(S, Half[K]);
      }
  }

  // Result half K interleaves the lanes of D's and S's 32-bit lane From+K:
  // each spread to every other lane (zeros between), S's shifted up one.
  void interleave(void *S, void *D, void *Src, unsigned Lane, unsigned From) const {
    void *X[2], *Y[2];
    for (unsigned K = 0; K < 2; ++K) {
      X[K] = TempNew(S, TypeI64, false), Y[K] = TempNew(S, TypeI64, false);
      Op3(S, Ld32uI64, a(X[K]), a(D), 4 * (From + K));
      Op3(S, Ld32uI64, a(Y[K]), a(Src), 4 * (From + K));
    }
    void *T = TempNew(S, TypeI64, false);
    auto Spread = [&](void *V) {
      for (auto [Shift, Mask] : {std::pair<int64_t, int64_t>{16, 0x0000ffff0000ffff}, {8, 0x00ff00ff00ff00ff}}) {
        if (Shift == 8 && Lane != Mo8)
          break;
        ShlI(S, h(S, T), h(S, V), Shift);
        Op3(S, OrI64, a(V), a(V), a(T));
        AndI(S, h(S, V), h(S, V), Mask);
      }
    };
    for (unsigned K = 0; K < 2; ++K) {
      Spread(X[K]), Spread(Y[K]);
      ShlI(S, h(S, Y[K]), h(S, Y[K]), Lane == Mo8 ? 8 : 16);
      Op3(S, OrI64, a(X[K]), a(X[K]), a(Y[K]));
      Op3(S, StI64, a(X[K]), a(D), 8 * K);
      TempFree(S, X[K]), TempFree(S, Y[K]);
    }
    TempFree(S, T);
  }

  void mulUDQ(void *S, void *D, void *Src) const {
    void *X = TempNew(S, TypeI64, false), *Y = TempNew(S, TypeI64, false);
    for (uintptr_t Half : {0, 8}) {
      Op3(S, Ld32uI64, a(X), a(D), Half);
      Op3(S, Ld32uI64, a(Y), a(Src), Half);
      Op3(S, MulI64, a(X), a(X), a(Y));
      Op3(S, StI64, a(X), a(D), Half);
    }
    TempFree(S, X), TempFree(S, Y);
  }

  // Bit i of each half's mask is byte i's top bit: the multiplication moves
  // bit 8i+7 to bit 56+i, no two partial products meeting.
  void moveMask(void *S, void *Ret, void *Src) const {
    void *Lo = TempNew(S, TypeI64, false), *Hi = TempNew(S, TypeI64, false);
    for (auto [Half, T] : {std::pair<uintptr_t, void *>{0, Lo}, {8, Hi}}) {
      Op3(S, LdI64, a(T), a(Src), Half);
      AndI(S, h(S, T), h(S, T), int64_t(0x8080808080808080));
      MulI(S, h(S, T), h(S, T), int64_t(0x0002040810204081));
      ShrI(S, h(S, T), h(S, T), 56);
    }
    ShlI(S, h(S, Hi), h(S, Hi), 8);
    Op3(S, OrI64, a(Lo), a(Lo), a(Hi));
    Extrl(S, h(S, Ret), h(S, Lo));
    TempFree(S, Lo), TempFree(S, Hi);
  }

  void moveL(void *S, void *D, void *Value, unsigned Bits) const {
    void *T = TempNew(S, TypeI64, false);
    if (Bits == 32)
      Extu(S, h(S, T), h(S, Value));
    Op3(S, StI64, Bits == 32 ? a(T) : a(Value), a(D), 0);
    Op2(S, MoviI64, a(T), 0);
    Op3(S, StI64, a(T), a(D), 8);
    TempFree(S, T);
  }
};

const Inliner &inliner() {
  static const Inliner I;
  return I;
}

// ---- 2. 128-by-64-bit division ---------------------------------------------------

// CPUX86State begins with the general registers.
enum { RegAX = 0, RegDX = 2 };
constexpr int DivideError = 0, GeneralProtection = 13; // EXCP00_DIVZ, EXCP0D_GPF
using RaiseFn = void (*)(void *Env, int Exception, uintptr_t Ra);
using DivFn = void (*)(uint64_t *Env, uint64_t Divisor);
const auto Raise = reinterpret_cast<RaiseFn>(dlsym(RTLD_DEFAULT, "raise_exception_ra_x86_64"));

// ---- 3. x87 transcendental instructions ------------------------------------------

#if defined(__x86_64__) || defined(__i386__)
thread_local uc_engine *X87Engine = nullptr; // the engine running on this thread (HostX87)

// What fnsave stores (the 32-bit layout, which 64-bit mode uses too): the
// environment, then the registers in stack order, ST0 first.
struct SavedX87 {
  uint16_t cw, pad0, sw, pad1, tags, pad2;
  uint32_t ip, opcodeAndCs, dp, ds;
  uint8_t st[8][10];
};
static_assert(sizeof(SavedX87) == 108);

// Runs INSN on a host stack of ST1 then ST0 (ST0 on top) under the control
// word Cw, leaving the stack and status it produced in Out. fninit empties
// the host's stack first (the ABI leaves it empty at a call; its sticky
// flags are nothing host code reads) and fnsave empties it again; the
// host's control word is put back.
#define LINKLAB_X87(INSN)                                                                                              \
  [](const uint8_t(&St1)[10], const uint8_t(&St0)[10], uint16_t Cw, linklab::emu::SavedX87 &Out) {                     \
    uint16_t Host;                                                                                                     \
    asm volatile("fnstcw %[host]\n\tfninit\n\tfldcw %[cw]\n\tfldt %[st1]\n\tfldt %[st0]\n\t" INSN                      \
                 "\n\tfnsave %[out]\n\tfldcw %[host]"                                                                  \
                 : [out] "=m"(Out), [host] "+m"(Host)                                                                  \
                 : [cw] "m"(Cw), [st1] "m"(St1), [st0] "m"(St0)                                                        \
                 : "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)");                               \
  }

using X87Fn = void (*)(const uint8_t (&)[10], const uint8_t (&)[10], uint16_t, SavedX87 &);

// FPSW bits.
constexpr uint16_t Conditions = 0x4700, Top = 0x3800, Exceptions = 0x3f, Summary = 0x8080; // ES and B

// The guest's instruction, on the host: reads ST0, ST1 and the control and
// status words, runs Run, writes back the registers the stack now holds
// (one popped, two kept, or one pushed), TOP, the tags, the condition codes
// and the exception flags. False when there is no engine to work on.
bool runOnHost(X87Fn Run) {
  uc_engine *UC = X87Engine;
  if (!UC)
    return false;
  uint8_t St0[10], St1[10];
  uint16_t Cw = 0, Sw = 0, Tags = 0;
  uc_reg_read(UC, UC_X86_REG_ST0, St0);
  uc_reg_read(UC, UC_X86_REG_ST1, St1);
  uc_reg_read(UC, UC_X86_REG_FPCW, &Cw);
  uc_reg_read(UC, UC_X86_REG_FPSW, &Sw);
  uc_reg_read(UC, UC_X86_REG_FPTAG, &Tags);
  SavedX87 Out;
  Run(St1, St0, uint16_t(Cw | Exceptions), Out);
  // Two loads from an empty stack leave TOP at 6; the instruction moved it.
  unsigned Depth = (8 - ((Out.sw & Top) >> 11)) & 7;
  unsigned OldTop = (Sw & Top) >> 11, NewTop = (OldTop + 2 - Depth) & 7;
  uint16_t NewSw =
      uint16_t((Sw & ~(Conditions | Top)) | (Out.sw & Conditions) | (Out.sw & Exceptions) | (NewTop << 11));
  if (NewSw & Exceptions & ~Cw)
    NewSw |= Summary;
  uc_reg_write(UC, UC_X86_REG_FPSW, &NewSw); // TOP first: ST<i> are relative to it
  for (unsigned I = 0; I < Depth; ++I) {
    uc_reg_write(UC, UC_X86_REG_ST0 + I, Out.st[I]);
    Tags &= uint16_t(~(3u << 2 * ((NewTop + I) & 7))); // valid (Unicorn keeps only empty or not)
  }
  if (Depth < 2)
    Tags |= uint16_t(3u << 2 * OldTop); // popped: empty
  uc_reg_write(UC, UC_X86_REG_FPTAG, &Tags);
  return true;
}

// The instructions whose helpers are replaced (a helper is named for its instruction).
#define LINKLAB_X87_HELPERS(X)                                                                                         \
  X(f2xm1) X(fyl2x) X(fyl2xp1) X(fptan) X(fpatan) X(fsin) X(fcos) X(fsincos) X(fprem) X(fprem1) X(fscale) X(fxtract)
#endif

// ---- 4. x87 and SSE exception flags ----------------------------------------------

// The CPU state's fields involved, in Unicorn 2.0.x's CPUX86State (read
// from the library's helper_fnstsw, helper_ldmxcsr and update_mxcsr_status,
// and checked against their code at start, see known()): the x87 status
// word, the flag bytes of the x87's and SSE's softfloat statuses, MXCSR.
constexpr uintptr_t FpusAt = 0x240, X87FlagsAt = 0x2ea, SseFlagsAt = 0x30a, MxcsrAt = 0x310;
// Softfloat's flags have x86's bits for invalid, zero-divide, overflow,
// underflow and inexact; its denormal input (64) is x86's DE (2).
constexpr int64_t SameBits = 0x3d, InputDenormal = 0x40, DenormalShift = 5;

class ExceptionFlags : TcgOps {
public:
  ExceptionFlags() {
    if (!(complete() && known()))
      return;
    for (const Point &P : Points)
      if (void *Helper = dlsym(RTLD_DEFAULT, (std::string("helper_") + P.helper + "_x86_64").c_str()))
        ByHelper.emplace(Helper, &P);
    On = true;
  }

  // Before a call of Func (Args[0]: the CPU state): a helper that stores the
  // flags for the guest to read sees softfloat's merged in first.
  void beforeCall(void *S, void *Func, int Nargs, void **Args) const {
    if (const Point *P = pointFor(Func, Nargs)) {
      if (P->merge & X87)
        merge(S, Args[0], X87FlagsAt, FpusAt, Ld16uI64, St16I64);
      if (P->merge & Sse)
        merge(S, Args[0], SseFlagsAt, MxcsrAt, Ld32uI64, St32I64);
    }
  }
  // After it: a helper that set the flags from the guest's value leaves
  // softfloat's clear, so that flags the guest cleared stay clear.
  void afterCall(void *S, void *Func, int Nargs, void **Args) const {
    if (const Point *P = pointFor(Func, Nargs)) {
      if (P->clear & X87)
        clear(S, Args[0], X87FlagsAt);
      if (P->clear & Sse)
        clear(S, Args[0], SseFlagsAt);
    }
  }
  bool on() const { return On; }
  // stmxcsr is no helper call: the translator loads MXCSR from the CPU
  // state itself (Base, a 32-bit load at its offset).
  void beforeLoad(void *S, unsigned Opc, uintptr_t Base, uintptr_t Offset) const {
    if (On && Opc == Ld32uI64 && Offset == MxcsrAt)
      merge(S, reinterpret_cast<void *>(Base), SseFlagsAt, MxcsrAt, Ld32uI64, St32I64);
  }

private:
  enum : uint8_t { X87 = 1, Sse = 2 };
  struct Point {
    const char *helper;
    uint8_t merge, clear; // which unit's softfloat flags, before and after the call
  };
  // The helpers that store the x87 status word or MXCSR for the guest, or
  // load them from it (fninit and fnclex set them).
  static constexpr Point Points[] = {
      {"fnstsw", X87, 0},      {"fstenv", X87, 0},        {"fsave", X87, 0},        {"fxsave", X87 | Sse, 0},
      {"xsave", X87 | Sse, 0}, {"fclex", 0, X87},         {"fninit", 0, X87},       {"fldenv", 0, X87},
      {"frstor", 0, X87},      {"fxrstor", 0, X87 | Sse}, {"xrstor", 0, X87 | Sse}, {"ldmxcsr", 0, Sse},
  };

  // The library's code is the layout's: helper_ldmxcsr begins by storing
  // MXCSR, helper_fnstsw by loading TOP and the status word.
  static bool known() {
#if defined(__x86_64__)
    static const uint8_t Ldmxcsr[] = {0x89, 0xb7, 0x10, 0x03, 0x00, 0x00};
    static const uint8_t Fnstsw[] = {0x8b, 0x87, 0x3c, 0x02, 0x00, 0x00, 0x0f, 0xb7, 0x97, 0x40, 0x02, 0x00, 0x00};
    void *L = dlsym(RTLD_DEFAULT, "helper_ldmxcsr_x86_64"), *F = dlsym(RTLD_DEFAULT, "helper_fnstsw_x86_64");
    return L && F && !std::memcmp(L, Ldmxcsr, sizeof Ldmxcsr) && !std::memcmp(F, Fnstsw, sizeof Fnstsw);
#else
    return false;
#endif
  }

  const Point *pointFor(void *Func, int Nargs) const {
    if (!On || Nargs < 1)
      return nullptr;
    auto It = ByHelper.find(Func);
    return It == ByHelper.end() ? nullptr : It->second;
  }

  // Word |= softfloat's flags in x86's bits, in the CPU state at Env.
  void merge(void *S, void *Env, uintptr_t FlagsAt, uintptr_t WordAt, unsigned Load, unsigned Store) const {
    void *F = TempNew(S, TypeI64, false), *D = TempNew(S, TypeI64, false), *W = TempNew(S, TypeI64, false);
    Op3(S, Ld8uI64, a(F), a(Env), FlagsAt);
    AndI(S, h(S, D), h(S, F), InputDenormal);
    ShrI(S, h(S, D), h(S, D), DenormalShift);
    AndI(S, h(S, F), h(S, F), SameBits);
    Op3(S, OrI64, a(F), a(F), a(D));
    Op3(S, Load, a(W), a(Env), WordAt);
    Op3(S, OrI64, a(W), a(W), a(F));
    Op3(S, Store, a(W), a(Env), WordAt);
    TempFree(S, F), TempFree(S, D), TempFree(S, W);
  }
  void clear(void *S, void *Env, uintptr_t FlagsAt) const {
    void *Z = TempNew(S, TypeI64, false);
    Op2(S, MoviI64, a(Z), 0);
    Op3(S, St8I64, a(Z), a(Env), FlagsAt);
    TempFree(S, Z);
  }

  bool On = false;
  std::unordered_map<void *, const Point *> ByHelper;
};

const ExceptionFlags &exceptionFlags() {
  static const ExceptionFlags F;
  return F;
}

// QEMU 5.0's x87 divisions set the zero-divide flag for any zero divisor,
// 0/0 and inf/0 too, which raise only invalid, or nothing; softfloat's own
// zero-divide flag is right, and reaches the status word through the merge
// above. So the flag the helper set itself is undone (and the summary bits
// it set with it).
constexpr uint16_t ZeroDivide = 0x04;
#define LINKLAB_X87_DIVISIONS(X) X(fdiv_ST0_FT0) X(fdivr_ST0_FT0) X(fdiv_STN_ST0) X(fdivr_STN_ST0)

} // namespace
} // namespace linklab::emu

#if defined(__x86_64__) || defined(__i386__)
linklab::emu::HostX87::HostX87(uc_engine *UC) : Outer(X87Engine) { X87Engine = UC; }
linklab::emu::HostX87::~HostX87() { X87Engine = static_cast<uc_engine *>(Outer); }

// Without an engine (none is running on this thread) the library's own runs.
#define LINKLAB_X87_HELPER(NAME)                                                                                       \
  extern "C" void helper_##NAME##_x86_64(void *Env) {                                                                  \
    using Fn = void (*)(void *);                                                                                       \
    static const auto Real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "helper_" #NAME "_x86_64"));                        \
    if (!linklab::emu::runOnHost(LINKLAB_X87(#NAME)))                                                                  \
      Real(Env);                                                                                                       \
  }
LINKLAB_X87_HELPERS(LINKLAB_X87_HELPER)
#else
linklab::emu::HostX87::HostX87(uc_engine *) : Outer(nullptr) {}
linklab::emu::HostX87::~HostX87() = default;
#endif

// Port I/O. Unicorn translates in and out with no I/O-permission check (its
// gen_check_io allows everything); a Linux process has no I/O privilege
// (IOPL 0, no ioperm), so each is a general-protection fault at the
// instruction, which the process takes as SIGSEGV (arch_table.cpp).
#define LINKLAB_PORT_IO(W)                                                                                             \
  extern "C" uint64_t helper_in##W##_x86_64(void *Env, uint32_t) {                                                     \
    if (linklab::emu::Raise) /* leaves by cpu_loop_exit */                                                             \
      linklab::emu::Raise(Env, linklab::emu::GeneralProtection, uintptr_t(__builtin_return_address(0)));               \
    return 0;                                                                                                          \
  }                                                                                                                    \
  extern "C" void helper_out##W##_x86_64(void *Env, uint32_t, uint32_t) {                                              \
    if (linklab::emu::Raise)                                                                                           \
      linklab::emu::Raise(Env, linklab::emu::GeneralProtection, uintptr_t(__builtin_return_address(0)));               \
  }
LINKLAB_PORT_IO(b)
LINKLAB_PORT_IO(w)
LINKLAB_PORT_IO(l)

#define LINKLAB_X87_DIVISION(NAME)                                                                                     \
  extern "C" void helper_##NAME##_x86_64(void *Env, int Index) {                                                       \
    using namespace linklab::emu;                                                                                      \
    using Fn = void (*)(void *, int);                                                                                  \
    static const auto Real = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "helper_" #NAME "_x86_64"));                        \
    auto *Fpus = reinterpret_cast<uint16_t *>(static_cast<char *>(Env) + FpusAt);                                      \
    uint16_t Before = *Fpus;                                                                                           \
    Real(Env, Index);                                                                                                  \
    if (exceptionFlags().on())                                                                                         \
      *Fpus = uint16_t((*Fpus & ~(ZeroDivide | Summary)) | (Before & (ZeroDivide | Summary)));                         \
  }
#if defined(__x86_64__) || defined(__i386__)
LINKLAB_X87_DIVISIONS(LINKLAB_X87_DIVISION)
#endif

extern "C" void tcg_gen_callN_x86_64(void *S, void *Func, void *Ret, int Nargs, void **Args) {
  const auto &I = linklab::emu::inliner();
  const auto &F = linklab::emu::exceptionFlags();
  F.beforeCall(S, Func, Nargs, Args);
  if (!I.inlined(S, Func, Ret, Nargs, Args))
    I.real(S, Func, Ret, Nargs, Args);
  F.afterCall(S, Func, Nargs, Args);
}

void linklab::emu::beforeX86StateLoad(void *S, unsigned Opc, uintptr_t Base, uintptr_t Offset) {
  exceptionFlags().beforeLoad(S, Opc, Base, Offset);
}

extern "C" uintptr_t tcg_const_i32_x86_64(void *S, int32_t Value) {
  using ConstFn = uintptr_t (*)(void *S, int32_t Value);
  static const auto Real = reinterpret_cast<ConstFn>(dlsym(RTLD_NEXT, "tcg_const_i32_x86_64"));
  uintptr_t Handle = Real(S, Value);
  linklab::emu::LastConst = {S, Handle, Value};
  return Handle;
}

// divq: RDX:RAX / Divisor -> RAX, remainder RDX. Ra is the translated
// code's return address, which QEMU's unwinding needs to find the faulting
// instruction (so the checks are here even when QEMU's loop divides).
extern "C" void helper_divq_EAX_x86_64(uint64_t *Env, uint64_t Divisor) {
  using namespace linklab::emu;
  uintptr_t Ra = uintptr_t(__builtin_return_address(0));
  static const auto Real = reinterpret_cast<DivFn>(dlsym(RTLD_NEXT, "helper_divq_EAX_x86_64"));
  uint64_t Hi = Env[RegDX], Lo = Env[RegAX];
  if (Divisor == 0 || Hi >= Divisor)
    return Raise ? Raise(Env, DivideError, Ra) : Real(Env, Divisor); // Raise leaves by cpu_loop_exit
  if (keepHelpers())
    return Real(Env, Divisor);
  unsigned __int128 N = (static_cast<unsigned __int128>(Hi) << 64) | Lo;
  Env[RegAX] = uint64_t(N / Divisor);
  Env[RegDX] = uint64_t(N % Divisor);
}

// idivq: signed; the quotient must fit in 64 bits, the remainder takes the
// dividend's sign.
extern "C" void helper_idivq_EAX_x86_64(uint64_t *Env, uint64_t Divisor) {
  using namespace linklab::emu;
  uintptr_t Ra = uintptr_t(__builtin_return_address(0));
  static const auto Real = reinterpret_cast<DivFn>(dlsym(RTLD_NEXT, "helper_idivq_EAX_x86_64"));
  uint64_t Hi = Env[RegDX], Lo = Env[RegAX];
  bool NegN = int64_t(Hi) < 0, NegD = int64_t(Divisor) < 0;
  unsigned __int128 N = (static_cast<unsigned __int128>(Hi) << 64) | Lo;
  if (NegN)
    N = -N;
  uint64_t D = NegD ? -Divisor : Divisor;
  const unsigned __int128 Limit = static_cast<unsigned __int128>(1) << 63; // |INT64_MIN|
  unsigned __int128 Q = D ? N / D : 0;
  if (D == 0 || (NegN != NegD ? Q > Limit : Q >= Limit))
    return Raise ? Raise(Env, DivideError, Ra) : Real(Env, Divisor);
  if (keepHelpers())
    return Real(Env, Divisor);
  uint64_t R = uint64_t(N % D);
  Env[RegAX] = NegN != NegD ? -uint64_t(Q) : uint64_t(Q);
  Env[RegDX] = NegN ? -R : R;
}

// ---- 5. signalling NaNs through the x87 -------------------------------------------

namespace linklab::emu {
namespace {

// A float's or a double's quiet bit, and whether Bits is a signalling NaN.
template <typename T> constexpr T QuietBit = T(1) << (sizeof(T) == 4 ? 22 : 51);
template <typename T> bool signaling(T Bits) {
  constexpr T Exponent = sizeof(T) == 4 ? T(0x7f800000) : T(0x7ff0000000000000);
  return (Bits & Exponent) == Exponent && (Bits & (QuietBit<T> - 1)) && !(Bits & QuietBit<T>);
}
constexpr uint8_t SoftfloatInvalid = 1;

} // namespace
} // namespace linklab::emu

// Loads: (env, the float's or double's bits) into ST0 or FT0.
#define LINKLAB_X87_LOAD(NAME, T)                                                                                      \
  extern "C" void helper_##NAME##_x86_64(void *Env, T Bits) {                                                          \
    using namespace linklab::emu;                                                                                      \
    static const auto Real = reinterpret_cast<void (*)(void *, T)>(dlsym(RTLD_NEXT, "helper_" #NAME "_x86_64"));       \
    if (!signaling(Bits) || !exceptionFlags().on())                                                                    \
      return Real(Env, Bits);                                                                                          \
    Real(Env, T(Bits | QuietBit<T>));                                                                                  \
    static_cast<uint8_t *>(Env)[X87FlagsAt] |= SoftfloatInvalid;                                                       \
  }
// Stores: ST0 as a float's or double's bits.
#define LINKLAB_X87_STORE(NAME, T)                                                                                     \
  extern "C" T helper_##NAME##_x86_64(void *Env) {                                                                     \
    using namespace linklab::emu;                                                                                      \
    static const auto Real = reinterpret_cast<T (*)(void *)>(dlsym(RTLD_NEXT, "helper_" #NAME "_x86_64"));             \
    T Bits = Real(Env);                                                                                                \
    return signaling(Bits) && isUnicorn20() ? T(Bits | QuietBit<T>) : Bits;                                            \
  }
LINKLAB_X87_LOAD(flds_FT0, uint32_t)
LINKLAB_X87_LOAD(flds_ST0, uint32_t)
LINKLAB_X87_LOAD(fldl_FT0, uint64_t)
LINKLAB_X87_LOAD(fldl_ST0, uint64_t)
LINKLAB_X87_STORE(fsts_ST0, uint32_t)
LINKLAB_X87_STORE(fstl_ST0, uint64_t)
#undef LINKLAB_X87_LOAD
#undef LINKLAB_X87_STORE
