#!/bin/sh
# Builds the wasm module with Debian's Emscripten into build-wasm/ and copies
# it into wasm-bindings/dist/ (gitignored). Installs emscripten if missing.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD_WASM_DIR:-$ROOT/build-wasm}
if ! command -v emcc >/dev/null 2>&1; then
  echo "build-wasm: installing emscripten and node-acorn (Debian packages)" >&2
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update && $SUDO apt-get install -y emscripten node-acorn
fi
# Emscripten's JS optimizer needs acorn, which Debian installs here.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
# Compiles through ccache when it is installed (as scripts/build does).
if command -v ccache >/dev/null 2>&1; then
  export EM_COMPILER_WRAPPER=${EM_COMPILER_WRAPPER:-ccache}
fi
LOG=$BUILD/build.log
mkdir -p "$BUILD"
# emcc errors can echo the whole generated JS: keep them in a log, show the end.
if ! { emcmake cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release &&
       cmake --build "$BUILD" -j"${JOBS:-2}" --target linklab_wasm; } >"$LOG" 2>&1; then
  grep -E 'error|Error' "$LOG" | cut -c1-400 | head -40 >&2
  echo "build-wasm: failed; full log in $LOG" >&2
  exit 1
fi
mkdir -p "$ROOT/wasm-bindings/dist"
cp "$BUILD/wasm-bindings/linklab_core.mjs" "$BUILD/wasm-bindings/linklab_core.wasm" "$ROOT/wasm-bindings/dist/"
# Brotli at its best quality, once per build (seconds): the playground server sends this sibling
# to browsers (web/server/static.mjs), 13% smaller than what it could compress per request.
node -e 'const fs = require("fs"), zlib = require("zlib"), f = process.argv[1];
  fs.writeFileSync(f + ".br", zlib.brotliCompressSync(fs.readFileSync(f),
    { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));' "$ROOT/wasm-bindings/dist/linklab_core.wasm"
echo "build-wasm: wasm-bindings/dist/linklab_core.{mjs,wasm} ($(wc -c <"$ROOT/wasm-bindings/dist/linklab_core.wasm") bytes)"
