#include "session/link_info.h"

#include <bit>

#include "arch/arm.h"
#include "link/table_manager.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <tuple>
#include <unordered_set>

namespace linklab {

void LinkInfoRecorder::recordWhenAsked(const Session &S) {
  assert(S.keepsLinkedGraphs() && "deferred records read graphs the session keeps");
  (void)S;
  WhenAsked = true;
}

void LinkInfoRecorder::modifyPassConfig(const MaterializationInfo &MR, LinkGraph &, PassConfiguration &Config) {
  Config.prePrunePasses.push_back([this](LinkGraph &G) {
    std::vector<LocalFunction> &L = LocalsBeforePrune[&G];
    L.clear();
    G.forEachDefinedSymbol([&](Symbol &S) {
      if (S.hasName() && S.callable && S.scope == Scope::Local)
        L.push_back({S.name, &S.block(), &S.section(), S.offset, S.size});
    });
    return Error::success();
  });
  Config.postFixupPasses.push_back([this, Key = MR.key](LinkGraph &G) {
    if (WhenAsked && !RecordContents && DumpPatterns.empty()) {
      Pending.push_back({Key, &G});
      return Error::success();
    }
    recordPending(); // in order
    record(G);
    return Error::success();
  });
}

Error LinkInfoRecorder::notifyFailed(const MaterializationInfo &MR) {
  recordPending(MR.key);
  return Error::success();
}

// Every pending graph up to and including the last of Only's (0: all).
void LinkInfoRecorder::recordPending(ResourceKey Only) const {
  size_t N = Pending.size();
  if (Only)
    for (N = Pending.size(); N && Pending[N - 1].first != Only; --N) {
    }
  for (size_t I = 0; I < N; ++I)
    record(*Pending[I].second);
  Pending.erase(Pending.begin(), Pending.begin() + N);
}

const std::vector<ObjectLinkInfo> &LinkInfoRecorder::objects() const {
  recordPending();
  return Objects;
}

// The name a GOT entry or stub leads to: follow its first edge, through a
// GOT entry if the stub jumps via one.
static const Symbol *entryTarget(const Block &B) {
  if (B.edges.empty())
    return nullptr;
  const Symbol *T = B.edges.front().target;
  if (T->isDefined() && T->section().name == GOTSectionName && !T->block().edges.empty())
    T = T->block().edges.front().target;
  return T;
}

void LinkInfoRecorder::record(LinkGraph &G) const {
  ObjectLinkInfo Info;
  Info.name = G.name();
  for (auto &S : G.sections()) {
    if (S->lifetime == MemLifetime::NoAlloc || S->blocks.empty())
      continue;
    ObjectLinkInfo::SectionInfo SI;
    SI.name = std::string(S->name);
    SI.prot = S->prot;
    SI.zeroFill = std::all_of(S->blocks.begin(), S->blocks.end(), [](Block *B) { return B->isZeroFill(); });
    Addr Lo = ~Addr(0), Hi = 0;
    for (Block *B : S->blocks) {
      Lo = std::min(Lo, B->address);
      Hi = std::max(Hi, B->address + B->size);
    }
    SI.address = Lo;
    SI.size = Hi - Lo;
    if (RecordContents) {
      SI.content.assign(SI.size, 0);
      for (Block *B : S->blocks)
        if (!B->isZeroFill() && B->size) // an empty block may have no bytes at all
          std::memcpy(SI.content.data() + (B->address - Lo), B->data, B->size);
    }
    // Arm's stubs have JITLink's name for them, so that dumps line up.
    bool IsGOT = S->name == GOTSectionName,
         IsStubs = S->name == StubsSectionName || S->name == arm::ArmStubsSectionName;
    if (IsGOT || IsStubs)
      for (Block *B : S->blocks)
        if (const Symbol *T = entryTarget(*B); T && T->hasName()) {
          (IsGOT ? Info.gotEntries : Info.stubs).emplace(std::string(T->name), B->address);
          if (IsStubs)
            Info.allStubs.emplace(std::string(T->name), B->address);
          Info.entrySizes.emplace(B->address, B->size);
        }
    Info.sections.push_back(std::move(SI));
  }
  // The memory manager's segments, grouped as BasicLayout groups blocks:
  // one per protection, in protection order.
  Addr Lo[8], Hi[8];
  std::fill(std::begin(Lo), std::end(Lo), ~Addr(0));
  std::fill(std::begin(Hi), std::end(Hi), Addr(0));
  for (auto &S : G.sections())
    if (S->lifetime != MemLifetime::NoAlloc)
      for (const Block *B : S->blocks) {
        unsigned P = unsigned(S->prot) & 7;
        Lo[P] = std::min(Lo[P], B->address), Hi[P] = std::max(Hi[P], B->address + B->size);
      }
  for (unsigned P = 0; P < 8; ++P)
    if (Hi[P] > Lo[P])
      Info.segments.push_back({Lo[P], Hi[P] - Lo[P], MemProt(P)});
  // Sorted as pointers first: a run records hundreds of graphs, and sorting
  // the records themselves (two strings each) was most of the recording.
  std::vector<const Symbol *> Named;
  G.forEachDefinedSymbol([&](Symbol &S) {
    if (S.hasName())
      Named.push_back(&S);
  });
  for (Symbol *S : G.absoluteSymbols())
    if (S->hasName())
      Named.push_back(S);
  std::stable_sort(Named.begin(), Named.end(), [](const Symbol *L, const Symbol *R) { return L->name < R->name; });
  Named.erase(
      std::unique(Named.begin(), Named.end(), [](const Symbol *L, const Symbol *R) { return L->name == R->name; }),
      Named.end());
  Info.symbols.reserve(Named.size());
  for (const Symbol *S : Named)
    Info.symbols.emplace_back(
        std::string(S->name),
        S->isDefined() ? ObjectLinkInfo::SymbolInfo{S->address(), S->size, S->scope, std::string(S->section().name),
                                                    S->callable, S->block().isZeroFill(), S->targetFlags}
                       : ObjectLinkInfo::SymbolInfo{S->address(), S->size, S->scope, "", false, true});
  // The pruned ones: a block still in the graph (the same section: a block
  // made after pruning may sit where a pruned one was) without the name.
  if (auto L = LocalsBeforePrune.find(&G); L != LocalsBeforePrune.end() && !L->second.empty()) {
    std::unordered_set<const Block *> Live;
    for (auto &S : G.sections())
      Live.insert(S->blocks.begin(), S->blocks.end());
    for (const LocalFunction &F : L->second)
      if (Live.count(F.block) && F.block->section == F.section && F.offset < F.block->size && !Info.findSymbol(F.name))
        Info.prunedFunctions.emplace_back(F.name,
                                          ObjectLinkInfo::SymbolInfo{F.block->address + F.offset, F.size, Scope::Local,
                                                                     std::string(F.section->name), true});
  }
  LocalsBeforePrune.erase(&G);
  for (auto &P : DumpPatterns)
    if (std::regex_search(G.name(), P)) {
      Info.graphDump = G.dump();
      break;
    }
  Objects.push_back(std::move(Info));
}

const ObjectLinkInfo::SymbolInfo *ObjectLinkInfo::findSymbol(std::string_view Name) const {
  auto It = std::lower_bound(symbols.begin(), symbols.end(), Name,
                             [](const auto &E, std::string_view N) { return E.first < N; });
  return It != symbols.end() && It->first == Name ? &It->second : nullptr;
}

const ObjectLinkInfo *LinkInfoRecorder::find(std::string_view File) const {
  for (auto &O : objects()) {
    std::string_view N = O.name;
    std::string_view Base = N.substr(N.find_last_of('/') == std::string_view::npos ? 0 : N.find_last_of('/') + 1);
    if (N == File || Base == File)
      return &O;
  }
  return nullptr;
}

// One MemoryRegionInfo line as llvm-jitlink prints it.
static std::string regionText(Addr A, uint64_t Size, bool ZeroFill) {
  std::string Out = formatv("target addr = 0x%016llx, ", (unsigned long long)A);
  if (ZeroFill)
    return Out + formatv("zero-fill: %llu bytes", (unsigned long long)Size);
  return Out + formatv("content: 0x%llx -- 0x%llx (%llu bytes)", (unsigned long long)A, (unsigned long long)(A + Size),
                       (unsigned long long)Size);
}

std::string formatAddresses(const std::vector<ObjectLinkInfo> &Objects) {
  std::string Out = "Registered addresses:\nSymbols:\n";
  for (auto &O : Objects)
    for (auto &[N, S] : O.symbols)
      Out += formatv("  \"%s\" %s\n", N.c_str(), regionText(S.address, S.size, S.zeroFill).c_str());
  for (auto &O : Objects) {
    Out += formatv("File \"%s\":\n", O.name.c_str());
    for (auto &S : O.sections)
      Out += formatv("  Section \"%s\": %s\n", S.name.c_str(), regionText(S.address, S.size, S.zeroFill).c_str());
    for (auto [Label, Table] : {std::pair{"GOT", &O.gotEntries}, std::pair{"Stubs", &O.stubs}})
      for (auto &[N, A] : *Table) {
        auto Size = O.entrySizes.find(A);
        Out += formatv("  %s \"%s\": %s\n", Label, N.c_str(),
                       regionText(A, Size == O.entrySizes.end() ? 0 : Size->second, false).c_str());
      }
  }
  return Out;
}

std::string formatPerfMap(const std::vector<ObjectLinkInfo> &Objects) {
  std::vector<std::tuple<Addr, uint64_t, std::string>> Lines;
  for (auto &O : Objects)
    for (auto &[N, S] : O.symbols)
      if (S.callable)
        Lines.emplace_back(S.address, S.size, N);
  std::sort(Lines.begin(), Lines.end());
  std::string Out;
  for (auto &[A, Size, N] : Lines)
    Out += formatv("%llx %llx %s\n", (unsigned long long)A, (unsigned long long)Size, N.c_str());
  return Out;
}

std::string formatJITDump(const std::vector<ObjectLinkInfo> &Objects, uint32_t Machine, uint32_t Pid,
                          uint64_t Timestamp) {
  std::string Out;
  auto Put = [&](auto V) { // host byte order: perf reads the file on the machine that wrote it
    char B[sizeof V];
    std::memcpy(B, &V, sizeof V);
    Out.append(B, sizeof V);
  };
  enum : uint32_t { Magic = 0x4A695444, Version = 1, HeaderSize = 40, CodeLoad = 0, CodeClose = 3 };
  Put(uint32_t(Magic)), Put(uint32_t(Version)), Put(uint32_t(HeaderSize)), Put(Machine), Put(uint32_t(0));
  Put(Pid), Put(Timestamp), Put(uint64_t(0)); // flags: timestamps are CLOCK_MONOTONIC
  // Each function with its bytes, by address.
  std::vector<std::tuple<Addr, const std::string *, std::string_view>> Code;
  for (auto &O : Objects)
    for (auto &[N, S] : O.symbols) {
      if (!S.callable || S.zeroFill)
        continue;
      for (auto &Sec : O.sections)
        if (Sec.name == S.section && S.address >= Sec.address && S.address + S.size <= Sec.address + Sec.size &&
            Sec.content.size() == Sec.size)
          Code.emplace_back(S.address, &N, std::string_view(Sec.content.data() + (S.address - Sec.address), S.size));
    }
  std::sort(Code.begin(), Code.end());
  uint64_t Index = 0;
  for (auto &[A, Name, Bytes] : Code) {
    // id, total size, timestamp; pid, tid, vma, code address, size, index; name; code.
    uint32_t Size = uint32_t(16 + 8 + 32 + Name->size() + 1 + Bytes.size());
    Put(uint32_t(CodeLoad)), Put(Size), Put(Timestamp);
    Put(Pid), Put(Pid), Put(uint64_t(A)), Put(uint64_t(A)), Put(uint64_t(Bytes.size())), Put(Index++);
    Out.append(Name->c_str(), Name->size() + 1);
    Out.append(Bytes);
  }
  Put(uint32_t(CodeClose)), Put(uint32_t(16)), Put(Timestamp);
  return Out;
}

// Formatted by hand, a line at a time: sections can be megabytes (a large
// common symbol), and a formatted call per byte took seconds to show them.
std::string formatRelocatedContents(const ObjectLinkInfo &O) {
  static const char Hex[] = "0123456789abcdef";
  std::string Out = formatv("Relocated section contents for %s:\n", O.name.c_str());
  for (auto &S : O.sections) {
    Out += S.name + " content:";
    Out.reserve(Out.size() + S.content.size() / 16 * 72 + 72);
    char Line[3 + 16 + 1 + 16 * 3]; // "\n0x" address ":" 16 x " hh"
    size_t Len = 0;
    for (uint64_t I = 0; I < S.content.size(); ++I) {
      Addr A = S.address + I;
      if (I == 0 || A % 16 == 0) {
        Out.append(Line, Len);
        Addr Start = I == 0 ? A & ~Addr(15) : A;
        int Digits = Start ? (64 - std::countl_zero(Start) + 3) / 4 : 1;
        Len = 0;
        Line[Len++] = '\n', Line[Len++] = '0', Line[Len++] = 'x';
        for (int D = Digits - 1; D >= 0; --D)
          Line[Len++] = Hex[(Start >> (4 * D)) & 15];
        Line[Len++] = ':';
        if (I == 0)
          for (Addr Pad = 0; Pad < A % 16; ++Pad)
            Line[Len++] = ' ', Line[Len++] = ' ', Line[Len++] = ' ';
      }
      uint8_t Byte = uint8_t(S.content[I]);
      Line[Len++] = ' ', Line[Len++] = Hex[Byte >> 4], Line[Len++] = Hex[Byte & 15];
    }
    Out.append(Line, Len);
    Out += "\n";
  }
  return Out;
}

} // namespace linklab
