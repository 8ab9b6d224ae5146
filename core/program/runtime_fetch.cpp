#include "program/runtime_fetch.h"

#include "target/target.h"

#include <cstring>

namespace linklab::exec {

Expected<std::unique_ptr<RuntimeFetch>> RuntimeFetch::create(const RuntimeSpec &R,
                                                             const std::vector<PrefetchedGraphs::Input> &Objects,
                                                             const std::map<std::string, Head> &Heads,
                                                             SharedBytes Start) {
  auto F = std::unique_ptr<RuntimeFetch>(new RuntimeFetch);
  F->R = &R;
  F->Start = std::move(Start);
  if (R.startObject.name && !F->Start)
    return makeError(formatv("C runtime %s: the bytes of %s (%s) were not supplied", R.description, R.startObject.name,
                             R.startObject.path));
  std::map<std::string, Archive::Head> Read;
  for (auto &A : R.archives) {
    auto It = Heads.find(A.name);
    if (It == Heads.end())
      return makeError(formatv("C runtime %s: the head of %s (%s) was not supplied", R.description, A.name, A.path));
    auto H = Archive::readHead(A.path, It->second.bytes.span());
    if (!H)
      return H.takeError();
    Read[A.name] = std::move(*H);
  }
  std::vector<std::pair<std::string, SharedBytes>> Objs;
  for (auto &O : Objects)
    Objs.push_back({O.name, O.bytes});
  for (auto &File : neededFiles(R, referencedNames(Objs), Read)) {
    if (R.startObject.name && std::strcmp(File.name, R.startObject.name) == 0)
      continue;
    const Head &H = Heads.at(File.name);
    auto A = Archive::parseHead(File.path, H.size, H.bytes);
    if (!A)
      return A.takeError();
    const RuntimeFile *Row = &*std::find_if(R.archives.begin(), R.archives.end(),
                                            [&](const RuntimeFile &X) { return X.name == std::string(File.name); });
    size_t N = A->members().size();
    F->Archives.push_back({Row, std::move(*A), std::vector<bool>(N), std::vector<bool>(N)});
  }
  for (auto &O : Objects)
    F->build(O.name, O.bytes, true);
  if (F->Start)
    F->build(R.startObject.path, F->Start, true);
  // Names the link looks up besides the graphs' own references: the
  // unwinder's registration (a pass adds the reference) and exit (a run
  // that calls main directly ends through it).
  if (R.registerFrames)
    F->Wanted.push_back(R.registerFrames);
  F->Wanted.push_back("exit");
  return F;
}

void RuntimeFetch::build(std::string Name, const SharedBytes &Bytes, bool Root) {
  if (Archive::isArchive(Bytes.span()))
    return; // the program's own archive: its members link from it, and their names reach the scan only then
  auto G = createLinkGraph(std::move(Name), Bytes);
  if (!G)
    return consumeError(G.takeError()); // the link reports it
  if (Root)
    (*G)->forEachDefinedSymbol([&](Symbol &S) {
      if (S.scope != Scope::Local && !S.name.empty())
        RootDefined.insert(std::string(S.name));
    });
  for (Symbol *Ext : (*G)->externalSymbols())
    Wanted.push_back(std::string(Ext->name));
  if (!Root)
    Graphs->add(std::move(*G), Bytes);
}

std::vector<RuntimeFetch::Range> RuntimeFetch::wanted() {
  for (bool Progress = true; Progress;) {
    // The first archive whose index lists a name pulls its member.
    while (!Wanted.empty()) {
      std::string N = std::move(Wanted.back());
      Wanted.pop_back();
      if (RootDefined.count(N) || !Asked.insert(N).second)
        continue;
      for (auto &J : Archives)
        if (long M = J.archive.memberDefining(N); M >= 0) {
          J.pulled[size_t(M)] = true;
          break;
        }
    }
    Progress = false;
    for (auto &J : Archives)
      for (size_t M = 0; M < J.pulled.size(); ++M)
        if (J.pulled[M] && !J.built[M] && J.archive.isPresent(M)) {
          J.built[M] = true;
          Progress = true;
          build(J.archive.memberObjectName(M), J.archive.memberBytes(M), false);
        }
  }
  std::vector<Range> Out;
  for (auto &J : Archives)
    for (size_t M = 0; M < J.pulled.size(); ++M) {
      if (!J.pulled[M] || J.archive.isPresent(M))
        continue;
      auto [Begin, End] = J.archive.memberExtent(M);
      if (!Out.empty() && Out.back().file == J.file->name && Out.back().end == Begin)
        Out.back().end = End;
      else
        Out.push_back({J.file->name, Begin, End});
    }
  return Out;
}

Error RuntimeFetch::addMembers(std::string_view File, uint64_t Offset, SharedBytes Bytes) {
  for (auto &J : Archives)
    if (File == J.file->name)
      return J.archive.addMembers(Offset, std::move(Bytes));
  return makeError(
      formatv("C runtime %s: %.*s is not an archive this link fetches", R->description, int(File.size()), File.data()));
}

RuntimeFiles RuntimeFetch::files() const {
  RuntimeFiles Out;
  if (R->startObject.name)
    Out[R->startObject.name] = Start;
  return Out;
}

std::map<std::string, Archive> RuntimeFetch::takeArchives() {
  std::map<std::string, Archive> Out;
  for (auto &J : Archives)
    Out.emplace(J.file->name, std::move(J.archive));
  Archives.clear();
  return Out;
}

size_t RuntimeFetch::membersPulled() const {
  size_t N = 0;
  for (auto &J : Archives)
    N += size_t(std::count(J.pulled.begin(), J.pulled.end(), true));
  return N;
}

} // namespace linklab::exec
