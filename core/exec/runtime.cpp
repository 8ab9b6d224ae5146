#include "exec/runtime.h"

#include <fstream>
#include <sys/stat.h>

namespace linklab::exec {

namespace {
// musl for x86-64: its crt1.o `_start` -> __libc_start_main sets up libc,
// runs .init_array (through the __init_array_* symbols the session defines),
// main, and exit (which flushes stdio). Its host interface is the Linux
// system calls the executor implements. crti.o/crtn.o are not linked: they
// only bracket a static link's concatenated .init/.fini, which a per-object
// JIT link has no equivalent of, and musl's _init/_fini are weak no-ops.
//
// picolibc for AArch64 and RISC-V (rv64imafdc/lp64d): its host interface is
// semihosting (libsemihost.a), which the executor implements. Its crt0 is
// bare-metal (sets up its own stack, MMU/exception vectors on AArch64), so
// main is called directly after the session runs the constructors and
// installs the TLS image (errno is thread-local there); exit() afterwards
// runs atexit handlers and .fini_array. picolibc leaves compiler support
// routines (128-bit shifts in printf, soft-float helpers) to libgcc, taken
// from Debian's libgcc-12-dev-<arch>-cross (rv64gc/lp64d for RISC-V).
#define PICOLIBC_A64 "/usr/lib/picolibc/aarch64-linux-gnu/lib/"
#define PICOLIBC_RV64 "/usr/lib/picolibc/riscv64-unknown-elf/lib/release/rv64imafdc/lp64d/"
//
// glibc (-runtime=glibc; issue 11 makes it the default): Debian's static glibc
// for each triple, as `g++ -static` links it: libstdc++.a, libc.a with
// libm.a (as -lm), libgcc.a and libgcc_eh.a (compiler support and the
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
    {Arch::X86_64, "musl", "musl (Debian musl-dev)", {{"libc.a", "/usr/lib/x86_64-linux-musl/libc.a"}},
     {"crt1.o", "/usr/lib/x86_64-linux-musl/crt1.o"}, "_start", 5 /* rdi */,
     "--target=x86_64-linux-gnu -nostdlibinc -isystem /usr/include/x86_64-linux-musl"},
    {Arch::AArch64, "picolibc", "picolibc (Debian picolibc-aarch64-linux-gnu)",
     {{"libc.a", PICOLIBC_A64 "libc.a"},
      {"libsemihost.a", PICOLIBC_A64 "libsemihost.a"},
      {"libm.a", PICOLIBC_A64 "libm.a"},
      {"libgcc.a", "/usr/lib/gcc-cross/aarch64-linux-gnu/12/libgcc.a"}},
     {nullptr, nullptr}, nullptr, 0 /* x0 */,
     "--target=aarch64-linux-gnu -nostdlibinc -isystem /usr/lib/picolibc/aarch64-linux-gnu/include"},
    {Arch::RISCV64, "picolibc", "picolibc (Debian picolibc-riscv64-unknown-elf)",
     {{"libc.a", PICOLIBC_RV64 "libc.a"},
      {"libsemihost.a", PICOLIBC_RV64 "libsemihost.a"},
      {"libm.a", PICOLIBC_RV64 "libm.a"},
      {"libgcc.a", "/usr/lib/gcc-cross/riscv64-linux-gnu/12/libgcc.a"}},
     {nullptr, nullptr}, nullptr, 10 /* a0 */,
     "--target=riscv64-linux-gnu -march=rv64gc -mabi=lp64d -nostdlibinc -isystem /usr/lib/picolibc/riscv64-unknown-elf/include"},
    {Arch::X86_64, "glibc", "glibc (Debian libc6-dev)",
     {{"libstdc++.a", GCC_X86 "libstdc++.a"},
      {"libm.a", GLIBC_X86 "libm-2.36.a"}, // libm.a is a linker script naming it
      {"libc.a", GLIBC_X86 "libc.a"},
      {"libgcc.a", GCC_X86 "libgcc.a"},
      {"libgcc_eh.a", GCC_X86 "libgcc_eh.a"}},
     {"crt1.o", GLIBC_X86 "crt1.o"}, "_start", 5 /* rdi */, "--target=x86_64-linux-gnu",
     "__register_frame_info"},
    {Arch::AArch64, "glibc", "glibc (Debian libc6-dev-arm64-cross)",
     {{"libstdc++.a", CROSS_GCC("aarch64-linux-gnu", "libstdc++.a")},
      {"libm.a", CROSS("aarch64-linux-gnu", "libm.a")},
      {"libc.a", CROSS("aarch64-linux-gnu", "libc.a")},
      {"libgcc.a", CROSS_GCC("aarch64-linux-gnu", "libgcc.a")},
      {"libgcc_eh.a", CROSS_GCC("aarch64-linux-gnu", "libgcc_eh.a")}},
     {"crt1.o", CROSS("aarch64-linux-gnu", "crt1.o")}, "_start", 0 /* x0 */, "--target=aarch64-linux-gnu",
     "__register_frame_info"},
    {Arch::RISCV64, "glibc", "glibc (Debian libc6-dev-riscv64-cross)",
     {{"libstdc++.a", CROSS_GCC("riscv64-linux-gnu", "libstdc++.a")},
      {"libm.a", CROSS("riscv64-linux-gnu", "libm.a")},
      {"libc.a", CROSS("riscv64-linux-gnu", "libc.a")},
      {"libgcc.a", CROSS_GCC("riscv64-linux-gnu", "libgcc.a")},
      {"libgcc_eh.a", CROSS_GCC("riscv64-linux-gnu", "libgcc_eh.a")}},
     {"crt1.o", CROSS("riscv64-linux-gnu", "crt1.o")}, "_start", 10 /* a0 */,
     "--target=riscv64-linux-gnu -march=rv64gc -mabi=lp64d", "__register_frame_info"},
};
#undef PICOLIBC_A64
#undef PICOLIBC_RV64
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

Expected<FileBytes> readFileBytes(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary | std::ios::ate);
  if (!In)
    return makeError(formatv("%s: cannot open file", Path.c_str()));
  auto Bytes = std::make_shared<std::vector<char>>(size_t(In.tellg()));
  In.seekg(0);
  if (!In.read(Bytes->data(), std::streamsize(Bytes->size())))
    return makeError(formatv("%s: read error", Path.c_str()));
  return FileBytes(std::move(Bytes));
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
    auto Bytes = readFileBytes(F.path);
    if (!Bytes)
      return Bytes.takeError();
    Out[F.name] = std::move(*Bytes);
  }
  return Out;
}

} // namespace linklab::exec
