#!/bin/sh
# Benchmark: one link, the same work on both sides -- Debian's libsqlite3.a
# objects and the x86-64 glibc runtime, `-noexec -entry=sqlite3_open
# -phony-externals` -- through the native linklab CLI and through the wasm
# build in Node (scripts/bench-wasm-link.mjs). It first checks that both link
# the same graphs with the same symbols and sizes (the order, and so the
# addresses, may differ), then reports, interleaved over RUNS runs:
#   - load+link inside the process (native -show-times; wasm: session,
#     objects, runtime, link), the wasm side warm (the 5th to 7th link of a
#     process: V8 has compiled the hot code by then) and first (the first
#     link in a fresh process, once the module is loaded);
#   - the whole process (Node's start and the module's load count for wasm);
#   - instructions (callgrind; independent of the machine's load): native
#     for its whole process, wasm for the first link and a warm one, as
#     differences between processes that link 0, 1, 4 and 7 times, in all
#     threads and in the main thread alone (the rest is V8 compiling hot
#     functions with TurboFan in the background, which waits for no one
#     when a core is free);
# and the package's .wasm size raw and gzipped. Targets: warm <= 1.3x,
# first <= 3x, gzipped .wasm <= 1 MiB.
#   scripts/bench-wasm.sh [--runs N] [--no-instructions]
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
NATIVE_BUILD=${LINKLAB_NATIVE_BUILD:-$ROOT/build}
RUNS=5 COUNT=1
while [ $# -gt 0 ]; do
  case $1 in
    --runs) RUNS=$2; shift 2 ;;
    --no-instructions) COUNT=0; shift ;;
    *) echo "usage: scripts/bench-wasm.sh [--runs N] [--no-instructions]" >&2; exit 2 ;;
  esac
done
LIB=/usr/lib/x86_64-linux-gnu/libsqlite3.a
[ -f "$LIB" ] || { echo "bench-wasm: $LIB missing (apt-get install libsqlite3-dev)" >&2; exit 1; }
[ -f "$ROOT/wasm-bindings/dist/linklab_core.wasm" ] || "$ROOT/scripts/build-wasm.sh"
[ -x "$NATIVE_BUILD/core/linklab" ] || "$ROOT/scripts/build" linklab
if [ "$COUNT" = 1 ] && ! command -v valgrind >/dev/null; then
  echo "bench-wasm: no valgrind: instructions not counted (apt-get install valgrind)" >&2
  COUNT=0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir "$TMP/o"
(cd "$TMP/o" && ar x "$LIB")
OBJS=$(ls "$TMP"/o/*.o)
ARGS="-noexec -entry=sqlite3_open -phony-externals -slab-allocate=64Mb -slab-address=0x10000000"
LINKLAB=$NATIVE_BUILD/core/linklab
WASM_LINK="node $ROOT/scripts/bench-wasm-link.mjs"

# The same work: the same graphs, symbols and sizes (addresses blanked).
# shellcheck disable=SC2086
"$LINKLAB" $ARGS -show-addrs $OBJS >"$TMP/native.addrs"
# shellcheck disable=SC2086
$WASM_LINK 1 sqlite3_open $OBJS --addresses "$TMP/wasm.addrs" >/dev/null
shape() { sed 's/0x[0-9a-f]*/ADDR/g' "$1" | sort; }
shape "$TMP/native.addrs" >"$TMP/native.shape"
shape "$TMP/wasm.addrs" >"$TMP/wasm.shape"
if ! cmp -s "$TMP/native.shape" "$TMP/wasm.shape"; then
  diff "$TMP/native.shape" "$TMP/wasm.shape" | head -20 >&2
  echo "bench-wasm: the two links differ (graphs, symbols or sizes; -show-addrs above, native <, wasm >)" >&2
  exit 1
fi
GRAPHS=$(grep -c '^File' "$TMP/native.addrs")

# Interleaved: a native process, then a wasm process linking RUNS+1 times.
: >"$TMP/nat" && : >"$TMP/natproc" && : >"$TMP/first" && : >"$TMP/warm" && : >"$TMP/wasmproc"
ms() { date +%s%N; }
for _ in $(seq "$RUNS"); do
  S=$(ms)
  # shellcheck disable=SC2086
  "$LINKLAB" $ARGS -show-times $OBJS | sed -n 's/.*load \([0-9.]*\) ms, link \([0-9.]*\) ms.*/\1 \2/p' |
    awk '{ print $1 + $2 }' >>"$TMP/nat"
  E=$(ms); echo "$(( (E - S) / 1000 ))" | awk '{ print $1 / 1000 }' >>"$TMP/natproc"
  S=$(ms)
  # shellcheck disable=SC2086
  $WASM_LINK 1 sqlite3_open $OBJS >/dev/null
  E=$(ms); echo "$(( (E - S) / 1000 ))" | awk '{ print $1 / 1000 }' >>"$TMP/wasmproc"
  # shellcheck disable=SC2086
  $WASM_LINK 7 sqlite3_open $OBJS | node -e '
    const r = JSON.parse(require("fs").readFileSync(0, "utf8"));
    console.log(r.links[0]); for (const t of r.links.slice(4)) console.error(t);' >>"$TMP/first" 2>>"$TMP/warm"
done
# "median best" of a file of numbers.
stats() { sort -g "$1" | awk '{ v[NR] = $1 } END { printf "%.1f %.1f", v[int((NR + 1) / 2)], v[1] }'; }
# shellcheck disable=SC2046
set -- $(stats "$TMP/nat") $(stats "$TMP/first") $(stats "$TMP/warm") $(stats "$TMP/natproc") $(stats "$TMP/wasmproc")
echo "sqlite3_open + x86-64 glibc, -noexec ($(echo "$OBJS" | wc -w) objects, $GRAPHS graphs linked on each side), $RUNS runs, load average $(cut -d' ' -f1-3 /proc/loadavg):"
awk -v n="$1" -v nb="$2" -v f="$3" -v fb="$4" -v w="$5" -v wb="$6" 'BEGIN {
  printf "  load+link in process, median (best): native %s ms (%s)\n", n, nb
  printf "    wasm warm  %s ms (%s): %.2fx (target <= 1.3x)\n", w, wb, w / n
  printf "    wasm first %s ms (%s): %.2fx (target <= 3x)\n", f, fb, f / n }'
