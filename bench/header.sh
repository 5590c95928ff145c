# header.sh - sourced by the bench scripts: the first line of a results
# file in bench/results/, saying what produced it.
#
#   cmdline=$(bench_cmdline "$@")        at the top of a script: the exact
#                                        command line (IMPI_* variables set,
#                                        then the script and its arguments)
#   bench_header "$cmdline" LIB...       "# DATE HOST, N cores; command: ...;
#                                        impi: COMMIT; peers: ..." (COMMIT: the
#                                        one $build was built from when that
#                                        is another tree) where LIB
#                                        names what the script compared
#                                        (ompi, mpich, lam; others ignored)
#   bench_probe PROG                     the 8 B one-way latency (us) of 2
#                                        procs of one client on shared memory,
#                                        PROG being bench/p2p_bench.c built by
#                                        impi's mpicc. The scripts whose
#                                        figures depend on it record it at the
#                                        start and end of a run: a VM of this
#                                        workplace switches between a fast and
#                                        a slow mode (about 0.08 and 0.30 us)
#                                        from minute to minute.

bench_cmdline() {
  local kv out=""
  while IFS= read -r kv; do
    out+="${kv%%=*}=$(printf '%q' "${kv#*=}") "
  done < <(env | grep -E '^(IMPI_[A-Z0-9_]*|IO_BENCH_ONLY|IO_BENCH_AB)=' | sort)
  out+=$(printf '%q ' "$0" "$@")
  printf '%s' "${out% }"
}

bench_header() {
  local cmd=$1 lib v peers="" rev
  shift
  for lib in "$@"; do
    case $lib in
      ompi) v=$(mpirun.openmpi --version 2>/dev/null | awk 'NR == 1 {print $NF}') || v="" ;;
      mpich) v=$(mpiexec.mpich --version 2>/dev/null | awk '/Version:/ {print $2; exit}') || v="" ;;
      lam) v=7.1.4 ;;
      *) continue ;;
    esac
    case $lib in
      ompi) lib="Open MPI" ;;
      mpich) lib=MPICH ;;
      lam) lib=LAM/MPI ;;
    esac
    peers+="${peers:+, }$lib ${v:-(version unknown)}"
  done
  rev=$(git -C "$(dirname "${BASH_SOURCE[0]}")" describe --always --dirty 2>/dev/null || echo unknown)
  # The build the script was given ($build) may come from another tree:
  # name the commit it was built from.
  local src
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "${build:-}/CMakeCache.txt" 2>/dev/null)
  if [ -n "$src" ] && [ "$(cd "$src" 2>/dev/null && pwd -P)" != "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)" ]; then
    rev="$(git -C "$src" describe --always --dirty 2>/dev/null || echo unknown) (built in $src; scripts from $rev)"
  fi
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(uname -n), $(nproc) cores; command: $cmd; impi: $rev; peers: ${peers:-none}"
}

bench_probe() {
  "$build/bin/impirun" -np 2 "$1" latency 8 2>/dev/null | awk '$1 == 8 {print $2}'
}

# bench_order R N: the order in which round R (from 1) runs N libraries or
# configurations, as indices 0..N-1 on one line. A Williams design: over N
# rounds (2N when N is odd) each one runs once in every position and once
# right after every other (twice each when N is odd). A fixed rotation
# keeps each library's predecessor the same in every round, and whatever
# a run leaves behind (the kernel's writeback of its files, a cold cache, a
# CPU's clock) then always lands on the same library.
bench_order() {
  local r=$(($1 - 1)) n=$2 j i s=() out=()
  for ((j = 0; j < n; j++)); do
    if ((j == 0)); then
      s+=(0)
    elif ((j % 2)); then
      s+=($(((j + 1) / 2)))
    else
      s+=($((n - j / 2)))
    fi
  done
  for ((j = 0; j < n; j++)); do out+=($(((s[j] + r) % n))); done
  if ((n % 2 && (r / n) % 2)); then
    for ((j = n - 1; j >= 0; j--)); do printf '%s ' "${out[j]}"; done
  else
    printf '%s ' "${out[@]}"
  fi
  echo
}
