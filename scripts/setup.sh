#!/usr/bin/env bash
# setup.sh - install what impi needs (Debian packages only), then build what
# running MPI programs takes: libmpi, impirun (mpiexec, mpirun), impi_info,
# the compiler wrappers and the examples (CMake target impi_runtime). The
# README's first command:
#   scripts/setup.sh && build/bin/impirun -np 4 --clients 2 build/examples/hello
# The test suite and LAM/MPI (for the interop tests) are built by
# scripts/test.sh, the README's second command; `cmake --build build` builds
# everything.
#
# Idempotent: installs only the packages that are missing, reuses the build
# directory (and its settings: a build configured by scripts/test.sh keeps
# its tests). Usage: scripts/setup.sh [build-dir]   (default: build)
# Environment: IMPI_BUILD_TYPE (RelWithDebInfo), IMPI_CMAKE_ARGS (extra
# cmake arguments), IMPI_NO_PEERS=1 skips Open MPI/MPICH (used only for
# side-by-side benchmarks and the foreign-launcher test).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}

packages=(build-essential cmake pkg-config libevent-dev libfmt-dev libhwloc-dev catch2
          gfortran libpmix-dev python3 hyperfine clang clang-format-14 libclang-rt-14-dev autoconf automake libtool dpkg-dev file valgrind iproute2 patch curl)
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
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target impi_runtime
echo "setup: built impi in $build (scripts/test.sh builds and runs the tests)"
