// Per architecture, what the playground needs besides the C runtime itself:
// the triple it asks the executor and the package for. Which runtime files
// a program links, how it starts and how C is compiled for it is the core's
// table (core/program/runtime.cpp), read through the wasm package's
// runtimeInfo(triple) by the server (which serves the files), the page
// (which hands their bytes to the session) and the gallery build (flags).
export const ARCHES = {
  x86_64: { triple: 'x86_64-unknown-linux-gnu' },
  aarch64: { triple: 'aarch64-unknown-linux-gnu' },
  riscv64: { triple: 'riscv64-unknown-linux-gnu' },
};

// clang-22 flags for C the playground links with `arch`'s runtime: the
// table's (target, ABI, which headers), without stack protectors (not every
// runtime provides a guard).
export const cflags = (L, arch) =>
  ['-fno-stack-protector', ...L.runtimeInfo(ARCHES[arch].triple).cflags.split(' ')];

// The file of `arch`'s runtime named `name` in the package's table
// ({name, path}), or null: the server serves only what the table names.
export function runtimeFile(L, arch, name) {
  const a = ARCHES[arch];
  return (a && L.runtimeInfo(a.triple).files.find(f => f.name === name)) ?? null;
}
