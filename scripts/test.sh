#!/usr/bin/env bash
# test.sh - build the test suite and run it: the README's second command.
#
# Builds everything in the build directory (what scripts/setup.sh left out:
# the unit, wire, integration and fuzz-replay tests, the header checks),
# builds LAM/MPI 7.1.4 into BUILD/lam for the mixed-job interop tests
# (tests/interop/lam/build_lam.sh: a few minutes the first time, reused
# after), then runs
#   ctest --test-dir BUILD -j2 --output-on-failure [ARGS...]
# Usage: scripts/test.sh [ctest arguments...]   e.g. scripts/test.sh -L lam
# Environment: IMPI_BUILD_DIR (default: build; made by scripts/setup.sh
# first if it does not exist), IMPI_NO_LAM=1 skips LAM (the lam_interop
# tests are then skipped; so they are when LAM's source cannot be fetched).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
build=${IMPI_BUILD_DIR:-$here/build}

[ -f "$build/CMakeCache.txt" ] || bash "$here/scripts/setup.sh" "$build"
# scripts/setup.sh may have configured with IMPI_BUILD_TESTS=OFF (IMPI_CMAKE_ARGS);
# the suite needs it on. Every other setting stays as configured.
cmake -S "$here" -B "$build" -DIMPI_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)"

if [ "${IMPI_NO_LAM:-0}" != 1 ]; then
  rc=0
  bash "$here/tests/interop/lam/build_lam.sh" "$build/lam" || rc=$?
  if [ "$rc" = 77 ]; then
    echo "test: LAM/MPI's source could not be fetched; the lam_interop tests will be skipped"
  elif [ "$rc" != 0 ]; then
    echo "test: building LAM/MPI failed (IMPI_NO_LAM=1 skips it)"; exit "$rc"
  fi
fi

exec ctest --test-dir "$build" -j2 --output-on-failure "$@"
