#include "driver/link.h"

#include "driver/command.h"
#include "driver/sectcreate.h"
#include "driver/settings.h"
#include "object/archive.h"
#include "platform/linker_symbols.h"
#include "protocol/address_plan.h"

namespace linklab::driver {

bool Input::isArchive() const { return Archive::isArchive(bytes.span()); }

Link::~Link() = default;

void Link::makeConventions(WarningFn Warn) { Conventions = std::make_unique<SessionConventions>(*S, std::move(Warn)); }

std::unique_ptr<Link> Link::slab(const Triple &TT, std::unique_ptr<SlabMemoryManager> Slab, bool AsRun, WarningFn Warn,
                                 bool Record, const WrapSlab &Wrap) {
  std::unique_ptr<Link> L(new Link());
  uint64_t PageSize = Slab->pageSize();
  L->MM = Wrap ? Wrap(std::move(Slab)) : std::move(Slab);
  L->OwnSession = std::make_unique<Session>(TT, *L->MM);
  L->S = L->OwnSession.get();
  L->OwnInfo = std::make_shared<LinkInfoRecorder>();
  L->Info = L->OwnInfo.get();
  if (Record)
    L->S->addPlugin(L->OwnInfo);
  if (TT.arch != Arch::Unknown) {
    L->Inits = exec::addLinkServices(*L->S, PageSize).inits;
    if (AsRun) // what the executor would define, where it would
      exec::addExecutorSymbols(*L->S, executor::executorSymbols());
  } else { // only archives and no -triple: no target to lay TLS out for yet
    addStaticLinkTables(*L->S, PageSize);
  }
  L->makeConventions(std::move(Warn));
  return L;
}

std::unique_ptr<Link> Link::program(std::unique_ptr<exec::Program> P, WarningFn Warn) {
  std::unique_ptr<Link> L(new Link());
  L->Prog = std::move(P);
  L->S = &L->Prog->session();
  L->Info = &L->Prog->linkInfo();
  L->makeConventions(std::move(Warn));
  return L;
}

const exec::RuntimeSpec *Link::runtime() const { return Prog ? Prog->runtime() : SlabRuntime; }

Error Link::addRuntime(const exec::RuntimeSpec &R, exec::RuntimeFiles Files, std::map<std::string, Archive> Archives) {
  if (Prog)
    return Prog->addRuntime(R, std::move(Files), std::move(Archives));
  if (SlabRuntime)
    return makeError(formatv("this session already links the C runtime %s", SlabRuntime->description));
  if (Error E = exec::addRuntimeArchives(*S, R, Files, &StartObject, Inits, std::move(Archives)))
    return E;
  SlabRuntime = &R;
  return Error::success();
}

Error Link::addInput(const Input &I, bool AllLoad) {
  if (I.isArchive()) {
    if (I.kind == ObjectKind::Harness)
      return makeError(I.name + ": a harness must be an object, not an archive");
    return AllLoad ? S->addAllArchiveMembers(I.name, I.bytes) : S->addArchive(I.name, I.bytes);
  }
  auto K = S->addObject(I.name, I.bytes, I.kind);
  if (!K)
    return K.takeError();
  return I.library ? Error::success() : Conventions->addObject(I.name, I.bytes.span());
}

Error Link::addInputs(std::span<const Input> Inputs, const Options &O, const ReadFile &Read) {
  for (auto &E : O.conventions)
    if (Error Err = Conventions->addEntry(E, "-cc"))
      return Err;
  for (const Input &I : Inputs)
    if (Error E = addInput(I, O.allLoad))
      return E;
  for (auto &A : O.absolutes) {
    auto Abs = parseAbsolute({"-abs", A});
    if (!Abs)
      return Abs.takeError();
    if (Error E = S->defineAbsolute(Abs->name, Abs->address))
      return E;
  }
  for (auto &Arg : O.sectCreates) {
    auto Spec = parseSectCreate(Arg);
    if (!Spec)
      return Spec.takeError();
    auto Content = Read(Spec->file);
    if (!Content)
      return Content.takeError();
    auto G = sectCreateGraph(*Spec, std::move(*Content), S->triple());
    if (!G)
      return G.takeError();
    if (auto K = S->addGraph(std::move(*G)); !K)
      return K.takeError();
  }
  S->setPhonyExternals(O.phonyExternals);
  return Error::success();
}

void Link::linkEntry(std::string Entry, std::function<void(Expected<Addr>)> Done) {
  Entry = entrySymbol(Entry, S->triple());
  auto First = [Done](Expected<std::vector<Addr>> R) {
    Done(R ? Expected<Addr>(R->front()) : Expected<Addr>(R.takeError()));
  };
  if (Prog || !StartObject || !exec::entersThroughStart(SlabRuntime, Entry))
    return S->lookup({Entry}, First);
  if (!StartEntry) {
    auto K = exec::addStartObject(*S, *SlabRuntime, StartObject, Entry);
    if (!K)
      return Done(K.takeError());
    StartEntry = Entry;
  } else if (*StartEntry != Entry) {
    return Done(makeError("cannot link " + Entry + ": this session's start code was linked to enter " + *StartEntry));
  }
  // As a run: every object, the start object included, starts linking
  // before the lookups (the start object's own init arrays count then).
  auto Linked = std::make_shared<std::optional<Error>>();
  S->linkAll([Linked](Error E) { Linked->emplace(std::move(E)); });
  S->lookup({Entry}, [this, Linked, Done](Expected<std::vector<Addr>> Main) {
    if (!Main) { // the entry's error already names the object that failed to link
      if (*Linked)
        consumeError(std::move(**Linked));
      return Done(Main.takeError());
    }
    S->lookup({SlabRuntime->startSymbol}, [Linked, Done, At = Main->front()](Expected<std::vector<Addr>> Start) {
      if (!Start) {
        if (*Linked)
          consumeError(std::move(**Linked));
        return Done(Start.takeError());
      }
      if (*Linked && **Linked)
        return Done(std::move(**Linked));
      if (*Linked)
        consumeError(std::move(**Linked));
      Done(At);
    });
  });
}

} // namespace linklab::driver
