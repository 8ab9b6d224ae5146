#include "repro/object_text.h"

#include "elf/elf_file.h"
#include "target/target.h"

#include <map>
#include <set>

namespace linklab::repro {

namespace {

constexpr uint32_t SHT_NOTE = 7, SHT_X86_64_UNWIND = 0x70000001, SHT_RISCV_ATTRIBUTES = 0x70000003;
constexpr uint64_t SHF_EXCLUDE = 0x80000000, SHF_GNU_RETAIN = 0x200000;

bool plainName(const std::string &N) {
  for (char C : N)
    if (!(isalnum(uint8_t(C)) || C == '_' || C == '.' || C == '$'))
      return false;
  return !N.empty() && !isdigit(uint8_t(N[0]));
}
std::string quoted(const std::string &N) { return plainName(N) ? N : "\"" + N + "\""; }

// AArch64 and RISC-V mark code and data with $x / $d symbols; llvm-mc makes
// its own from the directives used.
bool isMappingSymbol(uint16_t Machine, const ObjSymbol &S) {
  if (Machine != elf::EM_AARCH64 && Machine != elf::EM_RISCV)
    return false;
  const std::string &N = S.name;
  return S.bind == elf::STB_LOCAL && N.size() >= 2 && N[0] == '$' && (N[1] == 'x' || N[1] == 'd') &&
         (N.size() == 2 || N[2] == '.');
}

const char *typeSpelling(uint16_t Machine, uint32_t Type) {
  switch (Type) {
  case elf::SHT_PROGBITS: return "@progbits";
  case elf::SHT_NOBITS: return "@nobits";
  case SHT_NOTE: return "@note";
  case elf::SHT_INIT_ARRAY: return "@init_array";
  case elf::SHT_FINI_ARRAY: return "@fini_array";
  case elf::SHT_PREINIT_ARRAY: return "@preinit_array";
  case SHT_X86_64_UNWIND: return Machine == elf::EM_X86_64 ? "@unwind" : nullptr;
  case SHT_RISCV_ATTRIBUTES: return Machine == elf::EM_RISCV ? "@0x70000003" : nullptr;
  }
  return nullptr;
}

Expected<std::string> flagLetters(const ObjSection &S) {
  static const struct {
    uint64_t flag;
    char letter;
  } Letters[] = {{elf::SHF_ALLOC, 'a'},   {elf::SHF_WRITE, 'w'}, {elf::SHF_EXECINSTR, 'x'}, {elf::SHF_MERGE, 'M'},
                 {elf::SHF_STRINGS, 'S'}, {elf::SHF_TLS, 'T'},   {SHF_EXCLUDE, 'e'},        {SHF_GNU_RETAIN, 'R'}};
  std::string Out;
  uint64_t Left = S.flags;
  for (auto &L : Letters)
    if (Left & L.flag) {
      Out += L.letter;
      Left &= ~L.flag;
    }
  if (Left)
    return makeError(formatv("section %s: flags %s have no assembler spelling", S.name.c_str(), hex(Left).c_str()));
  return Out;
}

std::string addendText(int64_t V) { // "+0x10" or "-0x10", as an assembler operand
  return V < 0 ? "-" + hex(uint64_t(0) - uint64_t(V)) : "+" + hex(uint64_t(V));
}

} // namespace

ElfObject withAssemblyNames(ElfObject O, const Assembly &A) {
  for (auto &[I, Name] : A.renamed)
    O.symbols[I].name = Name;
  return O;
}

Expected<Assembly> writeAssembly(const ElfObject &O) {
  auto Fail = [&](const std::string &Why) { return makeError(O.name + ": cannot be written as assembly: " + Why); };
  const TargetInfo *T = elfTarget(O.machine);
  if (!T || !T->relocationName)
    return Fail(formatv("machine %u is not supported", O.machine));
  Assembly A;
  switch (O.machine) {
  case elf::EM_X86_64:
    A.mcFlags = "-triple=x86_64-unknown-linux-gnu";
    if (O.eflags)
      return Fail("e_flags " + hex(O.eflags) + " on x86-64");
    break;
  case elf::EM_AARCH64:
    A.mcFlags = "-triple=aarch64-unknown-linux-gnu";
    if (O.eflags)
      return Fail("e_flags " + hex(O.eflags) + " on AArch64");
    break;
  case elf::EM_RISCV: {
    // EF_RISCV_RVC comes from the C extension, the float ABI from -target-abi.
    static const char *Abis[] = {"lp64", "lp64f", "lp64d", "lp64q"};
    if (O.eflags & ~0x7u)
      return Fail("e_flags " + hex(O.eflags) + " on RISC-V");
    A.mcFlags = formatv("-triple=riscv64-unknown-linux-gnu -mattr=%s -target-abi=%s", O.eflags & 1 ? "+c,+d" : "+d",
                        Abis[(O.eflags >> 1) & 3]);
    break;
  }
  }

  // Names must be unique and survive assembly. A local name used more than
  // once (RISC-V's relaxation labels, which clang-22 names ".L0 " each) is
  // made unique by the symbol's index ("<name>$<index>"): locals link by
  // index, not name, and A.renamed lets the caller compare graphs.
  std::map<std::string, std::vector<uint32_t>> ByName;
  for (uint32_t I = 1; I < O.symbols.size(); ++I)
    if (const ObjSymbol &S = O.symbols[I];
        S.type != elf::STT_SECTION && S.type != elf::STT_FILE && !isMappingSymbol(O.machine, S) && !S.name.empty())
      ByName[S.name].push_back(I);
  std::vector<std::string> Names(O.symbols.size());
  for (uint32_t I = 0; I < O.symbols.size(); ++I)
    Names[I] = O.symbols[I].name;
  for (auto &[Name, Uses] : ByName) {
    if (Uses.size() < 2)
      continue;
    for (uint32_t I : Uses)
      if (O.symbols[I].bind != elf::STB_LOCAL)
        return Fail("symbol name " + Name + " is used twice");
    for (uint32_t I : Uses) {
      std::string New = Name + "$" + std::to_string(I);
      if (ByName.count(New))
        return Fail("symbol name " + Name + " is used twice, and " + New + " is taken");
      Names[I] = New;
      A.renamed.push_back({I, New});
    }
  }
  std::set<std::string> Seen;
  std::map<uint32_t, std::vector<uint32_t>> SymbolsBySection;
  int Files = 0;
  for (uint32_t I = 1; I < O.symbols.size(); ++I) {
    const ObjSymbol &S = O.symbols[I];
    if (S.type == elf::STT_SECTION)
      continue;
    if (S.type == elf::STT_FILE) {
      if (++Files > 1)
        return Fail("more than one STT_FILE symbol");
      continue;
    }
    if (isMappingSymbol(O.machine, S))
      continue;
    if (S.name.empty())
      return Fail(formatv("symbol %u has no name", I));
    if (!Seen.insert(Names[I]).second)
      return Fail("symbol name " + Names[I] + " is used twice");
    if (S.bind == elf::STB_LOCAL && S.section == SecCommon)
      return Fail("local common symbol " + S.name);
    if (S.defined() && S.section < O.sections.size())
      SymbolsBySection[S.section].push_back(I);
  }
  std::map<std::string, int> NameCount;
  for (auto &S : O.sections)
    ++NameCount[S.name];
  std::map<uint32_t, const ObjSection *> GroupOf;
  for (auto &S : O.sections)
    for (uint32_t M : S.groupMembers)
      GroupOf[M] = &S;

  std::string &Out = A.text;
  auto symbolHeader = [&](uint32_t I) {
    static const char *Types[] = {nullptr, "@object", "@function", nullptr, nullptr, nullptr, "@tls_object"};
    const ObjSymbol &S = O.symbols[I];
    std::string N = quoted(Names[I]);
    if (S.bind == elf::STB_GLOBAL)
      Out += "  .globl " + N + "\n";
    else if (S.bind == elf::STB_WEAK)
      Out += "  .weak " + N + "\n";
    if (S.bind == elf::STB_GNU_UNIQUE)
      Out += "  .type " + N + ",@gnu_unique_object\n";
    else if (S.type == elf::STT_GNU_IFUNC)
      Out += "  .type " + N + ",@gnu_indirect_function\n";
    else if (S.type < 7 && Types[S.type])
      Out += "  .type " + N + "," + Types[S.type] + "\n";
    static const char *Vis[] = {nullptr, ".internal", ".hidden", ".protected"};
    if (S.visibility)
      Out += std::string("  ") + Vis[S.visibility] + " " + N + "\n";
  };
  for (uint32_t I = 1; I < O.symbols.size(); ++I) {
    const ObjSymbol &S = O.symbols[I];
    if (S.type == elf::STT_FILE)
      Out += "  .file \"" + S.name + "\"\n";
  }
  if (O.machine == elf::EM_RISCV)
    Out += "  .option norelax\n"; // section alignment without R_RISCV_ALIGN padding

  for (uint32_t SI = 0; SI < O.sections.size(); ++SI) {
    const ObjSection &S = O.sections[SI];
    if (S.type == elf::SHT_GROUP || S.type == SHT_LLVM_ADDRSIG)
      continue; // spelled by the members' G flag and by .addrsig below
    const char *Type = typeSpelling(O.machine, S.type);
    if (!Type)
      return Fail(formatv("section %s has type %s", S.name.c_str(), hex(S.type).c_str()));
    auto Flags = flagLetters(S);
    if (!Flags)
      return Fail(Flags.takeError().message());
    std::string Head = "  .section " + quoted(S.name) + ",\"" + *Flags;
    auto G = GroupOf.find(SI);
    if (G != GroupOf.end())
      Head += "G";
    Head += std::string("\",") + Type;
    if (S.flags & elf::SHF_MERGE)
      Head += formatv(",%llu", (unsigned long long)S.entsize);
    else if (S.entsize)
      return Fail(formatv("section %s has an entry size but is not mergeable", S.name.c_str()));
    if (G != GroupOf.end())
      Head += "," + quoted(Names[G->second->groupSignature]) + (G->second->groupFlags & 1 ? ",comdat" : "");
    if (NameCount[S.name] > 1)
      Head += formatv(",unique,%u", SI);
    Out += Head + "\n";
    if (S.addralign > 1) {
      if (S.addralign & (S.addralign - 1))
        return Fail(formatv("section %s: alignment %llu", S.name.c_str(), (unsigned long long)S.addralign));
      Out += formatv("  .p2align %d\n", __builtin_ctzll(S.addralign));
    }

    // Walk the section: labels at their offsets, bytes between them.
    std::multimap<uint64_t, uint32_t> Labels;
    std::map<uint64_t, bool> CodeFrom; // mapping symbols: offset -> code?
    for (uint32_t I : SymbolsBySection[SI])
      Labels.emplace(O.symbols[I].value, I);
    for (uint32_t I = 1; I < O.symbols.size(); ++I)
      if (O.symbols[I].section == SI && isMappingSymbol(O.machine, O.symbols[I]))
        CodeFrom[O.symbols[I].value] = O.symbols[I].name[1] == 'x';
    const uint64_t Size = S.byteSize();
    for (auto &[Off, I] : Labels)
      if (Off > Size)
        return Fail(formatv("symbol %s lies past the end of %s", O.symbols[I].name.c_str(), S.name.c_str()));
    bool Code = false;
    uint64_t Off = 0;
    auto Next = Labels.begin();
    while (true) {
      for (; Next != Labels.end() && Next->first == Off; ++Next) {
        const ObjSymbol &Sym = O.symbols[Next->second];
        symbolHeader(Next->second);
        Out += quoted(Names[Next->second]) + ":\n";
        if (Sym.size)
          Out += formatv("  .size %s, %llu\n", quoted(Names[Next->second]).c_str(), (unsigned long long)Sym.size);
      }
      if (Off >= Size)
        break;
      if (auto M = CodeFrom.find(Off); M != CodeFrom.end())
        Code = M->second;
      uint64_t End = Next == Labels.end() ? Size : Next->first;
      if (auto M = CodeFrom.upper_bound(Off); M != CodeFrom.end() && M->first < End)
        End = M->first;
      if (S.type == elf::SHT_NOBITS) {
        Out += formatv("  .zero %llu\n", (unsigned long long)(End - Off));
        Off = End;
        continue;
      }
      auto byteAt = [&](uint64_t K) { return uint32_t(uint8_t(S.bytes[K])); };
      auto word = [&](uint64_t K, unsigned N) {
        uint32_t W = 0;
        for (unsigned B = 0; B < N; ++B)
          W |= byteAt(K + B) << (8 * B);
        return W;
      };
      while (Off < End) {
        if (Code && O.machine == elf::EM_AARCH64 && Off % 4 == 0 && End - Off >= 4) {
          Out += formatv("  .inst 0x%08x\n", word(Off, 4));
          Off += 4;
          continue;
        }
        if (Code && O.machine == elf::EM_RISCV && Off % 2 == 0) {
          unsigned Len = (byteAt(Off) & 3) == 3 ? 4 : 2;
          if (End - Off >= Len) {
            Out += formatv(Len == 4 ? "  .insn 4, 0x%08x\n" : "  .insn 2, 0x%04x\n", word(Off, Len));
            Off += Len;
            continue;
          }
        }
        // Data, up to 16 bytes a line, never past a code word boundary.
        uint64_t Stop = std::min(End, Off + 16);
        if (Code && O.machine != elf::EM_X86_64)
          Stop = Off + 1;
        std::string Line = "  .byte ";
        for (uint64_t K = Off; K < Stop; ++K)
          Line += formatv(K == Off ? "0x%02x" : ",0x%02x", byteAt(K));
        Out += Line + "\n";
        Off = Stop;
      }
    }
    for (const ObjReloc &R : S.relocs) {
      const char *Name = T->relocationName(R.type);
      if (!Name)
        return Fail(
            formatv("section %s+%s: relocation type %u has no name", S.name.c_str(), hex(R.offset).c_str(), R.type));
      std::string Expr;
      if (R.symbol == 0)
        Expr = formatv("%lld", (long long)R.addend);
      else {
        if (R.symbol >= O.symbols.size())
          return Fail(formatv("section %s: relocation symbol %u is out of range", S.name.c_str(), R.symbol));
        const ObjSymbol &Sym = O.symbols[R.symbol];
        if (Sym.type == elf::STT_SECTION) {
          if (Sym.section >= O.sections.size() || NameCount[O.sections[Sym.section].name] > 1)
            return Fail("a relocation against an ambiguous section symbol");
          Expr = quoted(O.sections[Sym.section].name);
        } else if (isMappingSymbol(O.machine, Sym) || Sym.name.empty())
          return Fail("a relocation against an unnamed or mapping symbol");
        else
          Expr = quoted(Names[R.symbol]);
        if (R.addend)
          Expr += addendText(R.addend);
      }
      Out += formatv("  .reloc %s, %s, %s\n", hex(R.offset).c_str(), Name, Expr.c_str());
    }
  }

  // Symbols outside sections: absolute, common, undefined.
  for (uint32_t I = 1; I < O.symbols.size(); ++I) {
    const ObjSymbol &S = O.symbols[I];
    if (S.type == elf::STT_SECTION || S.type == elf::STT_FILE || (S.defined() && S.section < O.sections.size()))
      continue;
    std::string N = quoted(Names[I]);
    if (S.section == SecCommon) {
      symbolHeader(I);
      Out += formatv("  .comm %s, %llu, %llu\n", N.c_str(), (unsigned long long)S.size, (unsigned long long)S.value);
    } else if (S.section == SecAbs) {
      symbolHeader(I);
      Out += formatv("  .set %s, %s\n", N.c_str(), hex(S.value).c_str());
      if (S.size)
        Out += formatv("  .size %s, %llu\n", N.c_str(), (unsigned long long)S.size);
    } else {
      if (S.bind == elf::STB_LOCAL)
        return Fail("undefined local symbol " + S.name);
      symbolHeader(I);
    }
  }
  for (auto &S : O.sections)
    if (S.type == SHT_LLVM_ADDRSIG) {
      Out += "  .addrsig\n";
      for (uint32_t I : S.addrsig)
        if (I && O.symbols[I].type != elf::STT_SECTION)
          Out += "  .addrsig_sym " + quoted(Names[I]) + "\n";
    }
  return A;
}

} // namespace linklab::repro
