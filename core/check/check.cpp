// The jitlink-check evaluator: a recursive-descent reader that evaluates as
// it parses, mirroring RuntimeDyldChecker's shape so that its quirks (no
// operator precedence, loads that swallow the rest of the expression) come
// out the same.
#include "check/check.h"

#include "target/target.h"

#include <algorithm>
#include <cctype>

namespace linklab::check {

std::string DecodedInst::describe() const {
  std::string S = name;
  for (size_t I = 0; I < operands.size(); ++I) {
    S += I ? ", " : " ";
    S += operands[I].isImm ? formatv("%lld", (long long)operands[I].imm) : operands[I].reg;
  }
  return S;
}

namespace {
// Each architecture's decoder (check/decode_<arch>.cpp); arches that share
// an instruction set share one.
struct Decoder {
  Arch arch;
  Expected<DecodedInst> (*decode)(std::span<const uint8_t> Bytes);
};
const Decoder Decoders[] = {
    {Arch::X86_64, decodeX86_64},
    {Arch::AArch64, decodeAArch64},
    {Arch::AArch64_BE, decodeAArch64},
    {Arch::RISCV64, decodeRISCV64},
    {Arch::RISCV32, decodeRISCV64},
    {Arch::PPC64LE, decodePPC64LE},
    {Arch::PPC64, decodePPC64BE},
    {Arch::I386, decodeI386},
    {Arch::Arm, decodeArm},
    {Arch::LoongArch64, decodeLoongArch},
    {Arch::LoongArch32, decodeLoongArch},
};
} // namespace

Expected<DecodedInst> decodeInstruction(Arch A, std::span<const uint8_t> Bytes, bool Thumb) {
  if (Thumb && A == Arch::Arm)
    return decodeThumb(Bytes);
  for (const Decoder &D : Decoders)
    if (D.arch == A)
      return D.decode(Bytes);
  return makeError(formatv("cannot decode instructions: no decoder for architecture %s", archName(A)));
}

namespace {

bool isSymbolStart(char C) { return std::isalpha((unsigned char)C) || C == '_' || C == '.' || C == '$'; }
bool isSymbolChar(char C) { return std::isalnum((unsigned char)C) || C == '_' || C == '.' || C == '$' || C == ':'; }

std::string_view trim(std::string_view S) {
  while (!S.empty() && std::isspace((unsigned char)S.front()))
    S.remove_prefix(1);
  while (!S.empty() && std::isspace((unsigned char)S.back()))
    S.remove_suffix(1);
  return S;
}

enum class BinOp { None, Add, Sub, And, Or, Shl, Shr };

class Parser {
public:
  Parser(std::string_view Text, const CheckEnv &Env) : Rest(Text), Env(Env) { skipSpace(); }

  // expr := simple (binop simple)*, evaluated left to right.
  Expected<uint64_t> expr() {
    auto L = simple();
    if (!L)
      return L;
    uint64_t V = *L;
    for (BinOp Op; (Op = binOp()) != BinOp::None;) {
      auto R = simple();
      if (!R)
        return R;
      switch (Op) {
      case BinOp::Add: V += *R; break;
      case BinOp::Sub: V -= *R; break;
      case BinOp::And: V &= *R; break;
      case BinOp::Or: V |= *R; break;
      // Shifts by 64 or more give 0 rather than C++'s undefined result.
      case BinOp::Shl: V = *R >= 64 ? 0 : V << *R; break;
      case BinOp::Shr: V = *R >= 64 ? 0 : V >> *R; break;
      case BinOp::None: break;
      }
    }
    return V;
  }

  bool atEnd() const { return Rest.empty(); }
  Error unexpected(const char *Wanted) const {
    if (Rest.empty())
      return makeError(formatv("unexpected end of expression, expected %s", Wanted));
    return makeError(formatv("unexpected '%s', expected %s", token().c_str(), Wanted));
  }

private:
  std::string_view Rest;
  const CheckEnv &Env;

  void skipSpace() {
    while (!Rest.empty() && std::isspace((unsigned char)Rest.front()))
      Rest.remove_prefix(1);
  }
  bool consume(std::string_view Tok) {
    if (Rest.substr(0, Tok.size()) != Tok)
      return false;
    Rest.remove_prefix(Tok.size());
    skipSpace();
    return true;
  }
  // The token at the cursor, for error messages.
  std::string token() const {
    size_t N = 1;
    if (isSymbolChar(Rest.front()))
      while (N < Rest.size() && isSymbolChar(Rest[N]))
        ++N;
    else if (Rest.starts_with("<<") || Rest.starts_with(">>"))
      N = 2;
    return std::string(Rest.substr(0, N));
  }

