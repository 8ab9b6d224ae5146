// Static archives (GNU/SysV `ar` format, as Debian's libc.a and libsqlite3.a
// are, and BSD's, as llvm-ar writes for MachO members): members and the
// symbol index, validated on open (parse) or, for a link, as they are asked
// for (parseForLink). Members are views into the archive buffer.
#pragma once

#include "support/name_index.h"
#include "support/shared_bytes.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace linklab {

class Archive {
public:
  struct Member {
    std::string_view name; // in the archive's bytes, as the data
    std::span<const char> data;
    uint64_t offset = 0; // of its header in the archive
    size_t part = 0;     // which of parts() holds it
    bool present = true; // false: a member of a partial archive not added yet (its name is unknown)
    bool read = true;    // false: its header is not read yet (parseForLink): name and data are empty
  };

  // The symbol index's layout (archive.cpp): GNU/SysV or BSD, 32- or 64-bit words.
  enum class IndexFormat { Gnu32, Gnu64, Bsd32, Bsd64 };

  static Expected<Archive> parse(std::string Name, SharedBytes Buffer);
  // An archive as a link reads it: the head (the symbol index, the long-name
  // table) now, and a member's header only when load() asks for it, as
  // LLVM's object::Archive reads children (a hello world needs 400 of
  // libc.a's 2,070 members, whose headers are spread over 5 MB). members()
  // then holds the members the index names. Without an index, as parse().
  static Expected<Archive> parseForLink(std::string Name, SharedBytes Buffer);
  static bool isArchive(std::span<const char> Bytes);

  // An archive's head: its magic and, when it has one, its symbol index
  // (the first member) -- what a caller fetching an archive over a network
  // reads to learn what the archive defines before fetching the rest.
  struct Head {
    uint64_t size = 0; // from the archive's start through the index and the next header (the long-name table, if that)
    bool complete = false; // the bytes given hold all of it (else size is what to fetch: 68 when unknown yet)
    std::vector<std::string_view> names; // the index's names (views into the bytes given), once complete
  };
  // Reads the head from the archive's first bytes (any prefix of it).
  static Expected<Head> readHead(const std::string &Name, std::span<const char> Prefix);

  // A partial archive, for a caller that fetches an archive by range: its
  // symbol index is the whole archive's (from Head, readHead's complete
  // bytes), but only the members addMembers() adds are present. A member
  // the index names and that was not added is absent (isPresent), so that
  // a link asking for it can say so rather than link another.
  static Expected<Archive> parseHead(std::string Name, uint64_t Size, SharedBytes Head);
  // Adds the whole members (headers and data) of Bytes, read at Offset.
  Error addMembers(uint64_t Offset, SharedBytes Bytes);
  bool isPresent(size_t I) const { return Members[I].present; }
  // The bytes to fetch for member I: from its header to the next member
  // the index names, or to the archive's end.
  std::pair<uint64_t, uint64_t> memberExtent(size_t I) const {
    return {Members[I].offset, I + 1 < Members.size() ? Members[I + 1].offset : Size};
  }

  const std::string &name() const { return Name; }
  const SharedBytes &bytes() const { return Parts[0]; } // a partial archive's head
  const std::vector<SharedBytes> &parts() const { return Parts; }
  const std::vector<Member> &members() const { return Members; }
  // Reads member I's header if it is not read yet (parseForLink); an error
  // names a bad one.
  Error load(size_t I);
  // Member I as a link names the object it adds: "archive(member)" (once loaded).
  std::string memberObjectName(size_t I) const { return Name + "(" + std::string(Members[I].name) + ")"; }
  // Member I's bytes, sharing the archive's (no copy); empty for an absent
  // or unloaded one.
  SharedBytes memberBytes(size_t I) const {
    const Member &M = Members[I];
    if (!M.present || !M.read)
      return {};
    return Parts[M.part].slice(size_t(M.data.data() - Parts[M.part].data()), M.data.size());
  }
  // Index into members() of the member defining Symbol, per the archive's
  // symbol index; -1 if none.
  long memberDefining(std::string_view Symbol) const;
  // Every symbol in the index with its member, in the index's order (the
  // first of a name's entries only).
  const std::vector<NameIndex<size_t>::Entry> &symbolIndex() const { return Index.entries(); }

private:
  // How much of Parts[Part] walk() reads: all of it; as much as holds whole
  // members (a partial archive's pieces); only the index and long-name
  // table that lead it, or one member (parseForLink, load).
  enum class Extent { Whole, Partial, Head, One };
  // Walks the members of Parts[Part] from byte At (read at Offset in the
  // archive), calling Each(member); the index and long-name table are kept.
  template <typename Fn> Error walk(size_t Part, size_t At, uint64_t Offset, Extent X, Fn Each);
  // What the symbol index names that no member read so far is: absent
  // (a partial archive), unread (parseForLink), or an error (parse).
  enum class Unread { Error, Absent, Later };
  // An archive from its magic and the members X covers.
  static Expected<Archive> read(std::string Name, SharedBytes Buffer, Extent X, Unread U);
  Error readMembers(Extent X, Unread U);
  Error readSymbolIndex(Unread U);
  Error readMemberName(uint64_t Off, std::string_view RawName, std::span<const char> &Data,
                       std::string_view &Out) const;

  std::string Name;
  std::vector<SharedBytes> Parts; // the whole archive, or a partial one's head and the pieces added
  uint64_t Size = 0;
  std::span<const char> SymTab, LongNames;
  IndexFormat SymTabFormat = IndexFormat::Gnu32;
  std::vector<Member> Members; // in archive order
  NameIndex<size_t> Index;
};

} // namespace linklab
