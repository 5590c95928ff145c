#!/usr/bin/env bash
# hdf5_testpar.sh - build parallel HDF5 1.10.8 (Debian 12's hdf5 source)
# against impi and run its parallel test programs (testpar/) through impirun,
# in one IMPI client and split across IMPI clients; summarise pass/fail per
# program.
#
# Usage: tests/conformance/hdf5_testpar.sh [PROG...]
#   PROG...  testpar programs to run (default: every one in testpar/
#            Makefile.am's TEST_PROG_PARA but t_bigio: t_mpi testphdf5
#            t_cache t_cache_image t_pread t_pshutdown t_prestart t_init_term
#            t_shapesame t_filters_parallel). t_bigio (2 GiB+ datasets, many
#            minutes and GiBs of disk per run) runs only when named.
# Environment:
#   IMPI_BUILD             impi build tree (default: <repo>/build); its bin/
#                          must hold mpicc and impirun
#   IMPI_HDF5_DIR          cache dir (default: <repo>/build/hdf5-testpar):
#                          the tarball, the source and the build (work/)
#   IMPI_HDF5_NP           processes per run (default 4; HDF5's own `make
#                          check` uses NPROCS=6: 4 keeps 2 cores responsive)
#   IMPI_HDF5_CLIENTS      the client counts to run each program with
#                          (default "1 2": one IMPI client, then --clients 2)
#   IMPI_HDF5_TIMEOUT      per-run limit in seconds (default 600)
#   HDF5TestExpress        HDF5's test level (default here 3: the quick one)
#   IMPI_HDF5_RESULTS      result file (default:
#                          <repo>/bench/results/hdf5_testpar.txt)
#   IMPI_HDF5_MPI=openmpi  build and run against Debian's Open MPI
#                          (mpicc.openmpi, mpirun.openmpi --oversubscribe on
#                          loopback) in work-openmpi; results default to
#                          bench/results/hdf5_testpar_openmpi.txt; the
#                          client counts are then ignored (one mpirun)
#   IMPI_HDF5_STRICT=1     exit 1 when any run failed
#   IMPI_HDF5_BUDGET       seconds for all the runs (default: no limit): once
#                          spent, the runs left are listed as not run (CI)
#
# What it does: takes hdf5_1.10.8+repack1.orig.tar.gz from the cache, or
# fetches it from deb.debian.org (sha256 checked); when it cannot be had it
# prints "SKIP" and exits 0 (status 77 with IMPI_HDF5_STRICT=1 is not used:
# a machine without the network is not a failure). Configures HDF5 once with
# CC=<impi's mpicc> --enable-parallel and everything optional off (Fortran,
# C++, high-level library, tools, shared library), builds src/, the test
# support library and the testpar programs only, then runs each program in a
# scratch directory (as ./PROG, a link) through impirun -np NP [--clients K]
# --timeout T. A run
# passes when it exits 0 (HDF5's tests exit nonzero on any failed check).
# t_prestart reads the file t_pshutdown leaves, so they run in that order in
# the same directory. Left out: t_pflush1/t_pflush2 (testpflush.sh: t_pflush1
# calls exit() without MPI_Finalize on purpose, "hard-coded to fail" in
# HDF5's CMake tests, and t_pflush2 reads what it left).
#
# Exit status: 0 when the programs ran (whatever passed; with
# IMPI_HDF5_STRICT=1 only when all passed), 2 when HDF5 could not be
# configured or built.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${IMPI_BUILD:-$here/build}" && pwd)
cache=${IMPI_HDF5_DIR:-$here/build/hdf5-testpar}
np=${IMPI_HDF5_NP:-4}
client_counts=${IMPI_HDF5_CLIENTS:-1 2}
timeout_s=${IMPI_HDF5_TIMEOUT:-600}
export HDF5TestExpress=${HDF5TestExpress:-3}
hdf5_mpi=${IMPI_HDF5_MPI:-impi}
case $hdf5_mpi in
  impi) results=${IMPI_HDF5_RESULTS:-$here/bench/results/hdf5_testpar.txt}; workname=work; mpi_label=impi ;;
  openmpi) results=${IMPI_HDF5_RESULTS:-$here/bench/results/hdf5_testpar_openmpi.txt}; workname=work-openmpi
           mpi_label="Open MPI $(mpirun.openmpi --version 2>/dev/null | awk 'NR == 1 {print $NF}')"
           client_counts=1 ;;
  *) echo "hdf5_testpar: error: IMPI_HDF5_MPI must be impi or openmpi" >&2; exit 2 ;;
