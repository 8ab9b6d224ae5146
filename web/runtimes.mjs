// The C runtime each architecture's programs link against, from Debian's
// packages (see scripts/install-deps.sh). One table serves the server (which
// hands the archives to the page) and the gallery build (which compiles
// against the matching headers). The linking itself happens in the page.
//
// x86-64 uses musl, entered through crt1's _start like a real process (musl
// sets up TLS and stdio in __libc_start_main). AArch64 and RISC-V use
// picolibc, whose libsemihost.a reaches the host through semihosting traps
// the executor serves; `main` is called directly (picolibc's crt0 is written
// for bare metal and touches system registers). libgcc supplies the compiler
// helpers clang's code calls there (__lshrti3, RISC-V __riscv_save_N).
const PICO_A64 = '/usr/lib/picolibc/aarch64-linux-gnu';
const PICO_RV = '/usr/lib/picolibc/riscv64-unknown-elf';
const PICO_RV_LIB = `${PICO_RV}/lib/rv64imafdc/lp64d`;

export const RUNTIMES = {
  x86_64: {
    triple: 'x86_64-unknown-linux-gnu',
    cflags: ['--target=x86_64-linux-gnu', '-nostdlibinc', '-isystem', '/usr/include/x86_64-linux-musl', '-fno-stack-protector'],
    startup: 'process', entry: '_start',
    // Looked up before the entry. musl lets strong definitions in later
    // archive members override weak ones (__stdio_exit.o's weak
    // __stdout_used stands in for stdout.o's strong one when stdout is not
    // used). The session keeps the first definition it linked, so without
    // this the exit-time flush would close a dummy FILE and buffered output
    // would be lost: linking stdout first makes the strong ones win.
    preload: ['stdout', 'stderr', '__stdio_exit_needed'],
    // crt1.o goes in as a one-member archive (made by the gallery build): the
    // package adds loose objects as tested objects, which a harness would
    // demote to local, hiding _start; archive members are library objects.
    files: { 'crt1.a': { archiveOf: '/usr/lib/x86_64-linux-musl/crt1.o' }, 'libc.a': '/usr/lib/x86_64-linux-musl/libc.a' },
  },
  aarch64: {
    triple: 'aarch64-unknown-linux-gnu',
    cflags: ['--target=aarch64-linux-gnu', '-nostdlibinc', '-isystem', `${PICO_A64}/include`, '-fno-stack-protector'],
    startup: 'main', entry: 'main', preload: [],
    files: {
      'libc.a': `${PICO_A64}/lib/libc.a`, 'libsemihost.a': `${PICO_A64}/lib/libsemihost.a`,
      'libgcc.a': '/usr/lib/gcc-cross/aarch64-linux-gnu/12/libgcc.a',
    },
  },
  riscv64: {
    triple: 'riscv64-unknown-linux-gnu',
    cflags: ['--target=riscv64-linux-gnu', '-march=rv64gc', '-mabi=lp64d', '-nostdlibinc', '-isystem', `${PICO_RV}/include`, '-fno-stack-protector'],
    startup: 'main', entry: 'main', preload: [],
    files: {
      'libc.a': `${PICO_RV_LIB}/libc.a`, 'libsemihost.a': `${PICO_RV_LIB}/libsemihost.a`,
      'libgcc.a': '/usr/lib/gcc-cross/riscv64-linux-gnu/12/libgcc.a',
    },
  },
};

// Where a runtime file is: a Debian path, or for {archiveOf} the archive the
// gallery build wrapped around it in <gallery>/runtime/<arch>/.
export function runtimeFilePath(arch, name, gallery) {
  const f = RUNTIMES[arch]?.files[name];
  if (!f) return null;
  return typeof f === 'string' ? f : `${gallery}/runtime/${arch}/${name}`;
}

// What the page needs to know: per arch, the triple, how to start a program
// and the runtime files in link order (served under /runtime/<arch>/<name>).
export function runtimeManifest() {
  return Object.fromEntries(Object.entries(RUNTIMES).map(([arch, r]) =>
    [arch, { triple: r.triple, startup: r.startup, entry: r.entry, preload: r.preload, files: Object.keys(r.files) }]));
}
