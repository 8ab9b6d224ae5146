// llvm-jitlink's -sectcreate=SECTION,FILE[@SYMBOL=OFFSET[,SYMBOL=OFFSET...]]:
// a section whose content is a file's bytes, as a graph of its own with the
// named symbols at their offsets (ORC's SectCreateMaterializationUnit). It
// links, as an object does, when a lookup needs one of its symbols.
#pragma once

#include "graph/link_graph.h"
#include "support/error.h"

#include <memory>
#include <string>
#include <vector>

namespace linklab::driver {

struct SectCreate {
  std::string section, file;
  std::vector<std::pair<std::string, uint64_t>> symbols; // name, offset
};
// Errors say llvm-jitlink's words ("In -sectcreate=..., ...").
Expected<SectCreate> parseSectCreate(std::string_view Arg);
// The graph of Spec with Content (the file's bytes): one read-only block,
// 16-aligned, as llvm-jitlink makes it; an offset past the content's end is
// an error naming the symbol.
Expected<std::unique_ptr<LinkGraph>> sectCreateGraph(const SectCreate &Spec, SharedBytes Content, const Triple &TT);

} // namespace linklab::driver
