#include "driver/sectcreate.h"

#include "target/target.h"

#include <charconv>

namespace linklab::driver {

Expected<SectCreate> parseSectCreate(std::string_view Arg) {
  auto Bad = [&](const std::string &Why) { return makeError("In -sectcreate=" + std::string(Arg) + ", " + Why); };
  // As LLVM's StringRef::rsplit: the last '@', then the last ',' before it.
  size_t At = Arg.rfind('@');
  std::string_view SectAndFile = Arg.substr(0, At), Extra = At == std::string_view::npos ? "" : Arg.substr(At + 1);
  size_t Comma = SectAndFile.rfind(',');
  std::string_view Sect = Comma == std::string_view::npos ? SectAndFile : SectAndFile.substr(0, Comma);
  std::string_view File = Comma == std::string_view::npos ? "" : SectAndFile.substr(Comma + 1);
  if (Sect.empty() || File.empty())
    return Bad("filename component cannot be empty");
  SectCreate S{std::string(Sect), std::string(File), {}};
  while (!Extra.empty()) {
    size_t Next = Extra.find(',');
    std::string_view Pair = Extra.substr(0, Next);
    Extra = Next == std::string_view::npos ? "" : Extra.substr(Next + 1);
    size_t Eq = Pair.find('=');
    std::string_view Name = Pair.substr(0, Eq), Off = Eq == std::string_view::npos ? "" : Pair.substr(Eq + 1);
    // getAsInteger(0, ...): 0x hex, 0 octal, else decimal, the whole text.
    int Base = 10;
    std::string_view Digits = Off;
    if (Digits.size() > 1 && Digits[0] == '0' && (Digits[1] == 'x' || Digits[1] == 'X'))
      Base = 16, Digits.remove_prefix(2);
    else if (Digits.size() > 1 && Digits[0] == '0')
      Base = 8, Digits.remove_prefix(1);
    uint64_t Offset = 0;
    auto [P, Ec] = std::from_chars(Digits.data(), Digits.data() + Digits.size(), Offset, Base);
    if (Digits.empty() || Ec != std::errc() || P != Digits.data() + Digits.size())
      return Bad(std::string(Off) + " is not a valid integer");
    if (Name.empty())
      return Bad("a symbol name cannot be empty");
    S.symbols.push_back({std::string(Name), Offset});
  }
  return S;
}

Expected<std::unique_ptr<LinkGraph>> sectCreateGraph(const SectCreate &Spec, SharedBytes Content, const Triple &TT) {
  for (auto &[Name, Offset] : Spec.symbols)
    if (Offset > Content.size())
      return makeError(formatv("-sectcreate: symbol '%s' at offset %s is past the end of %s (%s bytes)", Name.c_str(),
                               hex(Offset).c_str(), Spec.file.c_str(), hex(Content.size()).c_str()));
  auto G = std::make_unique<LinkGraph>("orc_sectcreate_" + Spec.section, TT, edgeKindNamesOf(TT));
  Section &Sec = G->createSection(G->allocateString(Spec.section), MemProt::Read);
  Block &B = G->createContentBlock(Sec, Content.span(), 0, 16, 0);
  G->retainBuffer(std::move(Content));
  for (auto &[Name, Offset] : Spec.symbols)
    G->addDefinedSymbol(B, Offset, G->allocateString(Name), 0, Linkage::Strong, Scope::Default, false, true);
  return G;
}

} // namespace linklab::driver
