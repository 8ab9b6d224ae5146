#include "api/json_export.h"

#include "coff/coff_graph_builder.h"
#include "elf/elf_graph_builder.h"
#include "elf/elf_names.h"
#include "macho/macho_graph_builder.h"
#include "macho/universal.h"
#include "object/archive.h"
#include "target/target.h"
#include "target/triple.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace linklab::api {

uint32_t GraphIndex::idOf(const void *P, std::vector<void *> &V) {
  auto [It, New] = Ids.try_emplace(P, uint32_t(V.size()));
  if (New)
    V.push_back(const_cast<void *>(P));
  return It->second;
}

void GraphIndex::forgetIn(const void *P, std::vector<void *> &V) {
  auto It = Ids.find(P);
  if (It == Ids.end())
    return;
  V[It->second] = nullptr;
  Ids.erase(It);
}

std::string jsonString(std::string_view S) {
  std::string R = "\"";
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      R += '\\', R += char(C);
    else if (C < 0x20)
      R += formatv("\\u%04x", C);
    else
      R += char(C);
  }
  return R + "\"";
}

namespace {

// Appends "key":value pairs with commas managed in one place.
class JsonObject {
public:
  explicit JsonObject(std::string &Out) : Out(Out) { Out += '{'; }
  ~JsonObject() { Out += '}'; }
  std::string &key(std::string_view K) {
    if (!First)
      Out += ',';
    First = false;
    return Out += jsonString(K), Out += ':', Out;
  }
  void str(std::string_view K, std::string_view V) { key(K) += jsonString(V); }
  void num(std::string_view K, uint64_t V) { key(K) += std::to_string(V); }
  void snum(std::string_view K, int64_t V) { key(K) += std::to_string(V); }
  void boolean(std::string_view K, bool V) { key(K) += V ? "true" : "false"; }

private:
  std::string &Out;
  bool First = true;
};

// The same for an array's elements: next() returns Out ready for one.
class JsonArray {
public:
  explicit JsonArray(std::string &Out) : Out(Out) { Out += '['; }
  ~JsonArray() { Out += ']'; }
  std::string &next() {
    if (!First)
      Out += ',';
    First = false;
    return Out;
  }

private:
  std::string &Out;
  bool First = true;
};

const char HexDigits[] = "0123456789abcdef";

std::string hexBytes(std::span<const char> B) {
  std::string R;
  R.reserve(B.size() * 2);
  for (char C : B)
    R += HexDigits[uint8_t(C) >> 4], R += HexDigits[uint8_t(C) & 15];
  return R;
}

const char *symbolKind(const Symbol &S) { return S.isDefined() ? "defined" : S.isExternal() ? "external" : "absolute"; }

void symbolJson(std::string &Out, const Symbol &S, GraphIndex &Ix) {
  JsonObject O(Out);
  O.num("id", Ix.id(S));
  O.str("name", S.name);
  O.str("kind", symbolKind(S));
  if (S.isDefined()) {
    O.num("block", Ix.id(S.block()));
    O.str("section", S.section().name);
  }
  O.num("offset", S.offset);
  O.num("address", S.address());
  O.num("size", S.size);
  O.str("linkage", linkageName(S.linkage));
  O.str("scope", scopeName(S.scope));
  O.boolean("callable", S.callable);
  O.boolean("live", S.live);
  O.boolean("weak", S.weaklyReferenced);
}

void blockJson(std::string &Out, const LinkGraph &G, const Block &B, GraphIndex &Ix, bool WithContent) {
  const TargetInfo *T = findTarget(G.triple());
  JsonObject O(Out);
  O.num("id", Ix.id(B));
  O.num("address", B.address);
  O.num("size", B.size);
  O.num("alignment", B.alignment);
  O.num("alignmentOffset", B.alignmentOffset);
  O.boolean("zeroFill", B.isZeroFill());
  if (WithContent && !B.isZeroFill())
    O.key("content") += '"' + hexBytes(B.content()) + '"';
  JsonArray Es(O.key("edges"));
  for (const Edge &Ed : B.edges) {
    JsonObject EO(Es.next());
    EO.num("offset", Ed.offset);
    EO.str("kind", G.edgeKindName(Ed.kind));
    EO.num("width", T ? T->arch.edgeKindWidth(Ed.kind) : 0);
    EO.num("target", Ix.id(*Ed.target));
    EO.str("targetName", Ed.target->name);
    EO.snum("addend", Ed.addend);
  }
}

} // namespace