esac

version=1.10.8+repack1
tarball=hdf5_$version.orig.tar.gz
url=http://deb.debian.org/debian/pool/main/h/hdf5/hdf5_1.10.8%2Brepack1.orig.tar.gz
sha256=7b38e58ff83b13fd8959a90b13bf896bc318ba096c940ab0847abf3ad41a0b31
default_progs=(t_mpi testphdf5 t_cache t_cache_image t_pread t_pshutdown t_prestart t_init_term
  t_shapesame t_filters_parallel)
all_progs=" ${default_progs[*]} t_bigio "

export LC_ALL=C
msg() { echo "hdf5_testpar: $*" >&2; }
die() { msg "error: $*"; exit 2; }
# shellcheck source=tests/conformance/fetch.sh
. "$here/tests/conformance/fetch.sh"

for tool in make tar sha256sum timeout; do
  command -v "$tool" >/dev/null || die "$tool is needed"
done
if [ "$hdf5_mpi" = openmpi ]; then
  command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null ||
    die "Open MPI is not installed (apt-get install openmpi-bin libopenmpi-dev)"
  cc=$(command -v mpicc.openmpi)
else
  [ -x "$build/bin/mpicc" ] && [ -x "$build/bin/impirun" ] ||
    die "no mpicc/impirun in $build/bin (build impi first: cmake --build $build --target mpi impirun mpicc)"
  cc=$build/bin/mpicc
fi
if [ $# -gt 0 ]; then progs=("$@"); else progs=("${default_progs[@]}"); fi
for p in "${progs[@]}"; do
  case $all_progs in *" $p "*) ;; *) die "unknown program '$p' (choose from:$all_progs)" ;; esac
done

# ---- fetch and extract ------------------------------------------------------
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
src=$cache/hdf5-$version
if [ ! -x "$src/configure" ]; then
  if ! fetch_tarball "$cache" "$tarball" "$url" "$sha256"; then
    msg "SKIP: HDF5's source could not be fetched ($url); put $tarball in $cache to run"
    echo "SKIP: hdf5_testpar (no HDF5 source)"
    exit 0
  fi
  msg "extracting $tarball"
  tar -C "$cache" -xzf "$cache/$tarball" || die "could not extract $tarball"
fi

# ---- configure (once) and build ---------------------------------------------
work=$cache/$workname
mkdir -p "$work"
conf_args=(--enable-parallel --disable-fortran --disable-cxx --disable-hl --disable-tools
  --disable-java --disable-shared --enable-static --disable-dependency-tracking --enable-silent-rules
  --enable-build-mode=production --with-zlib=yes "CC=$cc")
stamp="${conf_args[*]}"
started=$(date +%s)
if [ ! -f "$work/config.status" ] || [ "$(cat "$work/.impi-configure-args" 2>/dev/null)" != "$stamp" ]; then
  msg "configuring HDF5 in $work (log: $work/configure.log)"
  (cd "$work" && "$src/configure" "${conf_args[@]}") >"$work/configure.log" 2>&1 ||
    die "configure failed; see $work/configure.log"
  echo "$stamp" >"$work/.impi-configure-args"
else
  msg "reusing the configured tree in $work"
fi
msg "building src/, test/libh5test.la and testpar/ (make -j2; log: $work/build.log)"
{
  make -C "$work/src" -j2 &&
  make -C "$work/test" -j2 libh5test.la &&
  make -C "$work/testpar" -j2 "${progs[@]}"
} >"$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; die "the build failed; see $work/build.log"; }
build_secs=$(( $(date +%s) - started ))

