#pragma once

#include "graph/link_graph.h"
#include "target/target.h"

namespace linklab {

// Where a format keeps its frame records, and whether its loaders expect the
// linker to append the zero-length terminator record (ELF's do; MachO's
// registration is given the section's extent).
struct EHFrameFormat {
  const char *sectionName;
  bool nullTerminator;
};
inline constexpr EHFrameFormat ElfEHFrame = {".eh_frame", true};
inline constexpr EHFrameFormat MachOEHFrame = {"__TEXT,__eh_frame", false};

// Splits the frame section into one block per CIE/FDE record and adds the
// edges the records imply: FDE -> CIE (NegDelta32 on the CIE pointer), the
// FDE's PC-begin when the object left it without a relocation (MachO: found
// by address, in the width and form of the CIE's 'R' pointer encoding), and
// function -> FDE (Keep-Alive), so an FDE lives exactly as long as the
// function it describes. A pre-prune pass; a no-op for graphs without the
// section.
Error splitEHFrame(LinkGraph &G, const EhFrameKinds &Kinds, const EHFrameFormat &Format = ElfEHFrame);

// The FDE pointer encoding (DW_EH_PE_*) a CIE's 'R' augmentation gives,
// DW_EH_PE_absptr (0) without one; CIE starts at its length field. An
// error names the field that could not be read.
Expected<uint8_t> fdePointerEncoding(std::span<const char> CIE);

} // namespace linklab
