#include "object/archive.h"

#include <algorithm>
#include <cstring>
#include <optional>

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

static uint64_t readBig(const char *P, unsigned W) {
  uint64_t V = 0;
  for (unsigned I = 0; I < W; ++I)
    V = V << 8 | uint8_t(P[I]);
  return V;
}
static uint64_t readLittle(const char *P, unsigned W) {
  uint64_t V = 0;
  for (unsigned I = W; I-- > 0;)
    V = V << 8 | uint8_t(P[I]);
  return V;
}

// The two index layouts, each in 32- and 64-bit words. GNU/SysV ("/" or
// "/SYM64/"): a big-endian count, the members' header offsets, then the
// NUL-terminated names in order. BSD ("__.SYMDEF[_64][ SORTED]", what
// llvm-ar and Apple's ranlib write for MachO members): the byte size of an
// array of {name offset, member header offset} pairs, the array, the byte
// size of the string table, the table; little-endian, as MachO x86-64 and
// arm64 members are.
// Fn(name, member header offset) for each entry.
template <typename Fn>
static Error readIndex(const std::string &Name, std::span<const char> SymTab, Archive::IndexFormat F, Fn Each) {
  bool Bsd = F == Archive::IndexFormat::Bsd32 || F == Archive::IndexFormat::Bsd64;
  unsigned W = F == Archive::IndexFormat::Gnu64 || F == Archive::IndexFormat::Bsd64 ? 8 : 4;
  auto Rd = [&](uint64_t At) { return Bsd ? readLittle(SymTab.data() + At, W) : readBig(SymTab.data() + At, W); };
  if (SymTab.size() < W)
    return makeError(Name + ": truncated symbol index");
  if (!Bsd) {
    uint64_t Count = Rd(0);
    if (Count > (SymTab.size() - W) / W)
      return makeError(Name + ": symbol index count exceeds its size");
    const char *Names = SymTab.data() + W + Count * W;
    const char *End = SymTab.data() + SymTab.size();
    for (uint64_t I = 0; I < Count; ++I) {
      if (Names >= End)
        return makeError(Name + ": symbol index names are truncated");
      size_t Len = strnlen(Names, size_t(End - Names));
      if (Error E = Each(std::string_view(Names, Len), Rd(W + I * W)))
        return E;
      Names += Len + 1;
    }
    return Error::success();
  }
  uint64_t PairBytes = Rd(0);
  if (PairBytes % (2 * W) || PairBytes > SymTab.size() - W || SymTab.size() - W - PairBytes < W)
    return makeError(Name + ": BSD symbol index size exceeds the index");
  uint64_t StrAt = W + PairBytes + W, StrSize = Rd(W + PairBytes);
  if (StrSize > SymTab.size() - StrAt)
    return makeError(Name + ": BSD symbol index string table exceeds the index");
  std::string_view Strings(SymTab.data() + StrAt, StrSize);
  for (uint64_t At = W; At < W + PairBytes; At += 2 * W) {
    uint64_t Str = Rd(At);
    if (Str >= Strings.size())
      return makeError(formatv("%s: BSD symbol index entry %llu names string %llu, past its table", Name.c_str(),
                               (unsigned long long)((At - W) / (2 * W)), (unsigned long long)Str));
    std::string_view Sym = Strings.substr(Str);
    if (Error E = Each(Sym.substr(0, Sym.find('\0')), Rd(At + W)))
      return E;
  }
  return Error::success();
}

