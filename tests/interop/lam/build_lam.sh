#!/usr/bin/env bash
# build_lam.sh - build LAM/MPI 7.1.4 with IMPI support from Debian's source
# package, for the mixed-job interop tests (tests/interop/lam).
#
# Usage: tests/interop/lam/build_lam.sh [PREFIX]     (default: build/lam)
# Makes two installs:
#   PREFIX/stock    LAM as released, plus only the build-*.patch fixes
#                   that any LAM needs to build and start on Debian 12
#   PREFIX/patched  the same plus fix-*.patch: LAM's own IMPI defects
#                   fixed in its agent (impid), each patch named
# Both are reused when they exist and the patches have not changed
# (PREFIX/*/.impi-patches holds their checksum).
#
# LAM refuses to run as root and its build scripts assume an ordinary user:
# as root, this creates the system user `impi-lam` and builds as that user;
# the tests then run the LAM side as the owner of the install. The source
# comes from deb.debian.org's pool (Debian's `lam` source package,
# 7.1.4-7), checked against its SHA-256. GCC 12 needs old-C flags.
# Exit status 77 when the source cannot be fetched (no network):
# scripts/test.sh then goes on and the lam_interop tests are skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
prefix=${1:-$root/build/lam}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

tarball_url=http://deb.debian.org/debian/pool/main/l/lam/lam_7.1.4.orig.tar.gz
tarball_sha=7cd5f289b9e4887d2a62532c33d93265a049b372ae23d0a6309e6870fef811ae
user=$(id -un)
if [ "$(id -u)" = 0 ]; then
  user=impi-lam
  id "$user" >/dev/null 2>&1 || useradd --system --create-home --shell /bin/bash "$user"
fi
as_user() { if [ "$(id -un)" = "$user" ]; then bash -c "$1"; else su "$user" -s /bin/bash -c "$1"; fi; }

shopt -s nullglob
sum_of() {  # a checksum of the patches matching $1 (none: of nothing)
  local files=("$here"/patches/$1)
  cat "${files[@]}" /dev/null | sha256sum | cut -c1-16
}
build_sum=$(sum_of 'build-*.patch')
fix_sum=$(sum_of 'build-*.patch')-$(sum_of 'fix-*.patch')
if [ -x "$prefix/stock/bin/impid" ] && [ "$(cat "$prefix/stock/.impi-patches" 2>/dev/null)" = "$build_sum" ] &&
   [ -x "$prefix/patched/bin/impid" ] && [ "$(cat "$prefix/patched/.impi-patches" 2>/dev/null)" = "$fix_sum" ]; then
  echo "build_lam: LAM is built in $prefix (stock, patched)"
  exit 0
fi

command -v gcc >/dev/null && command -v g++ >/dev/null && command -v patch >/dev/null || {
  echo "build_lam: needs gcc, g++ and patch (apt-get install build-essential patch)"; exit 1; }

work="$prefix/src"
rm -rf "$work" "$prefix/stock" "$prefix/patched"
mkdir -p "$work"
tarball="$prefix/lam_7.1.4.orig.tar.gz"
if [ ! -f "$tarball" ] || ! echo "$tarball_sha  $tarball" | sha256sum -c --status; then
  echo "build_lam: fetching $tarball_url"
  curl -fsSL -o "$tarball.part" "$tarball_url" || wget -q -O "$tarball.part" "$tarball_url" ||
    { rm -f "$tarball.part"; echo "build_lam: cannot fetch $tarball_url"; exit 77; }
  echo "$tarball_sha  $tarball.part" | sha256sum -c --status || { echo "build_lam: checksum mismatch"; exit 1; }
  mv "$tarball.part" "$tarball"
fi
tar xzf "$tarball" -C "$work"
src="$work/lam-7.1.4"
for p in "$here"/patches/build-*.patch; do
  echo "build_lam: applying $(basename "$p")"
  patch -s -p1 -d "$src" <"$p"
done
chown -R "$user" "$prefix" 2>/dev/null || true

cflags="-O2 -std=gnu89 -fcommon -w"
cxxflags="-O2 -std=gnu++98 -fpermissive -w -include cstring -include cstdlib -include cstdio"
echo "build_lam: configuring and building (a few minutes; log: $work/build.log)"
as_user "cd '$src' && CFLAGS='$cflags' CXXFLAGS='$cxxflags' ./configure --prefix='$prefix/stock' \
  --with-impi --without-romio --without-fc --without-mpi2cpp --disable-dependency-tracking \
  --disable-tv >'$work/build.log' 2>&1 && make -j$(nproc) >>'$work/build.log' 2>&1 &&
  make install >>'$work/build.log' 2>&1" || { tail -30 "$work/build.log"; echo "build_lam: build failed"; exit 1; }
echo "$build_sum" >"$prefix/stock/.impi-patches"

# The patched variant: the same tree with the fixes, rebuilt incrementally
# (only what they touch) and installed beside the stock one.
for p in "$here"/patches/fix-*.patch; do
  echo "build_lam: applying $(basename "$p") (patched variant)"
  patch -s -p1 -d "$src" <"$p"
done
as_user "cd '$src' && make -j$(nproc) >>'$work/build.log' 2>&1 &&
  make install prefix='$prefix/patched' >>'$work/build.log' 2>&1" ||
  { tail -30 "$work/build.log"; echo "build_lam: patched build failed"; exit 1; }
echo "$fix_sum" >"$prefix/patched/.impi-patches"
chown -R "$user" "$prefix" 2>/dev/null || true
rm -rf "$work"
echo "build_lam: LAM 7.1.4 built in $prefix/stock and $prefix/patched (as $user)"
