// Bridge thunks, one small code generator per arch.
//
// Every thunk has the same shape, whatever the two conventions:
//
//   sp -= F                          frame: [0, Out) the callee's stack arguments,
//   save registers (see below)              then 16-byte staging slots, then saves
//   store every register-held argument part to its staging slot
//   copy stack-bound parts (from a staging slot or the caller's stack) 8 bytes
//     at a time through a scratch GPR into the callee's stack area
//   load every register-bound part (from its staging slot or the caller's stack)
//   call the callee
//   store the callee's result registers to staging slots, load the standard ones
//   restore, sp += F, return
//
// Staging through memory makes every permutation (swaps, cycles, GPR<->FPR,
// register<->stack) one store and one load, with no move ordering to solve.
// Saved: the link register (the thunk calls), and each register the standard
// ABI tells callers is preserved that the callee's plan does not preserve or
// that the thunk itself overwrites (argument registers, the scratch).
#include "callconv/thunks.h"

#include "arch/aarch64.h"
#include "arch/riscv64.h"
#include "arch/x86_64.h"
#include "target/target.h"

#include <algorithm>
#include <set>

namespace linklab::callconv {

namespace {

struct Code {
  std::vector<char> Bytes;
  void byte(std::initializer_list<int> Bs) {
    for (int B : Bs)
      Bytes.push_back(char(B));
  }
  void u32(uint32_t V) {
    for (int I = 0; I < 4; ++I)
      Bytes.push_back(char(V >> (8 * I)));
  }
  uint32_t size() const { return uint32_t(Bytes.size()); }
};

// ---- x86-64 ------------------------------------------------------------------
// DWARF numbers 0-15 are rax rdx rcx rbx rsi rdi rbp rsp r8-r15; the
// instruction encoding numbers them rax rcx rdx rbx rsp rbp rsi rdi r8-r15.
unsigned x86Hw(unsigned Dwarf) {
  static const uint8_t Gpr[16] = {0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15};
  return Dwarf < 16 ? Gpr[Dwarf] : Dwarf - 17; // xmm0-15 are DWARF 17-32
}
void x86Adjust(Code &C, int64_t Delta) { // sub/add rsp, imm32
  C.byte({0x48, 0x81, Delta < 0 ? 0xEC : 0xC4});
  C.u32(uint32_t(Delta < 0 ? -Delta : Delta));
}
// mov r64,[rsp+d32] / mov [rsp+d32],r64; movsd (8 bytes) or movups (16) for xmm.
void x86Access(Code &C, bool Store, const RegInfo &R, unsigned Bytes, int64_t Off) {
  unsigned Hw = x86Hw(R.Number);
  if (R.Class == RegClass::Fpr) {
    if (Bytes == 8)
      C.byte({0xF2});
    if (Hw >= 8)
      C.byte({0x44});
    C.byte({0x0F, Store ? 0x11 : 0x10});
  } else {
    C.byte({0x48 | (Hw >= 8 ? 0x04 : 0), Store ? 0x89 : 0x8B});
  }
  C.byte({0x84 | int((Hw & 7) << 3), 0x24}); // mod=10 rm=100 (SIB), base rsp
  C.u32(uint32_t(Off));
}
uint32_t x86Call(Code &C) { // call rel32
  C.byte({0xE8});
  C.u32(0);
  return C.size() - 4;
}
void x86Ret(Code &C) { C.byte({0xC3}); }

// ---- AArch64 -------------------------------------------------------------------
// x0-x30 are DWARF 0-30, v0-v31 DWARF 64-95; sp is register 31 in addressing.
void a64Adjust(Code &C, int64_t Delta) { // sub/add sp, sp, #imm12
  C.u32((Delta < 0 ? 0xD10003FFu : 0x910003FFu) | uint32_t(Delta < 0 ? -Delta : Delta) << 10);
}
// ldr/str Xt | Dt | Qt, [sp, #off] (unsigned offset scaled by the access size).
void a64Access(Code &C, bool Store, const RegInfo &R, unsigned Bytes, int64_t Off) {
  bool Fpr = R.Class == RegClass::Fpr;
  uint32_t Base = !Fpr ? 0xF9000000u : Bytes == 16 ? 0x3D800000u : 0xFD000000u;
  unsigned Scale = Fpr && Bytes == 16 ? 16 : 8;
  C.u32(Base | (Store ? 0 : 0x00400000u) /* L bit */ | uint32_t(Off / Scale) << 10 | 31u << 5 |
        (Fpr ? R.Number - 64 : R.Number));
}
uint32_t a64Call(Code &C) { // bl #0
  C.u32(0x94000000u);
  return C.size() - 4;
}
void a64Ret(Code &C) { C.u32(0xD65F03C0u); }

// ---- RISC-V 64 -----------------------------------------------------------------
// x0-x31 are DWARF 0-31, f0-f31 DWARF 32-63; sp is x2.
void rvAdjust(Code &C, int64_t Delta) {
  C.u32(uint32_t(Delta & 0xfff) << 20 | 2u << 15 | 2u << 7 | 0x13);
} // addi sp,sp
// ld/sd or fld/fsd with a 12-bit signed offset from sp.
void rvAccess(Code &C, bool Store, const RegInfo &R, unsigned, int64_t Off) {
  bool Fpr = R.Class == RegClass::Fpr;
  uint32_t Reg = Fpr ? R.Number - 32 : R.Number, Imm = uint32_t(Off) & 0xfff;
  if (Store)
    C.u32((Imm >> 5) << 25 | Reg << 20 | 2u << 15 | 3u << 12 | (Imm & 0x1f) << 7 | (Fpr ? 0x27 : 0x23));
  else
    C.u32(Imm << 20 | 2u << 15 | 3u << 12 | Reg << 7 | (Fpr ? 0x07 : 0x03));
}
uint32_t rvCall(Code &C) { // auipc ra, 0; jalr ra, 0(ra) -- one R_RISCV_CALL_PLT pair
  C.u32(0x00000097u);
  C.u32(0x000080E7u);
  return C.size() - 8;
}
void rvRet(Code &C) { C.u32(0x00008067u); }

struct ThunkArch {
  Arch A;
  std::vector<EdgeKind> CallKinds; // direct calls and tail jumps a thunk may take over
  EdgeKind CallEdge;
  uint32_t EntryBias;       // from sp at thunk entry to the caller's stack argument 0
  int LinkRegister;         // saved around the thunk's own call; -1: the return address is on the stack
  std::vector<int> Scratch; // GPR candidates for memory-to-memory copies
  int64_t MaxOffset;        // largest frame size / sp offset the encoders take
  unsigned FprSlotBytes;    // how much of an FPR a save keeps
  int SRetResult;           // register that must hold the sret pointer on return; -1: none
  void (*Adjust)(Code &, int64_t);
  void (*Access)(Code &, bool Store, const RegInfo &, unsigned Bytes, int64_t Off);
  uint32_t (*Call)(Code &);
  void (*Ret)(Code &);
};

const ThunkArch *thunkArch(Arch A) {
  static const ThunkArch Table[] = {
      {Arch::X86_64,
       {x86_64::BranchPCRel32},
       x86_64::BranchPCRel32,
       8,
       -1,
       {11, 10, 0},
       0x7fffffff,
       16,
       0 /* SysV 3.2.3: rax */,
       x86Adjust,
       x86Access,
       x86Call,
       x86Ret},
      {Arch::AArch64,
       {aarch64::Branch26PCRel},
       aarch64::Branch26PCRel,
       0,
       30,
       {16, 17, 15},
       4095,
       16,
       -1,
       a64Adjust,
       a64Access,
       a64Call,
       a64Ret},
      {Arch::RISCV64,
       {riscv64::R_RISCV_CALL, riscv64::R_RISCV_CALL_PLT, riscv64::CallRelaxable, riscv64::R_RISCV_JAL},
       riscv64::R_RISCV_CALL_PLT,
       0,
       1,
       {31, 30, 28},
       2047,
       8,
       -1,
       rvAdjust,
       rvAccess,
       rvCall,
       rvRet},
  };
  for (auto &T : Table)
    if (T.A == A)
      return &T;
  return nullptr;
}

// The thunk for Callee (whose plan is P) called from standard code.
Expected<Symbol *> makeThunk(LinkGraph &G, const ThunkArch &X, Section &Sec, Symbol &Callee, const Plan &P) {
  const ArchConventions &T = P.target();
  std::string Name(Callee.name);
  auto Fail = [&](const std::string &Why) {
    return makeError(formatv("%s: bridge thunk for '%s' (%s): %s", G.name().c_str(), Name.c_str(),
                             P.signature().str().c_str(), Why.c_str()));
  };
  auto Std = standardPlan(T, P.signature());
  if (!Std)
    return Fail(Std.takeError().message());
  auto Moves = bridgeMoves(*Std, P);
  if (!Moves)
    return Fail(Moves.takeError().message());
  // bridgeMoves omits parts already in place; a stack part at the same
  // offset is not in place here, since the thunk's frame sits in between.
  for (auto &L : P.arguments())
    for (auto &S : Std->arguments())
      if (!L.InRegister && S.sameSlot(L) && S.Value == L.Value && S.Offset == L.Offset)
        Moves->push_back({false, S, L});
  std::vector<Move> Args, Rets;
  for (auto &M : *Moves)
    (M.IsReturn ? Rets : Args).push_back(M);

  std::set<int> Busy; // registers holding callee arguments once loaded
  for (auto &L : P.arguments())
    if (L.InRegister)
      Busy.insert(L.Register);
  for (auto &L : Std->arguments())
    if (L.InRegister)
      Busy.insert(L.Register);
  int ScratchReg = -1;
  for (int R : X.Scratch)
    if (!Busy.count(R)) {
      ScratchReg = R;
      break;
    }
  if (ScratchReg < 0)
    return Fail("every scratch register candidate carries an argument");
  const RegInfo &Scratch = *T.byNumber(unsigned(ScratchReg));

  std::set<int> Written{ScratchReg};
  for (auto &M : Args)
    if (M.To.InRegister)
      Written.insert(M.To.Register);
  const auto &CalleeKeeps = P.calleeSaved();
  std::vector<const RegInfo *> Saves;
  for (uint16_t R : Std->calleeSaved())
    if (Written.count(R) || std::find(CalleeKeeps.begin(), CalleeKeeps.end(), R) == CalleeKeeps.end())
      if (const RegInfo *I = T.byNumber(R))
        Saves.push_back(I);
  // The link register is reserved in the schema (byNumber skips it): a
  // stand-in row carries its number and class to the encoder.
  const RegInfo Link{"lr", uint16_t(std::max(X.LinkRegister, 0)), RegClass::Gpr, 8, true, nullptr, {}};
  if (X.LinkRegister >= 0)
    Saves.push_back(&Link);

  // SysV callers may take the result's address from rax after an sret call;
  // a custom callee need not leave it there, so the thunk keeps the pointer
  // in a staging slot of its own and reloads it.
  const Location *SRet = nullptr;
  if (X.SRetResult >= 0)
    for (auto &L : Std->arguments())
      if ((L.Flags & LocationFlags::SRetPointer) && L.InRegister)
        SRet = &L;
  size_t SRetSlot = Args.size();

  int64_t Out = P.stackBytes();
  int64_t StageAt = Out, SaveAt = StageAt + 16 * int64_t(std::max(Args.size() + (SRet ? 1 : 0), Rets.size()));
  int64_t F = (SaveAt + 16 * int64_t(Saves.size()) + 15) & ~int64_t(15);
  if (X.EntryBias)
    F += 16 - X.EntryBias % 16; // x86-64: the pushed return address leaves rsp 8 below alignment
  int64_t CallerStack = F + X.EntryBias;
  int64_t Deepest = F;
  for (auto &M : Args)
    if (!M.From.InRegister)
      Deepest = std::max<int64_t>(Deepest, CallerStack + M.From.StackOffset + M.From.Size);
  if (Deepest > X.MaxOffset)
    return Fail(formatv("the thunk's frame and the caller's stack arguments need sp offsets up to %lld, beyond "
                        "the %lld this arch's thunk encoder reaches",
                        (long long)Deepest, (long long)X.MaxOffset));

  Code C;
  auto Reg = [&](int N) -> const RegInfo & { return *T.byNumber(unsigned(N)); };
  // Loads or stores the register of L, as wide as L's part needs.
  auto AccessReg = [&](bool Store, const Location &L, int64_t Off) {
    const RegInfo &R = Reg(L.Register);
    X.Access(C, Store, R, R.Class == RegClass::Fpr && L.Size > 8 ? 16u : 8u, Off);
  };
  auto SaveBytes = [&](const RegInfo &R) { return R.Class == RegClass::Fpr ? X.FprSlotBytes : 8u; };
  X.Adjust(C, -F);
  for (size_t I = 0; I < Saves.size(); ++I)
    X.Access(C, true, *Saves[I], SaveBytes(*Saves[I]), SaveAt + 16 * int64_t(I));
  // Arguments: stage what sits in registers, then fill the callee's stack
  // area, then its registers (the scratch is free until then).
  auto SourceOffset = [&](const Move &M, size_t I) {
    return M.From.InRegister ? StageAt + 16 * int64_t(I) : CallerStack + M.From.StackOffset;
  };
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I].From.InRegister)
      AccessReg(true, Args[I].From, StageAt + 16 * int64_t(I));
  if (SRet)
    X.Access(C, true, Reg(SRet->Register), 8, StageAt + 16 * int64_t(SRetSlot));
  for (size_t I = 0; I < Args.size(); ++I)
    if (!Args[I].To.InRegister)
      for (uint32_t Chunk = 0; Chunk < Args[I].To.Size; Chunk += 8) {
        X.Access(C, false, Scratch, 8, SourceOffset(Args[I], I) + Chunk);
        X.Access(C, true, Scratch, 8, Args[I].To.StackOffset + Chunk);
      }
  for (size_t I = 0; I < Args.size(); ++I)
    if (Args[I].To.InRegister)
      AccessReg(false, Args[I].To, SourceOffset(Args[I], I));
  uint32_t CallFixup = X.Call(C);
  for (size_t I = 0; I < Rets.size(); ++I)
    AccessReg(true, Rets[I].From, StageAt + 16 * int64_t(I));
  for (size_t I = 0; I < Rets.size(); ++I)
    AccessReg(false, Rets[I].To, StageAt + 16 * int64_t(I));
  if (SRet)
    X.Access(C, false, Reg(X.SRetResult), 8, StageAt + 16 * int64_t(SRetSlot));
  for (size_t I = 0; I < Saves.size(); ++I)
    X.Access(C, false, *Saves[I], SaveBytes(*Saves[I]), SaveAt + 16 * int64_t(I));
  X.Adjust(C, F);
  X.Ret(C);

