// Graphs built before the session that links them exists. The CLI builds
// them while its executor starts (loading libunicorn, ≈8 ms it would
// otherwise only wait through): the objects given and, searching the
// archives in order as Session::generate does, the members their undefined
// names pull, transitively. The session then takes each graph from here
// instead of parsing the same bytes again (Session::usePrefetched).
//
// A graph depends only on its name and its bytes, so this changes nothing
// the link decides: which members link is still the session's scan, and a
// member guessed here that the link never asks for is only work lost.
#pragma once

#include "graph/link_graph.h"
#include "object/archive.h"
#include "support/shared_bytes.h"

#include <optional>

#include <string>
#include <unordered_map>
#include <vector>

namespace linklab {

class PrefetchedGraphs {
public:
  struct Input {
    std::string name; // as the session will name it (an archive: its members are "name(member)")
    SharedBytes bytes;
  };
  // Objects that do not parse are left to the link, which reports them.
  static std::unique_ptr<PrefetchedGraphs> scan(const std::vector<Input> &Objects, const std::vector<Input> &Archives);

  // Keeps G, built from Bytes (which must outlive it), for take().
  void add(std::unique_ptr<LinkGraph> G, const SharedBytes &Bytes) {
    Graphs[Bytes.data()] = Entry{Bytes.size(), std::move(G)};
  }
  // The graph built for exactly these bytes under this name, or null.
  std::unique_ptr<LinkGraph> take(std::string_view Name, const SharedBytes &Bytes);
  // The archive parsed from exactly these bytes under this name, if any.
  std::optional<Archive> takeArchive(std::string_view Name, const SharedBytes &Bytes);
  size_t size() const { return Graphs.size(); } // graphs not taken yet

private:
  struct Entry {
    size_t size;
    std::unique_ptr<LinkGraph> graph;
  };
  std::unordered_map<const char *, Entry> Graphs; // by the bytes' address
  std::vector<Archive> Archives;
};

} // namespace linklab
