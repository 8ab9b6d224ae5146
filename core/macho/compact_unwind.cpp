#include "macho/compact_unwind.h"

#include "macho/macho_graph_builder.h"

#include <algorithm>

namespace linklab {

namespace {

constexpr const char *CompactUnwindName = "__LD,__compact_unwind";
constexpr const char *UnwindInfoName = "__TEXT,__unwind_info";
constexpr const char *HeaderName = "__TEXT,__lcl_macho_hdr";
constexpr const char *EHFrameName = "__TEXT,__eh_frame";
constexpr const char *DSOBaseName = "__jitlink$libunwind_dso_base";

// A 64-bit record: function pointer, length, encoding, personality, LSDA.
constexpr uint32_t RecordSize = 32, EncodingOffset = 12, PersonalityOffset = 16, LSDAOffset = 24;

// __unwind_info layout (<mach-o/compact_unwind_encoding.h>): a 7-word header,
// personalities, index entries {function offset, second-level page, LSDA
// index} plus a terminator, LSDA entries {function, LSDA}, then regular
// second-level pages {kind 2, header size 8, count; {function, encoding}...}.
constexpr size_t HeaderSize = 28, IndexEntrySize = 12, LSDAEntrySize = 8, PageSize = 4096, PageHeaderSize = 8,
                 PageEntrySize = 8, RecordsPerPage = (PageSize - PageHeaderSize) / PageEntrySize;

// Encoding bits per architecture: the mode field, the mode that defers to
// DWARF (its low 24 bits then hold the FDE's offset in __eh_frame), and on
// x86-64 the mode whose records cannot merge with an equal neighbour.
struct EncodingTraits {
  uint32_t modeMask, dwarfMode, unmergeableMode;
  bool needsDWARF(uint32_t E) const { return (E & modeMask) == dwarfMode; }
  bool canMerge(uint32_t E) const { return !needsDWARF(E) && (!unmergeableMode || (E & modeMask) != unmergeableMode); }
};
constexpr uint32_t DWARFOffsetMask = 0x00ffffff;

EncodingTraits traitsFor(const LinkGraph &G) {
  if (G.triple().arch == Arch::X86_64)
    return {0x0f000000, 0x04000000, 0x03000000};
  return {0x0f000000, 0x03000000, 0};
}

Error cuError(const LinkGraph &G, const Block &B, const std::string &Problem) {
  return makeError(
      formatv("%s: %s+%s: %s", G.name().c_str(), CompactUnwindName, hex(B.address).c_str(), Problem.c_str()));
}

const Edge *edgeAt(const Block &B, uint32_t Off, bool KeepAlive = false) {
  for (const Edge &E : B.edges)
    if (E.offset == Off && (E.kind == edge::KeepAlive) == KeepAlive)
      return &E;
  return nullptr;
}

struct UnwindRecord {
  Symbol *fn;
  uint32_t encoding;
  Symbol *lsda, *fde;
};

// The state the post-prune and post-allocation passes share for one graph.
struct UnwindInfo {
  Symbol *base = nullptr;
  std::vector<UnwindRecord> records;
  size_t numLSDAs = 0;

  // Each function keeps its record alive; if it already keeps an FDE alive,
  // that edge moves to the record, which keeps the FDE only when its encoding
  // defers to DWARF.
  static Error prepareForPrune(LinkGraph &G) {
    Section *CU = G.findSectionByName(CompactUnwindName);
    if (!CU || CU->empty())
      return Error::success();
    EncodingTraits T = traitsFor(G);
    Section *EH = G.findSectionByName(EHFrameName);
    for (Block *B : std::vector<Block *>(CU->blocks)) {
      const Edge *PCBegin = edgeAt(*B, 0);
      if (!PCBegin)
        return cuError(G, *B, "record has no function (no edge at offset 0)");
      Symbol &Fn = *PCBegin->target;
      if (!Fn.isDefined())
        return cuError(G, *B, "record's function " + std::string(Fn.name) + " is not defined in this object");
      bool DWARF = T.needsDWARF(readLE<uint32_t>(B->content().data() + EncodingOffset));
      Symbol &Rec = G.addAnonymousSymbol(*B, 0, RecordSize, false, false);
      Edge *ToFDE = nullptr;
      for (Edge &E : Fn.block().edges)
        if (EH && E.offset == 0 && E.kind == edge::KeepAlive && E.target->isDefined() && &E.target->section() == EH) {
          ToFDE = &E;
          break;
        }
      if (ToFDE) {
        Symbol &FDE = *ToFDE->target;
        ToFDE->target = &Rec;
        if (DWARF)
          B->addEdge(edge::KeepAlive, 0, FDE, 0);
        continue;
      }
      if (DWARF)
        return cuError(G, *B, "record's encoding defers to DWARF, but its function has no FDE in __TEXT,__eh_frame");
      Fn.block().addEdge(edge::KeepAlive, 0, Rec, 0);
    }
    return Error::success();
  }

