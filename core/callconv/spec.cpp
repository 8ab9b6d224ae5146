#include "callconv/spec.h"
#include "callconv/value_shape.h"

namespace linklab::callconv {

namespace {

// Calls F on each piece of S between separators, with its index.
template <typename Fn> bool forEachPiece(std::string_view S, char Sep, Fn F) {
  for (size_t Index = 0;; ++Index) {
    size_t End = S.find(Sep);
    if (!F(S.substr(0, End), Index))
      return false;
    if (End == std::string_view::npos)
      return true;
    S.remove_prefix(End + 1);
  }
}

} // namespace

std::string Spec::canonical() const {
  std::string Out;
  for (unsigned R = 0; R < NumSpecRoles; ++R) {
    if (!Lists[R])
      continue;
    if (!Out.empty())
      Out += SegmentSeparator;
    Out += canonicalKey(SpecRole(R));
    Out += KeySeparator;
    for (size_t I = 0; I < Lists[R]->size(); ++I)
      Out += (I ? std::string(1, TokenSeparator) : "") + (*Lists[R])[I];
  }
  return Out;
}

Expected<Spec> parseSpec(std::string_view Text) {
  Spec S;
  std::string Problem;
  auto &Keys = S.KeyNames;
  forEachPiece(Text, SegmentSeparator, [&](std::string_view Segment, size_t SegIndex) {
    Segment = trim(Segment);
    if (Segment.empty()) // "a;;b" and a trailing ';' are harmless
      return true;
    size_t Colon = Segment.find(KeySeparator);
    if (Colon == std::string_view::npos) {
      Problem = formatv("segment %zu '%.*s' has no '%c'", SegIndex, int(Segment.size()), Segment.data(), KeySeparator);
      return false;
    }
    std::string Key = lower(trim(Segment.substr(0, Colon)));
    std::optional<SpecRole> Role = roleOfKey(Key);
    if (!Role) {
      S.Warnings.push_back(formatv("callconv spec: unknown key '%s' in segment %zu ignored", Key.c_str(), SegIndex));
      return true;
    }
    auto &List = S.Lists[size_t(*Role)];
    if (List) {
      Problem = formatv("segment %zu: key '%s' repeats '%s'", SegIndex, Key.c_str(), Keys[size_t(*Role)].c_str());
      return false;
    }
    Keys[size_t(*Role)] = Key;
    List.emplace();
    std::string_view Body = trim(Segment.substr(Colon + 1));
    if (Body.empty())
      return true;
    return forEachPiece(Body, TokenSeparator, [&](std::string_view Token, size_t TokIndex) {
      Token = trim(Token);
      if (Token.empty()) {
        Problem = formatv("segment %zu '%s': token %zu is empty", SegIndex, Key.c_str(), TokIndex);
        return false;
      }
      List->push_back(lower(Token));
      return true;
    });
  });
  if (!Problem.empty())
    return makeError("callconv spec '" + std::string(Text) + "': " + Problem);
  return S;
}

} // namespace linklab::callconv