# ---- run --------------------------------------------------------------------
run_one() {  # prog clients dir -> writes dir/prog.log, returns the exit status
  local prog=$1 k=$2 dir=$3 rc=0
  local -a launch
  if [ "$hdf5_mpi" = openmpi ]; then
    launch=(timeout -k 10 "$timeout_s" mpirun.openmpi --oversubscribe --mca btl_tcp_if_include lo
      --mca oob_tcp_if_include lo -np "$np")
  else
    launch=(timeout -k 10 $((timeout_s + 30)) "$build/bin/impirun" --timeout "$timeout_s" -np "$np")
    [ "$k" -gt 1 ] && launch+=(--clients "$k")
  fi
  # (from the run directory, as ./prog: t_cache_image forks and execs
  # "t_cache_image" from its working directory, as HDF5's `make check` has it)
  ln -sf "$work/testpar/$prog" "$dir/$prog"
  (cd "$dir" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
     "${launch[@]}" "./$prog" </dev/null >"$dir/$prog.log" 2>&1) || rc=$?
  return "$rc"
}
reason() {  # log -> one line: HDF5's failure message, else impi's error, else the last line
  local log=$1 line
  line=$(grep -m1 -E "^impi\[rank [0-9]+\]: error:" "$log" ||
         grep -m1 -E "[0-9]+ errors? (found|detected)|\*FAILED\*|FAILED|Assertion|Proc [0-9]+: .*(fail|wrong)" "$log" ||
         grep -m1 -iE "error" "$log" || tail -n1 "$log" || true)
  echo "$line" | tr -s ' \t' ' ' | cut -c1-200
}
rows=()
fails=()
passed=0 failed=0 notrun=0
budget=${IMPI_HDF5_BUDGET:-0}
run_started=$(date +%s)
for k in $client_counts; do
  dir=$work/run-np$np-c$k
  rm -rf "$dir"; mkdir -p "$dir"
  for prog in "${progs[@]}"; do
    t0=$(date +%s)
    if [ "$budget" -gt 0 ] && [ $((t0 - run_started)) -ge "$budget" ]; then
      rows+=("$(printf '%-20s %3d %7d %-7s %6s' "$prog" "$np" "$k" "not-run" "-")")
      notrun=$((notrun + 1))
      continue
    fi
    rc=0; run_one "$prog" "$k" "$dir" || rc=$?
    secs=$(( $(date +%s) - t0 ))
    if [ "$rc" = 0 ]; then res=pass; passed=$((passed + 1))
    else
      res=FAIL; failed=$((failed + 1))
      if [ "$rc" = 124 ] || [ "$rc" = 137 ] || grep -q "ran longer than --timeout" "$dir/$prog.log"; then
        res=TIMEOUT
      fi
      fails+=("$prog (np $np, clients $k) exit $rc: $(reason "$dir/$prog.log")")
    fi
    rows+=("$(printf '%-20s %3d %7d %-7s %6d' "$prog" "$np" "$k" "$res" "$secs")")
    msg "$prog np $np clients $k: $res ($secs s)"
  done
done
run_secs=$(( $(date +%s) - run_started ))

mkdir -p "$(dirname "$results")"
{
  echo "HDF5 $version testpar against $mpi_label: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores," \
       "impi $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "command: ${IMPI_HDF5_MPI:+IMPI_HDF5_MPI=$IMPI_HDF5_MPI }tests/conformance/hdf5_testpar.sh ${*:-}"
  echo "HDF5TestExpress=$HDF5TestExpress, per-run timeout $timeout_s s; configure+build $build_secs s" \
       "(0 when reused), runs $run_secs s"
  echo
  printf '%-20s %3s %7s %-7s %6s\n' program np clients result secs
  printf '%s\n' "${rows[@]}"
  echo
  echo "left out: t_pflush1, t_pflush2 (exit without MPI_Finalize on purpose; testpflush.sh)"
  [[ " ${progs[*]} " == *" t_bigio "* ]] || echo "          t_bigio (2 GiB+ datasets; runs only when named)"
  if [ ${#fails[@]} -gt 0 ]; then
    echo
    echo "failing runs (logs: ${work/#$here\//}/run-np$np-c*/PROG.log):"
    printf '  %s\n' "${fails[@]}"
  fi
  echo
  [ "$notrun" = 0 ] || echo "not run: $notrun (IMPI_HDF5_BUDGET=$budget s spent)"
  echo
  echo "$passed passed, $failed failed"
} >"$results.new"
mv "$results.new" "$results"
cat "$results"
msg "results in $results"
if [ "${IMPI_HDF5_STRICT:-0}" = 1 ] && [ "$failed" -gt 0 ]; then exit 1; fi
exit 0
