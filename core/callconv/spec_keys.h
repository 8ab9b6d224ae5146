// The one definition of the callconv spec vocabulary. Everything that writes a
// spec (Spec::canonical, an object-file section producer) and everything that
// reads one (parseSpec) uses this table, so the two can never drift apart.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace linklab::callconv {

// What a spec list means. Several spellings share one role.
enum class SpecRole : uint8_t { Args, ArgGpr, ArgFpr, RetGpr, RetFpr, CalleeSaved };
inline constexpr unsigned NumSpecRoles = 6;

struct SpecKey {
  std::string_view Name;
  SpecRole Role;
};

// The first spelling listed for a role is canonical: producers write it.
// `fpr` is preferred over `xmm` there because it is target-neutral.
inline constexpr SpecKey SpecKeys[] = {
    {"args", SpecRole::Args},      {"gpr", SpecRole::ArgGpr},      {"arg_gpr", SpecRole::ArgGpr},
    {"fpr", SpecRole::ArgFpr},     {"xmm", SpecRole::ArgFpr},      {"arg_xmm", SpecRole::ArgFpr},
    {"ret_gpr", SpecRole::RetGpr}, {"ret", SpecRole::RetGpr},      {"ret_fpr", SpecRole::RetFpr},
    {"ret_xmm", SpecRole::RetFpr}, {"csr", SpecRole::CalleeSaved},
};

// Tokens of an `args` list that mean "this argument goes to a stack slot".
inline constexpr std::string_view StackTokens[] = {"stack", "mem"};

inline constexpr char SegmentSeparator = ';';
inline constexpr char KeySeparator = ':';
inline constexpr char TokenSeparator = ',';
// Joins the registers of a multi-part value in one `args` token ("rdi+rsi").
inline constexpr char PartSeparator = '+';

inline std::optional<SpecRole> roleOfKey(std::string_view Key) {
  for (const SpecKey &K : SpecKeys)
    if (K.Name == Key)
      return K.Role;
  return std::nullopt;
}

inline std::string_view canonicalKey(SpecRole Role) {
  for (const SpecKey &K : SpecKeys)
    if (K.Role == Role)
      return K.Name;
  return {};
}

inline bool isStackToken(std::string_view Token) {
  for (std::string_view S : StackTokens)
    if (S == Token)
      return true;
  return false;
}

} // namespace linklab::callconv
