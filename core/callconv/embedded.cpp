#include "callconv/embedded.h"

#include "elf/elf_file.h"

namespace linklab::callconv {

Error ConventionTable::add(std::string_view Entry, const std::string &Origin) {
  auto Fail = [&](const std::string &Why) {
    return makeError(formatv("%s: '%s': %s", Origin.c_str(), std::string(Entry).c_str(), Why.c_str()));
  };
  size_t Eq = Entry.find('='), Semi = Entry.find(';', Eq == Entry.npos ? 0 : Eq);
  if (Eq == Entry.npos || Eq == 0 || Semi == Entry.npos)
    return Fail("not SYMBOL=SIGNATURE;SPEC-OR-PLAN (or ;@CONVENTION)");
  std::string Symbol(Entry.substr(0, Eq));
  auto Sig = parseSignature(Entry.substr(Eq + 1, Semi - Eq - 1));
  if (!Sig)
    return Fail(Sig.takeError().message());
  std::string_view Convention = Entry.substr(Semi + 1);
  if (Convention.starts_with('@') && !Registry)
    return Fail("'" + std::string(Convention) + "' names a plugin convention, and no convention registry is given");
  auto P = Convention.starts_with('@') ? Registry->plan(Convention.substr(1), *Target, *Sig)
                                       : materialize(Convention, *Sig, *Target);
  if (!P)
    return Fail(P.takeError().message());
  if (auto It = Origins.find(Symbol); It != Origins.end())
    return Fail(formatv("'%s' already has a convention (from %s)", Symbol.c_str(), It->second.c_str()));
  for (auto &W : P->warnings())
    Warnings.push_back(Origin + ": " + W);
  Origins.emplace(Symbol, Origin);
  Plans.emplace(Symbol, std::move(*P));
  return Error::success();
}

Error ConventionTable::addObject(const std::string &Name, std::span<const char> Object) {
  if (!isElf(Object))
    return Error::success(); // other formats carry no convention section yet
  auto F = ElfFile::parse(Name, Object, /*WithSymbols=*/false);
  if (!F)
    return F.takeError();
  for (auto &S : F->sections()) {
    if (S.name != ConventionSectionName)
      continue;
    std::string_view Text(S.content.data(), S.content.size());
    if (!Text.empty() && Text.back() != '\0')
      return F->error(formatv("%s: the last entry is not NUL-terminated", std::string(S.name).c_str()));
    unsigned Index = 0;
    for (size_t Pos = 0; Pos < Text.size(); ++Index) {
      size_t End = Text.find('\0', Pos);
      std::string_view E = Text.substr(Pos, End - Pos);
      std::string Origin =
          formatv("%s: %s entry %u (offset %s)", Name.c_str(), std::string(S.name).c_str(), Index, hex(Pos).c_str());
      Pos = End + 1;
      if (E.empty())
        continue; // padding
      if (Error Err = add(E, Origin))
        return Err;
    }
  }
  return Error::success();
}

const Plan *ConventionTable::find(std::string_view Symbol) const {
  auto It = Plans.find(Symbol);
  return It == Plans.end() ? nullptr : &It->second;
}

} // namespace linklab::callconv
