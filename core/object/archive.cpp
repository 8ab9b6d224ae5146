#include "object/archive.h"

#include <cstring>
#include <algorithm>

namespace linklab {

static constexpr char Magic[] = "!<arch>\n";

bool Archive::isArchive(std::span<const char> B) { return B.size() >= 8 && std::memcmp(B.data(), Magic, 8) == 0; }

static uint64_t parseDecimal(std::string_view S, bool &Ok) {
  uint64_t V = 0;
  size_t I = 0;
  while (I < S.size() && S[I] == ' ')
    ++I;
  size_t Start = I;
  for (; I < S.size() && S[I] >= '0' && S[I] <= '9'; ++I)
    V = V * 10 + uint64_t(S[I] - '0');
  while (I < S.size() && S[I] == ' ')
    ++I;
  Ok = I == S.size() && I > Start;
  return V;
}

static uint32_t readBE32(const char *P) {
  return uint32_t(uint8_t(P[0])) << 24 | uint32_t(uint8_t(P[1])) << 16 | uint32_t(uint8_t(P[2])) << 8 | uint8_t(P[3]);
}
static uint64_t readBE64(const char *P) { return uint64_t(readBE32(P)) << 32 | readBE32(P + 4); }

// The symbol index: count, member header offsets, then NUL-terminated
// names; Fn(name, member header offset) for each entry.
template <typename Fn>
static Error readIndex(const std::string &Name, std::span<const char> SymTab, bool Is64, Fn Each) {
  unsigned W = Is64 ? 8 : 4;
  auto Rd = [&](const char *P) { return Is64 ? readBE64(P) : readBE32(P); };
  if (SymTab.size() < W)
    return makeError(Name + ": truncated symbol index");
  uint64_t Count = Rd(SymTab.data());
  if (Count > (SymTab.size() - W) / W)
    return makeError(Name + ": symbol index count exceeds its size");
  const char *Names = SymTab.data() + W + Count * W;
  const char *End = SymTab.data() + SymTab.size();
  for (uint64_t I = 0; I < Count; ++I) {
    if (Names >= End)
      return makeError(Name + ": symbol index names are truncated");
    size_t Len = strnlen(Names, size_t(End - Names));
    if (Error E = Each(std::string_view(Names, Len), Rd(SymTab.data() + W + I * W)))
      return E;
    Names += Len + 1;
  }
  return Error::success();
}

Expected<Archive::Head> Archive::readHead(const std::string &Name, std::span<const char> B) {
  Head H;
  if (B.size() >= 8 && !isArchive(B))
    return makeError(Name + ": not an ar archive (bad magic)");
  if (B.size() < 8 + 60) { // the first member's header says whether an index follows
    H.size = 8 + 60;
    return H;
  }
  const char *M = B.data() + 8;
  if (M[58] != '`' || M[59] != '\n')
    return makeError(Name + ": archive member header at 0x8: bad header terminator");
  std::string_view RawName(M, 16);
  bool Is64 = RawName.starts_with("/SYM64/");
  if (!Is64 && !RawName.starts_with("/               ")) { // no index: nothing to read
    H.size = 8;
    H.complete = true;
    return H;
  }
  bool Ok;
  uint64_t Size = parseDecimal({M + 48, 10}, Ok);
  if (!Ok)
    return makeError(Name + ": archive member header at 0x8: bad size field");
  H.size = 8 + 60 + Size;
  if (B.size() < H.size)
    return H;
  H.complete = true;
  Error E = readIndex(Name, B.subspan(8 + 60, Size), Is64, [&](std::string_view Sym, uint64_t) {
    H.names.push_back(Sym);
    return Error::success();
  });
  if (E)
    return E;
  return H;
}

Expected<Archive> Archive::parse(std::string Name, SharedBytes Buffer) {
  Archive A;
  A.Name = std::move(Name);
  A.Buffer = std::move(Buffer);
  std::span<const char> B = A.Buffer.span();
  auto Err = [&](uint64_t Off, const std::string &Msg) {
    return makeError(formatv("%s: archive member header at %s: %s", A.Name.c_str(), hex(Off).c_str(), Msg.c_str()));
  };
  if (!isArchive(B))
    return makeError(A.Name + ": not an ar archive (bad magic)");

  std::span<const char> SymTab, LongNames;
  bool SymTab64 = false;
  std::vector<uint64_t> MemberOffsets; // increasing: members are in file order
  uint64_t Off = 8;
  while (Off < B.size()) {
    if (B.size() - Off < 60)
      return Err(Off, "truncated header");
    const char *H = B.data() + Off;
    if (H[58] != '`' || H[59] != '\n')
      return Err(Off, "bad header terminator");
    bool Ok;
    uint64_t Size = parseDecimal({H + 48, 10}, Ok);
    if (!Ok)
      return Err(Off, "bad size field");
    if (Size > B.size() - Off - 60)
      return Err(Off, formatv("member size %llu runs past the end of the archive", (unsigned long long)Size));
    std::string_view RawName(H, 16);
    std::span<const char> Data = B.subspan(Off + 60, Size);
    if (RawName.starts_with("/               "))
      SymTab = Data;
    else if (RawName.starts_with("/SYM64/"))
      SymTab = Data, SymTab64 = true;
    else if (RawName.starts_with("//"))
      LongNames = Data;
    else {
      std::string_view MemberName;
      if (RawName[0] == '/') {
        uint64_t NameOff = parseDecimal(RawName.substr(1, RawName.find_last_not_of(' ')), Ok);
        if (!Ok || NameOff >= LongNames.size())
          return Err(Off, "bad long-name reference");
        const char *P = LongNames.data() + NameOff;
        size_t Len = 0;
        while (NameOff + Len < LongNames.size() && P[Len] != '/' && P[Len] != '\n')
          ++Len;
        MemberName = {P, Len};
      } else if (RawName.starts_with("#1/")) { // BSD: name precedes the data
        uint64_t Len = parseDecimal(RawName.substr(3, RawName.find_last_not_of(' ') - 2), Ok);
        if (!Ok || Len > Size)
          return Err(Off, "bad BSD long name");
        MemberName = {Data.data(), strnlen(Data.data(), Len)};
        Data = Data.subspan(Len);
      } else {
        size_t End = RawName.find('/');
        MemberName = RawName.substr(0, End == std::string_view::npos ? RawName.find_last_not_of(' ') + 1 : End);
      }
      MemberOffsets.push_back(Off);
      A.Members.push_back({MemberName, Data});
    }
    Off += 60 + Size + (Size & 1);
  }

  if (!SymTab.empty()) {
    if (unsigned W = SymTab64 ? 8 : 4; SymTab.size() >= W)
      A.Index.reserve(size_t(std::min<uint64_t>(SymTab64 ? readBE64(SymTab.data()) : readBE32(SymTab.data()),
                                                SymTab.size() / W)));
    Error E = readIndex(A.Name, SymTab, SymTab64, [&](std::string_view Sym, uint64_t MemberOff) {
      auto M = std::lower_bound(MemberOffsets.begin(), MemberOffsets.end(), MemberOff);
      if (M == MemberOffsets.end() || *M != MemberOff)
        return makeError(formatv("%s: symbol index entry '%.*s' points at %s, which is not a member header",
                                 A.Name.c_str(), int(Sym.size()), Sym.data(), hex(MemberOff).c_str()));
      A.Index.insert(Sym, size_t(M - MemberOffsets.begin()));
      return Error::success();
    });
    if (E)
      return E;
  }
  return A;
}

long Archive::memberDefining(std::string_view Symbol) const {
  const size_t *M = Index.find(Symbol);
  return M ? long(*M) : -1;
}

} // namespace linklab
