#include "session/debug_image.h"

#include "arch/arm.h"
#include "elf/elf_file.h"
#include "link/eh_frame.h"
#include "support/bits.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace linklab {

namespace {

using namespace elf;
// Section indexes below SHN_LORESERVE, less the one for the null section.
constexpr uint16_t MaxSections = SHN_LORESERVE - 1;

// An address range of the image: linked sections of one protection that
// touch, merged (hundreds of graphs would otherwise be thousands of sections).
struct Range {
  uint64_t start, end;
  MemProt prot;
  bool zeroFill;
  bool alloc; // false: the range is an object's that gdb loads itself (see below)
};

struct Sym {
  uint32_t name;
  uint64_t value, size;
  uint8_t info;
  uint16_t shndx;
};

// Bytes in the image's class and byte order.
class Out {
public:
  Out(bool Is64, bool Big) : Is64(Is64), Big(Big) {}
  void u8(uint8_t V) { Bytes.push_back(char(V)); }
  void u16(uint16_t V) { put(V); }
  void u32(uint32_t V) { put(V); }
  void u64(uint64_t V) { put(V); }
  void word(uint64_t V) { Is64 ? put(V) : put(uint32_t(V)); } // Elf_Addr, Elf_Off, and Elf64's Xword fields
  void align(size_t A) { Bytes.resize((Bytes.size() + A - 1) / A * A, '\0'); }
  std::string Bytes;
  const bool Is64, Big;

private:
  template <typename T> void put(T V) {
    char B[sizeof V];
    writeData<T>(B, V, Big);
    Bytes.append(B, sizeof V);
  }
};

uint32_t addString(std::string &Table, std::string_view S) {
  uint32_t At = uint32_t(Table.size());
  Table.append(S);
  Table.push_back('\0');
  return At;
}

// DWARF's pointer encodings (DW_EH_PE_*, the LSB's "Exception Frames"):
// the value's size (0: not one this copy knows), and whether it is pc-relative.
unsigned encodedSize(uint8_t Enc, bool Is64) {
  switch (Enc & 0x0f) {
  case 0x00: return Is64 ? 8 : 4; // absptr
  case 0x02:
  case 0x0a: return 2;
  case 0x03:
  case 0x0b: return 4;
  case 0x04:
  case 0x0c: return 8;
  default: return 0;
  }
}

// gdb reads one .eh_frame per objfile, and each linked graph has its own:
// they are copied into one, each FDE's pc-relative start re-based by how far
// its copy moved (CIE pointers are distances within one graph's, which
// moves whole). Chunk is a graph's linked .eh_frame at Address; Into the
// copy so far, which will sit at Base. What this copy does not understand
// (64-bit entries, unknown encodings) ends that graph's part, unchanged.
void appendEhFrame(std::string &Into, uint64_t Base, std::string_view Chunk, uint64_t Address, bool Is64, bool Big) {
  while (Into.size() % 8)
    Into.push_back('\0'); // a zero length: gdb skips it
  const size_t Start = Into.size();
  Into.append(Chunk);
  char *Copy = Into.data() + Start;
  const int64_t Delta = int64_t(Address - (Base + Start));
  std::map<size_t, uint8_t> CieEncoding; // a CIE's offset (its length field) -> its FDEs' pointer encoding
  for (size_t At = 0; At + 8 <= Chunk.size();) {
    uint32_t Length = readData<uint32_t>(Copy + At, Big);
    if (Length == 0) {
      At += 4;
      continue;
    }
    if (Length < 5 || Length == 0xffffffff || Length > Chunk.size() - At - 4)
      return; // too short for an id and a version, 64-bit, or past the end
    const size_t Body = At + 4, End = Body + Length;
    uint32_t Id = readData<uint32_t>(Copy + Body, Big);
    if (Id == 0) { // a CIE
      auto Enc = fdePointerEncoding({Copy + At, End - At});
      if (!Enc)
        return consumeError(Enc.takeError());
      CieEncoding[At] = *Enc;
    } else if (Id <= Body) { // an FDE: its CIE is Id bytes back
      auto Cie = CieEncoding.find(Body - Id);
      if (Cie == CieEncoding.end())
        return;
      uint8_t Enc = Cie->second;
      unsigned Size = encodedSize(Enc, Is64);
      if (!Size || Body + 4 + Size > End)
        return;
      if ((Enc & 0x70) == 0x10) { // pcrel: the start moves with the copy
        char *F = Copy + Body + 4;
        if (Size == 2)
          writeData<uint16_t>(F, uint16_t(readData<uint16_t>(F, Big) + Delta), Big);
        else if (Size == 4)
          writeData<uint32_t>(F, uint32_t(readData<uint32_t>(F, Big) + Delta), Big);
        else
          writeData<uint64_t>(F, uint64_t(readData<uint64_t>(F, Big) + Delta), Big);
      }
    }
    At = End;
  }
}

void putSymbols(Out &O, const std::vector<Sym> &Syms) {
  for (const Sym &S : Syms) {
    O.u32(S.name);
    if (O.Is64) {
      O.u8(S.info), O.u8(0), O.u16(S.shndx), O.u64(S.value), O.u64(S.size);
    } else {
      O.u32(uint32_t(S.value)), O.u32(uint32_t(S.size)), O.u8(S.info), O.u8(0), O.u16(S.shndx);
    }
  }
}

} // namespace

