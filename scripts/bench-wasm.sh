#!/bin/sh
# Benchmark: the sqlite link (Debian's libsqlite3.a members, -noexec
# -entry=sqlite3_open -phony-externals) through the wasm build in Node
# against the native linklab CLI; prints the ratio (target <= 1.3x) and the
# package's .wasm size raw and gzipped (target <= 1 MiB gzipped).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NATIVE_BUILD=${LINKLAB_NATIVE_BUILD:-$ROOT/build-jsnative}
RUNS=${RUNS:-5}
LIB=/usr/lib/x86_64-linux-gnu/libsqlite3.a
[ -f "$LIB" ] || { echo "bench-wasm: $LIB missing (apt-get install libsqlite3-dev)" >&2; exit 1; }
[ -f "$ROOT/wasm-bindings/dist/linklab_core.wasm" ] || "$ROOT/scripts/build-wasm.sh"
[ -f "$NATIVE_BUILD/CMakeCache.txt" ] || cmake -S "$ROOT" -B "$NATIVE_BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$NATIVE_BUILD" -j2 --target linklab >/dev/null
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$TMP" && ar x "$LIB")
OBJS=$(ls "$TMP"/*.o)
ARGS="-noexec -entry=sqlite3_open -phony-externals -slab-allocate=64Mb -slab-address=0x10000000"

# Best of $RUNS wall-clock runs of each, whole process included (Node start
# and wasm compilation count against the wasm build: that is what a user waits for).
best() {
  B=
  for _ in $(seq "$RUNS"); do
    S=$(date +%s%N); "$@" >/dev/null; E=$(date +%s%N)
    T=$(( (E - S) / 1000 ))
    [ -z "$B" ] || [ "$T" -lt "$B" ] && B=$T
  done
  echo "$B"
}
# shellcheck disable=SC2086
NAT=$(best "$NATIVE_BUILD/core/linklab" $ARGS $OBJS)
# shellcheck disable=SC2086
WASM=$(best node "$ROOT/wasm-bindings/bin/linklab-run.mjs" $ARGS $OBJS)
# Load + link inside the process (-show-times), best of $RUNS, against the
# wasm build's first (cold) and best (warm) in-process link.
NAT_LINK=
for _ in $(seq "$RUNS"); do
  # shellcheck disable=SC2086
  T=$("$NATIVE_BUILD/core/linklab" $ARGS -show-times $OBJS | sed -n 's/.*load \([0-9.]*\) ms, link \([0-9.]*\) ms.*/\1 \2/p' | awk '{ print $1 + $2 }')
  NAT_LINK=$(awk -v a="$T" -v b="$NAT_LINK" 'BEGIN { print (b == "" || a < b) ? a : b }')
done
# shellcheck disable=SC2086
set -- $(RUNS=$RUNS node "$ROOT/wasm-bindings/test/bench-link.mjs" sqlite3_open $OBJS)
WASM_COLD=$1 WASM_WARM=$2
WASMFILE=$ROOT/wasm-bindings/dist/linklab_core.wasm
RAW=$(wc -c <"$WASMFILE")
GZ=$(gzip -9 -c "$WASMFILE" | wc -c)
echo "sqlite link ($(echo "$OBJS" | wc -w) objects from libsqlite3.a), best of $RUNS:"
awk -v n="$NAT" -v w="$WASM" 'BEGIN { printf "  whole process: native %.1f ms, wasm (node) %.1f ms, ratio %.2fx (target <= 1.3x)\n", n/1000, w/1000, w/n }'
awk -v n="$NAT_LINK" -v c="$WASM_COLD" -v w="$WASM_WARM" 'BEGIN {
  printf "  load+link in process: native %.1f ms; wasm warm %.1f ms, ratio %.2fx (target <= 1.3x); wasm first link %.1f ms, ratio %.2fx\n", n, w, w/n, c, c/n }'
awk -v r="$RAW" -v g="$GZ" 'BEGIN { printf "wasm size: %d bytes raw, %d bytes gzipped (%.2f MiB; target <= 1 MiB)\n", r, g, g/1048576 }'
