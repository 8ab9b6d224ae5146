#!/usr/bin/env bash
# Installs what building and testing linklab needs on a fresh Debian 12
# machine (Debian packages only; npm packages are installed by npm ci in the
# package folders). Safe to run again: it installs only what is missing.
set -euo pipefail

PACKAGES=(
  cmake g++ make python3 libgtest-dev ccache     # native build and unit tests (ccache: scripts/build)
  clang-format-14                                # scripts/check-format (.clang-format)
  llvm-22 clang-22 lld-22 llvm-22-tools          # cross compilers, llvm-jitlink-22, FileCheck, yaml2obj (oracles)
  libclang-rt-22-dev                             # clang-22's sanitizer and libFuzzer runtimes (scripts/fuzz)
  libsqlite3-dev                                 # the sqlite link benchmark's objects
  libunicorn-dev                                 # the emulators behind linklab-executor
  libseccomp-dev                                 # linklab-executor's host sandbox (seccomp-BPF filter)
  libgcc-12-dev-arm64-cross libgcc-12-dev-riscv64-cross  # libgcc.a/libgcc_eh.a for the cross glibc runtimes
  libc6-dev libstdc++-12-dev libc6-dev-arm64-cross libc6-dev-riscv64-cross  # Debian's static glibc/libstdc++ per triple:
  libstdc++-12-dev-arm64-cross libstdc++-12-dev-riscv64-cross          #   the executor's C/C++ runtime (issue 11)
  gcc-12-aarch64-linux-gnu gcc-12-riscv64-linux-gnu  # reference builds (-static, run under qemu-user) of the C test programs
  g++-12-aarch64-linux-gnu g++-12-riscv64-linux-gnu  # ... and of the C++ test programs
  libc6-dev-i386 lib32gcc-12-dev lib32stdc++-12-dev  # static glibc/libgcc/libstdc++ for i386 (gcc/g++ -m32 -static build the references)
  libc6-dev-armhf-cross libgcc-12-dev-armhf-cross gcc-12-arm-linux-gnueabihf  # ... for arm32 hard-float
  libstdc++-12-dev-armhf-cross g++-12-arm-linux-gnueabihf                    #   and its C++
  qemu-user                                      # reference for emulated execution speed
  csmith libcsmith-dev                           # random C programs: scripts/csmith-diff.py, bench-exec's real programs
  gdb-multiarch                                  # the debugger tests (tests/debug): gdb attached to linklab -gdb
  emscripten node-acorn                          # the WebAssembly build
  chromium                                       # browser tests
  nginx postgresql                               # web/test/deploy.test.mjs: deploy/nginx in front of two servers sharing a link store
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "install-deps: installing nodejs and npm"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm
fi
