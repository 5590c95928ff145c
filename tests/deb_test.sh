#!/usr/bin/env bash
# The Debian package (cpack -G DEB): built from the build tree, checked
# (name, dependencies, files under /opt/impi), then used as a user would:
#   default    extracted into a scratch root (dpkg-deb -x); mpicc and
#              impirun from there build and run hello on 2 processes;
#   --install  (CI, root) installed with dpkg -i, the build tree moved out
#              of the way, hello built and run with /opt/impi/bin, then
#              the package removed and the tree put back.
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR [--install]
set -eu
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) mode=${3:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
(cd "$build" && cpack -G DEB -B "$work/out") > "$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb=$(ls "$work"/out/impi_*.deb)
info=$(dpkg-deb -I "$deb")
echo "$info" | grep -q "Package: impi" || fail "package name"
for d in libpmix2 libevent-core libhwloc15 libfmt9 gcc; do
  echo "$info" | grep "Depends:" | grep -q "$d" || fail "Depends lacks $d: $(echo "$info" | grep Depends)"
done
list=$(dpkg-deb -c "$deb")
for f in bin/impirun bin/mpiexec bin/mpirun bin/mpicc bin/mpicxx bin/impi_info include/mpi.h lib/libmpi.so.0 \
         lib/pkgconfig/mpi.pc lib/cmake/impi/impiConfig.cmake; do
  echo "$list" | grep -q "\./opt/impi/$f" || fail "the package lacks /opt/impi/$f"
done
echo "$list" | grep -v "\./opt/impi" | grep -qv "^d.* \./$\|\./opt/$" && fail "files outside /opt/impi: $(echo "$list" | grep -v ./opt/impi)"
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"
echo "$info" | grep "Depends:"
if [ "$mode" != --install ]; then
  dpkg-deb -x "$deb" "$work/root"
  p=$work/root/opt/impi
else
  [ "$(id -u)" = 0 ] || fail "--install needs root"
  dpkg -i "$deb" > "$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i"; }
  mv "$build" "$build.away"
  trap 'mv "$build.away" "$build" 2>/dev/null; dpkg -r impi >/dev/null 2>&1; rm -rf "$work"' EXIT
  p=/opt/impi
fi
"$p/bin/mpicc" -O2 "$src/tests/cmake_project/hello.c" -o "$work/hello" || fail "mpicc from the package"
out=$("$p/bin/impirun" -np 2 "$work/hello") || fail "impirun from the package: $out"
echo "$out" | grep -q "rank 1 of 2" || fail "hello did not run: $out"
"$p/bin/impi_info" | grep -q "impi" || fail "impi_info from the package"
echo "ok: the package ${mode:+installs and }works"