Expected<std::string> formatDebugImage(const std::vector<ObjectLinkInfo> &Objects, std::string_view Header,
                                       const DebugImageSections &Elsewhere, const std::vector<DroppedSymbol> &Dropped) {
  if (Header.size() < 52 ||
      !Header.starts_with("\x7f"
                          "ELF") ||
      (Header[4] != 1 && Header[4] != 2) || (Header[5] != 1 && Header[5] != 2) ||
      (Header[4] == 2 && Header.size() < 64))
    return makeError("debug image: the link's first object is not an ELF object to take the header from");
  const bool Is64 = Header[4] == 2, Big = Header[5] == 2;
  const uint16_t Machine = readData<uint16_t>(Header.data() + 18, Big);
  const uint32_t Flags = readData<uint32_t>(Header.data() + (Is64 ? 48 : 36), Big);

  std::vector<Range> Ranges;
  for (size_t I = 0; I < Objects.size(); ++I)
    for (const auto &S : Objects[I].sections)
      if (S.address && S.size && S.prot != MemProt::None && !S.name.starts_with(".debug"))
        Ranges.push_back({S.address, S.address + S.size, S.prot, S.zeroFill, !Elsewhere.count({I, S.name})});
  std::sort(Ranges.begin(), Ranges.end(), [](const Range &A, const Range &B) { return A.start < B.start; });
  std::vector<Range> Merged;
  for (const Range &R : Ranges) {
    if (!Merged.empty() && Merged.back().prot == R.prot && Merged.back().alloc == R.alloc &&
        R.start <= Merged.back().end) {
      Merged.back().end = std::max(Merged.back().end, R.end);
      Merged.back().zeroFill &= R.zeroFill;
    } else {
      Merged.push_back(R);
    }
  }
  if (Merged.size() + 7 > MaxSections)
    return makeError(
        formatv("debug image: %zu address ranges are more than an ELF section table holds", Merged.size()));
  // Section 0 is null, the ranges follow: range I is section I + 1.
  auto SectionOf = [&](uint64_t A) -> uint16_t {
    auto It = std::upper_bound(Merged.begin(), Merged.end(), A, [](uint64_t V, const Range &R) { return V < R.start; });
    if (It == Merged.begin())
      return SHN_ABS;
    --It;
    return A <= It->end ? uint16_t(It - Merged.begin() + 1) : uint16_t(SHN_ABS);
  };

  // .symtab: locals first (sh_info is the first global's index).
  std::string Strtab(1, '\0'), Dynstr(1, '\0');
  std::vector<Sym> Locals{{0, 0, 0, 0, SHN_UNDEF}}, Globals, Dynamic{{0, 0, 0, 0, SHN_UNDEF}};
  uint64_t Entry = 0;
  for (size_t I = 0; I < Objects.size(); ++I) {
    const ObjectLinkInfo &O = Objects[I];
    for (const auto &[Name, S] : O.symbols) {
      // A GOT entry or stub is named below, not after the symbol it leads to.
      if (Name.empty() || O.entrySizes.count(S.address))
        continue;
      uint64_t Value = S.address;
      if (Machine == EM_ARM && S.callable && (S.targetFlags & arm::ThumbSymbol))
        Value |= 1; // how ELF marks a Thumb function, and gdb with it
      uint8_t Type = S.callable ? STT_FUNC : S.size ? STT_OBJECT : STT_NOTYPE;
      bool Local = S.scope == Scope::Local;
      (Local ? Locals : Globals)
          .push_back({addString(Strtab, Name), Value, S.size, uint8_t((Local ? STB_LOCAL : STB_GLOBAL) << 4 | Type),
                      SectionOf(S.address)});
      if (Name == "_start" && !Local)
        Entry = Value;
    }
    // A stub is NAME@plt, as gdb names a PLT entry, and in the dynamic
    // symbol table an undefined NAME at the stub's address: gdb's
    // trampoline (mst_solib_trampoline), which `step` follows to NAME. Both
    // without a size, as gdb reads a PLT entry's: it takes the trampoline
    // over the text symbol at one address only when their sizes agree, and
    // a trampoline has none.
    for (const auto &[Target, At] : O.stubs) {
      Globals.push_back({addString(Strtab, Target + "@plt"), At, 0, STB_GLOBAL << 4 | STT_FUNC, SectionOf(At)});
      Dynamic.push_back({addString(Dynstr, Target), At, 0, STB_GLOBAL << 4 | STT_FUNC, SHN_UNDEF});
    }
    for (const auto &[Target, At] : O.gotEntries) {
      auto Size = O.entrySizes.find(At);
      Locals.push_back({addString(Strtab, Target + ".got"), At, Size == O.entrySizes.end() ? 0 : Size->second,
                        STB_LOCAL << 4 | STT_OBJECT, SectionOf(At)});
    }
  }
  for (const DroppedSymbol &D : Dropped)
    Locals.push_back({addString(Strtab, D.name), D.address, D.size,
                      uint8_t(STB_LOCAL << 4 | (D.function ? STT_FUNC : STT_OBJECT)),
                      SectionOf(Machine == EM_ARM ? D.address & ~uint64_t(1) : D.address)});
  const uint32_t FirstGlobal = uint32_t(Locals.size());
  Locals.insert(Locals.end(), Globals.begin(), Globals.end());

  // The note gdb reads the OS ABI from (a native executable's .note.ABI-tag):
  // GNU, Linux 3.2.0.
  Out Note(Is64, Big);
  Note.u32(4), Note.u32(16), Note.u32(1);
  Note.Bytes.append("GNU\0", 4);
  Note.u32(0), Note.u32(3), Note.u32(2), Note.u32(0);

  // Every graph's call-frame information, for gdb's unwinder (the objects'
  // own .eh_frame, which add-symbol-file loads, gdb does not relocate).
  std::string EhFrame;
  uint64_t EhBase = ~uint64_t(0);
  for (const ObjectLinkInfo &O : Objects)
    for (const auto &S : O.sections)
      if (S.name == ".eh_frame" && S.address && S.content.size() == S.size)
        EhBase = std::min(EhBase, S.address);
  for (const ObjectLinkInfo &O : Objects)
    for (const auto &S : O.sections)
      if (S.name == ".eh_frame" && S.address && S.content.size() == S.size)
        appendEhFrame(EhFrame, EhBase, {S.content.data(), S.content.size()}, S.address, Is64, Big);

  Out Sy(Is64, Big), Dy(Is64, Big);
  putSymbols(Sy, Locals);
  putSymbols(Dy, Dynamic);

  std::string Shstr(1, '\0');
  struct Section {
    uint32_t name, type;
    uint64_t flags, addr, offset, size;
    uint32_t link, info;
    uint64_t align, entsize;
  };
  std::vector<Section> Sections{{}};
  for (const Range &R : Merged) {
    const char *Name = hasProt(R.prot, MemProt::Exec)     ? ".text"
                       : !hasProt(R.prot, MemProt::Write) ? ".rodata"
                       : R.zeroFill                       ? ".bss"
                                                          : ".data";
    uint64_t F = (R.alloc ? uint64_t(SHF_ALLOC) : 0) | (hasProt(R.prot, MemProt::Write) ? uint64_t(SHF_WRITE) : 0) |
                 (hasProt(R.prot, MemProt::Exec) ? uint64_t(SHF_EXECINSTR) : 0);
    Sections.push_back({addString(Shstr, Name), SHT_NOBITS, F, R.start, 0, R.end - R.start, 0, 0, 1, 0});
  }
  Out Img(Is64, Big);
  const size_t EhSize = Is64 ? 64 : 52, SymSize = Is64 ? 24 : 16, ShSize = Is64 ? 64 : 40;
  Img.Bytes.resize(EhSize);
  auto Place = [&](const std::string &Bytes, size_t Align) {
    Img.align(Align);
    uint64_t At = Img.Bytes.size();
    Img.Bytes += Bytes;
    return At;
  };
  const uint32_t Symtab = uint32_t(Sections.size());
  uint64_t At = Place(Sy.Bytes, 8);
  Sections.push_back(
      {addString(Shstr, ".symtab"), SHT_SYMTAB, 0, 0, At, Sy.Bytes.size(), Symtab + 1, FirstGlobal, 8, SymSize});
  At = Place(Strtab, 1);
  Sections.push_back({addString(Shstr, ".strtab"), SHT_STRTAB, 0, 0, At, Strtab.size(), 0, 0, 1, 0});
  const uint32_t Dynsym = uint32_t(Sections.size());
  At = Place(Dy.Bytes, 8);
  Sections.push_back({addString(Shstr, ".dynsym"), SHT_DYNSYM, 0, 0, At, Dy.Bytes.size(), Dynsym + 1, 1, 8, SymSize});
  At = Place(Dynstr, 1);
  Sections.push_back({addString(Shstr, ".dynstr"), SHT_STRTAB, 0, 0, At, Dynstr.size(), 0, 0, 1, 0});
  if (!EhFrame.empty()) {
    // Not allocated: gdb reads it from the file, and its address (the base
    // its pc-relative values count from) overlaps a graph's own .eh_frame.
    At = Place(EhFrame, 8);
    Sections.push_back({addString(Shstr, ".eh_frame"), SHT_PROGBITS, 0, EhBase, At, EhFrame.size(), 0, 0, 8, 0});
  }
  At = Place(Note.Bytes, 4);
  Sections.push_back({addString(Shstr, ".note.ABI-tag"), SHT_NOTE, 0, 0, At, Note.Bytes.size(), 0, 0, 4, 0});
  const uint32_t ShstrIndex = uint32_t(Sections.size());
  uint32_t ShstrName = addString(Shstr, ".shstrtab");
  At = Place(Shstr, 1);
  Sections.push_back({ShstrName, SHT_STRTAB, 0, 0, At, Shstr.size(), 0, 0, 1, 0});
  Img.align(8);
  const uint64_t ShOff = Img.Bytes.size();
  for (const Section &S : Sections) {
    Img.u32(S.name), Img.u32(S.type), Img.word(S.flags), Img.word(S.addr), Img.word(S.offset), Img.word(S.size);
    Img.u32(S.link), Img.u32(S.info), Img.word(S.align), Img.word(S.entsize);
  }

  // The header, over the space left for it.
  Out H(Is64, Big);
  H.Bytes.append("\x7f"
                 "ELF",
                 4);
  H.u8(Is64 ? 2 : 1), H.u8(Big ? 2 : 1), H.u8(1); // class, data, EV_CURRENT
  H.Bytes.resize(16, '\0');
  H.u16(ET_EXEC), H.u16(Machine), H.u32(1), H.word(Entry), H.word(0), H.word(ShOff), H.u32(Flags);
  H.u16(uint16_t(EhSize)), H.u16(0), H.u16(0), H.u16(uint16_t(ShSize)), H.u16(uint16_t(Sections.size()));
  H.u16(uint16_t(ShstrIndex));
  Img.Bytes.replace(0, EhSize, H.Bytes);
  return std::move(Img.Bytes);
}

} // namespace linklab
