// Plain-data views of objects and link graphs, as JSON text: what the wasm
// bindings hand to JavaScript (a UI showing how passes change a graph) and
// what any native tool can print. One exporter, so both builds agree.
#pragma once

#include "elf/elf_file.h"
#include "graph/link_graph.h"
#include "session/link_info.h"

#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace linklab::api {

// A JSON string literal (quotes included) for arbitrary bytes.
std::string jsonString(std::string_view S);

// Small integer IDs for a graph's blocks and symbols, valid while the graph
// is unchanged except through this index (JSON carries IDs, not pointers,
// and callers hand IDs back to name what they modify). Elements met for the
// first time get the next ID; removed ones are forgotten, never reused.
class GraphIndex {
public:
  uint32_t id(const Block &B) { return idOf(&B, Blocks); }
  uint32_t id(const Symbol &S) { return idOf(&S, Symbols); }
  Block *block(uint32_t Id) const { return Id < Blocks.size() ? static_cast<Block *>(Blocks[Id]) : nullptr; }
  Symbol *symbol(uint32_t Id) const { return Id < Symbols.size() ? static_cast<Symbol *>(Symbols[Id]) : nullptr; }
  void forget(const Block &B) { forgetIn(&B, Blocks); }
  void forget(const Symbol &S) { forgetIn(&S, Symbols); }

private:
  uint32_t idOf(const void *P, std::vector<void *> &V);
  void forgetIn(const void *P, std::vector<void *> &V);
  std::unordered_map<const void *, uint32_t> Ids;
  std::vector<void *> Blocks, Symbols;
};

// {"name","triple","sections":[{"name","prot","noAlloc","blocks":[{"id","address",
//  "size","alignment","alignmentOffset","zeroFill","content"(hex, when asked),
//  "edges":[{"offset","kind"(by name),"width"(bytes its fixup writes),"target"(symbol id),"targetName",
//  "addend"}]}]}],
//  "symbols":[{"id","name","kind"(defined|external|absolute),"block","section",
//  "offset","address","size","linkage","scope","callable","live","weak"}]}
// Numbers are JSON numbers (exact up to 2^53).
std::string graphToJson(const LinkGraph &G, GraphIndex &Ix, bool WithContent);

// An object's headers, sections, symbols and relocations (relocation types
// by name where the target knows them), or the parse error.
Expected<std::string> inspectObjectJson(const std::string &Name, std::span<const char> Bytes);

// A static archive: {"name","format":"archive","members":[{"name","offset",
// "size", and inspectObjectJson's fields, or "error" for a member that is not
// a readable object}],"symbolIndex":[{"symbol","member"(index)}]}. Members
// are named "archive(member)" as a link names them; the index is sorted by
// symbol, each with the member a link pulls in for it (the first defining
// it). Errors are the archive's own (malformed header, bad index).
Expected<std::string> inspectArchiveJson(const std::string &Name, SharedBytes Bytes);

// What LinkInfoRecorder kept per linked object: [{"name","sections":[{"name",
// "address","size","prot","content"(hex)}],"symbols":{NAME:{"address","size",
// "scope","section"}},"segments":[{"address","size","prot"}],"gotEntries":{NAME:address},
// "stubs":{NAME:address},"entrySizes":{ADDRESS:size}}] (entrySizes: each GOT
// entry's and stub's size, by its decimal address). With Only, contents only for the objects it
// names (a page shows its user's objects' bytes, not the C runtime's ~1 MB).
std::string linkInfoToJson(const std::vector<ObjectLinkInfo> &Objects, const std::set<std::string> *Only = nullptr);

} // namespace linklab::api
