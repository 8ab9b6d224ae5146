#include "link/eh_frame_registration.h"

#include "arch/aarch64.h"
#include "arch/riscv64.h"
#include "arch/x86_64.h"
#include "link/eh_frame.h"

#include <algorithm>

namespace linklab {

namespace {

// What a thunk edge points at.
enum class ThunkTarget : uint8_t { Frames, Object, Next, RegisterFn, Thunk };
struct ThunkEdge {
  uint32_t offset;
  EdgeKind kind;
  int64_t addend;
  ThunkTarget target;
  uint32_t thunkOffset = 0; // ThunkTarget::Thunk: the auipc a RISC-V %pcrel_lo names
};
// `RegisterFn(&frames, &object); if (next) goto *next; return;` per arch
// (instructions little-endian). The call goes through the arch's usual
// external-call edge, so the GOT/stub pass gives it a stub when needed.
struct RegistrationThunk {
  Arch arch;
  std::vector<uint8_t> code;
  std::vector<ThunkEdge> edges;
};
const RegistrationThunk Thunks[] = {
    {Arch::X86_64,
     {0x48, 0x83, 0xec, 0x08,       // sub $8, %rsp              (align the call)
      0x48, 0x8d, 0x3d, 0, 0, 0, 0, // lea frames(%rip), %rdi
      0x48, 0x8d, 0x35, 0, 0, 0, 0, // lea object(%rip), %rsi
      0xe8, 0, 0, 0, 0,             // call RegisterFn
      0x48, 0x83, 0xc4, 0x08,       // add $8, %rsp
      0x48, 0x8b, 0x05, 0, 0, 0, 0, // mov next(%rip), %rax
      0x48, 0x85, 0xc0,             // test %rax, %rax
      0x74, 0x02,                   // je 1f
      0xff, 0xe0,                   // jmp *%rax
      0xc3},                        // 1: ret
     {{7, x86_64::Delta32, -4, ThunkTarget::Frames},
      {14, x86_64::Delta32, -4, ThunkTarget::Object},
      {19, x86_64::BranchPCRel32, 0, ThunkTarget::RegisterFn},
      {30, x86_64::Delta32, -4, ThunkTarget::Next}}},
    {Arch::AArch64,
     {0xfd, 0x7b, 0xbf, 0xa9,  // stp x29, x30, [sp, #-16]!
      0x00, 0x00, 0x00, 0x90,  // adrp x0, frames
      0x00, 0x00, 0x00, 0x91,  // add x0, x0, :lo12:frames
      0x01, 0x00, 0x00, 0x90,  // adrp x1, object
      0x21, 0x00, 0x00, 0x91,  // add x1, x1, :lo12:object
      0x00, 0x00, 0x00, 0x94,  // bl RegisterFn
      0xfd, 0x7b, 0xc1, 0xa8,  // ldp x29, x30, [sp], #16
      0x10, 0x00, 0x00, 0x90,  // adrp x16, next
      0x10, 0x02, 0x40, 0xf9,  // ldr x16, [x16, :lo12:next]
      0x50, 0x00, 0x00, 0xb4,  // cbz x16, 1f
      0x00, 0x02, 0x1f, 0xd6,  // br x16
      0xc0, 0x03, 0x5f, 0xd6}, // 1: ret
     {{4, aarch64::Page21, 0, ThunkTarget::Frames},
      {8, aarch64::PageOffset12, 0, ThunkTarget::Frames},
      {12, aarch64::Page21, 0, ThunkTarget::Object},
      {16, aarch64::PageOffset12, 0, ThunkTarget::Object},
      {20, aarch64::Branch26PCRel, 0, ThunkTarget::RegisterFn},
      {28, aarch64::Page21, 0, ThunkTarget::Next},
      {32, aarch64::PageOffset12, 0, ThunkTarget::Next}}},
    {Arch::RISCV64,
     {0x13, 0x01, 0x01, 0xff,  // addi sp, sp, -16
      0x23, 0x34, 0x11, 0x00,  // sd ra, 8(sp)
      0x17, 0x05, 0x00, 0x00,  // 8: auipc a0, %pcrel_hi(frames)
      0x13, 0x05, 0x05, 0x00,  // addi a0, a0, %pcrel_lo(8b)
      0x97, 0x05, 0x00, 0x00,  // 16: auipc a1, %pcrel_hi(object)
      0x93, 0x85, 0x05, 0x00,  // addi a1, a1, %pcrel_lo(16b)
      0x97, 0x00, 0x00, 0x00,  // auipc ra, %pcrel_hi(RegisterFn)    (call RegisterFn)
      0xe7, 0x80, 0x00, 0x00,  // jalr ra, %pcrel_lo(RegisterFn)(ra)
      0x83, 0x30, 0x81, 0x00,  // ld ra, 8(sp)
      0x13, 0x01, 0x01, 0x01,  // addi sp, sp, 16
      0x17, 0x03, 0x00, 0x00,  // 40: auipc t1, %pcrel_hi(next)
      0x03, 0x33, 0x03, 0x00,  // ld t1, %pcrel_lo(40b)(t1)
      0x63, 0x04, 0x03, 0x00,  // beqz t1, 1f
      0x67, 0x00, 0x03, 0x00,  // jr t1
      0x67, 0x80, 0x00, 0x00}, // 1: ret
     {{8, riscv64::R_RISCV_PCREL_HI20, 0, ThunkTarget::Frames},
      {12, riscv64::R_RISCV_PCREL_LO12_I, 0, ThunkTarget::Thunk, 8},
      {16, riscv64::R_RISCV_PCREL_HI20, 0, ThunkTarget::Object},
      {20, riscv64::R_RISCV_PCREL_LO12_I, 0, ThunkTarget::Thunk, 16},
      {24, riscv64::R_RISCV_CALL_PLT, 0, ThunkTarget::RegisterFn},
      {40, riscv64::R_RISCV_PCREL_HI20, 0, ThunkTarget::Next},
      {44, riscv64::R_RISCV_PCREL_LO12_I, 0, ThunkTarget::Thunk, 40}}},
};

// libgcc's `struct object` is at most 7 pointers (crtstuff reserves 8), then
// the chain's next thunk.
constexpr uint64_t ObjectSize = 64, StorageSize = ObjectSize + 8;
const char ZeroStorage[StorageSize] = {};

const RegistrationThunk *thunkFor(Arch A) {
  for (auto &T : Thunks)
    if (T.arch == A)
      return &T;
  return nullptr;
}

// The graph's own symbol named Name (its definition or its reference), or a
// new reference.
Symbol &symbolNamed(LinkGraph &G, std::string_view Name) {
  for (Symbol *S : G.externalSymbols())
    if (S->name == Name)
      return *S;
  for (Symbol *S : G.definedSymbols())
    if (S->name == Name && S->scope != Scope::Local)
      return *S;
  return G.addExternalSymbol(Name, 0, false);
}

} // namespace

void EHFrameRegistration::modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) {
  const RegistrationThunk *T = thunkFor(G.triple().arch);
  Section *EH = G.findSectionByName(ElfEHFrame.sectionName);
  if (!T || !EH || EH->blocks.empty())
    return;
  struct Added {
    Symbol *thunk;
    Block *storage;
  };
  auto New = std::make_shared<Added>();
  // After splitEHFrame (a target pass, configured first). The thunk is live
  // and keeps the first record with it (the terminator is live itself).
  Config.prePrunePasses.push_back([this, T, New](LinkGraph &G) -> Error {
    Section &EH = *G.findSectionByName(ElfEHFrame.sectionName);
    for (Block *B : EH.blocks) {
      B->alignment = 4;
      B->alignmentOffset = B->address % 4;
    }
    Block &First = **std::min_element(EH.blocks.begin(), EH.blocks.end(),
                                      [](Block *L, Block *R) { return L->address < R->address; });
    Symbol &Frames = G.addAnonymousSymbol(First, 0, 0, false, false);
    Section &Data = G.createSection(".linklab.eh_frame_object", MemProt::Read | MemProt::Write);
    New->storage = &G.createContentBlock(Data, {ZeroStorage, StorageSize}, 0, 8, 0);
    Symbol &Object = G.addAnonymousSymbol(*New->storage, 0, ObjectSize, false, false);
    Symbol &Next = G.addAnonymousSymbol(*New->storage, ObjectSize, 8, false, false);
    Section &Text = G.createSection(".linklab.eh_frame_register", MemProt::Read | MemProt::Exec);
    Block &Code = G.createContentBlock(Text, {reinterpret_cast<const char *>(T->code.data()), T->code.size()}, 0, 4, 0);
    New->thunk = &G.addAnonymousSymbol(Code, 0, Code.size, true, true);
    Symbol &Fn = symbolNamed(G, RegisterFn);
    for (const ThunkEdge &E : T->edges) {
      Symbol *Target = E.target == ThunkTarget::Frames   ? &Frames
                       : E.target == ThunkTarget::Object ? &Object
                       : E.target == ThunkTarget::Next   ? &Next
                       : E.target == ThunkTarget::Thunk  ? &G.addAnonymousSymbol(Code, E.thunkOffset, 0, false, false)
                                                         : &Fn;
      Code.addEdge(E.kind, E.offset, *Target, E.addend);
    }
    return Error::success();
  });
  // Addresses are known: this thunk goes first, then the previous newest.
  Config.postAllocationPasses.push_back([this, New, Name = MR.objectName](LinkGraph &G) -> Error {
    Addr Thunk = New->thunk->address();
    writeLE<uint64_t>(New->storage->mutableContent(G).data() + ObjectSize, Newest);
    if (PreInitEntry)
      Inits->repoint(InitArrays::PreInit, *PreInitEntry, Thunk);
    else if (!(PreInitEntry = Inits->add(InitArrays::PreInit, Thunk)))
      return makeError(Name + ": its .eh_frame cannot be registered: no graph with one was linked before the "
                              "program's init arrays were laid out");
    Newest = Thunk;
    return Error::success();
  });
}

} // namespace linklab
