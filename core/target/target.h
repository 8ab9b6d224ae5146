// The registry of supported targets, split as JITLink splits them:
//
// - an ArchRow per architecture, shared by every object format: edge kinds
//   and their names, fixups, the .eh_frame edge kinds, pointer size and data
//   byte order and the TLS variant (jitlink-check's instruction decoders and
//   the calling-convention tables are tables of their own, in check/ and
//   callconv/);
// - an ObjectFormatRow per object format: how to recognise a buffer and read
//   the machine, word size and byte order from its header;
// - a TargetInfo per format x arch pair: the header's machine number, the
//   graph builder (which object relocation becomes which edge kind) and that
//   pair's default passes (GOT/PLT/stubs, relaxation).
//
// createLinkGraph sniffs the format and the arch from a buffer and hands it to
// the pair's builder; the generic code asks these rows and never switches on
// an architecture.
//
// Adding an architecture: write core/arch/<arch>.{h,cpp} (edge kinds,
// fixups, GOT/stub builders, its ArchRow) and a decoder in core/check/, then
// add one LINKLAB_ARCH line to targets.def (which also adds the Arch
// enumerator), plus one row in emulator/arch_table.cpp if Unicorn runs it.
// Adding a format: write core/<format>/ (its ObjectFormatRow and graph
// builder) and add one LINKLAB_FORMAT line. Adding a format x arch pair:
// write core/<format>/<format>_<arch>.cpp (relocation mapping, its
// TargetInfo, defined `extern const` so no header needs to declare it) and
// add one LINKLAB_TARGET line.
#pragma once

#include "support/error.h"
#include "support/shared_bytes.h"
#include "target/triple.h"

#include <cstdint>

#include <memory>
#include <span>

