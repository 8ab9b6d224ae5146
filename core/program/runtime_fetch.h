// The C runtime fetched a member at a time, for a caller that reads the
// archives by range (a browser, from the playground's server): of the 9.6 MB
// of x86-64's runtime (20.6 MB for RISC-V) a C hello world links ~450
// members, 1.6 MB (5.8 MB). Which ones is found a round at a time, as the
// session's archive scan (Session::generate) would find them: the objects'
// undefined names, looked up in the archives' symbol indexes in row order,
// pull members, whose undefined names pull more. Each round the caller
// fetches the members wanted() names, in one request per archive.
//
// The scan pulls a member for every name it meets that the objects do not
// define (Session::generate skips names a member pulled earlier defined), so
// what it fetches holds every member the link will ask for; should a link
// still ask for one not fetched (a name only a JS pass adds), the partial
// archive says so (Archive::isPresent) and the link fails naming it rather
// than link something else. The graphs it builds are the link's
// (PrefetchedGraphs): each member is parsed once.
#pragma once

#include "program/runtime.h"
#include "session/graph_prefetch.h"

#include <unordered_set>

namespace linklab::exec {

class RuntimeFetch {
public:
  struct Head {
    uint64_t size;     // the archive's
    SharedBytes bytes; // Archive::readHead's complete head
  };
  struct Range {
    std::string file; // RuntimeFile::name
    uint64_t begin, end;
  };
  // Objects are the program's; Heads holds every archive of R by file name
  // (the on-demand ones decide, as neededFiles does, whether they join);
  // Start is the start object's bytes (null when R has none).
  static Expected<std::unique_ptr<RuntimeFetch>> create(const RuntimeSpec &R,
                                                        const std::vector<PrefetchedGraphs::Input> &Objects,
                                                        const std::map<std::string, Head> &Heads, SharedBytes Start);

  // The byte ranges still to fetch, per archive in row order, adjacent
  // members merged; empty once every member the scan reaches is present.
  std::vector<Range> wanted();
  // Adds what a range of wanted() read: whole members.
  Error addMembers(std::string_view File, uint64_t Offset, SharedBytes Bytes);

  // For addRuntimeArchives: the start object by name, and the archives
  // joined (partial, by file name); then the graphs built, for the session.
  RuntimeFiles files() const;
  std::map<std::string, Archive> takeArchives();
  std::unique_ptr<PrefetchedGraphs> takeGraphs() { return std::move(Graphs); }
  size_t membersPulled() const; // what the scan reached, for tests and benchmarks

private:
  struct Joined {
    const RuntimeFile *file;
    Archive archive;
    std::vector<bool> pulled, built;
  };
  void build(std::string Name, const SharedBytes &Bytes, bool Root);

  const RuntimeSpec *R = nullptr;
  SharedBytes Start;
  std::vector<Joined> Archives;
  std::unique_ptr<PrefetchedGraphs> Graphs = std::make_unique<PrefetchedGraphs>();
  std::vector<std::string> Wanted;                    // names met, not looked up yet
  std::unordered_set<std::string> Asked, RootDefined; // looked up; defined by the program's objects
};

} // namespace linklab::exec
