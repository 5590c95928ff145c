#!/usr/bin/env bash
# Configures the user project with our mpicc/mpicxx, builds it, runs it.
set -eu
bin=$1 work=$2
src=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
cmake -S "$src" -B "$work" -DMPI_C_COMPILER="$bin/mpicc" -DMPI_CXX_COMPILER="$bin/mpicxx" \
  -DMPIEXEC_EXECUTABLE="$bin/mpiexec" > "$work.log" 2>&1 || { cat "$work.log"; exit 1; }
grep -E "Found MPI_C|Found MPI_CXX" "$work.log"
cmake --build "$work" > "$work.build.log" 2>&1 || { cat "$work.build.log"; exit 1; }
# IMPI_TEST_PRELOAD: a sanitizer runtime the programs need (sanitizer builds only).
run() { env ${IMPI_TEST_PRELOAD:+LD_PRELOAD=$IMPI_TEST_PRELOAD} "$bin/impirun" "$@"; }
out=$(run -np 2 "$work/hello_c")
echo "$out"
echo "$out" | grep -q "c rank 1 of 2: impi" || { echo "hello_c is not linked against impi"; exit 1; }
out=$(run -np 2 "$work/hello_cxx")
echo "$out"
echo "$out" | grep -q "c++ rank 1 of 2" || exit 1
echo "ok"
