// Cross-page block chaining.
//
// QEMU ends a translated block that jumps to a known address with goto_tb
// n / exit_tb(block, n): the first time it runs, cpu_exec patches jump slot n
// to the target block, and from then on the two run as one. In full-system
// mode (Unicorn's) the translators do that only when the target lies in the
// block's own guest page; a direct jump to another page sets the PC and ends
// with lookup_and_goto_ptr, whose helper derives the CPU's TB flags and looks
// the target up in a hash table on every execution, because a guest's page
// tables could map that page elsewhere without the block knowing. qemu-user
// chains every direct jump. Measured in the executor, that helper was 20-40%
// of the run time of glibc code (AArch64 most: Unicorn 2.0.x gives it 1 KiB
// target pages, so even a loop may cross one), against a small share of
// qemu-user's.
//
// The executor's guest has no page tables: every address is its own physical
// address, and translations are dropped wherever code is unmapped, loses
// execute permission or is written (FastStores), which also unlinks every
// jump into them (QEMU's tb_phys_invalidate). So a cross-page jump can be
// chained with qemu-user's semantics. The interposers below (the library
// calls these generator functions through its PLT) turn
// `set PC to a constant; lookup_and_goto_ptr` into
// `set PC to a constant; goto_tb n; exit_tb(block, n)`:
//  - "set PC to a constant" is the op just before the lookup: a movi_i64
//    into the PC's global (AArch64, RISC-V), a movi_i32 into it (Arm's r15),
//    or a movi_i64 into a temp stored with st_i64 to the PC's field of the
//    CPU state (x86). Which global or
//    field that is, each translator shows in its own same-page jumps: the
//    op(s) right after its goto_tb set the PC. A context whose translator
//    ever shows two different answers gets no chaining;
//  - a block has two jump slots. The translator numbers its own goto_tb
//    (n = 0 or 1, in either order), so slots are handed out first come
//    first served and the translator's numbers are mapped onto them; a
//    lookup that finds both taken stays a lookup.
// Indirect jumps (returns, calls through pointers), which qemu-user looks
// up every time, get a one-entry inline cache (cachedLookup): the first
// target one takes is chained like a direct jump's, the others look up.
// That took the lookup, still a quarter of glibc code's run time after the
// direct jumps, mostly out (returns and qsort's comparator calls have one
// target at a time). Only Unicorn 2.0.x (QEMU 5.0's TCG: the opcode numbers below)
// is changed, and not with LINKLAB_EXECUTOR_NO_CHAINING set (to measure
// what this is worth).
#include "qemu_tcg.h"
#include "unicorn_quirks.h"

#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <memory>
#include <string>
#include <vector>

