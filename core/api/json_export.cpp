#include "api/json_export.h"

#include "object/archive.h"
#include "support/triple.h"
#include "target/target.h"

#include <algorithm>

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
  std::string &key(const char *K) {
    if (!First)
      Out += ',';
    First = false;
    return Out += '"', Out += K, Out += "\":", Out;
  }
  void str(const char *K, std::string_view V) { key(K) += jsonString(V); }
  void num(const char *K, uint64_t V) { key(K) += std::to_string(V); }
  void snum(const char *K, int64_t V) { key(K) += std::to_string(V); }
  void boolean(const char *K, bool V) { key(K) += V ? "true" : "false"; }

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

const char *symbolKind(const Symbol &S) {
  return S.isDefined() ? "defined" : S.isExternal() ? "external" : "absolute";
}

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
  JsonObject O(Out);
  O.num("id", Ix.id(B));
  O.num("address", B.address);
  O.num("size", B.size);
  O.num("alignment", B.alignment);
  O.num("alignmentOffset", B.alignmentOffset);
  O.boolean("zeroFill", B.isZeroFill());
  if (WithContent && !B.isZeroFill())
    O.key("content") += '"' + hexBytes(B.content()) + '"';
  std::string &E = O.key("edges");
  E += '[';
  for (size_t I = 0; I < B.edges.size(); ++I) {
    const Edge &Ed = B.edges[I];
    if (I)
      E += ',';
    JsonObject EO(E);
    EO.num("offset", Ed.offset);
    EO.str("kind", G.edgeKindName(Ed.kind));
    EO.num("target", Ix.id(*Ed.target));
    EO.str("targetName", Ed.target->name);
    EO.snum("addend", Ed.addend);
  }
  E += ']';
}

} // namespace

std::string graphToJson(const LinkGraph &G, GraphIndex &Ix, bool WithContent) {
  std::string Out;
  {
    JsonObject O(Out);
    O.str("name", G.name());
    O.str("triple", G.triple().str);
    O.num("pointerSize", G.pointerSize());
    std::string &Secs = O.key("sections");
    Secs += '[';
    bool First = true;
    for (auto &S : G.sections()) {
      if (!First)
        Secs += ',';
      First = false;
      JsonObject SO(Secs);
      SO.str("name", S->name);
      SO.str("prot", protString(S->prot));
      SO.boolean("noAlloc", S->lifetime == MemLifetime::NoAlloc);
      std::string &Bl = SO.key("blocks");
      Bl += '[';
      for (size_t I = 0; I < S->blocks.size(); ++I) {
        if (I)
          Bl += ',';
        blockJson(Bl, G, *S->blocks[I], Ix, WithContent);
      }
      Bl += ']';
    }
    Secs += ']';
    std::string &Syms = O.key("symbols");
    Syms += '[';
    First = true;
    auto Add = [&](const Symbol &S) {
      if (!First)
        Syms += ',';
      First = false;
      symbolJson(Syms, S, Ix);
    };
    G.forEachDefinedSymbol([&](Symbol &S) { Add(S); });
    for (Symbol *S : G.externalSymbols())
      Add(*S);
    for (Symbol *S : G.absoluteSymbols())
      Add(*S);
    Syms += ']';
  }
  return Out;
}

