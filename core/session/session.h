// A minimal ORC: one symbol table (like a JITDylib) that objects are added
// to, linked lazily, each as its own LinkGraph, when a lookup first needs a
// symbol they define (and then whatever those objects need). Plugins observe
// and extend every link; definition generators supply symbols nothing defines
// (archive members, the executor's runtime, phony externals).
#pragma once

#include "link/linker.h"
#include "link/memory_manager.h"
#include "session/symbol_table.h"

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace linklab {

class Session;
class PrefetchedGraphs;
class Archive;
using ResourceKey = uint64_t;

// What a plugin is told about the object being linked.
enum class ObjectKind; // below
struct MaterializationInfo {
  ResourceKey key;
  std::string objectName;
  ObjectKind kind;
};

// The six hooks of ORC's ObjectLinkingLayer::Plugin, plus notifyAdded.
class Plugin {
public:
  virtual ~Plugin() = default;
  // An object's graph as it is added, before the session records what it
  // defines: a plugin may move definitions out of it (section merging).
  virtual Error notifyAdded(ResourceKey K, LinkGraph &G) { return Error::success(); }
  // Names G's link will look up besides its external symbols (a pass of
  // this plugin's adds references to them): the archive scan pulls their
  // definitions with the rest, before anything links, rather than a lookup
  // pulling them mid-link.
  virtual void addReferences(const LinkGraph &G, std::vector<std::string> &Names) const {}
  virtual void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) {}
  virtual void notifyLoaded(const MaterializationInfo &MR) {}
  virtual Error notifyEmitted(const MaterializationInfo &MR) { return Error::success(); }
  virtual Error notifyFailed(const MaterializationInfo &MR) { return Error::success(); }
  virtual Error notifyRemovingResources(ResourceKey K) { return Error::success(); }
  virtual void notifyTransferringResources(ResourceKey Dst, ResourceKey Src) {}
};

class DefinitionGenerator {
public:
  virtual ~DefinitionGenerator() = default;
  // Called with names nothing defines; may add objects or absolute symbols.
  virtual Error tryToGenerate(Session &S, const std::vector<std::string> &Names) = 0;
};

// Defines symbols whose values depend on every graph of the link, as a
// static linker's do: tables spanning all objects (IRELATIVE records, init
// arrays, __start_/__stop_ sections). A JIT links graph by graph, so a link
// that references a claimed name waits (its own symbols already resolved,
// so nobody waits on it) until every other link in flight has allocated or
// waits likewise; then tryToGenerate runs once with every claimed name
// asked for, and the waiting links continue. A graph that starts linking
// after that is "late": the generator decides (usually an error naming it).
class LinkEndGenerator : public DefinitionGenerator {
public:
  virtual bool claims(std::string_view Name) const = 0;
};

enum class ObjectKind {
  Regular,
  // Harness objects' definitions override the tested objects'; their
  // references may reach the tested objects' local symbols; once links
  // start, the tested (Regular) objects' other definitions become local
  // (llvm-jitlink -harness).
  Harness,
  // Archive members: linked as they are, never demoted by a harness.
  Library,
  // The process image around the objects, linked as a Library is but
  // allocated for ProcessDylib: a C runtime's members and start object, and
  // the graphs the link synthesizes (init arrays, IRELATIVE slots, merged
  // C-identifier sections, linker-defined symbols).
  Runtime,
};

class Session {
public:
  Session(Triple TT, MemoryManager &MM);
  ~Session();

  const Triple &triple() const { return TT; }

