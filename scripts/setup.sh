#!/usr/bin/env bash
# setup.sh - install what impi needs (Debian packages only), then build it.
#
# Idempotent: installs only the packages that are missing, reuses the build
# directory. Usage: scripts/setup.sh [build-dir]   (default: build)
# Environment: IMPI_BUILD_TYPE (RelWithDebInfo), IMPI_CMAKE_ARGS (extra
# cmake arguments), IMPI_NO_PEERS=1 skips Open MPI/MPICH (used only for
# side-by-side benchmarks and the foreign-launcher test), IMPI_NO_LAM=1
# skips building LAM/MPI 7.1.4 for the mixed-job interop tests (they are
# then skipped; tests/interop/lam/build_lam.sh builds it any time).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}

packages=(build-essential cmake pkg-config libevent-dev libfmt-dev libhwloc-dev catch2
          libpmix-dev python3 hyperfine clang clang-format-14 libclang-rt-14-dev autoconf automake dpkg-dev file valgrind iproute2 patch curl)
if [ "${IMPI_NO_PEERS:-0}" != 1 ]; then
  packages+=(openmpi-bin libopenmpi-dev mpich libmpich-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE="${IMPI_BUILD_TYPE:-RelWithDebInfo}" \
  ${IMPI_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)"
echo "setup: built impi in $build"
if [ "${IMPI_NO_LAM:-0}" != 1 ]; then
  bash "$here/tests/interop/lam/build_lam.sh" "$build/lam"
fi
