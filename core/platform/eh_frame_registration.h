// Registers each linked graph's .eh_frame with the program's own unwinder,
// so that C++ exceptions unwind through JIT-linked code (the role of
// JITLink's EHFrameRegistrationPlugin).
//
// JITLink registers from the host after finalization. A static glibc cannot
// take that call then: until __libc_start_main has set up the thread pointer
// its locks (and malloc) fault. So the registration runs inside the process,
// as crtbeginT.o's frame_dummy does in a `gcc -static` executable, from a
// .preinit_array entry, which glibc runs after its TLS and IRELATIVE set-up
// and before any constructor:
//
// every graph with an .eh_frame gets a record, {a zeroed `struct object`
// of its own (no malloc), the previous graph's record, its first .eh_frame
// record}, and a small thunk that walks the records from its own one,
// calling `RegisterFn(frames, &object)` (libgcc's __register_frame_info)
// for each. Each graph's record names the record of the graph allocated
// before it, and the one .preinit_array entry names the newest thunk: the
// chain reaches every graph, also those a lookup links after the init arrays
// were laid out (before the run), and one loop runs however many graphs
// there are.
//
// The records are laid out back to back (4-aligned, as the unwinder walks
// them: a padding gap would read as the zero terminator), ending with the
// terminator record splitEHFrame appends. Nothing is deregistered: a
// program's graphs live as long as its process. Graphs linked once the
// process has run its .preinit_array stay unregistered.
#pragma once

#include "platform/init_arrays.h"
#include "session/session.h"

namespace linklab {

class EHFrameRegistration : public Plugin {
public:
  EHFrameRegistration(std::string RegisterFn, std::shared_ptr<InitArrays> Inits)
      : RegisterFn(std::move(RegisterFn)), Inits(std::move(Inits)) {}
  void modifyPassConfig(const MaterializationInfo &MR, LinkGraph &G, PassConfiguration &Config) override;
  void addReferences(const LinkGraph &G, std::vector<std::string> &Names) const override;

  // The chain's head and the thunk that walks it (none before a graph with
  // an .eh_frame is allocated).
  Addr newestRecord() const { return NewestRecord; }
  std::optional<Addr> newestThunk() const { return NewestThunk; }
  // Whether a graph gets a record and a thunk (it has an .eh_frame).
  static bool registers(const LinkGraph &G);
  // Continues a chain whose records a prepared runtime image holds
  // (program/runtime_image.h): this session's first record names Record.
  void continueChain(Addr Record) { NewestRecord = Record; }

private:
  std::string RegisterFn;
  std::shared_ptr<InitArrays> Inits;
  Addr NewestRecord = 0;              // the chain's head: the last graph's record
  std::optional<size_t> PreInitEntry; // where the program's .preinit_array names it
  std::optional<Addr> NewestThunk;
};

} // namespace linklab
