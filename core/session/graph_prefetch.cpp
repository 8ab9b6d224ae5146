#include "session/graph_prefetch.h"

#include "object/archive.h"
#include "target/target.h"

#include <unordered_set>

namespace linklab {

std::unique_ptr<PrefetchedGraphs> PrefetchedGraphs::scan(const std::vector<Input> &Objects,
                                                         const std::vector<Input> &Archives) {
  auto Out = std::make_unique<PrefetchedGraphs>();
  std::vector<Archive> &Parsed = Out->Archives;
  std::vector<std::vector<bool>> Pulled;
  for (auto &A : Archives)
    if (auto P = Archive::parseForLink(A.name, A.bytes)) {
      Pulled.emplace_back(P->members().size());
      Parsed.push_back(std::move(*P));
    } else {
      consumeError(P.takeError()); // the session's own parse reports it
    }

  std::unordered_set<std::string_view> Defined; // views into the graphs kept
  std::vector<std::string_view> Wanted;
  auto Build = [&](std::string Name, const SharedBytes &Bytes) {
    auto G = createLinkGraph(std::move(Name), Bytes);
    if (!G)
      return consumeError(G.takeError());
    (*G)->forEachDefinedSymbol([&](Symbol &S) {
      if (S.scope != Scope::Local && !S.name.empty())
        Defined.insert(S.name);
    });
    for (Symbol *Ext : (*G)->externalSymbols())
      Wanted.push_back(Ext->name);
    Out->Graphs[Bytes.data()] = Entry{Bytes.size(), std::move(*G)};
  };
  for (auto &O : Objects)
    if (!Archive::isArchive(O.bytes.span()))
      Build(O.name, O.bytes);
  // The first archive whose index lists a name pulls its member, as the
  // session's scan does.
  while (!Wanted.empty()) {
    std::string_view N = Wanted.back();
    Wanted.pop_back();
    if (Defined.count(N))
      continue;
    for (size_t A = 0; A < Parsed.size(); ++A) {
      long M = Parsed[A].memberDefining(N);
      if (M < 0)
        continue;
      if (!Pulled[A][size_t(M)]) {
        Pulled[A][size_t(M)] = true;
        if (Error E = Parsed[A].load(size_t(M)))
          consumeError(std::move(E)); // the session's load reports it
        else
          Build(Parsed[A].memberObjectName(size_t(M)), Parsed[A].memberBytes(size_t(M)));
      }
      break;
    }
  }
  return Out;
}

std::unique_ptr<LinkGraph> PrefetchedGraphs::take(std::string_view Name, const SharedBytes &Bytes) {
  auto It = Graphs.find(Bytes.data());
  if (It == Graphs.end() || It->second.size != Bytes.size() || It->second.graph->name() != Name)
    return nullptr;
  auto G = std::move(It->second.graph);
  Graphs.erase(It);
  return G;
}

std::optional<Archive> PrefetchedGraphs::takeArchive(std::string_view Name, const SharedBytes &Bytes) {
  for (auto It = Archives.begin(); It != Archives.end(); ++It)
    if (It->name() == Name && It->bytes().data() == Bytes.data() && It->bytes().size() == Bytes.size()) {
      Archive A = std::move(*It);
      Archives.erase(It);
      return A;
    }
  return std::nullopt;
}

} // namespace linklab