// The index format a member's name says, if it is the index.
static std::optional<Archive::IndexFormat> indexFormatNamed(std::string_view MemberName) {
  if (MemberName == "__.SYMDEF" || MemberName == "__.SYMDEF SORTED")
    return Archive::IndexFormat::Bsd32;
  if (MemberName == "__.SYMDEF_64" || MemberName == "__.SYMDEF_64 SORTED")
    return Archive::IndexFormat::Bsd64;
  return std::nullopt;
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
  // The index is the first member: GNU's by its header name; BSD's by a
  // name that may be a long one, the data's first bytes ("#1/LEN").
  bool Ok;
  uint64_t NameLen = 0;
  std::optional<IndexFormat> F;
  if (RawName.starts_with("/SYM64/"))
    F = IndexFormat::Gnu64;
  else if (RawName.starts_with("/               "))
    F = IndexFormat::Gnu32;
  else if (RawName.starts_with("#1/")) {
    NameLen = parseDecimal(RawName.substr(3, RawName.find_last_not_of(' ') - 2), Ok);
    if (!Ok)
      return makeError(Name + ": archive member header at 0x8: bad BSD long name");
    if (B.size() < 8 + 60 + NameLen) {
      H.size = 8 + 60 + NameLen;
      return H;
    }
    F = indexFormatNamed({B.data() + 8 + 60, strnlen(B.data() + 8 + 60, NameLen)});
  } else {
    F = indexFormatNamed(RawName.substr(0, RawName.find_last_not_of(' ') + 1));
  }
  if (!F) { // no index: nothing to read
    H.size = 8;
    H.complete = true;
    return H;
  }
  uint64_t Size = parseDecimal({M + 48, 10}, Ok);
  if (!Ok || Size < NameLen)
    return makeError(Name + ": archive member header at 0x8: bad size field");
  uint64_t IndexEnd = 8 + 60 + Size;
  if (B.size() < IndexEnd) {
    H.size = IndexEnd;
    return H;
  }
  Error E = readIndex(Name, B.subspan(8 + 60 + NameLen, Size - NameLen), *F, [&](std::string_view Sym, uint64_t) {
    H.names.push_back(Sym);
    return Error::success();
  });
  if (E)
    return E;
  // Through the next member's header: if it is the long-name table (GNU ar
  // puts it there), through that table too, which a partial archive names
  // its members from.
  uint64_t Next = IndexEnd + (Size & 1);
  H.size = Next + 60;
  if (B.size() >= H.size && std::string_view(B.data() + Next, 2) == "//") {
    uint64_t NamesSize = parseDecimal({B.data() + Next + 48, 10}, Ok);
    if (!Ok)
      return makeError(formatv("%s: archive member header at %s: bad size field", Name.c_str(), hex(Next).c_str()));
    H.size += NamesSize;
  }
  H.complete = B.size() >= H.size;
  if (!H.complete)
    H.names.clear();
  return H;
}

Error Archive::readMemberName(uint64_t Off, std::string_view RawName, std::span<const char> &Data,
                              std::string_view &Out) const {
  bool Ok;
  auto Err = [&](const char *Msg) {
    return makeError(formatv("%s: archive member header at %s: %s", Name.c_str(), hex(Off).c_str(), Msg));
  };
  if (RawName[0] == '/') {
    uint64_t NameOff = parseDecimal(RawName.substr(1, RawName.find_last_not_of(' ')), Ok);
    if (!Ok || NameOff >= LongNames.size())
      return Err("bad long-name reference");
    const char *P = LongNames.data() + NameOff;
    size_t Len = 0;
    while (NameOff + Len < LongNames.size() && P[Len] != '/' && P[Len] != '\n')
      ++Len;
    Out = {P, Len};
  } else if (RawName.starts_with("#1/")) { // BSD: name precedes the data
    uint64_t Len = parseDecimal(RawName.substr(3, RawName.find_last_not_of(' ') - 2), Ok);
    if (!Ok || Len > Data.size())
      return Err("bad BSD long name");
    Out = {Data.data(), strnlen(Data.data(), Len)};
    Data = Data.subspan(Len);
  } else {
    size_t End = RawName.find('/');
    Out = RawName.substr(0, End == std::string_view::npos ? RawName.find_last_not_of(' ') + 1 : End);
  }
  return Error::success();
}