std::string graphToJson(const LinkGraph &G, GraphIndex &Ix, bool WithContent) {
  std::string Out;
  {
    JsonObject O(Out);
    O.str("name", G.name());
    O.str("triple", fullTriple(G.triple()));
    O.num("pointerSize", G.pointerSize());
    {
      JsonArray Secs(O.key("sections"));
      for (auto &S : G.sections()) {
        JsonObject SO(Secs.next());
        SO.str("name", S->name);
        SO.str("prot", protString(S->prot));
        SO.boolean("noAlloc", S->lifetime == MemLifetime::NoAlloc);
        JsonArray Bl(SO.key("blocks"));
        for (const Block *B : S->blocks)
          blockJson(Bl.next(), G, *B, Ix, WithContent);
      }
    }
    JsonArray Syms(O.key("symbols"));
    auto Add = [&](const Symbol &S) { symbolJson(Syms.next(), S, Ix); };
    G.forEachDefinedSymbol([&](Symbol &S) { Add(S); });
    for (Symbol *S : G.externalSymbols())
      Add(*S);
    for (Symbol *S : G.absoluteSymbols())
      Add(*S);
  }
  return Out;
}

namespace {

const char *nameOr(const char *Name) { return Name ? Name : ""; }

// inspectObjectJson's fields after "name", into O (an archive member's
// object adds its own before them). On an error O's text is partial.
Error objectFields(JsonObject &O, const std::string &Name, std::span<const char> Bytes);

// A relocation entry of a MachO or COFF object's own tables, as its
// format's builder reads them.
struct RelocationRow {
  std::string section;
  uint32_t offset, type, symbol;
  std::string symbolName;
  bool pcrel = false; // MachO only, with length
  unsigned length = 0;
};

// The section header flags (MachO section_64 flags, COFF Characteristics;
// COFF sections of one name keep the first header's) and relocation entries
// of a MachO or COFF object, from its format's builder.
Error formatTables(const TargetInfo &T, const std::string &Name, std::span<const char> Bytes,
                   std::map<std::string, uint32_t, std::less<>> &Flags, std::vector<RelocationRow> &Relocs) {
  if (T.format.format == ObjectFormat::MachO)
    return MachOGraphBuilder::forEachRelocation(
        T, Name, Bytes, [&](const MachOSection &S) { Flags[std::string(S.graphSection->name)] = S.flags; },
        [&](const MachOSection &S, const MachORelocation &R, std::string_view Sym) {
          // A section-relative entry holds its 1-based section number in symbolnum.
          Relocs.push_back({std::string(S.graphSection->name), R.address, R.type, R.symbolnum, std::string(Sym),
                            R.pcrel, 1u << R.length});
        });
  return COFFGraphBuilder::forEachRelocation(
      T, Name, Bytes, [&](std::string_view N, uint32_t C) { Flags.try_emplace(std::string(N), C); },
      [&](std::string_view Sec, const COFFRelocation &R, std::string_view Sym) {
        Relocs.push_back({std::string(Sec), R.offset, R.type, R.symbol, std::string(Sym)});
      });
}

// A MachO or COFF object, from the graph its format's builder makes:
// sections with their protections and header flags, symbols, and the
// relocations of the format's tables named by the pair's relocation names.
Error graphFields(JsonObject &O, const std::string &Name, std::span<const char> Bytes) {
  auto Target = identifyObject(Name, Bytes);
  if (!Target)
    return Target.takeError();
  const TargetInfo &T = **Target;
  auto TT = tripleOfObject(Name, Bytes);
  if (!TT)
    return TT.takeError();
  auto G = T.createGraph(T, Name, SharedBytes(std::vector<char>(Bytes.begin(), Bytes.end())));
  if (!G)
    return G.takeError();
  std::string Format = T.format.name;
  std::transform(Format.begin(), Format.end(), Format.begin(), [](char C) { return char(std::tolower(C)); });
  O.str("format", Format);
  O.num("machine", T.machine);
  O.str("machineName", nameOr(T.format.machineName ? T.format.machineName(T.machine) : nullptr));
  O.str("arch", T.arch.name);
  O.str("triple", fullTriple(*TT));
  const auto &Secs = (*G)->sections();
  auto SectionStart = [](const Section &S) {
    Addr A = ~Addr(0);
    for (const Block *B : S.blocks)
      A = std::min(A, B->address);
    return S.blocks.empty() ? 0 : A;
  };
  std::map<std::string, uint32_t, std::less<>> Flags;
  std::vector<RelocationRow> Relocs;
  if (Error E = formatTables(T, Name, Bytes, Flags, Relocs))
    return E;
  {
    JsonArray SA(O.key("sections"));
    for (size_t I = 0; I < Secs.size(); ++I) {
      const Section &S = *Secs[I];
      Addr Start = SectionStart(S), End = Start;
      for (const Block *B : S.blocks)
        End = std::max(End, B->address + B->size);
      JsonObject SO(SA.next());
      SO.num("index", I);
      SO.str("name", S.name);
      if (auto F = Flags.find(S.name); F != Flags.end())
        SO.num("flags", F->second); // the section header's (MachO section_64 flags, COFF Characteristics)
      SO.str("prot", protString(S.prot));
      SO.boolean("noAlloc", S.lifetime == MemLifetime::NoAlloc);
      SO.num("size", End - Start);
      SO.num("address", Start);
      SO.num("blocks", S.blocks.size());
    }
  }
  {
    JsonArray YA(O.key("symbols"));
    auto Add = [&](const Symbol &S) {
      JsonObject YO(YA.next());
      YO.str("name", S.name);
      YO.str("kind", symbolKind(S));
      YO.str("section", S.isDefined() ? std::string_view(S.section().name) : std::string_view());
      YO.num("value", S.address());
      YO.num("size", S.size);
      YO.str("linkage", linkageName(S.linkage));
      YO.str("scope", scopeName(S.scope));
      YO.boolean("callable", S.callable);
    };
    (*G)->forEachDefinedSymbol([&](Symbol &S) { Add(S); });
    for (Symbol *S : (*G)->externalSymbols())
      Add(*S);
    for (Symbol *S : (*G)->absoluteSymbols())
      Add(*S);
  }
  JsonArray RA(O.key("relocations"));
  for (const RelocationRow &R : Relocs) {
    JsonObject RO(RA.next());
    RO.str("section", R.section);
    RO.num("offset", R.offset);
    RO.num("type", R.type);
    RO.str("typeName", nameOr(T.relocationName(R.type)));
    RO.num("symbol", R.symbol);
    RO.str("symbolName", R.symbolName);
    if (T.format.format == ObjectFormat::MachO) {
      RO.boolean("pcrel", R.pcrel);
      RO.num("length", R.length);
    }
  }
  return Error::success();
}

// A universal MachO file: each slice as an object of its own.
Error universalFields(JsonObject &O, const std::string &Name, std::span<const char> Bytes) {
  auto Slices = macho::readUniversal(Name, SharedBytes(std::vector<char>(Bytes.begin(), Bytes.end())));
  if (!Slices)
    return Slices.takeError();
  O.str("format", "macho-universal");
  JsonArray SA(O.key("slices"));
  for (const macho::Slice &S : *Slices) {
    JsonObject SO(SA.next());
    std::string SliceName =
        Name + "(" + (S.arch == Arch::Unknown ? std::to_string(S.cpuType) : archRow(S.arch).name) + ")";
    SO.str("name", SliceName);
    SO.num("cpuType", S.cpuType);
    SO.num("cpuSubtype", S.cpuSubtype);
    if (Error E = objectFields(SO, SliceName, {S.bytes.data(), S.bytes.size()}))
      return E;
  }
  return Error::success();
}

Error objectFields(JsonObject &O, const std::string &Name, std::span<const char> Bytes) {
  if (macho::isUniversal(Bytes))
    return universalFields(O, Name, Bytes);
  if (!isElf(Bytes) && isObjectFile(Bytes))
    return graphFields(O, Name, Bytes);
  if (!isElf(Bytes))
    return makeError(
        formatv("%s: not a relocatable object: unknown file format (%zu bytes; ELF, MachO and COFF are read)",
                Name.c_str(), Bytes.size()));
  auto F = ElfFile::parse(Name, Bytes);
  if (!F)
    return F.takeError();
  // Null for a machine no row handles: the inspector still lists its contents.
  auto Target = identifyObject(Name, Bytes);
  const TargetInfo *T = Target ? *Target : nullptr;
  if (!T)
    consumeError(Target.takeError());
  auto TT = T ? tripleOfObject(Name, Bytes) : Expected<Triple>(Triple());
  if (!TT)
    return TT.takeError();
  O.str("format", "elf");
  O.num("machine", F->machine());
  // arch and triple as the registry spells them (targets(), -triple); the
  // ELF header's own description of the machine beside them.
  O.str("machineName", elfMachineName(F->machine()));
  O.str("arch", T ? T->arch.name : "");
  O.str("triple", T ? fullTriple(*TT) : "");
  O.num("flags", F->flags());
  const auto &Secs = F->sections();
  {
    JsonArray SA(O.key("sections"));
    for (size_t I = 0; I < Secs.size(); ++I) {
      const ElfSection &S = Secs[I];
      JsonObject SO(SA.next());
      SO.num("index", I);
      SO.str("name", S.name);
      SO.num("type", S.type);
      SO.str("typeName", nameOr(elf::sectionTypeName(S.type)));
      SO.num("flags", S.flags);
      SO.num("size", S.size);
      SO.num("offset", S.offset);
      SO.num("addralign", S.addralign);
      SO.num("entsize", S.entsize);
      SO.num("link", S.link);
      SO.num("info", S.info);
    }
  }
  auto SectionName = [&](uint32_t Idx) -> std::string_view { return Idx < Secs.size() ? Secs[Idx].name : ""; };
  {
    JsonArray YA(O.key("symbols"));
    for (size_t I = 0; I < F->symbolCount(); ++I) {
      const ElfSymbol S = F->symbol(I);
      JsonObject YO(YA.next());
      YO.num("index", I);
      YO.str("name", S.name);
      YO.num("bind", S.bind);
      YO.str("bindName", nameOr(elf::symbolBindName(S.bind)));
      YO.num("type", S.type);
      YO.str("typeName", nameOr(elf::symbolTypeName(S.type)));
      YO.num("visibility", S.visibility);
      YO.num("shndx", S.shndx);
      // As llvm-readelf's Ndx column: a section's name, or UND, ABS, COMMON.
      const char *Special = elf::specialSectionIndexName(S.shndx);
      YO.str("section", Special ? Special : S.shndx < elf::SHN_LORESERVE ? SectionName(S.shndx) : "");
      YO.num("value", S.value);
      YO.num("size", S.size);
    }
  }
  JsonArray RA(O.key("relocations"));
  for (const ElfSection &S : Secs) {
    if (S.type != elf::SHT_RELA)
      continue;
    auto Relocs = F->relocations(S);
    if (!Relocs)
      return Relocs.takeError();
    for (const ElfRela &R : *Relocs) {
      JsonObject RO(RA.next());
      RO.str("section", SectionName(S.info));
      RO.num("offset", R.offset);
      RO.num("type", R.type);
      const char *TN = T && T->relocationName ? T->relocationName(R.type) : nullptr;
      RO.str("typeName", TN ? TN : "");
      RO.num("symbol", R.sym);
      RO.str("symbolName", R.sym < F->symbolCount() ? F->symbol(R.sym).name : "");
      RO.snum("addend", R.addend);
    }
  }
  return Error::success();
}

} // namespace