  // Parses the object now (errors surface at once); links it on demand.
  // Rank orders the C runtime's graphs (ObjectKind::Runtime) in linkAll:
  // archive members by archive and place in it, whatever order a lookup
  // pulled them in, so the runtime's layout depends only on which members
  // are linked (a prepared runtime image's and a normal link's agree).
  Expected<ResourceKey> addObject(std::string Name, SharedBytes Bytes, ObjectKind Kind = ObjectKind::Regular,
                                  uint64_t Rank = 0);
  Expected<ResourceKey> addGraph(std::unique_ptr<LinkGraph> G, ObjectKind Kind = ObjectKind::Regular,
                                 uint64_t Rank = 0);
  // The graph of Name's Bytes, as addObject builds it: taken from the
  // prefetched graphs when they hold it (link/graph_prefetch.h).
  Expected<std::unique_ptr<LinkGraph>> buildGraph(std::string Name, SharedBytes Bytes);
  void usePrefetched(std::unique_ptr<PrefetchedGraphs> P);
  // Adds an archive whose members are linked when they define a needed symbol.
  Error addArchive(std::string Name, SharedBytes Bytes, ObjectKind MemberKind = ObjectKind::Library);
  void addArchive(Archive A, ObjectKind MemberKind = ObjectKind::Library); // parsed already, or partial
  // llvm-jitlink -all_load: adds every object member now, named as LLVM
  // names them ("lib.a[0](a.o)"); members that are no object are skipped.
  Error addAllArchiveMembers(std::string Name, SharedBytes Bytes, ObjectKind MemberKind = ObjectKind::Library);
  // Process: the process's symbol (the executor's), not the user's -abs.
  Error defineAbsolute(std::string_view Name, Addr A, bool Process = false);
  void addGenerator(std::shared_ptr<DefinitionGenerator> G) { Generators.push_back(std::move(G)); }
  void addLinkEndGenerator(std::shared_ptr<LinkEndGenerator> G) { LinkEndGenerators.push_back(std::move(G)); }
  void addPlugin(std::shared_ptr<Plugin> P) { Plugins.push_back(std::move(P)); }
  // Resolves undefined names to 0 instead of failing (llvm-jitlink -phony-externals).
  void setPhonyExternals(bool On) { PhonyExternals = On; }
  // For a command that ends once its links are done (and skips freeing
  // then), as clang's -disable-free: a graph whose link finished stays
  // allocated until the session ends, rather than being freed as the link
  // ends. Freeing a glibc hello's 450 graphs (and malloc consolidating what
  // they freed) held the run back 5-10 ms.
  void setKeepLinkedGraphs(bool On) { KeepLinkedGraphs = On; }
  bool keepsLinkedGraphs() const { return KeepLinkedGraphs; }

  // Looks up Names, linking every object needed; OnDone runs once all links
  // it started have finished (now, or later if callbacks answer later).
  void lookup(std::vector<std::string> Names, std::function<void(Expected<std::vector<Addr>>)> OnDone);
  // lookup() for callers whose memory manager answers at once.
  Expected<std::vector<Addr>> lookupNow(std::vector<std::string> Names);
  // Links every object added so far (used by -check and inspection tools).
  void linkAll(std::function<void(Error)> OnDone);

  // Frees an object's memory and forgets its symbols.
  void removeObject(ResourceKey K, std::function<void(Error)> OnDone);
  // Makes Dst own Src's memory (freed with Dst).
  void transferResources(ResourceKey Dst, ResourceKey Src);

  // The address of a resolved symbol, if any.
  std::optional<Addr> addressOf(std::string_view Name) const;
  // Names of every object added, in order.
  std::vector<std::string> objectNames() const;
  // The graph of every object whose link has not started (a run's own
  // objects before it links them: program/runtime_image.h asks what they need).
  void forEachPendingGraph(const std::function<void(const LinkGraph &)> &F) const;

  // llvm-jitlink's -show-init-es / -show-entry-es: the symbol tables as
  // ORC's ExecutionSession::dump prints its JITDylibs. "main" holds what the
  // objects, archive members and -abs define; "Process" (when the link has
  // a C runtime, which stands for the process) the runtime's symbols that
  // main's linked objects reference. Call recordProcessLookups before
  // adding objects.
  void recordProcessLookups() { RecordLookups = true; }
  std::string dumpSymbolTables(bool HasProcess);