namespace linklab::emu {
namespace {

using namespace tcg;
constexpr uint64_t None = ~uint64_t(0);

// Where a context's translator keeps the PC, as learnt from its same-page
// jumps: a global temp, or a field (base temp + offset) of the CPU state.
struct PcHome {
  void *context = nullptr;
  uintptr_t temp = 0, base = 0, offset = 0;
  bool inMemory = false, known = false, conflicting = false;
};
thread_local PcHome Pc;

// The block being translated (one translator_loop).
thread_local struct Translation {
  void *block = nullptr;
  uint64_t ops = 0;            // ops emitted (tcg_emit_op calls)
  uint8_t taken = 0;           // jump slots handed out (bit n)
  int8_t slotOf[2] = {-1, -1}; // the translator's goto_tb n -> the slot it got
  uint64_t gotoAt = None;      // ops count after the translator's last goto_tb
  uint64_t moviAt = None;      // ... after the last movi_i64
  uintptr_t moviTemp = 0;
  uint64_t pcSetAt = None; // ... after the last op that set the PC to a constant
  // Learning: the movi and store right after the translator's goto_tb.
  uintptr_t afterGotoTemp = 0, afterGotoBase = 0, afterGotoOffset = 0;
  int afterGotoOps = 0; // 1: a movi; 2: a movi then its store
} T;

void learn(void *S, const PcHome &Seen) {
  if (Pc.context != S)
    Pc = {S};
  if (Pc.conflicting)
    return;
  if (Pc.known &&
      (Pc.inMemory != Seen.inMemory || Pc.temp != Seen.temp || Pc.base != Seen.base || Pc.offset != Seen.offset)) {
    Pc.conflicting = true;
    return;
  }
  Pc = Seen;
  Pc.context = S, Pc.known = true;
}

// One word per indirect jump translated with an inline cache: the target
// it claimed, 0 while unclaimed. Never freed (a block may still run when
// another replaces it); past MaxCells, indirect jumps keep the plain lookup.
class Cells {
public:
  uint64_t *take() {
    if (Used == MaxCells)
      return nullptr;
    if (Used % ChunkCells == 0)
      Chunks.push_back(std::make_unique<uint64_t[]>(ChunkCells)); // zeroed
    return &Chunks.back()[Used++ % ChunkCells];
  }

private:
  static constexpr size_t ChunkCells = 4096, MaxCells = size_t(1) << 20;
  std::vector<std::unique_ptr<uint64_t[]>> Chunks;
  size_t Used = 0;
};
thread_local Cells CacheCells;

int takeSlot() {
  for (int N = 0; N < 2; ++N)
    if (!(T.taken & (1 << N))) {
      T.taken |= 1 << N;
      return N;
    }
  return -1;
}

using LoopFn = void (*)(const void *Ops, void *Db, void *Cpu, void *Tb, int MaxInsns);
using EmitFn = void *(*)(void *S, unsigned Opc);
using Op2Fn = void (*)(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2);
using Op3Fn = void (*)(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2, uintptr_t A3);
using GotoTbFn = void (*)(void *S, unsigned N);
using ExitTbFn = void (*)(void *S, void *Tb, unsigned N);
using LookupFn = void (*)(void *S);
using Op1Fn = void (*)(void *S, unsigned Opc, uintptr_t A1);
using TempNewFn = void *(*)(void *S, int Type, bool Local);
using TempFreeFn = void (*)(void *S, void *Temp);
using NewLabelFn = void *(*)(void *S);
using BrcondFn = void (*)(void *S, unsigned Cond, uintptr_t A, uintptr_t B, void *Label);
using BrcondiFn = void (*)(void *S, unsigned Cond, uintptr_t A, int64_t B, void *Label);

struct Target {
  LoopFn loop;
  EmitFn emit;
  Op2Fn op2;
  Op3Fn op3;
  GotoTbFn gotoTb;
  ExitTbFn exitTb;
  LookupFn lookup;
  Op1Fn op1;
  TempNewFn tempNew;
  TempFreeFn tempFree;
  NewLabelFn newLabel;
  BrcondFn brcond;
  BrcondiFn brcondi;
  bool on, caches;
  // The PC's width (Arm's is an i32 global set with movi_i32): the ops and
  // the type that move and compare it.
  bool pc32;
  unsigned moviPc, ldPc, stPc;
  int pcType;
  explicit Target(const std::string &Name)
      : pc32(targetAddressBits(Name) == 32), moviPc(pc32 ? MoviI32 : MoviI64), ldPc(pc32 ? LdI32 : LdI64),
        stPc(pc32 ? StI32 : StI64), pcType(pc32 ? TypeI32 : TypeI64) {
    auto Sym = [&](const char *Fn) { return dlsym(RTLD_NEXT, (Fn + Name).c_str()); };
    loop = reinterpret_cast<LoopFn>(Sym("translator_loop_"));
    emit = reinterpret_cast<EmitFn>(Sym("tcg_emit_op_"));
    op2 = reinterpret_cast<Op2Fn>(Sym("tcg_gen_op2_"));
    op3 = reinterpret_cast<Op3Fn>(Sym("tcg_gen_op3_"));
    gotoTb = reinterpret_cast<GotoTbFn>(Sym("tcg_gen_goto_tb_"));
    exitTb = reinterpret_cast<ExitTbFn>(Sym("tcg_gen_exit_tb_"));
    lookup = reinterpret_cast<LookupFn>(Sym("tcg_gen_lookup_and_goto_ptr_"));
    op1 = reinterpret_cast<Op1Fn>(Sym("tcg_gen_op1_"));
    tempNew = reinterpret_cast<TempNewFn>(Sym("tcg_temp_new_internal_"));
    tempFree = reinterpret_cast<TempFreeFn>(Sym("tcg_temp_free_internal_"));
    newLabel = reinterpret_cast<NewLabelFn>(Sym("gen_new_label_"));
    brcond = reinterpret_cast<BrcondFn>(Sym(pc32 ? "tcg_gen_brcond_i32_" : "tcg_gen_brcond_i64_"));
    brcondi = reinterpret_cast<BrcondiFn>(Sym(pc32 ? "tcg_gen_brcondi_i32_" : "tcg_gen_brcondi_i64_"));
    on = isUnicorn20() && loop && emit && op2 && op3 && gotoTb && exitTb && lookup &&
         !std::getenv("LINKLAB_EXECUTOR_NO_CHAINING");
    caches = on && op1 && tempNew && tempFree && newLabel && brcond && brcondi;
  }

