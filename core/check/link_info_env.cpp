#include "check/link_info_env.h"

#include "arch/arm.h"

#include <algorithm>

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

// A stub's kind from its bytes, as llvm-jitlink's detectStubKind names it:
// Arm's movw/movt/bx stubs in their Arm and Thumb forms; "" for any other.
static std::string_view stubKind(std::span<const uint8_t> C) {
  auto Word = [&](size_t At) { return uint32_t(C[At] | C[At + 1] << 8 | C[At + 2] << 16 | uint32_t(C[At + 3]) << 24); };
  // Thumb-2 halfwords in memory order, immediates masked out.
  auto ThumbWord = [&](size_t At) { return uint32_t(C[At] | C[At + 1] << 8) << 16 | (C[At + 2] | C[At + 3] << 8); };
  if (C.size() == 10 && (ThumbWord(0) & 0xfbf08f00) == 0xf2400c00 && (ThumbWord(4) & 0xfbf08f00) == 0xf2c00c00 &&
      (C[8] | C[9] << 8) == 0x4760)
    return "thumbv7_abs_le";
  if (C.size() == 12 && (Word(0) & 0xfff0f000) == 0xe300c000 && (Word(4) & 0xfff0f000) == 0xe340c000 &&
      Word(8) == 0xe12fff1c)
    return "armv7_abs_le";
  return "";
}

// stub_addr(file, symbol [, kind]): with several stubs for the symbol (Arm
// and Thumb), the kind filter picks the one whose kind contains it; errors
// in llvm-jitlink's words (its RuntimeDyldChecker's).
Expected<uint64_t> LinkInfoCheckEnv::stubAddress(std::string_view File, std::string_view Target,
                                                 std::string_view Kind) const {
  auto O = object(File);
  if (!O)
    return O.takeError();
  auto [Lo, Hi] = (*O)->allStubs.equal_range(std::string(Target));
  std::vector<Addr> Stubs;
  for (auto It = Lo; It != Hi; ++It)
    Stubs.push_back(It->second);
  if (Stubs.empty())
    return makeError(formatv("%s has no stub for '%.*s'", (*O)->name.c_str(), int(Target.size()), Target.data()));
  if (Stubs.size() == 1 && Kind.empty())
    return Stubs.front();
  std::sort(Stubs.begin(), Stubs.end());
  std::string Kinds;
  for (Addr A : Stubs) {
    auto Size = (*O)->entrySizes.find(A);
    auto Bytes = readBytes(A, Size == (*O)->entrySizes.end() ? 0 : Size->second);
    if (!Bytes)
      return Bytes.takeError();
    std::string_view K = stubKind(*Bytes);
    if (!Kind.empty() && K.find(Kind) != std::string_view::npos)
      return A;
    Kinds += formatv("%s\"%.*s\"", Kinds.empty() ? "" : ", ", int(K.size()), K.data());
  }
  std::string T(Target), F(File), Filter(Kind);
  if (Kind.empty())
    return makeError(formatv("\"%s\" has %zu candidate stubs in file \"%s\". Please refine stub-kind filter \"\" for "
                             "disambiguation (encountered kinds are %s).",
                             T.c_str(), Stubs.size(), F.c_str(), Kinds.c_str()));
  return makeError(formatv("\"%s\" has %zu stubs in file \"%s\", but none of them matches the stub-kind filter \"%s\" "
                           "(all encountered kinds are %s).",
                           T.c_str(), Stubs.size(), F.c_str(), Filter.c_str(), Kinds.c_str()));
}

Expected<uint64_t> LinkInfoCheckEnv::sectionAddress(std::string_view File, std::string_view Section) const {
  auto O = object(File);
  if (!O)
    return O.takeError();
  for (auto &S : (*O)->sections)
    if (S.name == Section)
      return S.address;
  return makeError(
      formatv("%s has no section '%.*s' in linked memory", (*O)->name.c_str(), int(Section.size()), Section.data()));
}

// As llvm-jitlink's checker, which reads the linked memory itself: a load
// may run past its section's end into what follows in the same segment (the
// next section's bytes, or the zero padding between blocks) and past the
// segment's end into the rest of its page (zeros; 4 KiB, the smallest page
// a slab has here). It stops there.
Expected<std::vector<uint8_t>> LinkInfoCheckEnv::readBytes(uint64_t A, size_t Size) const {
  for (auto &O : Info.objects())
    for (auto &S : O.sections) {
      if (A < S.address || A >= S.address + S.content.size())
        continue;
      auto Segment = std::find_if(O.segments.begin(), O.segments.end(),
                                  [&](const SegmentRecord &G) { return A >= G.address && A < G.address + G.size; });
      constexpr uint64_t Page = 4096;
      uint64_t End = Segment == O.segments.end() ? S.address + S.content.size()
                                                 : (Segment->address + Segment->size + Page - 1) & ~(Page - 1);
      std::vector<uint8_t> Out;
      for (uint64_t At = A; At < End && Out.size() < Size; ++At) {
        uint8_t Byte = 0; // padding, unless a section of the object holds the address
        for (auto &T : O.sections)
          if (At >= T.address && At < T.address + T.content.size())
            Byte = T.content[At - T.address];
        Out.push_back(Byte);
      }
      return Out;
    }
  return makeError(formatv("address %s is in no linked section", hex(A).c_str()));
}

} // namespace linklab::check
