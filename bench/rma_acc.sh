#!/usr/bin/env bash
# rma_acc.sh - large MPI_Accumulate throughput (bench/rma_acc_bench.c: every
# rank but 0 adds `ops` accumulates of 64 KiB .. 4 MiB of MPI_INT into rank
# 0's window, MPI_Win_flush_local after each, MPICH's large_acc_flush_local
# shape) with impi, Open MPI and MPICH in the same run, 3 procs, all on
# loopback (127.0.0.x). Two tables, MB/s of the origins together (higher is
# better), the median over rounds, and impi against the better peer (>1:
# impi faster):
#   one client:  impi -np 3, Open MPI (--mca btl self,vader), MPICH (default)
#   two clients: impi -np 3 --clients 2 (2 + 1 procs), Open MPI over TCP
#                (--mca btl tcp,self --mca osc pt2pt, as bench/rma.sh says
#                why), MPICH over TCP (MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self)
# Open MPI runs with --allow-run-as-root --oversubscribe --mca
# btl_tcp_if_include lo --mca oob_tcp_if_include lo; MPICH with
# UCX_NET_DEVICES=lo. Rounds interleave the configurations.
# Usage: bench/rma_acc.sh [build-dir] [rounds] [max_bytes] [ops]
#   IMPI_BENCH_ACC_ALLOCATE=1: MPI_Win_allocate windows (default
#   MPI_Win_create over malloc'd memory, as MPICH's test).
#   Every run is cut at IMPI_BENCH_RUN_TIMEOUT seconds (120); a run that
#   fails leaves its cells n/a.
# Writes bench/results/rma_acc.txt (IMPI_BENCH_RESULTS=FILE: there).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
rounds=${2:-3}
max=${3:-4194304}
ops=${4:-10}
. "$here/bench/header.sh"
cmdline=$(bench_cmdline "$@")
out=${IMPI_BENCH_RESULTS:-$here/bench/results/rma_acc.txt}
tmo=${IMPI_BENCH_RUN_TIMEOUT:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$here/bench/rma_acc_bench.c
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=(-r 5 -o "$ops" -S "$max")
[ "${IMPI_BENCH_ACC_ALLOCATE:-0}" = 1 ] || args+=(-c)

cfgs=() libs=()
"$build/bin/mpicc" -O2 -o "$work/acc.impi" "$src" && cfgs+=(impi1 impi2)
if command -v mpicc.openmpi > /dev/null; then
  mpicc.openmpi -O2 -o "$work/acc.ompi" "$src" && cfgs+=(ompi_shm ompi_tcp) && libs+=(ompi)
fi
if command -v mpicc.mpich > /dev/null; then
  mpicc.mpich -O2 -o "$work/acc.mpich" "$src" && cfgs+=(mpich_shm mpich_tcp) && libs+=(mpich)
fi

run_cfg() {
  local lo=(--allow-run-as-root --oversubscribe --mca btl_tcp_if_include lo
    --mca oob_tcp_if_include lo)
  case $1 in
    impi1) "$build/bin/impirun" -np 3 "$work/acc.impi" "${args[@]}" ;;
    impi2) "$build/bin/impirun" -np 3 --clients 2 "$work/acc.impi" "${args[@]}" ;;
    ompi_shm) mpirun.openmpi -np 3 "${lo[@]}" --mca btl self,vader "$work/acc.ompi" "${args[@]}" ;;
    ompi_tcp)
      mpirun.openmpi -np 3 "${lo[@]}" --mca btl tcp,self --mca osc pt2pt "$work/acc.ompi" "${args[@]}"
      ;;
    mpich_shm) UCX_NET_DEVICES=lo mpiexec.mpich -n 3 "$work/acc.mpich" "${args[@]}" ;;
    mpich_tcp)
      MPIR_CVAR_NOLOCAL=1 UCX_TLS=tcp,self UCX_NET_DEVICES=lo mpiexec.mpich -n 3 \
        "$work/acc.mpich" "${args[@]}"
      ;;
  esac
}

t0=$(date +%s)
for ((r = 1; r <= rounds; ++r)); do
  for c in "${cfgs[@]}"; do
    if ! timeout -k 5 "$tmo" bash -c "$(declare -f run_cfg); $(declare -p args work build); run_cfg $c" \
      > "$work/$c.$r" 2> "$work/$c.$r.err"; then
      echo "rma_acc.sh: $c round $r failed: $(head -c 200 "$work/$c.$r.err" | tr '\n' ' ')" >&2
      : > "$work/$c.$r"
    fi
  done
done
t1=$(date +%s)

median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
cell() {  # cell CONFIG BYTES: the median over rounds of acc_bw
  local c=$1 b=$2 r
  for ((r = 1; r <= rounds; ++r)); do
    awk -v b="$b" '$1 == "acc_bw" && $2 == b {print $3}' "$work/$c.$r" 2> /dev/null
  done | median
}
ratio() {  # ratio OURS PEER1 PEER2: ours / the better peer
  awk -v a="$1" -v b="$2" -v c="$3" 'BEGIN {
    best = 0; if (b != "n/a") best = b; if (c != "n/a" && c + 0 > best + 0) best = c
    if (a == "n/a" || best + 0 == 0) print "n/a"; else printf "%.2fx\n", a / best }'
}

{
  bench_header "$cmdline" "${libs[@]}"
  echo "# $(date -u +%Y-%m-%d) $(hostname), $(nproc) cores, 3 procs, $rounds round(s) of 5 repetitions," \
    "$ops accumulates + flush_local per repetition, windows from" \
    "$([ "${IMPI_BENCH_ACC_ALLOCATE:-0}" = 1 ] && echo MPI_Win_allocate || echo MPI_Win_create); $((t1 - t0)) s;" \
    "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "MPI_Accumulate (MPI_INT, MPI_SUM) into rank 0 from ranks 1 and 2: MB/s of both origins together"
  echo "median over rounds; vs best: impi against the better peer (>1: impi faster)"
  echo
  printf '%-10s %14s %12s %12s %8s   %14s %12s %12s %8s\n' bytes impi-1client OMPI-shm MPICH-shm \
    "vs best" impi-2clients OMPI-tcp MPICH-tcp "vs best"
  for ((b = 65536; b <= max; b *= 4)); do
    i1=$(cell impi1 $b) os=$(cell ompi_shm $b) ms=$(cell mpich_shm $b)
    i2=$(cell impi2 $b) ot=$(cell ompi_tcp $b) mt=$(cell mpich_tcp $b)
    printf '%-10s %14s %12s %12s %8s   %14s %12s %12s %8s\n' $b "$i1" "$os" "$ms" \
      "$(ratio "$i1" "$os" "$ms")" "$i2" "$ot" "$mt" "$(ratio "$i2" "$ot" "$mt")"
  done
} | tee "$out"
