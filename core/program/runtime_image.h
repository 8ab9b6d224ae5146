// A C runtime's part of a run, linked once and kept on disk
// (docs/runtime-image.md): the members a program's objects pull and the
// start object, laid out at the addresses a run gives them (they are
// reserved first), with their link-end tables (init arrays, IRELATIVE
// records, merged sections, TLS) laid out over the runtime's graphs alone.
// A later run whose objects need the same names reserves the same ranges,
// writes the bytes in one go, resolves the objects against the image's
// symbols as process symbols and fixes up the image's references to the
// entry; it links none of the runtime.
//
// A run may use an image only when its objects add nothing to those tables
// (no TLS, constructors, IFUNCs, C-identifier sections, Arm unwind index)
// and define no name the image defines or references; otherwise, and on
// any problem with the cache, it links as it would without one.
#pragma once

#include "platform/tls_layout.h"
#include "program/runtime.h"
#include "session/link_info.h"
#include "session/session.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace linklab::exec {

struct RuntimeImage {
  // What the image was linked for (the cache key's text, compared in full).
  std::string key;
  // Executor memory, in the order a run reserves it.
  struct Reservation {
    Addr base;
    uint64_t size, alignment;
    MemProt prot;
    std::vector<uint8_t> bytes; // from base; the rest is zero
    // Where bytes start in the cache file it was read from (not stored).
    uint64_t fileOffset = 0;
    template <class IO> void fields(IO &io) {
      io(base), io(size), io(alignment), io(prot);
      if constexpr (requires { io.Pos; }) // reading: after the bytes' u32 length
        fileOffset = io.Pos + 4;
      io(bytes);
    }
  };
  std::vector<Reservation> reservations;
  // Names the image defines (non-local, resolved), for the objects' lookups.
  struct Definition {
    std::string name;
    Addr address;
    template <class IO> void fields(IO &io) { io(name), io(address); }
  };
  std::vector<Definition> symbols;
  // Names the image's graphs reference but do not define (the entry, the
  // executor's symbols, weak references): an object must not define one.
  std::vector<std::string> imports;
  // The image's fixups against the entry, made again once it is linked.
  struct EntryFixup {
    Addr where;
    EdgeKind kind;
    int64_t addend;
    Addr pairedWith; // 0, or: the target is the label at that fixup (a %pcrel_lo's auipc)
    template <class IO> void fields(IO &io) { io(where), io(kind), io(addend), io(pairedWith); }
  };
  std::vector<EntryFixup> entryFixups;
  TLSImage tls;
  // The .eh_frame registration chain (platform/eh_frame_registration.h):
  // the image's newest record, and the .preinit_array slot naming the
  // newest thunk, which a run's own newest thunk replaces. 0: none.
  Addr ehNewestRecord = 0, ehPreInitSlot = 0;
  std::vector<std::pair<Addr, uint64_t>> ehFrames; // every graph's .eh_frame
  std::vector<std::string> members;                // the graphs linked, by name
  // Sections and symbols of each graph, for symbolizing an address inside
  // the image (linkInfo() decodes them).
  std::vector<uint8_t> linkInfoBytes;
  // The cache file it was read from, open (the executor can map the
  // reservations' bytes from it: fileOffset); null for an image built here.
  struct OpenFile {
    int fd;
    explicit OpenFile(int Fd) : fd(Fd) {}
    ~OpenFile();
    OpenFile(const OpenFile &) = delete;
    OpenFile &operator=(const OpenFile &) = delete;
  };
  std::shared_ptr<OpenFile> file;

  std::vector<ObjectLinkInfo> linkInfo() const;
  // The cache file's body (support/wire.h), in this order.
  template <class IO> void fields(IO &io) {
    io(key), io(reservations), io(symbols), io(imports), io(entryFixups), io(tls), io(ehNewestRecord),
        io(ehPreInitSlot), io(ehFrames), io(members), io(linkInfoBytes);
  }
};

// Whether images can serve A's programs at all: not 32-bit Arm, whose
// every object with code has an unwind index (.ARM.exidx), a table laid
// out over all graphs. Runs there link the runtime as they always did,
// without waiting for the objects to decide.
inline bool imagesServe(Arch A) { return A != Arch::Arm; }

// What the objects added to S (not linked yet) ask of runtime R: every
// name they reference and none of them defines ("s:" strong, "w:" weakly
// referenced only) and, after the names of one with an .eh_frame, R's
// registration function, in the order a link's archive scan meets them
// (the image's link then pulls the members in the order a run's link
// does, and lays them out alike); and the names they define, sorted.
// `usable` is false when the objects add to a link-end table (the reasons
// above).
struct ImageRoots {
  std::vector<std::string> refs;
  std::vector<std::string> defined;
  bool usable = true;
};
ImageRoots imageRoots(const Session &S, const RuntimeSpec &R);

// The cache key's text: Identity (linklab's own build), the triple, the
// runtime row and its files (path, size, modification time), the entry and
// the roots.
Expected<std::string> imageKey(const std::string &Identity, const Triple &TT, const RuntimeSpec &R,
                               const std::vector<std::string> &Refs);

// Links R's members the roots pull and its start object, entering Entry,
// as a run would place them from a fresh executor. Fails (and a run links
// as usual) when the result cannot be an image.
Expected<RuntimeImage> buildRuntimeImage(const Triple &TT, const RuntimeSpec &R, const RuntimeFiles &Files,
                                         const std::vector<std::string> &Refs, std::string Key);

// What the entry fixups write for an entry at Entry: (address, bytes) per
// group of fixups; an error when one cannot be made.
Expected<std::vector<std::pair<Addr, std::vector<uint8_t>>>> entryFixupBytes(const RuntimeImage &I, Arch A, Addr Entry);

// The file format: hostile bytes in, an image or nothing out. Arch is the
// run's (fixup kinds are checked against it).
std::vector<uint8_t> serializeRuntimeImage(const RuntimeImage &I);
// The header (magic, format version, size, checksum) and Body: a file.
std::vector<uint8_t> frameRuntimeImage(std::span<const uint8_t> Body);
constexpr size_t RuntimeImageHeaderSize = 28;
std::optional<RuntimeImage> parseRuntimeImage(std::span<const uint8_t> Bytes, Arch A);

// The cache directory: $LINKLAB_CACHE names it; unset, empty or "on",
// $XDG_CACHE_HOME/linklab, else $HOME/.cache/linklab; "off": none. A run
// from an image lays out every address a run without one does (the
// runtime's region is its own, protocol/address_plan.h).
std::optional<std::string> runtimeCacheDir();
// The image of Key in Dir, or nothing (missing, stale, corrupt), with the
// file kept open (RuntimeImage::file).
std::optional<RuntimeImage> readCachedImage(const std::string &Dir, const std::string &Key, Arch A);
// Writes it under a temporary name and renames it into place; failures are
// ignored (a read-only cache is no cache). The directory keeps the newest
// MaxCachedImages images.
constexpr size_t MaxCachedImages = 32;
void writeCachedImage(const std::string &Dir, const RuntimeImage &I);
std::string cachedImagePath(const std::string &Dir, const std::string &Key);
// Appends Line to $LINKLAB_CACHE_LOG, if set: whether a run used an image
// ("hit PATH", "built PATH") or linked the runtime ("normal: WHY").
void noteRuntimeImage(const std::string &Line);

} // namespace linklab::exec