awk -v n="$7" -v w="$9" 'BEGIN { printf "  whole process, median: native %s ms, wasm (node) %s ms: %.2fx\n", n, w, w / n }'

if [ "$COUNT" = 1 ]; then
  # Instructions of a command's process (callgrind's Ir): "ALL MAIN", all
  # its threads and its main thread alone.
  ir() {
    rm -f "$TMP"/cg.out*
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$TMP/cg.out" --smc-check=all-non-file \
      "$@" >/dev/null 2>"$TMP/cg.err" || { cat "$TMP/cg.err" >&2; exit 1; }
    cat "$TMP"/cg.out-* | awk '/^summary:/ { all += $2 } END { printf "%.0f ", all }'
    sed -n 's/^summary: //p' "$TMP/cg.out-01"
  }
  # shellcheck disable=SC2086
  NI=$(ir "$LINKLAB" $ARGS $OBJS)
  # shellcheck disable=SC2086
  W0=$(ir $WASM_LINK 0 sqlite3_open $OBJS)
  # shellcheck disable=SC2086
  W1=$(ir $WASM_LINK 1 sqlite3_open $OBJS)
  # shellcheck disable=SC2086
  W4=$(ir $WASM_LINK 4 sqlite3_open $OBJS)
  # shellcheck disable=SC2086
  W7=$(ir $WASM_LINK 7 sqlite3_open $OBJS)
  echo "$NI $W0 $W1 $W4 $W7" | awk '{
    n = $1; f = $5 - $3; fm = $6 - $4; w = ($9 - $7) / 3; wm = ($10 - $8) / 3
    printf "  instructions (callgrind): native %.1f M (whole process)\n", n / 1e6
    printf "    wasm warm  %.1f M: %.2fx (main thread %.1f M: %.2fx)\n", w / 1e6, w / n, wm / 1e6, wm / n
    printf "    wasm first %.1f M: %.2fx (main thread %.1f M: %.2fx; the rest is V8 compiling in the background)\n",
           f / 1e6, f / n, fm / 1e6, fm / n }'
fi
WASMFILE=$ROOT/wasm-bindings/dist/linklab_core.wasm
RAW=$(wc -c <"$WASMFILE")
GZ=$(gzip -9 -c "$WASMFILE" | wc -c)
awk -v r="$RAW" -v g="$GZ" 'BEGIN { printf "wasm size: %d bytes raw, %d bytes gzipped (%.2f MiB; target <= 1 MiB)\n", r, g, g/1048576 }'