  Block &B = G.createContentBlock(Sec, G.allocateContent(C.Bytes), 0, 16, 0);
  B.addEdge(X.CallEdge, CallFixup, Callee, 0);
  return &G.addDefinedSymbol(B, 0, G.allocateString(Name + ".ccthunk"), B.size, Linkage::Strong, Scope::Local, true,
                             true);
}

} // namespace

Error buildBridgeThunks(LinkGraph &G, const ConventionTable &T, std::vector<std::string> &Warnings) {
  if (T.empty())
    return Error::success();
  if (G.triple().arch != T.target().A)
    return makeError(formatv("%s: conventions were planned for %s, the graph is %s", G.name().c_str(), T.target().Name,
                             fullTriple(G.triple()).c_str()));
  const ThunkArch *XP = thunkArch(G.triple().arch);
  if (!XP)
    return makeError(
        formatv("%s: no calling-convention thunks for %s", G.name().c_str(), fullTriple(G.triple()).c_str()));
  const ThunkArch &X = *XP;
  // Blocks of custom-convention functions: their calls follow the plans
  // already, written by hand; a thunk would break them.
  std::set<const Block *> Custom;
  G.forEachDefinedSymbol([&](Symbol &S) {
    if (S.hasName() && T.find(S.name))
      Custom.insert(&S.block());
  });
  Section *Sec = nullptr;
  std::map<Symbol *, Symbol *> Thunks; // callee -> its thunk's symbol
  std::set<std::string> Warned;
  std::vector<Block *> Blocks;
  G.forEachBlock([&](Block &B) { Blocks.push_back(&B); });
  for (Block *B : Blocks) {
    if (B->section->name == ThunkSectionName)
      continue;
    for (Edge &E : B->edges) {
      if (!E.isRelocation() || !E.target->hasName())
        continue;
      const Plan *P = T.find(E.target->name);
      if (!P)
        continue;
      bool IsCall = std::find(X.CallKinds.begin(), X.CallKinds.end(), E.kind) != X.CallKinds.end();
      if (!IsCall) {
        // Not a call: the address escapes, and whoever calls through it
        // will use the standard convention.
        std::string Name(E.target->name);
        if (Warned.insert(Name).second) {
          std::vector<std::string> W;
          if (auto Std = planIndirectCall(*P, Name, W); !Std)
            return Std.takeError();
          for (auto &M : W)
            Warnings.push_back(G.name() + ": " + M);
        }
        continue;
      }
      if (Custom.count(B))
        continue;
      Symbol *&Thunk = Thunks[E.target];
      if (!Thunk) {
        if (!Sec)
          Sec = &G.createSection(ThunkSectionName, MemProt::Read | MemProt::Exec);
        auto TS = makeThunk(G, X, *Sec, *E.target, *P);
        if (!TS)
          return TS.takeError();
        Thunk = *TS;
      }
      E.target = Thunk; // same instruction, same addend: only the destination changes
    }
  }
  return Error::success();
}

void BridgeThunkPlugin::modifyPassConfig(const MaterializationInfo &, LinkGraph &G, PassConfiguration &Config) {
  // First after pruning: the stub builders that follow see the thunks' calls.
  Config.postPrunePasses.insert(Config.postPrunePasses.begin(), [this](LinkGraph &G) {
    std::vector<std::string> Warnings;
    Error E = buildBridgeThunks(G, *Table, Warnings);
    for (auto &W : Warnings)
      Warn(W);
    return E;
  });
}

} // namespace linklab::callconv
