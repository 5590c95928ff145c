#!/usr/bin/env bash
# pnetcdf_tests.sh - build PnetCDF 1.12.3 (Debian 12's pnetcdf source)
# against impi and run its test suite: `make check` (the sequential
# programs, each a singleton MPI process) once, then `make ptest` (the
# parallel programs, every one through impirun) in one IMPI client and
# split across IMPI clients; summarise per directory.
#
# Usage: tests/conformance/pnetcdf_tests.sh
# Environment:
#   IMPI_BUILD               impi build tree (default: <repo>/build); its
#                            bin/ must hold mpicc and impirun
#   IMPI_PNETCDF_DIR         cache dir (default: <repo>/build/pnetcdf): the
#                            tarball, the source and the build (work/)
#   IMPI_PNETCDF_CLIENTS     client counts for the parallel runs (default
#                            "1 2 3": one IMPI client, then --clients 2 and 3)
#   IMPI_PNETCDF_FORTRAN=1   also PnetCDF's Fortran 77 and 90 interfaces,
#                            through impi's mpif77/mpif90, and their tests
#                            (in work-fortran/; the build takes about 8
#                            minutes on 2 cores instead of 3)
#   IMPI_PNETCDF_SAFE=1      also each parallel program in PnetCDF's safe
#                            mode (PNETCDF_DEBUG=1: the header is checked
#                            for consistency across processes)
#   IMPI_PNETCDF_TIMEOUT     limit per directory in seconds (default 600)
#   IMPI_PNETCDF_RESULTS     result file (default:
#                            <repo>/bench/results/pnetcdf_tests.txt)
#   IMPI_PNETCDF_STRICT=1    exit 1 when anything failed
#
# What it does: takes pnetcdf_1.12.3.orig.tar.xz from the cache, or fetches
# it from deb.debian.org (sha256 checked); when it cannot be had it prints
# "SKIP" and exits 0. The tarball has no configure script: autoreconf
# makes one (autoconf, automake, libtool). Configures once with
# MPICC=<impi's mpicc>, C only (no Fortran or C++ interfaces; Fortran with
# IMPI_PNETCDF_FORTRAN=1), static,
# builds the library and the test programs, then runs `make check` and, per
# client count, `make -C DIR ptest` in each directory that has parallel
# tests, with TESTMPIRUN="impirun --timeout T -np NP [--clients K]". A
# directory passes when make exits 0 (PnetCDF's scripts stop at the first
# failing program, which exits nonzero on any wrong value; each output file
# is also checked with PnetCDF's ncvalidator).
#
# Exit status: 0 when the suite ran (whatever passed; with
# IMPI_PNETCDF_STRICT=1 only when all passed), 2 when PnetCDF could not be
# configured or built.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${IMPI_BUILD:-$here/build}" && pwd)
cache=${IMPI_PNETCDF_DIR:-$here/build/pnetcdf}
np=4  # (PnetCDF's `make ptest` runs 4 processes; its Makefiles fix the number)
client_counts=${IMPI_PNETCDF_CLIENTS:-1 2 3}
timeout_s=${IMPI_PNETCDF_TIMEOUT:-600}
results=${IMPI_PNETCDF_RESULTS:-$here/bench/results/pnetcdf_tests.txt}
debug=0
[ "${IMPI_PNETCDF_SAFE:-0}" = 1 ] && debug=1
fortran=${IMPI_PNETCDF_FORTRAN:-0}

version=1.12.3
tarball=pnetcdf_$version.orig.tar.xz
url=http://deb.debian.org/debian/pool/main/p/pnetcdf/$tarball
sha256=8f54023ffbbd3c8137e5422b44e32324113d5690f1da0cb7ecd5842c2de850a9
# The directories whose Makefile has parallel tests (`make ptest`), in its order.
ptest_dirs=(test/C test/cdf_format test/header test/testcases test/nonblocking examples/C
  examples/tutorial benchmarks/C)
[ "$fortran" = 1 ] && ptest_dirs=(test/C test/cdf_format test/header test/testcases
  test/nonblocking test/F90 examples/C examples/F77 examples/F90 examples/tutorial benchmarks/C
  benchmarks/FLASH-IO)

export LC_ALL=C
msg() { echo "pnetcdf_tests: $*" >&2; }
die() { msg "error: $*"; exit 2; }
# shellcheck source=tests/conformance/fetch.sh
. "$here/tests/conformance/fetch.sh"

for tool in make tar xz sha256sum timeout autoreconf libtoolize; do
  command -v "$tool" >/dev/null || die "$tool is needed (scripts/setup.sh installs it)"
done
[ -x "$build/bin/mpicc" ] && [ -x "$build/bin/impirun" ] ||
  die "no mpicc/impirun in $build/bin (build impi first: cmake --build $build --target mpi impirun mpicc)"

# ---- fetch, extract, autoreconf ---------------------------------------------
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
src=$cache/pnetcdf-$version
if [ ! -x "$src/configure" ]; then
  if ! fetch_tarball "$cache" "$tarball" "$url" "$sha256"; then
    msg "SKIP: PnetCDF's source could not be fetched ($url); put $tarball in $cache to run"
    echo "SKIP: pnetcdf_tests (no PnetCDF source)"
    exit 0
  fi
  msg "extracting $tarball"
  rm -rf "$src"
  tar -C "$cache" -xJf "$cache/$tarball" || die "could not extract $tarball"
  msg "autoreconf (log: $cache/autoreconf.log)"
  (cd "$src" && autoreconf -fi) >"$cache/autoreconf.log" 2>&1 ||
    die "autoreconf failed; see $cache/autoreconf.log"
fi

