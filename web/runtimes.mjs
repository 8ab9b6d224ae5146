// Per architecture, what the playground needs besides the C runtime itself:
// the triple it asks the executor and the package for, and the compile flags
// the gallery build (and the browser tests) use against the runtime's
// headers. Which runtime files a program links, and how it starts, is the
// core's table (core/exec/runtime.cpp), read through the wasm package's
// runtimeInfo(triple) by the server (which serves the files) and the page
// (which hands their bytes to the session); it names no include folders,
// hence the flags here.
const PICOLIBC = {
  aarch64: '/usr/lib/picolibc/aarch64-linux-gnu/include',
  riscv64: '/usr/lib/picolibc/riscv64-unknown-elf/include',
};
const common = ['-nostdlibinc', '-fno-stack-protector'];

export const ARCHES = {
  x86_64: {
    triple: 'x86_64-unknown-linux-gnu',
    cflags: ['--target=x86_64-linux-gnu', ...common, '-isystem', '/usr/include/x86_64-linux-musl'],
  },
  aarch64: {
    triple: 'aarch64-unknown-linux-gnu',
    cflags: ['--target=aarch64-linux-gnu', ...common, '-isystem', PICOLIBC.aarch64],
  },
  riscv64: {
    triple: 'riscv64-unknown-linux-gnu',
    cflags: ['--target=riscv64-linux-gnu', '-march=rv64gc', '-mabi=lp64d', ...common, '-isystem', PICOLIBC.riscv64],
  },
};

// The file of `arch`'s runtime named `name` in the package's table
// ({name, path}), or null: the server serves only what the table names.
export function runtimeFile(L, arch, name) {
  const a = ARCHES[arch];
  return (a && L.runtimeInfo(a.triple).files.find(f => f.name === name)) ?? null;
}