  struct Object;
  struct Query;
  struct SymbolEntry {
    Object *owner = nullptr; // null for absolute definitions
    Linkage linkage = Linkage::Strong;
    bool callable = false, hidden = false; // JITSymbolFlags' Callable and !Exported
    bool process = false;                  // defined by the C runtime or the executor (llvm-jitlink's process)
    Addr address = 0;
    bool resolved = false;
    std::vector<std::pair<std::shared_ptr<Query>, size_t>> waiting; // query, result index
  };
  // Every name in the table.
  void forEachSymbol(const std::function<void(std::string_view, const SymbolEntry &)> &F) const;

private:
  friend class ObjectLinkContext;
  // Process: an absolute definition (no Owner) is the process's (a C
  // runtime's graph, the executor's symbols); an owner's kind says it otherwise.
  Error define(Object *Owner, const Symbol &Sym, Addr A, bool Resolved, bool Process = false);
  Error define(Object *Owner, std::string_view Name, Linkage L, Addr A, bool Resolved, bool Callable = false,
               bool Hidden = false, bool Process = false);
  void materialize(Object &O);
  // Referrer: the object whose link asks (named when symbols are missing).
  // FromLink: a graph's lookup (counted in InFlight), not a caller's.
  // MayWait: false once the link-end generators have had their turn.
  void resolveForLink(std::vector<LookupRequest> Names, OnLookupFn OnResult, const std::string *Referrer = nullptr,
                      bool FromLink = false, bool MayWait = true);
  bool claimedAtLinkEnd(std::string_view Name) const;
  bool startsLater(const Object &O) const; // linkAll starts it, in rank order
  void runLinkEndGenerators();
  void symbolsResolved(Object &O, LinkGraph &G);
  void linkDone(Object &O, Error Err);
  void fireQuiescence();
  Error generate(const std::vector<std::string> &Missing);
  // Appends the names G's link will look up that nothing defines yet.
  void missingReferences(const LinkGraph &G, std::vector<std::string> &Out) const;
  Error scanArchives();
  void applyHarnessScopes();

  Triple TT;
  MemoryManager &MM;
  std::unique_ptr<PrefetchedGraphs> Prefetched;
  std::vector<std::unique_ptr<Object>> Objects;
  size_t Scanned = 0;               // Objects whose external names scanArchives() has generated for
  unsigned ArchivesAdded = 0;       // numbers each archive for its members' ranks
  bool StartingRuntime = false;     // linkAll starts the runtime's graphs in rank order: lookups do not
  SymbolTable<SymbolEntry> Symbols; // entries keep their address while the session lives
  std::vector<std::shared_ptr<DefinitionGenerator>> Generators;
  std::vector<std::shared_ptr<LinkEndGenerator>> LinkEndGenerators;
  struct ParkedLookup {
    std::vector<LookupRequest> names;
    OnLookupFn onResult;
    std::string referrer;
    bool hasReferrer, fromLink;
  };
  std::vector<ParkedLookup> Parked; // waiting for the link-end generators
  unsigned ParkedLinks = 0;
  bool InLinkEnd = false;
  std::vector<std::shared_ptr<Plugin>> Plugins;
  std::vector<std::function<void()>> OnQuiescent;
  std::vector<std::string> Failures;
  unsigned InFlight = 0;
  bool PhonyExternals = false;
  bool RecordLookups = false; // each non-runtime Object keeps the names it references
  bool KeepLinkedGraphs = false;
  std::vector<std::unique_ptr<LinkGraph>> LinkedGraphs; // with KeepLinkedGraphs
  // Names the harness objects reference; demotion is pending until the
  // first link starts (every harness has been added by then).
  std::unordered_set<std::string> HarnessRefs;
  bool HarnessScopesPending = false;
  ResourceKey NextKey = 1;
};

} // namespace linklab