  // The mach header unwind offsets count from: an absolute symbol of that
  // name in the graph pins it (as a JITDylib's shared header does);
  // otherwise llvm-jitlink writes one per graph that has unwind info, laid
  // out before its code, and names it for libunwind.
  void findOrCreateBase(LinkGraph &G) {
    for (Symbol *S : G.absoluteSymbols())
      if (S->name == DSOBaseName) {
        base = S;
        return;
      }
    createHeader(G);
  }
  void createHeader(LinkGraph &G) {
    Section &S = G.createSection(HeaderName, MemProt::Read);
    char *H = G.allocateBuffer(32, 8);
    std::memset(H, 0, 32);
    bool X86 = G.triple().arch == Arch::X86_64;
    writeLE<uint32_t>(H, macho::MH_MAGIC_64);
    writeLE<uint32_t>(H + 4, X86 ? macho::CPU_TYPE_X86_64 : macho::CPU_TYPE_ARM64);
    writeLE<uint32_t>(H + 8, X86 ? 3 : 0); // CPU_SUBTYPE_X86_64_ALL, CPU_SUBTYPE_ARM64_ALL
    writeLE<uint32_t>(H + 12, 6);          // MH_DYLIB
    Block &B = G.createMutableContentBlock(S, {H, 32}, 0, 8, 0);
    G.addAnonymousSymbol(B, 0, 32, false, true);
    base = &G.addDefinedSymbol(B, 0, DSOBaseName, 32, Linkage::Strong, Scope::Local, false, true);
  }

  // Post-prune: the surviving records, and a zeroed __unwind_info block of
  // the size they need, keeping every function with a record alive.
  Error reserve(LinkGraph &G) {
    Section *CU = G.findSectionByName(CompactUnwindName);
    if (!CU)
      return Error::success();
    CU->lifetime = MemLifetime::NoAlloc; // input to the linker only
    findOrCreateBase(G);
    if (G.findSectionByName(UnwindInfoName))
      return makeError(G.name() + ": " + UnwindInfoName + " already exists; it cannot be merged");
    for (Block *B : CU->blocks) {
      UnwindRecord R{nullptr, readLE<uint32_t>(B->content().data() + EncodingOffset), nullptr, nullptr};
      for (const Edge &E : B->edges) {
        if (E.offset == 0)
          (E.kind == edge::KeepAlive ? R.fde : R.fn) = E.target;
        else if (E.offset == PersonalityOffset)
          return cuError(G, *B, "records with a personality function (C++ exceptions) are not supported");
        else if (E.offset == LSDAOffset) {
          R.lsda = E.target;
          ++numLSDAs;
        } else
          return cuError(G, *B, formatv("unexpected edge at record offset %s", hex(E.offset).c_str()));
      }
      if (!R.fn)
        return cuError(G, *B, "record has no function (no edge at offset 0)");
      records.push_back(R);
    }
    std::stable_sort(records.begin(), records.end(),
                     [](const UnwindRecord &L, const UnwindRecord &R) { return L.fn->address() < R.fn->address(); });
    size_t Pages = (records.size() + RecordsPerPage - 1) / RecordsPerPage;
    size_t Size = HeaderSize + (Pages + 1) * IndexEntrySize + numLSDAs * LSDAEntrySize + Pages * PageHeaderSize +
                  records.size() * PageEntrySize;
    Section &S = G.createSection(UnwindInfoName, MemProt::Read);
    char *Buf = G.allocateBuffer(Size, 8);
    std::memset(Buf, 0, Size);
    Block &B = G.createMutableContentBlock(S, {Buf, Size}, 0, 8, 0);
    for (const UnwindRecord &R : records)
      B.addEdge(edge::KeepAlive, 0, *R.fn, 0);
    return Error::success();
  }