namespace linklab {

class Block;
class LinkGraph;
class Section;
class Symbol;
struct Edge;
struct PassConfiguration;

// An address in the executor's memory.
using Addr = uint64_t;
// Edge kinds are small integers; each architecture numbers its own kinds from
// edge::FirstRelocation and names them (ArchRow::edgeKindName) for dumps and errors.
using EdgeKind = uint8_t;
using EdgeKindNameFn = const char *(*)(EdgeKind);

// The edge kinds a target uses for .eh_frame records.
struct EhFrameKinds {
  EdgeKind delta32, delta64, negDelta32, pointer32, pointer64;
};

// Where the TLS block sits relative to the thread pointer (ELF TLS variants).
enum class TLSVariant : uint8_t {
  BlockBelowTP,    // variant II (x86-64): the block ends at TP
  BlockAfterTCB16, // variant I (AArch64): a 16-byte TCB at TP, then the block
  BlockAfterTCB8,  // variant I (32-bit Arm): an 8-byte TCB at TP, then the block
  BlockAtTP,       // variant I (RISC-V): the block starts at TP
};

struct ArchRow {
  Arch arch;
  const char *name;         // canonical triple spelling: "x86_64"
  const char *aliases = ""; // other triple spellings, space-separated ("amd64"), or ""
  uint8_t pointerSize;      // bytes
  bool bigEndian = false;   // data byte order (instructions may differ: AArch64 BE)
  EdgeKindNameFn edgeKindName;
  // Bytes a kind's fixup writes from the edge's offset on (the edge-kind list's Width).
  unsigned (*edgeKindWidth)(EdgeKind);
  Error (*applyFixup)(LinkGraph &G, Block &B, const Edge &E);
  EhFrameKinds ehFrame;
  TLSVariant tlsVariant; // where the executor points TP, as the psABI says
  // A PLT-style stub jumping through the 8-byte pointer at Pointer (the GOT
  // stub), which lowered STT_GNU_IFUNC symbols become; null where IFUNC
  // lowering is not modelled (its slots and records are 64-bit).
  Symbol &(*createPointerJumpStub)(LinkGraph &G, Section &Stubs, Symbol &Pointer);
  // The address other graphs and lookups see for a defined symbol (Arm: a
  // Thumb function's with bit 0 set); null: Symbol::address().
  Addr (*exportedAddress)(const Symbol &S) = nullptr;
  // Why no executor can run this arch's code (the emulator lacks the ISA or
  // mode), for the error a run request gets; null if one may.
  const char *cannotRun = nullptr;
};

// What a format's header says about the code inside.
struct ObjectIdentity {
  uint32_t machine;    // ELF e_machine, MachO cputype, COFF Machine
  uint8_t pointerSize; // bytes (ELF class, MachO 64-bit magic...)
  bool bigEndian;
  const char *os = ""; // the OS the object names, as LLVM spells it in a triple ("freebsd"); "" for none
};

using GraphBuffer = SharedBytes;
struct TargetInfo;

struct ObjectFormatRow {
  ObjectFormat format;
  const char *name;                             // "ELF"
  const char *tripleSuffix;                     // appended to the arch name for a graph's triple
  bool (*matches)(std::span<const char> Bytes); // magic number check
  // Reads the identity from a buffer matches() accepted; errors name Name.
  Expected<ObjectIdentity> (*identify)(const std::string &Name, std::span<const char> Bytes);
  // The machine number's name in this format ("EM_RISCV"), or null.
  const char *(*machineName)(uint32_t Machine);
};

// One format x arch pair.
struct TargetInfo {
  const ObjectFormatRow &format;
  const ArchRow &arch;
  uint32_t machine; // as ObjectIdentity::machine
  // The pair's full triple as clang spells it ("x86_64-unknown-linux-gnu"):
  // what inspection, link results and errors report (fullTriple).
  const char *triple;
  Expected<std::unique_ptr<LinkGraph>> (*createGraph)(const TargetInfo &T, std::string Name, GraphBuffer Buffer);
  // GOT/PLT/stub builders, relaxation... (.eh_frame splitting is generic)
  void (*addDefaultPasses)(LinkGraph &G, PassConfiguration &Config);
  // "R_X86_64_PC32" for a relocation type of this format, or null if unknown
  // (object inspection tools; the mapping table in the pair's file is the source).
  const char *(*relocationName)(uint32_t Type);
  // The relocation type a static linker describes an IFUNC's pointer slot
  // with (R_<ARCH>_IRELATIVE), or 0 if the format has none.
  uint32_t irelativeType = 0;
  // Whether those records are REL ({r_offset, r_info}, the resolver's
  // address stored in the slot: i386, Arm) rather than RELA (the resolver
  // in r_addend); platform/ifunc.h.
  bool irelativeRel = false;
};

// The row of a registered architecture; every Arch enumerator but Unknown
// has one (the enum is generated from the same table).
const ArchRow &archRow(Arch A);
// Its edge-kind names, or null for an unknown arch (graphs a link makes
// itself: tables, merged sections).
EdgeKindNameFn edgeKindNamesOf(const Triple &TT);
// By triple spelling ("x86_64", "amd64"); null if unknown.
const ArchRow *findArchRow(std::string_view Name);
// Every registered row, in table order.
std::span<const ArchRow *const> allArchRows();
std::span<const TargetInfo *const> allTargets();

// An error naming the arch and ArchRow::cannotRun if TT's code cannot be run.
Error checkRunnable(const Triple &TT);

// The pair for a triple's format and arch, or null.
const TargetInfo *findTarget(const Triple &TT);
// The triple graphs of target T carry: llvm-jitlink's spelling ("x86_64--"),
// which its graph dumps print and LLVM's tests match.
Triple targetTriple(const TargetInfo &T);
// The triple to report for TT: its pair's full triple (TargetInfo::triple);
// for ELF, an OS other than Linux that TT names is kept
// ("x86_64--freebsd" -> "x86_64-unknown-freebsd"). TT.str for a triple no
// pair handles.
std::string fullTriple(const Triple &TT);

// The pair an object is for, from its header alone; an unknown format, or a
// machine/word size/byte order no row handles, is an error naming them.
Expected<const TargetInfo *> identifyObject(const std::string &Name, std::span<const char> Bytes);
// Whether some format row recognises Bytes' magic (whatever its machine).
bool isObjectFile(std::span<const char> Bytes);
// The object's triple, as its graph spells it (reports say fullTriple of it).
Expected<Triple> tripleOfObject(const std::string &Name, std::span<const char> Bytes);
} // namespace linklab
