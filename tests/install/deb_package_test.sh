#!/usr/bin/env bash
# The Debian package, installed into a scratch prefix, runs programs:
#   deb_package_test.sh BUILD_DIR SOURCE_DIR
# cpack builds the .deb from BUILD_DIR's install rules; dpkg-deb unpacks it
# into a scratch folder (no system install); the unpacked bin/linklab must
# find its executor beside itself and the executor its Unicorn library
# through its relative RPATH, with no path into the build tree, and run a C
# hello world on three architectures.
set -euo pipefail
BUILD="$1"
SRC="$2"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

(cd "$WORK" && cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$WORK/pkg" >"$WORK/cpack.log" 2>&1) ||
  { cat "$WORK/cpack.log"; exit 1; }
DEB=$(ls "$WORK"/pkg/*.deb)
dpkg-deb -x "$DEB" "$WORK/root"
BIN="$WORK/root/usr/bin"
for F in linklab linklab-executor; do
  [ -x "$BIN/$F" ] || { echo "the package lacks bin/$F"; dpkg-deb -c "$DEB"; exit 1; }
done
if readelf -d "$BIN/linklab-executor" | grep -E 'R(UN)?PATH' | grep -q "$BUILD"; then
  echo "bin/linklab-executor's RPATH points into the build tree:"; readelf -d "$BIN/linklab-executor" | grep PATH
  exit 1
fi
readelf -d "$BIN/linklab-executor" | grep -q 'RUNPATH.*\$ORIGIN/../lib/linklab' ||
  { echo "bin/linklab-executor has no relative RUNPATH"; readelf -d "$BIN/linklab-executor" | grep PATH; exit 1; }

printf '#include <stdio.h>\nint main(void) { printf("hello from %%s\\n", ARCH); return 3; }\n' >"$WORK/hello.c"
for ARCH in "x86_64 --target=x86_64-linux-gnu" "aarch64 --target=aarch64-linux-gnu" \
            "riscv64 --target=riscv64-linux-gnu -march=rv64gc -mabi=lp64d"; do
  NAME=${ARCH%% *}
  clang-22 -c -O1 ${ARCH#* } -DARCH="\"$NAME\"" "$WORK/hello.c" -o "$WORK/hello-$NAME.o"
  Status=0
  Out=$(env -u LINKLAB_EXECUTOR PATH=/usr/bin:/bin "$BIN/linklab" "$WORK/hello-$NAME.o" 2>&1) || Status=$?
  if [ "$Out" != "hello from $NAME" ] || [ "$Status" != 3 ]; then
    echo "$NAME: status $Status, output: $Out"
    exit 1
  fi
  echo "$NAME: ok"
done