  void translate(const void *Ops, void *Db, void *Cpu, void *Tb, int MaxInsns) const {
    T = {};
    T.block = on ? Tb : nullptr; // no block: every interposer passes its call on
    loop(Ops, Db, Cpu, Tb, MaxInsns);
    T = {};
  }

  void movi(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2) const {
    op2(S, Opc, A1, A2);
    if (!T.block || Opc != moviPc)
      return;
    T.moviAt = T.ops, T.moviTemp = A1;
    if (T.gotoAt == T.ops - 1)
      T.afterGotoTemp = A1, T.afterGotoOps = 1;
    if (Pc.context == S && Pc.known && !Pc.inMemory && A1 == Pc.temp)
      T.pcSetAt = T.ops;
  }

  void store(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2, uintptr_t A3) const {
    op3(S, Opc, A1, A2, A3);
    if (!T.block || Opc != stPc || T.moviAt != T.ops - 1 || T.moviTemp != A1)
      return;
    if (T.gotoAt == T.ops - 2 && T.afterGotoOps == 1)
      T.afterGotoBase = A2, T.afterGotoOffset = A3, T.afterGotoOps = 2;
    if (Pc.context == S && Pc.known && Pc.inMemory && A2 == Pc.base && A3 == Pc.offset)
      T.pcSetAt = T.ops;
  }

  void gotoBlock(void *S, unsigned N) const {
    int Slot = N < 2 && T.block ? takeSlot() : -1;
    if (Slot < 0) { // not ours to map: as the translator asked
      gotoTb(S, N);
      return;
    }
    T.slotOf[N] = int8_t(Slot);
    gotoTb(S, unsigned(Slot));
    T.gotoAt = T.ops, T.afterGotoOps = 0;
  }

  void exitBlock(void *S, void *Tb, unsigned N) const {
    if (Tb && Tb == T.block && N < 2 && T.slotOf[N] >= 0) {
      // The translator's own goto_tb N ... exit_tb N: what came between
      // set the PC.
      if (T.gotoAt != None && T.afterGotoOps && T.ops == T.gotoAt + T.afterGotoOps) {
        PcHome Seen;
        Seen.inMemory = T.afterGotoOps == 2;
        Seen.temp = Seen.inMemory ? 0 : T.afterGotoTemp;
        Seen.base = T.afterGotoBase, Seen.offset = T.afterGotoOffset;
        learn(S, Seen);
      }
      T.gotoAt = None;
      exitTb(S, Tb, unsigned(T.slotOf[N]));
      return;
    }
    exitTb(S, Tb, N);
  }

  void lookupAndGo(void *S) const {
    bool PcKnown = T.block && Pc.context == S && Pc.known && !Pc.conflicting;
    int Slot = PcKnown ? takeSlot() : -1;
    if (Slot >= 0 && T.pcSetAt == T.ops) {
      gotoTb(S, unsigned(Slot));
      exitTb(S, T.block, unsigned(Slot));
      return;
    }
    if (Slot >= 0 && caches)
      if (uint64_t *Cell = CacheCells.take())
        return cachedLookup(S, unsigned(Slot), Cell);
    lookup(S);
  }