// Parts[Part] from byte At holds members read at archive offset Offset. A
// partial archive's head may end inside a member (the head is what was
// fetched), which is then left for addMembers.
template <typename Fn> Error Archive::walk(size_t Part, size_t At, uint64_t Offset, Extent X, Fn Each) {
  std::span<const char> B = Parts[Part].span();
  auto Err = [&](uint64_t Off, const std::string &Msg) {
    return makeError(formatv("%s: archive member header at %s: %s", Name.c_str(), hex(Off).c_str(), Msg.c_str()));
  };
  while (At < B.size()) {
    uint64_t Off = Offset + At;
    if (B.size() - At < 60) {
      if (X == Extent::Partial)
        break;
      return Err(Off, "truncated header");
    }
    const char *H = B.data() + At;
    if (H[58] != '`' || H[59] != '\n')
      return Err(Off, "bad header terminator");
    bool Ok;
    uint64_t MemberSize = parseDecimal({H + 48, 10}, Ok);
    if (!Ok)
      return Err(Off, "bad size field");
    if (MemberSize > B.size() - At - 60) {
      if (X == Extent::Partial)
        break;
      return Err(Off, formatv("member size %llu runs past the end of the archive", (unsigned long long)MemberSize));
    }
    std::string_view RawName(H, 16);
    std::span<const char> Data = B.subspan(At + 60, MemberSize);
    if (RawName.starts_with("/               "))
      SymTab = Data, SymTabFormat = IndexFormat::Gnu32;
    else if (RawName.starts_with("/SYM64/"))
      SymTab = Data, SymTabFormat = IndexFormat::Gnu64;
    else if (RawName.starts_with("//"))
      LongNames = Data;
    else {
      std::string_view MemberName;
      if (Error E = readMemberName(Off, RawName, Data, MemberName))
        return E;
      if (auto F = indexFormatNamed(MemberName))
        SymTab = Data, SymTabFormat = *F;
      else if (X == Extent::Head)
        break; // the first member: the head is read
      else if (Error E = Each(Member{MemberName, Data, Off, Part, true}))
        return E;
      else if (X == Extent::One)
        break;
    }
    At += 60 + MemberSize + (MemberSize & 1);
  }
  return Error::success();
}

Expected<Archive> Archive::read(std::string Name, SharedBytes Buffer, Extent X, Unread U) {
  Archive A;
  A.Name = std::move(Name);
  A.Size = Buffer.size();
  A.Parts.push_back(std::move(Buffer));
  if (!isArchive(A.Parts[0].span()))
    return makeError(A.Name + ": not an ar archive (bad magic)");
  if (Error E = A.readMembers(X, U))
    return E;
  return A;
}

Expected<Archive> Archive::parse(std::string Name, SharedBytes Buffer) {
  return read(std::move(Name), std::move(Buffer), Extent::Whole, Unread::Error);
}

Expected<Archive> Archive::parseForLink(std::string Name, SharedBytes Buffer) {
  auto A = read(std::move(Name), std::move(Buffer), Extent::Head, Unread::Later);
  if (A && A->SymTab.empty()) // nothing to find members by: all of them, as parse() reads them
    return parse(A->Name, std::move(A->Parts[0]));
  return A;
}

Error Archive::load(size_t I) {
  Member &M = Members[I];
  if (!M.present || M.read)
    return Error::success();
  std::optional<Member> Read;
  Error E = walk(0, size_t(M.offset), 0, Extent::One, [&](Member R) {
    Read = R;
    return Error::success();
  });
  if (E)
    return E;
  if (!Read || Read->offset != M.offset) // the index or long-name table is no member
    return makeError(formatv("%s: symbol index entries point at %s, which is not a member header", Name.c_str(),
                             hex(M.offset).c_str()));
  M = *Read;
  return Error::success();
}

