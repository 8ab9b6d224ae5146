// Static archives (GNU/SysV `ar` format, as Debian's libc.a and libsqlite3.a
// are): members and the symbol index, validated on open. Members are views
// into the archive buffer.
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
  };

  static Expected<Archive> parse(std::string Name, SharedBytes Buffer);
  static bool isArchive(std::span<const char> Bytes);

  // An archive's head: its magic and, when it has one, its symbol index
  // (the first member) -- what a caller fetching an archive over a network
  // reads to learn what the archive defines before fetching the rest.
  struct Head {
    uint64_t size = 0; // the head's length from the archive's start
    bool complete = false; // the bytes given hold all of it (else size is what to fetch: 68 when unknown yet)
    std::vector<std::string_view> names; // the index's names (views into the bytes given), once complete
  };
  // Reads the head from the archive's first bytes (any prefix of it).
  static Expected<Head> readHead(const std::string &Name, std::span<const char> Prefix);

  const std::string &name() const { return Name; }
  const SharedBytes &bytes() const { return Buffer; }
  const std::vector<Member> &members() const { return Members; }
  // Member I's bytes, sharing the archive's (no copy).
  // Member I as a link names the object it adds: "archive(member)".
  std::string memberObjectName(size_t I) const { return Name + "(" + std::string(Members[I].name) + ")"; }
  SharedBytes memberBytes(size_t I) const {
    return Buffer.slice(size_t(Members[I].data.data() - Buffer.data()), Members[I].data.size());
  }
  // Index into members() of the member defining Symbol, per the archive's
  // symbol index; -1 if none.
  long memberDefining(std::string_view Symbol) const;
  // Every symbol in the index with its member, in the index's order (the
  // first of a name's entries only).
  const std::vector<NameIndex<size_t>::Entry> &symbolIndex() const { return Index.entries(); }

private:
  std::string Name;
  SharedBytes Buffer;
  std::vector<Member> Members;
  NameIndex<size_t> Index;
};

} // namespace linklab
