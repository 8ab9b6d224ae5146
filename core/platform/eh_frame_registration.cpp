#include "platform/eh_frame_registration.h"

#include "arch/aarch64.h"
#include "arch/i386.h"
#include "arch/riscv64.h"
#include "arch/x86_64.h"
#include "link/eh_frame.h"

#include <algorithm>

namespace linklab {

namespace {

// What a thunk edge points at.
enum class ThunkTarget : uint8_t { Record, RegisterFn, Thunk };
struct ThunkEdge {
  uint32_t offset;
  EdgeKind kind;
  int64_t addend;
  ThunkTarget target;
  uint32_t thunkOffset = 0; // ThunkTarget::Thunk: the auipc a RISC-V %pcrel_lo names
};
// for (r = &record; r; r = r->next) RegisterFn(r->frames, &r->object);
// per arch (instructions little-endian), with r in a callee-saved register
// and the stack aligned for the call. Every graph has a copy, but only the
// newest runs: it walks the records of all graphs, so a program's start
// translates one loop instead of two or three blocks per graph (about 900
// blocks of a glibc hello world on x86-64, 1 100 on AArch64). The call goes
// through the arch's usual external-call edge, so the GOT/stub pass gives it
// a stub when needed. `pointer` is the arch's pointer edge (the record's
// frames word; 32-bit on i386, whose records keep the same offsets).
struct RegistrationThunk {
  Arch arch;
  EdgeKind pointer;
  std::vector<uint8_t> code;
  std::vector<ThunkEdge> edges;
};
const RegistrationThunk Thunks[] = {
    {Arch::X86_64,
     x86_64::Pointer64,
     {0x53,                            //     push %rbx                 (aligns the call)
      0x48, 0x8d, 0x1d, 0,    0, 0, 0, //     lea record(%rip), %rbx
      0x48, 0x8b, 0x7b, 0x48,          // 1:  mov 72(%rbx), %rdi        (frames)
      0x48, 0x89, 0xde,                //     mov %rbx, %rsi            (object)
      0xe8, 0,    0,    0,    0,       //     call RegisterFn
      0x48, 0x8b, 0x5b, 0x40,          //     mov 64(%rbx), %rbx        (next)
      0x48, 0x85, 0xdb,                //     test %rbx, %rbx
      0x75, 0xeb,                      //     jnz 1b
      0x5b,                            //     pop %rbx
      0xc3},                           //     ret
     {{4, x86_64::Delta32, -4, ThunkTarget::Record}, {16, x86_64::BranchPCRel32, 0, ThunkTarget::RegisterFn}}},
    {Arch::AArch64,
     aarch64::Pointer64,
     {0xfd, 0x7b, 0xbe, 0xa9,  //     stp x29, x30, [sp, #-32]!
      0xf3, 0x0b, 0x00, 0xf9,  //     str x19, [sp, #16]
      0x13, 0x00, 0x00, 0x90,  //     adrp x19, record
      0x73, 0x02, 0x00, 0x91,  //     add x19, x19, :lo12:record
      0x60, 0x26, 0x40, 0xf9,  // 1:  ldr x0, [x19, #72]           (frames)
      0xe1, 0x03, 0x13, 0xaa,  //     mov x1, x19                  (object)
      0x00, 0x00, 0x00, 0x94,  //     bl RegisterFn
      0x73, 0x22, 0x40, 0xf9,  //     ldr x19, [x19, #64]          (next)
      0x93, 0xff, 0xff, 0xb5,  //     cbnz x19, 1b
      0xf3, 0x0b, 0x40, 0xf9,  //     ldr x19, [sp, #16]
      0xfd, 0x7b, 0xc2, 0xa8,  //     ldp x29, x30, [sp], #32
      0xc0, 0x03, 0x5f, 0xd6}, //     ret
     {{8, aarch64::Page21, 0, ThunkTarget::Record},
      {12, aarch64::PageOffset12, 0, ThunkTarget::Record},
      {24, aarch64::Branch26PCRel, 0, ThunkTarget::RegisterFn}}},
    {Arch::RISCV64,
     riscv64::R_RISCV_64,
     {0x13, 0x01, 0x01, 0xff,  //      addi sp, sp, -16
      0x23, 0x34, 0x11, 0x00,  //      sd ra, 8(sp)
      0x23, 0x30, 0x81, 0x00,  //      sd s0, 0(sp)
      0x17, 0x04, 0x00, 0x00,  // 12:  auipc s0, %pcrel_hi(record)
      0x13, 0x04, 0x04, 0x00,  //      addi s0, s0, %pcrel_lo(12b)
      0x03, 0x35, 0x84, 0x04,  // 1:   ld a0, 72(s0)                (frames)
      0x93, 0x05, 0x04, 0x00,  //      mv a1, s0                    (object)
      0x97, 0x00, 0x00, 0x00,  //      auipc ra, %pcrel_hi(RegisterFn)    (call RegisterFn)
      0xe7, 0x80, 0x00, 0x00,  //      jalr ra, %pcrel_lo(RegisterFn)(ra)
      0x03, 0x34, 0x04, 0x04,  //      ld s0, 64(s0)                (next)
      0xe3, 0x16, 0x04, 0xfe,  //      bnez s0, 1b
      0x83, 0x30, 0x81, 0x00,  //      ld ra, 8(sp)
      0x03, 0x34, 0x01, 0x00,  //      ld s0, 0(sp)
      0x13, 0x01, 0x01, 0x01,  //      addi sp, sp, 16
      0x67, 0x80, 0x00, 0x00}, //      ret
     {{12, riscv64::R_RISCV_PCREL_HI20, 0, ThunkTarget::Record},
      {16, riscv64::R_RISCV_PCREL_LO12_I, 0, ThunkTarget::Thunk, 12},
      {28, riscv64::R_RISCV_CALL_PLT, 0, ThunkTarget::RegisterFn}}},
    // Arguments on the stack: entered with %esp 4 below a 16-byte boundary,
    // the pushes of %ebx and the two arguments align the call.
    {Arch::I386,
     i386::Pointer32,
     {0x53,                   //     push %ebx
      0xbb, 0,    0,    0, 0, //     mov $record, %ebx
      0x53,                   // 1:  push %ebx                 (object)
      0xff, 0x73, 0x48,       //     push 72(%ebx)             (frames)
      0xe8, 0,    0,    0, 0, //     call RegisterFn
      0x83, 0xc4, 0x08,       //     add $8, %esp
      0x8b, 0x5b, 0x40,       //     mov 64(%ebx), %ebx        (next)
      0x85, 0xdb,             //     test %ebx, %ebx
      0x75, 0xed,             //     jnz 1b
      0x5b,                   //     pop %ebx
      0xc3},                  //     ret
     {{2, i386::Pointer32, 0, ThunkTarget::Record}, {11, i386::BranchPCRel32, -4, ThunkTarget::RegisterFn}}},
};

// A graph's record: libgcc's `struct object` (at most 7 pointers; crtstuff
// reserves 8), the previous graph's record (the chain's next), and the
// graph's first .eh_frame record; 64-bit slots on every arch (a 32-bit one
// uses the first half of each).
constexpr uint64_t ObjectSize = 64, NextAt = ObjectSize, FramesAt = NextAt + 8, RecordSize = FramesAt + 8;
const char ZeroRecord[RecordSize] = {};

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

bool EHFrameRegistration::registers(const LinkGraph &G) {
  const Section *EH = G.findSectionByName(ElfEHFrame.sectionName);
  return thunkFor(G.triple().arch) && EH && !EH->blocks.empty();
}

void EHFrameRegistration::addReferences(const LinkGraph &G, std::vector<std::string> &Names) const {
  if (registers(G))
    Names.push_back(RegisterFn);
}

void EHFrameRegistration::modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) {
  if (!registers(G))
    return;
  const RegistrationThunk *T = thunkFor(G.triple().arch);
  struct Added {
    Symbol *thunk;
    Block *record;
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
    New->record = &G.createContentBlock(Data, {ZeroRecord, RecordSize}, 0, 8, 0);
    New->record->addEdge(T->pointer, FramesAt, Frames, 0);
    Symbol &Record = G.addAnonymousSymbol(*New->record, 0, RecordSize, false, false);
    Section &Text = G.createSection(".linklab.eh_frame_register", MemProt::Read | MemProt::Exec);
    Block &Code = G.createContentBlock(Text, {reinterpret_cast<const char *>(T->code.data()), T->code.size()}, 0, 4, 0);
    New->thunk = &G.addAnonymousSymbol(Code, 0, Code.size, true, true);
    Symbol &Fn = symbolNamed(G, RegisterFn);
    for (const ThunkEdge &E : T->edges) {
      Symbol *Target = E.target == ThunkTarget::Record  ? &Record
                       : E.target == ThunkTarget::Thunk ? &G.addAnonymousSymbol(Code, E.thunkOffset, 0, false, false)
                                                        : &Fn;
      Code.addEdge(E.kind, E.offset, *Target, E.addend);
    }
    return Error::success();
  });
  // Addresses are known: this graph's record goes first, then the previous
  // newest's, and the .preinit_array entry names this graph's thunk.
  Config.postAllocationPasses.push_back([this, New, Name = MR.objectName](LinkGraph &G) -> Error {
    Addr Thunk = New->thunk->address();
    char *Next = New->record->mutableContent(G).data() + NextAt;
    if (G.pointerSize() == 4)
      writeLE<uint32_t>(Next, uint32_t(NewestRecord));
    else
      writeLE<uint64_t>(Next, NewestRecord);
    if (PreInitEntry)
      Inits->repoint(InitArrays::PreInit, *PreInitEntry, Thunk);
    else if (!(PreInitEntry = Inits->add(InitArrays::PreInit, Thunk)))
      return makeError(Name + ": its .eh_frame cannot be registered: no graph with one was linked before the "
                              "program's init arrays were laid out");
    NewestRecord = New->record->address;
    NewestThunk = Thunk;
    return Error::success();
  });
}

} // namespace linklab