  // After allocation: the table, with neighbouring records of equal
  // encoding merged (the reserved size allows for none merging).
  Error write(LinkGraph &G) {
    if (records.empty())
      return Error::success();
    EncodingTraits T = traitsFor(G);
    std::vector<UnwindRecord> Merged{records.front()};
    for (size_t I = 1; I < records.size(); ++I) {
      const UnwindRecord &Next = records[I], &Last = Merged.back();
      if (!T.canMerge(Next.encoding) || Next.encoding != Last.encoding || Next.lsda || Last.lsda)
        Merged.push_back(Next);
    }
    Section *S = G.findSectionByName(UnwindInfoName);
    Block &B = *S->blocks.front();
    char *Out = B.mutableContent(G).data();
    Addr Base = base->address();
    // llvm-jitlink's words ("In G __TEXT,__unwind_info, delta to ... exceeds
    // 32 bits"), then the base. It checks the end of the functions first and
    // each function in the second-level pages, so index entries wrap
    // unchecked (What null) as its do.
    std::string Err;
    auto Delta = [&](Addr A, const char *What) -> uint32_t {
      if (What && (A < Base || A - Base > UINT32_MAX) && Err.empty())
        Err = formatv("In %s %s, delta to %s %s exceeds 32 bits (from %s at %s)", G.name().c_str(), UnwindInfoName,
                      What, hex(A).c_str(), DSOBaseName, hex(Base).c_str());
      return uint32_t(A - Base);
    };
    size_t Pos = 0;
    auto Put32 = [&](uint32_t V) { writeLE<uint32_t>(Out + Pos, V), Pos += 4; };
    size_t Pages = (Merged.size() + RecordsPerPage - 1) / RecordsPerPage;
    Put32(1);          // UNWIND_SECTION_VERSION
    Put32(HeaderSize); // no common encodings
    Put32(0);
    Put32(HeaderSize); // no personalities
    Put32(0);
    Put32(HeaderSize);
    Put32(uint32_t(Pages + 1));
    size_t LSDAs = Pos + (Pages + 1) * IndexEntrySize;
    size_t FirstPage = LSDAs + numLSDAs * LSDAEntrySize;
    size_t PrevLSDAs = 0;
    for (size_t I = 0; I < Merged.size(); ++I) {
      if (I % RecordsPerPage == 0) {
        Put32(Delta(Merged[I].fn->address(), nullptr));
        Put32(uint32_t(FirstPage + PageSize * (I / RecordsPerPage)));
        Put32(uint32_t(LSDAs + PrevLSDAs * LSDAEntrySize));
      }
      PrevLSDAs += Merged[I].lsda != nullptr;
    }
    const Symbol &LastFn = *Merged.back().fn;
    Put32(Delta(LastFn.address() + LastFn.size, "end of functions "));
    Put32(0);
    Put32(uint32_t(FirstPage));
    for (const UnwindRecord &R : Merged)
      if (R.lsda) {
        Put32(Delta(R.fn->address(), nullptr));
        Put32(Delta(R.lsda->address(), "lsda at"));
      }
    Addr EHBase = 0;
    for (size_t I = 0; I < Merged.size(); ++I) {
      const UnwindRecord &R = Merged[I];
      if (I % RecordsPerPage == 0) {
        Put32(2); // UNWIND_SECOND_LEVEL_REGULAR
        writeLE<uint16_t>(Out + Pos, PageHeaderSize);
        writeLE<uint16_t>(Out + Pos + 2, uint16_t(std::min(Merged.size() - I, RecordsPerPage)));
        Pos += 4;
      }
      uint32_t Encoding = R.encoding;
      if (T.needsDWARF(Encoding)) {
        if (!R.fde)
          return makeError(formatv("%s: %s: record for %s defers to DWARF but has no FDE", G.name().c_str(),
                                   UnwindInfoName, std::string(R.fn->name).c_str()));
        if (!EHBase)
          EHBase = R.fde->section().address();
        Addr Off = R.fde->address() - EHBase;
        if (Off & ~Addr(DWARFOffsetMask))
          return makeError(formatv("%s: %s: FDE offset %s does not fit the encoding", G.name().c_str(), UnwindInfoName,
                                   hex(Off).c_str()));
        Encoding |= uint32_t(Off);
      }
      Put32(Delta(R.fn->address(), "function at"));
      Put32(Encoding);
    }
    return Err.empty() ? Error::success() : makeError(Err);
  }
};

} // namespace

Error splitCompactUnwind(LinkGraph &G) {
  Section *CU = G.findSectionByName(CompactUnwindName);
  if (!CU)
    return Error::success();
  for (Block *B : std::vector<Block *>(CU->blocks)) {
    if (B->size == 0)
      continue;
    if (B->size % RecordSize || B->isZeroFill())
      return cuError(
          G, *B,
          formatv("block of size %s is not a whole number of %u-byte records", hex(B->size).c_str(), RecordSize));
    std::vector<uint64_t> Starts;
    for (uint64_t Off = RecordSize; Off < B->size; Off += RecordSize)
      Starts.push_back(Off);
    for (Block *Rec : G.splitBlock(*B, Starts)) {
      bool HasFn = false;
      for (const Edge &E : Rec->edges) {
        if (E.offset == 0) {
          if (!E.target->isDefined())
            return cuError(G, *Rec, "record's function " + std::string(E.target->name) + " is external");
          Symbol &RecSym = G.addAnonymousSymbol(*Rec, 0, RecordSize, false, false);
          E.target->block().addEdge(edge::KeepAlive, 0, RecSym, 0);
          HasFn = true;
        } else if (E.offset != PersonalityOffset && E.offset != LSDAOffset)
          return cuError(G, *Rec, formatv("unexpected edge at record offset %s", hex(E.offset).c_str()));
      }
      if (!HasFn)
        return cuError(G, *Rec, "record has no function (no edge at offset 0)");
    }
  }
  return Error::success();
}

void addUnwindInfoPasses(PassConfiguration &Config) {
  auto Info = std::make_shared<UnwindInfo>();
  Config.prePrunePasses.push_back(UnwindInfo::prepareForPrune);
  Config.postPrunePasses.push_back([Info](LinkGraph &G) { return Info->reserve(G); });
  Config.postAllocationPasses.push_back([Info](LinkGraph &G) { return Info->write(G); });
}

} // namespace linklab
