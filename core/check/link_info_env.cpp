#include "check/link_info_env.h"

#include "arch/arm.h"


namespace linklab::check {

Expected<uint64_t> LinkInfoCheckEnv::symbolAddress(std::string_view Name) const {
  // A global definition wins over a local of the same name in another
  // object; llvm-jitlink sees only the globals, we accept locals too.
  const ObjectLinkInfo::SymbolInfo *Found = nullptr;
  for (auto &O : Info.objects())
    if (auto *S = O.findSymbol(Name))
      if (!Found || (Found->scope == Scope::Local && S->scope != Scope::Local))
        Found = S;
  if (Found)
    return Found->address;
  if (Resolve)
    if (auto A = Resolve(Name))
      return *A;
  std::string Msg = formatv("no known address for symbol '%.*s'", int(Name.size()), Name.data());
  if (Name.starts_with(".L") || Name.starts_with("L"))
    Msg += " (assembler-local labels are not kept in the object; use a label without '.L')";
  return makeError(Msg);
}

bool LinkInfoCheckEnv::isThumbSymbol(std::string_view Name) const {
  if (A != Arch::Arm)
    return false;
  for (auto &O : Info.objects())
    if (auto *S = O.findSymbol(Name); S && (S->targetFlags & arm::ThumbSymbol))
      return true;
  return false;
}

Expected<const ObjectLinkInfo *> LinkInfoCheckEnv::object(std::string_view File) const {
  if (const ObjectLinkInfo *O = Info.find(File))
    return O;
  std::string Known;
  for (auto &O : Info.objects())
    Known += (Known.empty() ? "" : ", ") + O.name;
  return makeError(formatv("no linked file named '%.*s' (linked: %s)", int(File.size()), File.data(),
                           Known.empty() ? "none" : Known.c_str()));
}

// File's GOT entry or stub (Table) for Target.
Expected<uint64_t> LinkInfoCheckEnv::entry(std::string_view File, std::string_view Target,
                                           std::map<std::string, Addr> ObjectLinkInfo::*Table, const char *What) const {
  auto O = object(File);
  if (!O)
    return O.takeError();
  if (auto It = ((**O).*Table).find(std::string(Target)); It != ((**O).*Table).end())
    return It->second;
  return makeError(formatv("%s has no %s for '%.*s'", (*O)->name.c_str(), What, int(Target.size()), Target.data()));
}

Expected<uint64_t> LinkInfoCheckEnv::gotEntryAddress(std::string_view File, std::string_view Target) const {
  return entry(File, Target, &ObjectLinkInfo::gotEntries, "GOT entry");
}

// The backends here build one stub kind per target, so a kind filter (used
// by llvm-jitlink on targets with several, such as ARM/Thumb) selects it.
Expected<uint64_t> LinkInfoCheckEnv::stubAddress(std::string_view File, std::string_view Target,
                                                 std::string_view) const {
  return entry(File, Target, &ObjectLinkInfo::stubs, "stub");
}

Expected<uint64_t> LinkInfoCheckEnv::sectionAddress(std::string_view File, std::string_view Section) const {
  auto O = object(File);
  if (!O)
    return O.takeError();
  for (auto &S : (*O)->sections)
    if (S.name == Section)
      return S.address;
  return makeError(formatv("%s has no section '%.*s' in linked memory", (*O)->name.c_str(), int(Section.size()),
                           Section.data()));
}

Expected<std::vector<uint8_t>> LinkInfoCheckEnv::readBytes(uint64_t A, size_t Size) const {
  for (auto &O : Info.objects())
    for (auto &S : O.sections)
      if (A >= S.address && A < S.address + S.content.size()) {
        size_t Off = A - S.address, N = std::min(Size, S.content.size() - Off);
        return std::vector<uint8_t>(S.content.begin() + Off, S.content.begin() + Off + N);
      }
  return makeError(formatv("address %s is in no linked section", hex(A).c_str()));
}

} // namespace linklab::check