Expected<std::string> inspectObjectJson(const std::string &Name, std::span<const char> Bytes) {
  std::string Out;
  {
    JsonObject O(Out);
    O.str("name", Name);
    if (Error E = objectFields(O, Name, Bytes))
      return E;
  }
  return Out;
}

Expected<std::string> inspectArchiveJson(const std::string &Name, SharedBytes Bytes) {
  auto A = Archive::parse(Name, Bytes);
  if (!A)
    return A.takeError();
  std::string Out;
  {
    JsonObject O(Out);
    O.str("name", Name);
    O.str("format", "archive");
    {
      JsonArray MA(O.key("members"));
      for (const Archive::Member &M : A->members()) {
        std::string Full = Name + "(" + std::string(M.name) + ")";
        std::string &Text = MA.next();
        JsonObject MO(Text);
        MO.str("name", Full);
        MO.str("member", M.name);
        MO.num("offset", uint64_t(M.data.data() - Bytes.data()));
        MO.num("size", M.data.size());
        // A member that is not a readable object shows its error instead of
        // hiding the others (archives may hold other files too).
        size_t Fields = Text.size();
        if (Error E = objectFields(MO, Full, M.data)) {
          Text.resize(Fields);
          MO.str("error", E.message());
        }
      }
    }
    std::vector<std::pair<std::string_view, size_t>> Index;
    for (auto &[Sym, Member] : A->symbolIndex())
      Index.emplace_back(Sym, Member);
    std::sort(Index.begin(), Index.end());
    JsonArray IA(O.key("symbolIndex"));
    for (auto &[Sym, Member] : Index) {
      JsonObject E(IA.next());
      E.str("symbol", Sym);
      E.num("member", Member);
    }
  }
  return Out;
}