Expected<Archive> Archive::parseHead(std::string Name, uint64_t Size, SharedBytes Head) {
  auto H = readHead(Name, Head.span());
  if (!H)
    return H.takeError();
  if (!H->complete)
    return makeError(formatv("%s: the head given (%zu bytes) is not all of it (%llu)", Name.c_str(), Head.size(),
                             (unsigned long long)H->size));
  if (Size < Head.size())
    return makeError(formatv("%s: the head given (%zu bytes) is longer than the archive (%llu)", Name.c_str(),
                             Head.size(), (unsigned long long)Size));
  Archive A;
  A.Name = std::move(Name);
  A.Size = Size;
  A.Parts.push_back(std::move(Head));
  if (Error E = A.readMembers(Extent::Partial, Unread::Absent))
    return E;
  return A;
}

// The members of Parts[0] (a partial archive's head: those it holds; for a
// link: none), then the symbol index over them.
Error Archive::readMembers(Extent X, Unread U) {
  Error E = walk(0, 8, 0, X, [&](Member M) {
    Members.push_back(M);
    return Error::success();
  });
  if (E)
    return E;
  return readSymbolIndex(U);
}

Error Archive::addMembers(uint64_t Offset, SharedBytes Bytes) {
  if (Offset > Size || Bytes.size() > Size - Offset)
    return makeError(formatv("%s: bytes at %s run past the archive's end (%s)", Name.c_str(), hex(Offset).c_str(),
                             hex(Size).c_str()));
  Parts.push_back(std::move(Bytes));
  uint64_t End = Offset;
  Error E = walk(Parts.size() - 1, 0, Offset, Extent::Whole, [&](Member M) {
    End = M.offset + 60 + M.data.size();
    auto It = std::lower_bound(Members.begin(), Members.end(), M.offset,
                               [](const Member &X, uint64_t Off) { return X.offset < Off; });
    if (It != Members.end() && It->offset == M.offset && !It->present)
      *It = M; // a member the index names; others (no globals) are not wanted
    return Error::success();
  });
  return E;
}

// Maps the index's entries to members. An entry at an offset no member was
// read at is, unless that is an error, a member there to read later.
Error Archive::readSymbolIndex(Unread U) {
  if (SymTab.empty())
    return Error::success();
  Index.reserve(SymTab.size() / 16); // about one entry per 16 bytes of index in either layout
  auto At = [&](uint64_t Off) {
    return std::lower_bound(Members.begin(), Members.end(), Off,
                            [](const Member &X, uint64_t O) { return X.offset < O; });
  };
  if (U != Unread::Error) { // unread members first, so that positions are final before the index refers to them
    std::vector<uint64_t> Offsets;
    Error E = readIndex(Name, SymTab, SymTabFormat, [&](std::string_view, uint64_t Off) {
      if (Offsets.empty() || Offsets.back() != Off) // ar lists a member's names together: fewer to sort
        Offsets.push_back(Off);
      return Error::success();
    });
    if (E)
      return E;
    std::sort(Offsets.begin(), Offsets.end());
    Offsets.erase(std::unique(Offsets.begin(), Offsets.end()), Offsets.end());
    for (uint64_t Off : Offsets) {
      if (Off + 60 > Size)
        return makeError(
            formatv("%s: a symbol index entry points at %s, past the archive's end", Name.c_str(), hex(Off).c_str()));
      auto It = At(Off);
      if (It == Members.end() || It->offset != Off)
        Members.insert(It, Member{{}, {}, Off, 0, U == Unread::Later, false});
    }
  }
  auto M = Members.end(); // the previous entry's member: the next entry's too, mostly
  return readIndex(Name, SymTab, SymTabFormat, [&](std::string_view Sym, uint64_t MemberOff) {
    if (M == Members.end() || M->offset != MemberOff)
      M = At(MemberOff);
    if (M == Members.end() || M->offset != MemberOff)
      return makeError(formatv("%s: symbol index entry '%.*s' points at %s, which is not a member header", Name.c_str(),
                               int(Sym.size()), Sym.data(), hex(MemberOff).c_str()));
    Index.insert(Sym, size_t(M - Members.begin()));
    return Error::success();
  });
}

long Archive::memberDefining(std::string_view Symbol) const {
  const size_t *M = Index.find(Symbol);
  return M ? long(*M) : -1;
}

} // namespace linklab