// inspectObjectJson's fields after "name", into O (an archive member's
// object adds its own before them). On an error O's text is partial.
Error objectFields(JsonObject &O, const std::string &Name, std::span<const char> Bytes) {
  if (!isElf(Bytes))
    return makeError(formatv("%s: not an ELF relocatable object (unknown file format, %zu bytes)", Name.c_str(),
                             Bytes.size()));
  auto F = ElfFile::parse(Name, Bytes);
  if (!F)
    return F.takeError();
  const TargetInfo *T = findTargetByElfMachine(F->machine());
  {
    O.str("format", "elf");
    O.num("machine", F->machine());
    O.str("arch", elfMachineName(F->machine()));
    O.str("triple", T ? Triple::parse(std::string(T->name) + "--").str : "");
    O.num("flags", F->flags());
    const auto &Secs = F->sections();
    std::string &SA = O.key("sections");
    SA += '[';
    for (size_t I = 0; I < Secs.size(); ++I) {
      const ElfSection &S = Secs[I];
      if (I)
        SA += ',';
      JsonObject SO(SA);
      SO.num("index", I);
      SO.str("name", S.name);
      SO.num("type", S.type);
      SO.num("flags", S.flags);
      SO.num("size", S.size);
      SO.num("offset", S.offset);
      SO.num("addralign", S.addralign);
      SO.num("entsize", S.entsize);
      SO.num("link", S.link);
      SO.num("info", S.info);
    }
    SA += ']';
    const auto &Syms = F->symbols();
    auto SectionName = [&](uint32_t Idx) -> std::string_view { return Idx < Secs.size() ? Secs[Idx].name : ""; };
    std::string &YA = O.key("symbols");
    YA += '[';
    for (size_t I = 0; I < Syms.size(); ++I) {
      const ElfSymbol &S = Syms[I];
      if (I)
        YA += ',';
      JsonObject YO(YA);
      YO.num("index", I);
      YO.str("name", S.name);
      YO.num("bind", S.bind);
      YO.num("type", S.type);
      YO.num("visibility", S.visibility);
      YO.num("shndx", S.shndx);
      YO.str("section", S.shndx < elf::SHN_LORESERVE ? SectionName(S.shndx) : "");
      YO.num("value", S.value);
      YO.num("size", S.size);
    }
    YA += ']';
    std::string &RA = O.key("relocations");
    RA += '[';
    bool First = true;
    for (const ElfSection &S : Secs) {
      if (S.type != elf::SHT_RELA)
        continue;
      auto Relocs = F->relocations(S);
      if (!Relocs)
        return Relocs.takeError();
      for (const ElfRela &R : *Relocs) {
        if (!First)
          RA += ',';
        First = false;
        JsonObject RO(RA);
        RO.str("section", SectionName(S.info));
        RO.num("offset", R.offset);
        RO.num("type", R.type);
        const char *TN = T && T->elfRelocationName ? T->elfRelocationName(R.type) : nullptr;
        RO.str("typeName", TN ? TN : "");
        RO.num("symbol", R.sym);
        RO.str("symbolName", R.sym < Syms.size() ? Syms[R.sym].name : "");
        RO.snum("addend", R.addend);
      }
    }
    RA += ']';
  }
  return Error::success();
}

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

Expected<std::string> inspectArchiveJson(const std::string &Name, std::shared_ptr<const std::vector<char>> Bytes) {
  auto A = Archive::parse(Name, Bytes);
  if (!A)
    return A.takeError();
  std::string Out;
  {
    JsonObject O(Out);
    O.str("name", Name);
    O.str("format", "archive");
    std::string &MA = O.key("members");
    MA += '[';
    for (size_t I = 0; I < A->members().size(); ++I) {
      const Archive::Member &M = A->members()[I];
      std::string Full = Name + "(" + M.name + ")";
      MA += I ? "," : "";
      JsonObject MO(MA);
      MO.str("name", Full);
      MO.str("member", M.name);
      MO.num("offset", uint64_t(M.data.data() - Bytes->data()));
      MO.num("size", M.data.size());
      // A member that is not a readable object shows its error instead of
      // hiding the others (archives may hold other files too).
      size_t Fields = MA.size();
      if (Error E = objectFields(MO, Full, M.data)) {
        MA.resize(Fields);
        MO.str("error", E.message());
      }
    }
    MA += ']';
    std::vector<std::pair<std::string_view, size_t>> Index(A->symbolIndex().begin(), A->symbolIndex().end());
    std::sort(Index.begin(), Index.end());
    std::string &IA = O.key("symbolIndex");
    IA += '[';
    for (size_t I = 0; I < Index.size(); ++I) {
      IA += I ? "," : "";
      JsonObject E(IA);
      E.str("symbol", Index[I].first);
      E.num("member", Index[I].second);
    }
    IA += ']';
  }
  return Out;
}

} // namespace linklab::api
