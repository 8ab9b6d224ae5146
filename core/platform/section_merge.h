// Sections named like C identifiers, linked as a static linker's output
// sections: the contents of every object's SEC lie together, and
// __start_SEC/__stop_SEC bracket them (glibc walks __libc_IO_vtables,
// __libc_atexit, __libc_subfreeres this way; user code keeps "linker sets").
//
// A JIT links object by object, each into its own memory, so an object's SEC
// cannot simply be placed after another's. Instead, as each object is added
// (Plugin::notifyAdded, before the session records its definitions) its SEC
// blocks leave its graph as a fragment: their symbols become references by
// name (locals and anonymous ones get unique hidden names), and what the
// fragment's own edges reach outside SEC is made nameable the same way. At
// link end (a LinkEndGenerator: every link in flight has been allocated)
// the fragments of every object whose link started, and of any object one of
// whose fragment symbols is asked for, are concatenated into one block of one
// graph per section, which defines their symbols and __start_SEC/__stop_SEC.
// Pointer identity holds: there is one copy of each byte. An object with SEC
// contents linked after its section was laid out is an error, since the
// brackets cannot grow.
#pragma once

#include "session/session.h"

#include <map>
#include <set>

namespace linklab {

class SectionMerger : public Plugin, public LinkEndGenerator {
public:
  Error notifyAdded(ResourceKey K, LinkGraph &G) override;
  void notifyLoaded(const MaterializationInfo &MR) override { Started.insert(MR.key); }
  bool claims(std::string_view Name) const override;
  Error tryToGenerate(Session &S, const std::vector<std::string> &Names) override;

  // "linker set" sections: a name __start_/__stop_ may bracket.
  static bool isCIdentifier(std::string_view Name);

private:
  struct FragmentSymbol {
    std::string name;
    uint64_t offset, size;
    Linkage linkage;
    Scope scope;
    bool callable;
  };
  struct FragmentEdge {
    uint32_t offset;
    EdgeKind kind;
    int64_t addend;
    std::string target; // a name, defined in the merged graph or elsewhere
    bool weak;          // the origin's reference was weak
    std::optional<Addr> absolute;
  };
  struct Fragment {
    ResourceKey origin;
    std::string objectName;
    MemProt prot;
    uint64_t alignment, size;
    bool zeroFill;
    std::vector<char> content;
    std::vector<FragmentSymbol> symbols;
    std::vector<FragmentEdge> edges;
    bool merged = false;
  };
  struct OutputSection {
    std::vector<Fragment> fragments;
    unsigned layouts = 0;       // graphs made of it so far (the first holds the brackets)
    bool bracketsAsked = false; // __start_/__stop_ were looked up
  };

  std::string uniqueName(std::string_view Section);
  Error layOut(Session &S, const std::string &Name, OutputSection &Out, const std::set<ResourceKey> &Wanted);

  std::map<std::string, OutputSection, std::less<>> Sections;
  std::map<std::string, std::pair<std::string, ResourceKey>, std::less<>> FragmentSymbols; // name -> section, origin
  std::set<ResourceKey> Started;
  const LinkGraph *Own = nullptr; // the merged graph being added (not split again)
  uint64_t NextName = 0;
};

} // namespace linklab
