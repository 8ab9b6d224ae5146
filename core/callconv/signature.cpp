#include "callconv/signature.h"
#include "callconv/value_shape.h"

#include <algorithm>
#include <charconv>

namespace linklab::callconv {

namespace {

struct NamedType {
  std::string_view Name;
  ValueType Type;
};

constexpr NamedType Scalars[] = {
    {"i8", {ValueKind::Int, 1, 1}},       {"i16", {ValueKind::Int, 2, 2}},    {"i32", {ValueKind::Int, 4, 4}},
    {"i64", {ValueKind::Int, 8, 8}},      {"i128", {ValueKind::Int, 16, 16}}, {"ptr", {ValueKind::Ptr, 8, 8}},
    {"f16", {ValueKind::Float, 2, 2}},    {"f32", {ValueKind::Float, 4, 4}},  {"f64", {ValueKind::Float, 8, 8}},
    {"f128", {ValueKind::Float, 16, 16}}, {"v64", {ValueKind::Vector, 8, 8}}, {"v128", {ValueKind::Vector, 16, 16}},
};

constexpr std::pair<std::string_view, ValueKind> Aggregates[] = {{"byval", ValueKind::ByVal},
                                                                 {"sret", ValueKind::SRet}};

// Large enough for any by-value struct a test writes, small enough that
// stack offsets never overflow.
constexpr uint32_t MaxAggregateSize = 1u << 20;

std::optional<uint32_t> parseNumber(std::string_view S) {
  uint32_t V = 0;
  auto [End, Ec] = std::from_chars(S.data(), S.data() + S.size(), V);
  if (Ec != std::errc() || End != S.data() + S.size())
    return std::nullopt;
  return V;
}

// Parses "byval(24:8)" and the scalar names; Where names the position.
Expected<ValueType> parseType(std::string_view T, const std::string &Where) {
  for (const NamedType &N : Scalars)
    if (N.Name == T)
      return N.Type;
  for (auto [Name, Kind] : Aggregates) {
    if (T.substr(0, Name.size()) != Name || T.size() < Name.size() + 3 || T[Name.size()] != '(' || T.back() != ')')
      continue;
    std::string_view Body = T.substr(Name.size() + 1, T.size() - Name.size() - 2);
    size_t Colon = Body.find(':');
    auto Size = parseNumber(Body.substr(0, Colon));
    auto Align = Colon == std::string_view::npos ? std::optional<uint32_t>(8) : parseNumber(Body.substr(Colon + 1));
    if (!Size || !Align || *Size == 0 || *Size > MaxAggregateSize)
      return makeError(formatv("%s: '%.*s' needs a size from 1 to %u: %.*s(SIZE[:ALIGN])", Where.c_str(), int(T.size()),
                               T.data(), MaxAggregateSize, int(Name.size()), Name.data()));
    if (*Align == 0 || *Align > 16 || (*Align & (*Align - 1)))
      return makeError(formatv("%s: '%.*s' has alignment %u; it must be a power of two up to 16", Where.c_str(),
                               int(T.size()), T.data(), *Align));
    return ValueType{Kind, *Size, *Align};
  }
  return makeError(formatv("%s: unknown type '%.*s'", Where.c_str(), int(T.size()), T.data()));
}

} // namespace

std::string ValueType::str() const {
  for (const NamedType &N : Scalars)
    if (N.Type == *this)
      return std::string(N.Name);
  for (auto [Name, K] : Aggregates)
    if (K == Kind)
      return formatv("%.*s(%u:%u)", int(Name.size()), Name.data(), Size, Align);
  return "?";
}

std::string Signature::str() const {
  std::string S = Return ? Return->str() : "void";
  S += '(';
  for (size_t I = 0; I < Params.size(); ++I)
    S += (I ? "," : "") + Params[I].str();
  if (Variadic)
    S += Params.empty() ? "..." : ",...";
  return S + ')';
}

Expected<Signature> parseSignature(std::string_view Text) {
  std::string S = lower(Text);
  std::string Ctx = "signature '" + std::string(Text) + "'";
  // The parameter list's '(' is the one matching the final ')'.
  size_t Open = std::string::npos;
  for (size_t I = S.size(), Depth = 0; I-- > 0 && !S.empty() && S.back() == ')';)
    if (S[I] == ')')
      ++Depth;
    else if (S[I] == '(' && --Depth == 0) {
      Open = I;
      break;
    }
  if (Open == std::string::npos || Open == 0)
    return makeError(Ctx + ": expected RET(PARAM,...)");
  Signature Sig;
  std::string_view Ret = std::string_view(S).substr(0, Open);
  if (Ret != "void") {
    auto T = parseType(Ret, Ctx + " return type");
    if (!T)
      return T.takeError();
    if (T->Kind == ValueKind::ByVal || T->Kind == ValueKind::SRet)
      return makeError(Ctx + ": an aggregate result is returned through a "
                             "sret(SIZE:ALIGN) parameter");
    Sig.Return = *T;
  }
  std::string_view Params = std::string_view(S).substr(Open + 1, S.size() - Open - 2);
  unsigned SRets = 0;
  for (size_t Index = 0; Open + 2 < S.size(); ++Index) {
    size_t Comma = Params.find(',');
    std::string_view P = Params.substr(0, Comma);
    if (P == "...") {
      if (Comma != std::string_view::npos)
        return makeError(Ctx + ": '...' must be the last parameter");
      Sig.Variadic = true;
      break;
    }
    auto T = parseType(P, formatv("%s parameter %zu", Ctx.c_str(), Index));
    if (!T)
      return T.takeError();
    Sig.Params.push_back(*T);
    if (T->Kind == ValueKind::SRet && ++SRets > 1)
      return makeError(formatv("%s: parameter %zu is a second sret", Ctx.c_str(), Index));
    if (Comma == std::string_view::npos)
      break;
    Params = Params.substr(Comma + 1);
  }
  if (Sig.Return && SRets)
    return makeError(Ctx + ": a function with a sret parameter returns void");
  return Sig;
}

} // namespace linklab::callconv