std::string linkInfoToJson(const std::vector<ObjectLinkInfo> &Objects, const std::set<std::string> *Only) {
  std::string Out;
  {
    JsonArray Os(Out);
    for (const ObjectLinkInfo &Obj : Objects) {
      JsonObject O(Os.next());
      O.str("name", Obj.name);
      bool Content = !Only || Only->count(Obj.name);
      {
        JsonArray Secs(O.key("sections"));
        for (auto &S : Obj.sections) {
          JsonObject SO(Secs.next());
          SO.str("name", S.name);
          SO.num("address", S.address);
          SO.num("size", S.size);
          SO.str("prot", protString(S.prot));
          if (Content)
            SO.key("content") += '"' + hexBytes(S.content) + '"';
        }
      }
      for (auto [Key, Table] :
           {std::pair{"symbols", &Obj.symbols}, std::pair{"prunedFunctions", &Obj.prunedFunctions}}) {
        JsonObject Syms(O.key(Key));
        for (auto &[N, S] : *Table) {
          JsonObject SO(Syms.key(N));
          SO.num("address", S.address);
          SO.num("size", S.size);
          SO.str("scope", scopeName(S.scope));
          SO.str("section", S.section);
        }
      }
      {
        JsonArray Segs(O.key("segments"));
        for (const SegmentRecord &S : Obj.segments) {
          JsonObject SO(Segs.next());
          SO.num("address", S.address);
          SO.num("size", S.size);
          SO.str("prot", protString(S.prot));
        }
      }
      for (auto [Key, Table] : {std::pair{"gotEntries", &Obj.gotEntries}, std::pair{"stubs", &Obj.stubs}}) {
        JsonObject T(O.key(Key));
        for (auto &[N, A] : *Table)
          T.num(N, A);
      }
      {
        JsonObject Sizes(O.key("entrySizes")); // by each GOT entry's and stub's address (decimal)
        for (auto &[A, Size] : Obj.entrySizes)
          Sizes.num(std::to_string(A), Size);
      }
    }
  }
  return Out;
}

} // namespace linklab::api
