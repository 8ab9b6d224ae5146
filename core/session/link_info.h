// A plugin that records, per linked object, what tools need after the graph
// is gone: section ranges, symbol addresses, GOT entries and stubs (keyed by
// the name of the symbol they lead to), and optionally a graph dump and the
// relocated section contents.
#pragma once

#include "session/session.h"

#include <map>
#include <regex>

namespace linklab {

struct ObjectLinkInfo {
  struct SectionInfo {
    std::string name;
    Addr address = 0;
    uint64_t size = 0;
    MemProt prot = MemProt::None;
    bool zeroFill = false;     // only zero-fill blocks
    std::vector<char> content; // relocated bytes (when recorded)
  };
  struct SymbolInfo {
    Addr address;
    uint64_t size;
    Scope scope;
    std::string section;
    bool callable = false;
    bool zeroFill = false;   // in a zero-fill block, or absolute
    uint8_t targetFlags = 0; // the arch's facts (Arm: Thumb code)
  };
  std::string name;
  std::vector<SectionInfo> sections;
  // By name, each name once (the first symbol of that name the graph
  // lists): a sorted vector, not a map, since a run records hundreds of
  // graphs and a node per symbol was most of the recording's cost.
  std::vector<std::pair<std::string, SymbolInfo>> symbols;
  const SymbolInfo *findSymbol(std::string_view Name) const;
  // Local functions the link pruned (no edge names them; their code stays,
  // reached through a section symbol), by name, where their code was
  // linked: a native link keeps them in the executable's symbol table,
  // where a debugger names frames by them.
  std::vector<std::pair<std::string, SymbolInfo>> prunedFunctions;
  std::map<std::string, Addr> gotEntries; // target name -> entry address
  std::map<std::string, Addr> stubs;      // target name -> stub address (its first stub)
  // Every stub: several for one target where the arch has kinds of them
  // (Arm and Thumb stubs), which -check's stub_addr(file, sym, kind) tells
  // apart.
  std::multimap<std::string, Addr> allStubs;
  std::map<Addr, uint64_t> entrySizes; // GOT entry or stub address -> its size
  // The memory manager's segments for this object: BasicLayout's grouping
  // (one per protection), each from its first block to its last block's end.
  std::vector<SegmentRecord> segments;
  std::string graphDump; // when the name matched a dump pattern
};

class LinkInfoRecorder : public Plugin {
public:
  // Graph names matching any pattern are dumped (llvm-jitlink -show-graphs).
  void setDumpPatterns(std::vector<std::regex> P) { DumpPatterns = std::move(P); }
  void setRecordContents(bool On) { RecordContents = On; }
  // Records each graph when objects() is first asked for, not as its link
  // ends: a run that never asks (nothing to symbolize: no fault) skips the
  // work (an eighth of a glibc hello's link). S must keep its linked graphs
  // (Session::setKeepLinkedGraphs) and outlive the last objects() call.
  // Contents and dumps are still recorded as each link ends: a finished
  // link's working memory is gone.
  void recordWhenAsked(const Session &S);
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;
  // A graph that failed after its fixups is freed with its link: recorded now.
  Error notifyFailed(const MaterializationInfo &MR) override;

  // Objects in the order their links completed fixups.
  const std::vector<ObjectLinkInfo> &objects() const;
  // The object whose name (or basename) is File, or null.
  const ObjectLinkInfo *find(std::string_view File) const;

private:
  void record(LinkGraph &G) const;
  void recordPending(ResourceKey Only = 0) const;
  // Each graph's local functions before pruning (their names live as long
  // as the graph), until it is recorded.
  struct LocalFunction {
    std::string_view name;
    const Block *block;
    const Section *section;
    uint64_t offset, size;
  };
  mutable std::map<const LinkGraph *, std::vector<LocalFunction>> LocalsBeforePrune;
  std::vector<std::regex> DumpPatterns;
  bool RecordContents = false;
  bool WhenAsked = false;
  // Graphs whose links finished fixups, not yet recorded (WhenAsked), in order.
  mutable std::vector<std::pair<ResourceKey, LinkGraph *>> Pending;
  mutable std::vector<ObjectLinkInfo> Objects;
};

// llvm-jitlink's -show-addrs text: every symbol, then each object's sections,
// GOT entries and stubs. Where llvm-jitlink shows its working memory
// ("content: <from> -- <to>"), linklab shows the same range at the target
// addresses; zero-sized symbols show an empty range.
std::string formatAddresses(const std::vector<ObjectLinkInfo> &Objects);
// perf's map of JIT code (-perf-support): "START SIZE name" per callable
// symbol, hex without 0x, by address (perf's tools/perf/Documentation/jit-interface.txt).
std::string formatPerfMap(const std::vector<ObjectLinkInfo> &Objects);
// perf's jitdump of JIT code (-perf-support; perf's
// tools/perf/Documentation/jitdump-specification.txt): the file header, one
// JIT_CODE_LOAD record (name, address, size, code bytes) per callable symbol
// whose section contents were recorded, by address, and JIT_CODE_CLOSE.
// Machine is the ELF e_machine of the code; Timestamp (CLOCK_MONOTONIC ns)
// stamps every record. No DEBUG_INFO or UNWINDING_INFO records.
std::string formatJITDump(const std::vector<ObjectLinkInfo> &Objects, uint32_t Machine, uint32_t Pid,
                          uint64_t Timestamp);
// -show-relocated-section-contents: 16 bytes a row, rows at 16-aligned
// addresses, the first padded to its start (needs recorded contents).
std::string formatRelocatedContents(const ObjectLinkInfo &O);

} // namespace linklab