# ---- configure (once) and build ---------------------------------------------
work=$cache/work
out=$cache/out
conf_args=(--disable-fortran)
if [ "$fortran" = 1 ]; then
  work=$cache/work-fortran out=$cache/out-fortran
  conf_args=(--enable-fortran "MPIF77=$build/bin/mpif77" "MPIF90=$build/bin/mpif90")
fi
mkdir -p "$work" "$out"
conf_args+=(--disable-cxx --disable-shared --enable-static --disable-dependency-tracking
  --enable-silent-rules "MPICC=$build/bin/mpicc" "TESTOUTDIR=$out")
stamp="${conf_args[*]}"
started=$(date +%s)
if [ ! -f "$work/config.status" ] || [ "$(cat "$work/.impi-configure-args" 2>/dev/null)" != "$stamp" ]; then
  msg "configuring PnetCDF in $work (log: $work/configure.log)"
  (cd "$work" && "$src/configure" "${conf_args[@]}") >"$work/configure.log" 2>&1 ||
    die "configure failed; see $work/configure.log"
  echo "$stamp" >"$work/.impi-configure-args"
else
  msg "reusing the configured tree in $work"
fi
msg "building the library and the tests (make -j2; log: $work/build.log)"
{ make -C "$work" -j2 && make -C "$work" -j2 tests; } >"$work/build.log" 2>&1 ||
  { tail -20 "$work/build.log" >&2; die "the build failed; see $work/build.log"; }
build_secs=$(( $(date +%s) - started ))

# ---- run --------------------------------------------------------------------
rows=()
fails=()
passed=0 failed=0 programs=0
# Program runs a log shows passing: the C tests' "------ pass" lines and
# the examples' and benchmarks' "PASS:" lines (in safe mode each program
# runs twice).
count_passes() { grep -cE -- "------ pass|^PASS: " "$1" || true; }
reason() {  # log -> one line: impi's error, else PnetCDF's failure, else the last line
  local line
  line=$(grep -m1 -E "^impi(run)?(\[[^]]*\])?: error:" "$1" ||
         grep -m1 -iE "fail|mismatch|error at line|Error:" "$1" || tail -n1 "$1" || true)
  echo "$line" | tr -s ' \t' ' ' | cut -c1-200
}

t0=$(date +%s)
rc=0
timeout -k 10 "$timeout_s" make -C "$work" check >"$cache/check.log" 2>&1 || rc=$?
secs=$(( $(date +%s) - t0 ))
# automake's summaries: "# PASS:  n" per directory
sum() { awk -v k="# $1:" 'index($0, k) == 1 {n += $3} END {print n + 0}' "$cache/check.log"; }
seq_pass=$(sum PASS) seq_fail=$(( $(sum FAIL) + $(sum ERROR) )) seq_xfail=$(sum XFAIL)
if [ "$rc" = 0 ] && [ "$seq_fail" = 0 ]; then res=pass; passed=$((passed + 1))
else res=FAIL; failed=$((failed + 1)); fails+=("make check: exit $rc: $(reason "$cache/check.log")"); fi
rows+=("$(printf '%-22s %7s %-7s %8s %6d' "make check (serial)" - "$res" "$seq_pass" "$secs")")
msg "make check: $res ($seq_pass programs passed, $seq_fail failed, $seq_xfail expected failures; $secs s)"

for k in $client_counts; do
  launch="$build/bin/impirun --timeout $timeout_s -np NP"
  [ "$k" -gt 1 ] && launch+=" --clients $k"
  for d in "${ptest_dirs[@]}"; do
    log=$cache/ptest-c$k-${d//\//_}.log
    t0=$(date +%s)
    rc=0
    timeout -k 10 $((timeout_s + 30)) make -C "$work/$d" ptest TESTMPIRUN="$launch" \
      PNETCDF_DEBUG="$debug" >"$log" 2>&1 || rc=$?
    secs=$(( $(date +%s) - t0 ))
    n=$(count_passes "$log")
    programs=$((programs + n))
    if [ "$rc" = 0 ]; then res=pass; passed=$((passed + 1))
    else
      res=FAIL; failed=$((failed + 1))
      [ "$rc" = 124 ] || [ "$rc" = 137 ] && res=TIMEOUT
      fails+=("$d (np $np, clients $k) exit $rc after $n program runs passed: $(reason "$log")")
    fi
    rows+=("$(printf '%-22s %7d %-7s %8d %6d' "$d" "$k" "$res" "$n" "$secs")")
    msg "$d clients $k: $res ($n program runs passed, $secs s)"
  done
done
run_secs=$(( $(date +%s) - started - build_secs ))

mkdir -p "$(dirname "$results")"
{
  echo "PnetCDF $version tests against impi: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
       "impi $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "command: tests/conformance/pnetcdf_tests.sh (np $np; Fortran: $fortran; safe mode too: $debug)"
  echo "configure+build $build_secs s (0 when reused), runs $run_secs s"
  echo
  printf '%-22s %7s %-7s %8s %6s\n' directory clients result runs secs
  printf '%s\n' "${rows[@]}"
  echo
  echo "make check: $seq_pass passed, $seq_fail failed, $seq_xfail expected failures (xfail)"
  echo "make ptest: $programs program runs passed in the directories above"
  if [ ${#fails[@]} -gt 0 ]; then
    echo
    echo "failing (logs: ${cache/#$here\//}/*.log):"
    printf '  %s\n' "${fails[@]}"
  fi
  echo
  echo "$passed passed, $failed failed"
} >"$results.new"
mv "$results.new" "$results"
cat "$results"
msg "results in $results"
if [ "${IMPI_PNETCDF_STRICT:-0}" = 1 ] && [ "$failed" -gt 0 ]; then exit 1; fi
exit 0
