// One TLS image for a whole session, as a static linker builds one PT_TLS
// segment for a process: every graph's .tdata/.tbss blocks get a fixed offset
// from the thread pointer when that graph is allocated, and every TLS fixup
// (local-exec, initial-exec GOT entries, TLS descriptors) of every graph asks
// this layout, through LinkGraph::tpOffsetOf, for the offset of its target,
// whichever graph defines it. Graphs link lazily, so the image grows as they
// arrive; offsets never move because the image grows away from the thread
// pointer (downwards below TP for variant II, upwards after TP for variant I).
#pragma once

#include "link/tls_blocks.h"
#include "session/session.h"

#include <map>

namespace linklab {

struct TLSImage {
  std::vector<uint8_t> bytes; // initial contents from the block start (.tbss parts zero)
  uint64_t memSize = 0;       // the block's size, a multiple of alignment for variant II
  uint64_t alignment = 1;     // what TP must be aligned to
  template <class IO> void fields(IO &io) { io(bytes), io(memSize), io(alignment); }
};

class TLSLayout : public Plugin {
public:
  explicit TLSLayout(TLSVariant V);
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;

  // TP offset of the TLS byte at executor address A; an error names A when
  // no graph's TLS block holds it.
  Expected<int64_t> tpOffset(Addr A) const;
  // The image to hand the executor (setup-tls) once every graph is linked.
  Expected<TLSImage> image() const;
  bool empty() const { return Blocks.empty(); }
  // The image is installed: a graph linked later with TLS of its own fails
  // (its blocks would lie outside the executor's TLS block).
  void seal() { Sealed = true; }

private:
  Error place(LinkGraph &G);
  void capture(LinkGraph &G);

  struct Placed {
    uint64_t size;
    int64_t tpOffset;
  };
  TLSVariant Variant;
  std::map<Addr, Placed> Blocks; // by block address
  int64_t Low, High;             // TP-relative extent of the image so far
  uint64_t Alignment = 1;
  bool Sealed = false;
  std::map<int64_t, std::vector<uint8_t>> Init; // TP offset -> fixed-up .tdata bytes
};

} // namespace linklab
