// The yaml2obj form: exact for any object the reader takes (numbers where
// yaml2obj has no name), used when the assembly form cannot say something.
#include "repro/object_text.h"

#include "elf/elf_file.h"
#include "target/target.h"

#include <map>

namespace linklab::repro {

namespace {

const char *machineName(uint16_t M) {
  switch (M) {
  case elf::EM_X86_64: return "EM_X86_64";
  case elf::EM_AARCH64: return "EM_AARCH64";
  case elf::EM_RISCV: return "EM_RISCV";
  }
  return nullptr;
}

// yaml2obj spells flag words as lists of names.
std::string flagList(uint64_t V, std::initializer_list<std::pair<uint64_t, const char *>> Names) {
  std::string Out;
  for (auto &[Bit, Name] : Names)
    if ((V & Bit) == Bit && Bit) {
      Out += std::string(Out.empty() ? "" : ", ") + Name;
      V &= ~Bit;
    }
  return V ? std::string() : "[ " + Out + " ]";
}

std::string sectionFlags(uint64_t F) {
  return flagList(F, {{0x1, "SHF_WRITE"},
                      {0x2, "SHF_ALLOC"},
                      {0x4, "SHF_EXECINSTR"},
                      {0x10, "SHF_MERGE"},
                      {0x20, "SHF_STRINGS"},
                      {0x40, "SHF_INFO_LINK"},
                      {0x80, "SHF_LINK_ORDER"},
                      {0x200, "SHF_GROUP"},
                      {0x400, "SHF_TLS"},
                      {0x200000, "SHF_GNU_RETAIN"},
                      {0x80000000, "SHF_EXCLUDE"}});
}

std::string hexBytes(const std::vector<char> &B) {
  std::string Out;
  for (char C : B)
    Out += formatv("%02X", unsigned(uint8_t(C)));
  return Out;
}

// yaml2obj tells same-named sections and symbols apart by a " (N)" suffix,
// which it drops (ELFYAML::dropUniqueSuffix); it refuses repeated names.
std::vector<std::string> uniqueSectionNames(const ElfObject &O) {
  std::map<std::string, int> Count, Seen;
  for (auto &S : O.sections)
    ++Count[S.name];
  std::vector<std::string> Out;
  for (auto &S : O.sections) {
    int N = Seen[S.name]++;
    Out.push_back(Count[S.name] > 1 && N ? formatv("%s (%d)", S.name.c_str(), N) : S.name);
  }
  return Out;
}

std::string yamlString(const std::string &S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("''") : std::string(1, C);
  return Out + "'";
}

} // namespace

std::string writeYaml(const ElfObject &O) {
  const TargetInfo *T = elfTarget(O.machine);
  auto Names = uniqueSectionNames(O);
  std::string Y = "--- !ELF\nFileHeader:\n  Class: ELFCLASS64\n  Data: ELFDATA2LSB\n  Type: ET_REL\n";
  const char *M = machineName(O.machine);
  Y += M ? formatv("  Machine: %s\n", M) : formatv("  Machine: 0x%x\n", O.machine);
  if (O.eflags) {
    // RISC-V: RVC, then the float ABI as one two-bit field.
    static const char *Abis[] = {"", "EF_RISCV_FLOAT_ABI_SINGLE", "EF_RISCV_FLOAT_ABI_DOUBLE",
                                 "EF_RISCV_FLOAT_ABI_QUAD"};
    std::string F;
    if (O.machine == elf::EM_RISCV && !(O.eflags & ~0x1fu)) {
      F = O.eflags & 1 ? "EF_RISCV_RVC" : "";
      for (auto [Bit, Name] : {std::pair{0x8u, "EF_RISCV_RVE"}, {0x10u, "EF_RISCV_TSO"}})
        if (O.eflags & Bit)
          F += std::string(F.empty() ? "" : ", ") + Name;
      if ((O.eflags >> 1) & 3)
        F += std::string(F.empty() ? "" : ", ") + Abis[(O.eflags >> 1) & 3];
    }
    Y += "  Flags: [ " + F + " ]\n";
  }
  Y += "Sections:\n";
  // Symbol indices: yaml2obj lists locals first, as the writer does.
  std::vector<uint32_t> Order, YamlIndex(O.symbols.size(), 0);
  for (int Pass = 0; Pass < 2; ++Pass)
    for (uint32_t I = 1; I < O.symbols.size(); ++I)
      if ((O.symbols[I].bind == elf::STB_LOCAL) == (Pass == 0)) {
        YamlIndex[I] = uint32_t(Order.size() + 1);
        Order.push_back(I);
      }
  for (size_t SI = 0; SI < O.sections.size(); ++SI) {
    const ObjSection &S = O.sections[SI];
    Y += "  - Name: " + yamlString(Names[SI]) + "\n";
    Y += formatv("    Type: 0x%x\n", S.type);
    if (std::string F = sectionFlags(S.flags); !F.empty())
      Y += "    Flags: " + F + "\n";
    else if (S.flags) // bits yaml2obj has no name for
      Y += formatv("    ShFlags: 0x%llx\n", (unsigned long long)S.flags);
    Y += formatv("    AddressAlign: 0x%llx\n", (unsigned long long)S.addralign);
    if (S.entsize)
      Y += formatv("    EntSize: 0x%llx\n", (unsigned long long)S.entsize);
    if (S.type == elf::SHT_GROUP) {
      const std::string &Sig = O.symbols[S.groupSignature].name;
      Y += "    Info: " + (Sig.empty() ? std::to_string(YamlIndex[S.groupSignature]) : yamlString(Sig)) +
           "\n    Members:\n";
      Y += formatv("      - SectionOrType: 0x%x\n", S.groupFlags);
      for (uint32_t Mem : S.groupMembers)
        Y += "      - SectionOrType: " + yamlString(Names[Mem]) + "\n";
    } else if (S.type == SHT_LLVM_ADDRSIG) {
      // Symbol indices as plain scalars (yaml2obj reads no "Index:" key here).
      Y += S.addrsig.empty() ? "    Symbols: []\n" : "    Symbols:\n";
      for (uint32_t I : S.addrsig)
        Y += "      - " + std::to_string(YamlIndex[I]) + "\n";
    } else if (S.type == elf::SHT_NOBITS)
      Y += formatv("    Size: 0x%llx\n", (unsigned long long)S.size);
    else
      Y += "    Content: '" + hexBytes(S.bytes) + "'\n";
  }
  for (size_t SI = 0; SI < O.sections.size(); ++SI) {
    const ObjSection &S = O.sections[SI];
    if (S.relocs.empty())
      continue;
    Y += "  - Name: " + yamlString(".rela" + Names[SI]) + "\n    Type: SHT_RELA\n    Flags: [ SHF_INFO_LINK ]\n";
    Y += "    Link: .symtab\n    AddressAlign: 0x8\n    Info: " + yamlString(Names[SI]) + "\n    Relocations:\n";
    for (const ObjReloc &R : S.relocs) {
      const char *TN = T && T->relocationName ? T->relocationName(R.type) : nullptr;
      Y += formatv("      - Offset: 0x%llx\n", (unsigned long long)R.offset);
      if (R.symbol)
        Y += "        Symbol: " + std::to_string(YamlIndex[R.symbol]) + "\n";
      Y += TN ? formatv("        Type: %s\n", TN) : formatv("        Type: 0x%x\n", R.type);
      if (R.addend)
        Y += formatv("        Addend: %lld\n", (long long)R.addend);
    }
  }
  Y += "Symbols:\n";
  std::map<std::string, int> SymbolSeen;
  for (uint32_t I : Order) {
    const ObjSymbol &S = O.symbols[I];
    int N = S.name.empty() ? 0 : SymbolSeen[S.name]++;
    Y += "  - Name: " + yamlString(N ? formatv("%s (%d)", S.name.c_str(), N) : S.name) + "\n";
    Y += formatv("    Type: 0x%x\n", S.type);
    if (S.section == SecAbs)
      Y += "    Index: SHN_ABS\n";
    else if (S.section == SecCommon)
      Y += "    Index: SHN_COMMON\n";
    else if (S.section != SecUndef)
      Y += "    Section: " + yamlString(Names[S.section]) + "\n";
    Y += formatv("    Binding: 0x%x\n", S.bind);
    if (S.value)
      Y += formatv("    Value: 0x%llx\n", (unsigned long long)S.value);
    if (S.size)
      Y += formatv("    Size: 0x%llx\n", (unsigned long long)S.size);
    if (S.visibility)
      Y += std::string("    Other: [ ") +
           (S.visibility == 1   ? "STV_INTERNAL"
            : S.visibility == 2 ? "STV_HIDDEN"
                                : "STV_PROTECTED") +
           " ]\n";
  }
  return Y + "...\n";
}

} // namespace linklab::repro