  BinOp binOp() {
    static constexpr std::pair<std::string_view, BinOp> Ops[] = {{"<<", BinOp::Shl}, {">>", BinOp::Shr},
                                                                 {"+", BinOp::Add},  {"-", BinOp::Sub},
                                                                 {"&", BinOp::And},  {"|", BinOp::Or}};
    for (auto &[Tok, Op] : Ops)
      if (consume(Tok))
        return Op;
    return BinOp::None;
  }

  Expected<uint64_t> number() {
    if (Rest.empty() || !std::isdigit((unsigned char)Rest.front()))
      return unexpected("a number");
    bool Hex = Rest.starts_with("0x") || Rest.starts_with("0X");
    size_t I = Hex ? 2 : 0;
    uint64_t V = 0;
    size_t Start = I;
    for (; I < Rest.size() && std::isxdigit((unsigned char)Rest[I]); ++I) {
      int D = std::isdigit((unsigned char)Rest[I]) ? Rest[I] - '0' : (std::tolower(Rest[I]) - 'a' + 10);
      if (!Hex && D > 9)
        break;
      uint64_t Base = Hex ? 16 : 10;
      if (V > (~uint64_t(0) - D) / Base)
        return makeError(formatv("number '%s' does not fit in 64 bits", token().c_str()));
      V = V * Base + D;
    }
    if (I == Start)
      return makeError(formatv("malformed number '%s': no digits after '0x'", token().c_str()));
    if (I < Rest.size() && (std::isalnum((unsigned char)Rest[I]) || Rest[I] == '_'))
      return makeError(formatv("malformed number '%s'", token().c_str()));
    Rest.remove_prefix(I);
    skipSpace();
    return V;
  }

  std::string_view symbol() {
    size_t N = 0;
    if (!Rest.empty() && isSymbolStart(Rest.front()))
      while (N < Rest.size() && isSymbolChar(Rest[N]))
        ++N;
    std::string_view S = Rest.substr(0, N);
    Rest.remove_prefix(N);
    skipSpace();
    return S;
  }

  // Text up to (not including) the first of Stops, trimmed: file and
  // section names may hold characters symbols cannot.
  std::string_view until(std::string_view Stops) {
    size_t N = Rest.find_first_of(Stops);
    if (N == std::string_view::npos)
      N = Rest.size();
    std::string_view S = trim(Rest.substr(0, N));
    Rest.remove_prefix(N);
    return S;
  }

  Expected<uint64_t> simple() {
    auto V = primary();
    if (!V || !consume("["))
      return V;
    auto Hi = number();
    if (!Hi)
      return Hi;
    if (!consume(":"))
      return unexpected("':' in bit slice");
    auto Lo = number();
    if (!Lo)
      return Lo;
    if (!consume("]"))
      return unexpected("']' closing bit slice");
    if (*Lo > 63 || *Lo > *Hi)
      return makeError(formatv("bad bit slice [%llu:%llu]: need hi >= lo and 63 >= lo", (unsigned long long)*Hi,
                               (unsigned long long)*Lo));
    // Bits above 63 read as zero: LLVM's tests slice [64:12] for "all from bit 12".
    unsigned Width = unsigned(std::min<uint64_t>(*Hi, 63) - *Lo + 1);
    uint64_t Mask = Width == 64 ? ~uint64_t(0) : (uint64_t(1) << Width) - 1;
    return (*V >> *Lo) & Mask;
  }

  Expected<uint64_t> primary() {
    if (Rest.empty())
      return unexpected("an expression");
    if (consume("(")) {
      auto V = expr();
      if (V && !consume(")"))
        return unexpected("')'");
      return V;
    }
    if (consume("*"))
      return load();
    if (std::isdigit((unsigned char)Rest.front()))
      return number();
    if (isSymbolStart(Rest.front()))
      return identifier();
    return unexpected("'(', '*', a symbol or a number");
  }

