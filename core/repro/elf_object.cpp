#include "repro/elf_object.h"

#include "elf/elf_file.h"
#include "target/target.h"

#include <cstring>
#include <map>

namespace linklab::repro {

namespace {

constexpr uint64_t SHF_INFO_LINK = 0x40, SHF_GROUP = 0x200;

bool regenerated(const ElfSection &S, uint32_t Index, const ElfFile &F, uint32_t StrtabIndex) {
  return S.type == elf::SHT_NULL || S.type == elf::SHT_SYMTAB || S.type == elf::SHT_RELA ||
         S.type == elf::SHT_SYMTAB_SHNDX || (S.type == elf::SHT_STRTAB && Index == StrtabIndex);
}

uint32_t readU32(const char *P) {
  uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}

template <typename T> void put(std::vector<char> &Out, T V) {
  char B[sizeof(T)];
  std::memcpy(B, &V, sizeof(T));
  Out.insert(Out.end(), B, B + sizeof(T));
}

void alignTo(std::vector<char> &Out, uint64_t A) {
  while (A > 1 && Out.size() % A)
    Out.push_back(0);
}

} // namespace

const TargetInfo *elfTarget(uint16_t Machine) {
  for (const TargetInfo *T : allTargets())
    if (T->format.format == ObjectFormat::ELF && T->machine == Machine && T->arch.pointerSize == 8 &&
        !T->arch.bigEndian)
      return T;
  return nullptr;
}

Expected<ElfObject> readElfObject(std::string Name, std::span<const char> Bytes) {
  auto F = ElfFile::parse(Name, Bytes);
  if (!F)
    return F.takeError();
  // The writers speak ELF64 little-endian, as the three 64-bit targets do.
  if (!F->is64() || F->bigEndian())
    return F->error(formatv("a %d-bit %s-endian object cannot be exported or reduced (64-bit little-endian only)",
                            F->is64() ? 64 : 32, F->bigEndian() ? "big" : "little"));
  ElfObject O;
  O.name = Name;
  O.machine = F->machine();
  O.eflags = F->flags();
  const auto &Secs = F->sections();
  uint32_t Strtab = F->symtabIndex() ? Secs[F->symtabIndex()].link : 0;
  std::vector<uint32_t> ModelIndex(Secs.size(), SecUndef);
  for (uint32_t I = 1; I < Secs.size(); ++I) {
    const ElfSection &S = Secs[I];
    if (S.type == elf::SHT_REL)
      return F->error(formatv("section %s: SHT_REL relocations are not supported", std::string(S.name).c_str()));
    // The section-name table is shared with the symbol names (as LLVM
    // writes it) or separate; either way it is regenerated.
    if (regenerated(S, I, *F, Strtab) || (S.type == elf::SHT_STRTAB && S.name == ".shstrtab"))
      continue;
    ModelIndex[I] = uint32_t(O.sections.size());
    ObjSection M;
    M.name = std::string(S.name);
    M.type = S.type;
    M.flags = S.flags & ~SHF_GROUP; // recomputed from the groups on write
    M.addralign = S.addralign ? S.addralign : 1;
    M.entsize = S.entsize;
    M.link = S.link;
    M.info = S.info;
    if (S.type == elf::SHT_NOBITS)
      M.size = S.size;
    else
      M.bytes.assign(S.content.begin(), S.content.end());
    O.sections.push_back(std::move(M));
  }
  size_t NSyms = F->symbolCount();
  O.symbols.resize(std::max<size_t>(NSyms, 1));
  for (size_t I = 1; I < NSyms; ++I) {
    const ElfSymbol S = F->symbol(I);
    ObjSymbol &M = O.symbols[I];
    M.name = std::string(S.name);
    M.bind = S.bind;
    M.type = S.type;
    M.visibility = S.visibility;
    M.value = S.value;
    M.size = S.size;
    if (S.shndx == elf::SHN_UNDEF)
      M.section = SecUndef;
    else if (S.shndx == elf::SHN_ABS)
      M.section = SecAbs;
    else if (S.shndx == elf::SHN_COMMON)
      M.section = SecCommon;
    else if ((M.section = ModelIndex[S.shndx]) == SecUndef)
      return F->error(formatv("symbol %zu (%s) is defined in section %u (%s), which holds no content", I,
                              M.name.c_str(), S.shndx, std::string(Secs[S.shndx].name).c_str()));
  }
  // Relocations, groups and address-significance tables refer by index.
  for (uint32_t I = 1; I < Secs.size(); ++I) {
    const ElfSection &S = Secs[I];
    if (S.type == elf::SHT_RELA) {
      if (S.info >= Secs.size() || ModelIndex[S.info] == SecUndef)
        return F->error(formatv("relocation section %s applies to section %u, which holds no content",
                                std::string(S.name).c_str(), S.info));
      auto R = F->relocations(S);
      if (!R)
        return R.takeError();
      auto &Out = O.sections[ModelIndex[S.info]].relocs;
      for (const ElfRela &E : *R)
        Out.push_back({E.offset, E.type, E.sym, E.addend});
      continue;
    }
    if (ModelIndex[I] == SecUndef)
      continue;
    ObjSection &M = O.sections[ModelIndex[I]];
    if (S.type == elf::SHT_GROUP) {
      if (S.content.size() < 4 || S.content.size() % 4 || S.info >= NSyms)
        return F->error(formatv("group section %s is malformed", M.name.c_str()));
      M.groupSignature = S.info;
      M.groupFlags = readU32(S.content.data());
      for (size_t Off = 4; Off < S.content.size(); Off += 4) {
        uint32_t Member = readU32(S.content.data() + Off);
        if (Member >= Secs.size())
          return F->error(formatv("group section %s: member %u is out of range", M.name.c_str(), Member));
        if (ModelIndex[Member] != SecUndef)
          M.groupMembers.push_back(ModelIndex[Member]);
      }
      M.bytes.clear();
    } else if (S.type == SHT_LLVM_ADDRSIG) {
      for (size_t Off = 0; Off < S.content.size();) {
        uint64_t V = 0;
        unsigned Shift = 0;
        uint8_t B;
        do {
          if (Off >= S.content.size() || Shift > 63)
            return F->error(formatv("section %s: truncated ULEB128", M.name.c_str()));
          B = uint8_t(S.content[Off++]);
          V |= uint64_t(B & 0x7f) << Shift;
          Shift += 7;
        } while (B & 0x80);
        if (V >= NSyms)
          return F->error(
              formatv("section %s: symbol index %llu is out of range", M.name.c_str(), (unsigned long long)V));
        M.addrsig.push_back(uint32_t(V));
      }
      M.bytes.clear();
    }
  }
  return O;
}

std::vector<char> writeElfObject(const ElfObject &O) {
  // Symbol order: null, locals, then the rest.
  std::vector<uint32_t> SymIndex(O.symbols.size(), 0), Order{0};
  for (int Pass = 0; Pass < 2; ++Pass)
    for (uint32_t I = 1; I < O.symbols.size(); ++I)
      if ((O.symbols[I].bind == elf::STB_LOCAL) == (Pass == 0)) {
        SymIndex[I] = uint32_t(Order.size());
        Order.push_back(I);
      }
  uint32_t FirstGlobal = 1;
  while (FirstGlobal < Order.size() && O.symbols[Order[FirstGlobal]].bind == elf::STB_LOCAL)
    ++FirstGlobal;

  struct OutSection {
    std::string name;
    uint32_t type;
    uint64_t flags, align, entsize;
    uint32_t link, info;
    std::vector<char> content;
    uint64_t size;
  };
  std::vector<OutSection> Out;
  const uint32_t NModel = uint32_t(O.sections.size());
  std::vector<uint32_t> RelaOf(NModel, 0);
  uint32_t NextIndex = NModel + 1;
  for (uint32_t I = 0; I < NModel; ++I)
    if (!O.sections[I].relocs.empty())
      RelaOf[I] = NextIndex++;
  const uint32_t Symtab = NextIndex, Strtab = NextIndex + 1;
  std::vector<bool> InGroup(NModel, false);
  for (auto &S : O.sections)
    for (uint32_t M : S.groupMembers)
      InGroup[M] = true;

  std::string Strings(1, '\0');
  auto addString = [&](const std::string &S) -> uint32_t {
    if (S.empty())
      return 0;
    uint32_t Off = uint32_t(Strings.size());
    Strings += S;
    Strings += '\0';
    return Off;
  };
  auto elfSection = [&](uint32_t Sec) -> uint16_t {
    return Sec == SecUndef    ? uint16_t(elf::SHN_UNDEF)
           : Sec == SecAbs    ? uint16_t(elf::SHN_ABS)
           : Sec == SecCommon ? uint16_t(elf::SHN_COMMON)
                              : uint16_t(Sec + 1);
  };

  for (uint32_t I = 0; I < NModel; ++I) {
    const ObjSection &S = O.sections[I];
    OutSection Sec{S.name,  S.type,      S.flags | (InGroup[I] ? SHF_GROUP : 0), S.addralign, S.entsize, S.link, S.info,
                   S.bytes, S.byteSize()};
    if (S.type == elf::SHT_GROUP) {
      Sec.content.clear();
      put<uint32_t>(Sec.content, S.groupFlags);
      for (uint32_t M : S.groupMembers) {
        put<uint32_t>(Sec.content, M + 1);
        if (RelaOf[M])
          put<uint32_t>(Sec.content, RelaOf[M]);
      }
      Sec.link = Symtab;
      Sec.info = SymIndex[S.groupSignature];
      Sec.entsize = 4;
    } else if (S.type == SHT_LLVM_ADDRSIG) {
      Sec.content.clear();
      for (uint32_t Sym : S.addrsig)
        for (uint64_t V = SymIndex[Sym];;) {
          uint8_t B = V & 0x7f;
          V >>= 7;
          Sec.content.push_back(char(B | (V ? 0x80 : 0)));
          if (!V)
            break;
        }
      Sec.link = Symtab;
    }
    if (S.type != elf::SHT_NOBITS)
      Sec.size = Sec.content.size();
    Out.push_back(std::move(Sec));
  }
  for (uint32_t I = 0; I < NModel; ++I) {
    if (!RelaOf[I])
      continue;
    OutSection R{".rela" + O.sections[I].name,
                 elf::SHT_RELA,
                 SHF_INFO_LINK | (InGroup[I] ? SHF_GROUP : 0),
                 8,
                 24,
                 Symtab,
                 I + 1,
                 {},
                 0};
    for (const ObjReloc &E : O.sections[I].relocs) {
      put<uint64_t>(R.content, E.offset);
      put<uint64_t>(R.content, (uint64_t(SymIndex[E.symbol]) << 32) | E.type);
      put<int64_t>(R.content, E.addend);
    }
    R.size = R.content.size();
    Out.push_back(std::move(R));
  }
  OutSection Sym{".symtab", elf::SHT_SYMTAB, 0, 8, 24, Strtab, FirstGlobal, {}, 0};
  put<uint64_t>(Sym.content, 0);
  put<uint64_t>(Sym.content, 0);
  put<uint64_t>(Sym.content, 0);
  for (size_t K = 1; K < Order.size(); ++K) {
    const ObjSymbol &S = O.symbols[Order[K]];
    put<uint32_t>(Sym.content, addString(S.name));
    Sym.content.push_back(char((S.bind << 4) | (S.type & 0xf)));
    Sym.content.push_back(char(S.visibility));
    put<uint16_t>(Sym.content, elfSection(S.section));
    put<uint64_t>(Sym.content, S.value);
    put<uint64_t>(Sym.content, S.size);
  }
  Sym.size = Sym.content.size();
  Out.push_back(std::move(Sym));
  // One string table for symbol and section names, as LLVM writes it.
  std::vector<uint32_t> NameOffsets;
  for (auto &S : Out)
    NameOffsets.push_back(addString(S.name));
  NameOffsets.push_back(addString(".strtab"));
  Out.push_back({".strtab", elf::SHT_STRTAB, 0, 1, 0, 0, 0, std::vector<char>(Strings.begin(), Strings.end()), 0});
  Out.back().size = Out.back().content.size();

  std::vector<char> File(64, 0);
  std::vector<uint64_t> Offsets;
  for (auto &S : Out) {
    alignTo(File, S.align);
    Offsets.push_back(File.size());
    File.insert(File.end(), S.content.begin(), S.content.end());
  }
  alignTo(File, 8);
  uint64_t ShOff = File.size();
  File.resize(File.size() + 64, 0); // the null section header
  for (size_t K = 0; K < Out.size(); ++K) {
    const OutSection &S = Out[K];
    put<uint32_t>(File, NameOffsets[K]);
    put<uint32_t>(File, S.type);
    put<uint64_t>(File, S.flags);
    put<uint64_t>(File, 0);
    put<uint64_t>(File, Offsets[K]);
    put<uint64_t>(File, S.size);
    put<uint32_t>(File, S.link);
    put<uint32_t>(File, S.info);
    put<uint64_t>(File, S.align);
    put<uint64_t>(File, S.entsize);
  }
  std::vector<char> H;
  const char Ident[16] = {0x7f, 'E', 'L', 'F', 2 /*64-bit*/, 1 /*LE*/, 1 /*version*/};
  H.insert(H.end(), Ident, Ident + 16);
  put<uint16_t>(H, elf::ET_REL);
  put<uint16_t>(H, O.machine);
  put<uint32_t>(H, 1);
  put<uint64_t>(H, 0); // entry
  put<uint64_t>(H, 0); // phoff
  put<uint64_t>(H, ShOff);
  put<uint32_t>(H, O.eflags);
  put<uint16_t>(H, 64);
  put<uint16_t>(H, 0);
  put<uint16_t>(H, 0);
  put<uint16_t>(H, 64);
  put<uint16_t>(H, uint16_t(Out.size() + 1));
  put<uint16_t>(H, uint16_t(Out.size())); // .strtab, the last, also names the sections
  std::memcpy(File.data(), H.data(), 64);
  return File;
}

} // namespace linklab::repro