  // An indirect jump with a one-entry inline cache: the first target it
  // takes claims the block's free jump slot, which cpu_exec then chains to
  // that target's block as for a direct jump; later targets look up.
  //     c = *Cell; if (pc == c) goto hit; if (c != 0) goto miss; *Cell = pc;
  //   hit: goto_tb Slot; exit_tb(block, Slot)
  //   miss: lookup_and_goto_ptr
  // The slot stays bound to the claimed target (a chain to it is only ever
  // remade to the block at that address), so the cell is never rewritten.
  // The exit state is a function of this block's own entry state, as for any
  // chained jump: one block's jump always meets the same TB flags.
  void cachedLookup(void *S, unsigned Slot, uint64_t *Cell) const {
    auto Handle = [&](void *Temp) { return uintptr_t(Temp) - uintptr_t(S); };
    void *Hit = newLabel(S), *Miss = newLabel(S);
    void *PcNow = Pc.inMemory ? tempNew(S, pcType, false) : nullptr;
    auto LoadPc = [&] {
      if (PcNow)
        op3(S, ldPc, uintptr_t(PcNow), Pc.base, Pc.offset);
      return PcNow ? uintptr_t(PcNow) : Pc.temp;
    };
    void *Addr = tempNew(S, TypeI64, false), *Claimed = tempNew(S, pcType, false);
    // A branch ends TCG's basic block, and with it the life of every
    // (non-local) temp: each block loads what it compares afresh. A 32-bit
    // PC lives in the cell's low half (the host is little-endian).
    auto LoadCell = [&] {
      op2(S, MoviI64, uintptr_t(Addr), uintptr_t(Cell));
      op3(S, ldPc, uintptr_t(Claimed), uintptr_t(Addr), 0);
    };
    LoadCell();
    brcond(S, CondEq, Handle(reinterpret_cast<void *>(LoadPc())), Handle(Claimed), Hit);
    LoadCell();
    brcondi(S, CondNe, Handle(Claimed), 0, Miss);
    op2(S, MoviI64, uintptr_t(Addr), uintptr_t(Cell));
    op3(S, stPc, LoadPc(), uintptr_t(Addr), 0);
    setLabel(S, Hit);
    gotoTb(S, Slot);
    exitTb(S, T.block, Slot);
    setLabel(S, Miss);
    for (void *Temp : {PcNow, Addr, Claimed})
      if (Temp)
        tempFree(S, Temp);
    lookup(S);
  }

  // QEMU's gen_set_label, an inline function: marks the label present (the
  // first bit of TCGLabel) and emits its op.
  void setLabel(void *S, void *Label) const {
    *static_cast<uint8_t *>(Label) |= 1;
    op1(S, SetLabel, uintptr_t(Label));
  }
};

} // namespace
} // namespace linklab::emu

#define LINKLAB_CHAINING(TARGET)                                                                                       \
  static const linklab::emu::Target &chainingTarget_##TARGET() {                                                       \
    static const linklab::emu::Target T(#TARGET);                                                                      \
    return T;                                                                                                          \
  }                                                                                                                    \
  extern "C" void translator_loop_##TARGET(const void *Ops, void *Db, void *Cpu, void *Tb, int MaxInsns) {             \
    linklab::emu::translationStarts();                                                                                 \
    chainingTarget_##TARGET().translate(Ops, Db, Cpu, Tb, MaxInsns);                                                   \
  }                                                                                                                    \
  extern "C" void *tcg_emit_op_##TARGET(void *S, unsigned Opc) {                                                       \
    ++linklab::emu::T.ops;                                                                                             \
    return chainingTarget_##TARGET().emit(S, Opc);                                                                     \
  }                                                                                                                    \
  extern "C" void tcg_gen_op2_##TARGET(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2) {                            \
    if (std::string_view(#TARGET) == "x86_64")                                                                         \
      linklab::emu::beforeX86Op2(S, Opc);                                                                              \
    chainingTarget_##TARGET().movi(S, Opc, A1, A2);                                                                    \
  }                                                                                                                    \
  extern "C" void tcg_gen_op3_##TARGET(void *S, unsigned Opc, uintptr_t A1, uintptr_t A2, uintptr_t A3) {              \
    if (std::string_view(#TARGET) == "x86_64")                                                                         \
      linklab::emu::beforeX86StateLoad(S, Opc, A2, A3);                                                                \
    chainingTarget_##TARGET().store(S, Opc, A1, A2, A3);                                                               \
  }                                                                                                                    \
  extern "C" void tcg_gen_goto_tb_##TARGET(void *S, unsigned N) { chainingTarget_##TARGET().gotoBlock(S, N); }         \
  extern "C" void tcg_gen_exit_tb_##TARGET(void *S, void *Tb, unsigned N) {                                            \
    chainingTarget_##TARGET().exitBlock(S, Tb, N);                                                                     \
  }                                                                                                                    \
  extern "C" void tcg_gen_lookup_and_goto_ptr_##TARGET(void *S) { chainingTarget_##TARGET().lookupAndGo(S); }
LINKLAB_INTERPOSED_QEMU_TARGETS(LINKLAB_CHAINING)
#undef LINKLAB_CHAINING