  // *{N}expr: N bytes at expr, in the target's byte order.
  Expected<uint64_t> load() {
    if (!consume("{"))
      return unexpected("'{' after '*'");
    auto N = number();
    if (!N)
      return N;
    if (*N != 1 && *N != 2 && *N != 4 && *N != 8)
      return makeError(formatv("load size %llu is not 1, 2, 4 or 8", (unsigned long long)*N));
    if (!consume("}"))
      return unexpected("'}' after load size");
    auto A = expr();
    if (!A)
      return A;
    auto Bytes = Env.readBytes(*A, *N);
    if (!Bytes)
      return Bytes.takeError();
    if (Bytes->size() < *N)
      return makeError(formatv("load of %llu bytes at %s runs past the end of its section", (unsigned long long)*N,
                               hex(*A).c_str()));
    uint64_t V = 0;
    for (size_t I = 0; I < *N; ++I)
      V |= uint64_t((*Bytes)[I]) << (8 * (Env.isLittleEndian() ? I : *N - 1 - I));
    return V;
  }

  Expected<uint64_t> identifier() {
    std::string_view Name = symbol();
    using Builtin = Expected<uint64_t> (Parser::*)();
    static constexpr std::pair<std::string_view, Builtin> Builtins[] = {{"decode_operand", &Parser::decodeOperand},
                                                                        {"next_pc", &Parser::nextPC},
                                                                        {"got_addr", &Parser::gotAddr},
                                                                        {"stub_addr", &Parser::stubAddr},
                                                                        {"section_addr", &Parser::sectionAddr}};
    for (auto &[BName, Fn] : Builtins)
      if (Name == BName) {
        if (!consume("("))
          return unexpected(formatv("'(' after %s", BName.data()).c_str());
        auto V = (this->*Fn)();
        if (V && !consume(")"))
          return unexpected(formatv("')' closing %s(...)", BName.data()).c_str());
        return V;
      }
    return Env.symbolAddress(Name);
  }

  // symbol [(+|-) N]: an instruction's address (and whether the symbol is Thumb code).
  struct InstructionAt {
    std::string first;
    uint64_t second;
    bool thumb;
  };
  Expected<InstructionAt> instructionAddress() {
    std::string_view Name = symbol();
    if (Name.empty())
      return unexpected("a symbol");
    auto A = Env.symbolAddress(Name);
    if (!A)
      return A.takeError();
    uint64_t Addr = *A;
    std::string Label(Name);
    for (BinOp Op : {BinOp::Add, BinOp::Sub}) {
      if (!consume(Op == BinOp::Add ? "+" : "-"))
        continue;
      auto N = number();
      if (!N)
        return N.takeError();
      Addr = Op == BinOp::Add ? Addr + *N : Addr - *N;
      Label += formatv(" %c %llu", Op == BinOp::Add ? '+' : '-', (unsigned long long)*N);
      break;
    }
    return InstructionAt{Label, Addr, Env.isThumbSymbol(Name)};
  }

  Expected<DecodedInst> decodeAt(const std::string &Label, uint64_t Addr, bool Thumb) {
    auto Bytes = Env.readBytes(Addr, 16); // longer than any instruction we decode
    if (!Bytes)
      return Bytes.takeError();
    auto I = decodeInstruction(Env.arch(), {Bytes->data(), Bytes->size()}, Thumb);
    if (!I)
      return I.takeError().withContext(
          formatv("cannot decode the instruction at '%s' (%s)", Label.c_str(), hex(Addr).c_str()));
    return I;
  }

  Expected<uint64_t> decodeOperand() {
    auto At = instructionAddress();
    if (!At)
      return At.takeError();
    if (!consume(","))
      return unexpected("',' before the operand index");
    auto Index = number();
    if (!Index)
      return Index;
    auto I = decodeAt(At->first, At->second, At->thumb);
    if (!I)
      return I.takeError();
    if (*Index >= I->operands.size())
      return makeError(formatv("operand index %llu is out of range for '%s': %s has %zu operands",
                               (unsigned long long)*Index, At->first.c_str(), I->describe().c_str(),
                               I->operands.size()));
    const Operand &Op = I->operands[*Index];
    if (!Op.isImm)
      return makeError(formatv("operand %llu of '%s' is register %s, not an immediate (%s)", (unsigned long long)*Index,
                               At->first.c_str(), Op.reg.c_str(), I->describe().c_str()));
    return uint64_t(Op.imm);
  }

  Expected<uint64_t> nextPC() {
    auto At = instructionAddress();
    if (!At)
      return At.takeError();
    auto I = decodeAt(At->first, At->second, At->thumb);
    if (!I)
      return I.takeError();
    return At->second + (I->nextPC ? I->nextPC : I->size);
  }

