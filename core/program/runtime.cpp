#include "program/runtime.h"

#include "arch/arm.h"
#include "elf/elf_file.h"
#include "target/target.h"

#include <sys/stat.h>

namespace linklab::exec {

namespace {
// glibc on every triple (issue 11): Debian's static glibc, as
// `g++ -static` links it, so objects compiled the ordinary way for the
// triple (glibc's headers and their ABI: __errno_location, __ctype_b_loc)
// link and run unchanged: libstdc++.a, libc.a with
// libm.a (as -lm; it and libstdc++.a on demand: a C program needs
// neither, and a browser need not fetch them), libgcc.a and libgcc_eh.a (compiler support and the
// unwinder, which each graph's .eh_frame is registered with), entered
// through crt1.o's _start, which calls
// __libc_start_main: glibc sets up its own TLS (from the PT_TLS program
// header the executor provides), applies the IRELATIVE table
// (__rela_iplt_start/end), runs _init (the executor's no-op: crti.o/crtn.o
// only bracket a static link's concatenated .init) and the init arrays,
// then main and exit. Its host interface is the Linux system calls the
// executor implements.
#define GLIBC_X86 "/usr/lib/x86_64-linux-gnu/"
#define GCC_X86 "/usr/lib/gcc/x86_64-linux-gnu/12/"
#define CROSS(T, F) "/usr/" T "/lib/" F
#define CROSS_GCC(T, F) "/usr/lib/gcc-cross/" T "/12/" F
// The first row of an arch is its default.
const RuntimeSpec Runtimes[] = {
    {Arch::X86_64,
     "glibc",
     "glibc (Debian libc6-dev)",
     {{"libstdc++.a", GCC_X86 "libstdc++.a", true},
      {"libm.a", GLIBC_X86 "libm-2.36.a", true}, // libm.a is a linker script naming it
      {"libc.a", GLIBC_X86 "libc.a"},
      {"libgcc.a", GCC_X86 "libgcc.a"},
      {"libgcc_eh.a", GCC_X86 "libgcc_eh.a"}},
     {"crt1.o", GLIBC_X86 "crt1.o"},
     "_start",
     5 /* rdi */,
     "--target=x86_64-linux-gnu",
     "__register_frame_info"},
    {Arch::AArch64,
     "glibc",
     "glibc (Debian libc6-dev-arm64-cross)",
     {{"libstdc++.a", CROSS_GCC("aarch64-linux-gnu", "libstdc++.a"), true},
      {"libm.a", CROSS("aarch64-linux-gnu", "libm.a"), true},
      {"libc.a", CROSS("aarch64-linux-gnu", "libc.a")},
      {"libgcc.a", CROSS_GCC("aarch64-linux-gnu", "libgcc.a")},
      {"libgcc_eh.a", CROSS_GCC("aarch64-linux-gnu", "libgcc_eh.a")}},
     {"crt1.o", CROSS("aarch64-linux-gnu", "crt1.o")},
     "_start",
     0 /* x0 */,
     "--target=aarch64-linux-gnu",
     "__register_frame_info"},
    {Arch::RISCV64,
     "glibc",
     "glibc (Debian libc6-dev-riscv64-cross)",
     {{"libstdc++.a", CROSS_GCC("riscv64-linux-gnu", "libstdc++.a"), true},
      {"libm.a", CROSS("riscv64-linux-gnu", "libm.a"), true},
      {"libc.a", CROSS("riscv64-linux-gnu", "libc.a")},
      {"libgcc.a", CROSS_GCC("riscv64-linux-gnu", "libgcc.a")},
      {"libgcc_eh.a", CROSS_GCC("riscv64-linux-gnu", "libgcc_eh.a")}},
     {"crt1.o", CROSS("riscv64-linux-gnu", "crt1.o")},
     "_start",
     10 /* a0 */,
     "--target=riscv64-linux-gnu -march=rv64gc -mabi=lp64d",
     "__register_frame_info"},
    // glibc's i386 headers name <asm/...>, which only gcc-multilib puts on
    // the default path (and it conflicts with Debian's cross compilers): the
    // host's bi-arch copy is searched last. libstdc++ from lib32stdc++-12-dev.
    {Arch::I386,
     "glibc",
     "glibc (Debian libc6-dev-i386)",
     {{"libstdc++.a", GCC_X86 "32/libstdc++.a", true},
      {"libm.a", "/usr/lib32/libm.a", true},
      {"libc.a", "/usr/lib32/libc.a"},
      {"libgcc.a", GCC_X86 "32/libgcc.a"},
      {"libgcc_eh.a", GCC_X86 "32/libgcc_eh.a"}},
     {"crt1.o", "/usr/lib32/crt1.o"},
     "_start",
     RuntimeSpec::OnStack,
     "--target=i386-linux-gnu -idirafter /usr/include/x86_64-linux-gnu",
     "__register_frame_info"},
    // armhf (ARMv7-A, Thumb-2, VFPv3-D16, hard-float ABI), libstdc++ from
    // libstdc++-12-dev-armhf-cross. EHABI unwinding: no .eh_frame registry,
    // the unwinder reads the sorted index (link/arm_exidx.h). Its calls
    // within range go direct (arm.h).
    {Arch::Arm,
     "glibc",
     "glibc (Debian libc6-dev-armhf-cross)",
     {{"libstdc++.a", CROSS_GCC("arm-linux-gnueabihf", "libstdc++.a"), true},
      {"libm.a", CROSS("arm-linux-gnueabihf", "libm.a"), true},
      {"libc.a", CROSS("arm-linux-gnueabihf", "libc.a")},
      {"libgcc.a", CROSS_GCC("arm-linux-gnueabihf", "libgcc.a")},
      {"libgcc_eh.a", CROSS_GCC("arm-linux-gnueabihf", "libgcc_eh.a")}},
     {"crt1.o", CROSS("arm-linux-gnueabihf", "crt1.o")},
     "_start",
     0 /* r0 */,
     "--target=armv7a-linux-gnueabihf",
     nullptr,
     arm::addDirectBranches},
};
#undef GLIBC_X86
#undef GCC_X86
#undef CROSS
#undef CROSS_GCC
} // namespace

const RuntimeSpec *findRuntime(Arch A, std::string_view Name) {
  for (auto &R : Runtimes)
    if (R.arch == A && (Name == "default" || Name == R.name))
      return &R;
  return nullptr;
}

std::vector<RuntimeFile> RuntimeSpec::files() const {
  std::vector<RuntimeFile> Out = archives;
  if (startObject.name)
    Out.push_back(startObject);
  return Out;
}

Expected<RuntimeFiles> readRuntimeFiles(const RuntimeSpec &R) {
  RuntimeFiles Out;
  for (auto &F : R.files()) {
    struct stat St;
    if (stat(F.path, &St) != 0)
      return makeError(formatv("C runtime %s: %s is missing (install the package, or run with -runtime=none)",
                               R.description, F.path));
    auto Bytes = SharedBytes::readFile(F.path);
    if (!Bytes)
      return Bytes.takeError();
    Out[F.name] = std::move(*Bytes);
  }
  return Out;
}

Expected<RuntimeFiles> readRuntimeFiles(const RuntimeSpec &R,
                                        const std::vector<std::pair<std::string, SharedBytes>> &Objects) {
  auto All = readRuntimeFiles(R);
  if (!All)
    return All.takeError();
  std::map<std::string, Archive::Head> Heads;
  for (auto &F : R.files())
    if (F.onDemand) {
      auto H = Archive::readHead(F.path, (*All)[F.name].span()); // a whole file holds its head
      if (!H)
        return H.takeError();
      Heads[F.name] = std::move(*H);
    }
  RuntimeFiles Needed;
  for (auto &F : neededFiles(R, referencedNames(Objects), Heads))
    Needed[F.name] = (*All)[F.name];
  return Needed;
}

std::set<std::string, std::less<>> referencedNames(const std::vector<std::pair<std::string, SharedBytes>> &Objects) {
  std::set<std::string, std::less<>> Names;
  auto Add = [&](std::string Name, SharedBytes Bytes) {
    // An ELF object's undefined globals straight from its symbol table: a
    // graph built here would be built again by the link.
    if (isElf(Bytes.span())) {
      auto F = ElfFile::parse(std::move(Name), Bytes.span());
      if (!F)
        return consumeError(F.takeError()); // the link reports it
      for (size_t I = 1; I < F->symbolCount(); ++I) {
        ElfSymbol S = F->symbol(I);
        if (S.shndx == elf::SHN_UNDEF && S.bind != elf::STB_LOCAL && !S.name.empty())
          Names.insert(std::string(S.name));
      }
      return;
    }
    auto G = createLinkGraph(std::move(Name), std::move(Bytes));
    if (!G)
      return consumeError(G.takeError()); // an unreadable input names nothing here; the link reports it
    for (Symbol *Ext : (*G)->externalSymbols())
      Names.insert(std::string(Ext->name));
  };
  for (auto &O : Objects) {
    if (!O.second || !Archive::isArchive(O.second.span())) {
      if (O.second)
        Add(O.first, O.second);
      continue;
    }
    auto A = Archive::parse(O.first, O.second);
    if (A)
      for (size_t I = 0; I < A->members().size(); ++I)
        Add(A->memberObjectName(I), A->memberBytes(I));
  }
  return Names;
}

std::vector<RuntimeFile> neededFiles(const RuntimeSpec &R, const std::set<std::string, std::less<>> &Names,
                                     const std::map<std::string, Archive::Head> &Heads) {
  std::vector<RuntimeFile> Out;
  bool EarlierNeeded = false; // an archive before this one is linked: its members may reference this one
  for (auto &F : R.files()) {
    bool Needed = !F.onDemand || EarlierNeeded;
    if (!Needed) {
      auto It = Heads.find(F.name);
      Needed = It == Heads.end() || !It->second.complete ||
               std::any_of(It->second.names.begin(), It->second.names.end(),
                           [&](std::string_view N) { return Names.find(N) != Names.end(); });
    }
    if (Needed)
      Out.push_back(F);
    EarlierNeeded |= Needed && !(R.startObject.name && std::string_view(F.name) == R.startObject.name);
  }
  return Out;
}

} // namespace linklab::exec