  // (file, symbol [, kind]) for got_addr / stub_addr.
  Expected<uint64_t> tableEntry(bool Stub) {
    std::string_view File = until(",)");
    if (File.empty() || !consume(","))
      return unexpected("a file name and ','");
    std::string_view Target = symbol();
    if (Target.empty())
      return unexpected("a symbol name");
    std::string_view Kind;
    if (Stub && consume(","))
      Kind = until(")");
    return Stub ? Env.stubAddress(File, Target, Kind) : Env.gotEntryAddress(File, Target);
  }
  Expected<uint64_t> gotAddr() { return tableEntry(false); }
  Expected<uint64_t> stubAddr() { return tableEntry(true); }

  Expected<uint64_t> sectionAddr() {
    std::string_view File = until(",)");
    if (File.empty() || !consume(","))
      return unexpected("a file name and ','");
    std::string_view Section = until(")");
    if (Section.empty())
      return unexpected("a section name");
    return Env.sectionAddress(File, Section);
  }
};

Expected<uint64_t> evaluateSide(std::string_view Text, const CheckEnv &Env, const char *Side) {
  Parser P(Text, Env);
  auto V = P.expr();
  if (V && !P.atEnd())
    return P.unexpected("an operator or the end of the expression").withContext(Side);
  if (!V)
    return V.takeError().withContext(Side);
  return V;
}

} // namespace

Expected<uint64_t> evaluateExpr(std::string_view Expr, const CheckEnv &Env) {
  return evaluateSide(Expr, Env, "expression");
}

Expected<RuleValues> evaluateRule(std::string_view Rule, const CheckEnv &Env) {
  size_t Eq = Rule.find('=');
  if (Eq == std::string_view::npos)
    return makeError("no '=' in rule: a rule reads 'LHS = RHS'");
  std::string_view L = trim(Rule.substr(0, Eq)), R = trim(Rule.substr(Eq + 1));
  if (L.empty() || R.empty())
    return makeError(formatv("empty %s side: a rule reads 'LHS = RHS'", L.empty() ? "left" : "right"));
  auto LV = evaluateSide(L, Env, "left side");
  if (!LV)
    return LV.takeError();
  auto RV = evaluateSide(R, Env, "right side");
  if (!RV)
    return RV.takeError();
  return RuleValues{*LV, *RV};
}

CheckResult checkBuffer(std::string_view Text, std::string_view File, std::string_view Name, const CheckEnv &Env) {
  CheckResult Result;
  std::string Prefix = "# " + std::string(Name) + ":";
  std::string Rule;
  unsigned FirstLine = 0, LineNo = 0;
  auto Run = [&] {
    ++Result.rules;
    std::string_view R = trim(Rule);
    auto V = evaluateRule(R, Env);
    std::string Where = formatv("%.*s:%u", int(File.size()), File.data(), FirstLine);
    if (!V)
      Result.failures.push_back(formatv("%s: error in check '%.*s': %s", Where.c_str(), int(R.size()), R.data(),
                                        V.takeError().message().c_str()));
    else if (V->lhs != V->rhs)
      Result.failures.push_back(formatv("%s: check failed: '%.*s': left side is %s, right side is %s", Where.c_str(),
                                        int(R.size()), R.data(), hex(V->lhs).c_str(), hex(V->rhs).c_str()));
    Rule.clear();
  };
  while (!Text.empty()) {
    size_t End = Text.find('\n');
    std::string_view Line = Text.substr(0, End);
    Text = End == std::string_view::npos ? std::string_view() : Text.substr(End + 1);
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line.remove_suffix(1);
    while (!Line.empty() && std::isspace((unsigned char)Line.front()))
      Line.remove_prefix(1);
    if (!Line.starts_with(Prefix))
      continue;
    if (Rule.empty())
      FirstLine = LineNo;
    std::string_view Part = trim(Line.substr(Prefix.size()));
    if (Part.empty() && Rule.empty()) // a bare prefix is no rule (as in llvm-jitlink)
      continue;
    if (!Part.empty() && Part.back() == '\\') {
      Rule.append(Part.substr(0, Part.size() - 1)).push_back(' ');
      continue;
    }
    Rule.append(Part);
    Run();
  }
  // A continuation with nothing after it is still a rule (and likely broken).
  if (!trim(Rule).empty())
    Run();
  if (Result.rules == 0)
    Result.failures.push_back(formatv("%.*s: no '%s' rules found", int(File.size()), File.data(), Prefix.c_str()));
  return Result;
}

} // namespace linklab::check
