#!/usr/bin/env bash
# slurm_test.sh - impi under a real Slurm (tests/slurm/slurm_up.sh, two
# slurmd "nodes" on this machine, everything on loopback):
#   plain         srun -n 2 without PMIx fails with a message naming --mpi=pmix
#   pmix          srun --mpi=pmix -n 3: one world; the name service's absence
#                 gives MPI_ERR_UNSUPPORTED_OPERATION with PMIx's reason
#   salloc        impirun in an allocation: its task count and nodes, the
#                 other node's agent started with srun; sbatch too
#   mixed         an IMPI job of a client inside an allocation and one outside
# Usage: slurm_test.sh MODE BUILD_DIR. Exits 77 (skipped) when Slurm is not up
# and cannot be started here (not root, or IMPI_SLURM_TESTS=0).
set -u
mode=$1 build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
export SLURM_CONF=${IMPI_SLURM_DIR:-/tmp/impi-slurm}/etc/slurm.conf
if ! sinfo -h -N -o '%N %t' 2>/dev/null | grep -q idle; then
  [ "${IMPI_SLURM_TESTS:-1}" != 0 ] && [ "$(id -u)" = 0 ] || { echo "skipped: no Slurm"; exit 77; }
  IMPI_SLURM_NODES=2 IMPI_SLURM_NO_INSTALL=${IMPI_SLURM_NO_INSTALL:-1} bash "$here/slurm_up.sh" >/dev/null 2>&1 ||
    { echo "skipped: Slurm could not be started (tests/slurm/slurm_up.sh)"; exit 77; }
fi
nodes=$(sinfo -h -N -o '%N' | sort -u | wc -l)
impirun=$build/bin/impirun hello=$build/examples/hello
bin=$build/tests/integration
work=$(mktemp -d "${TMPDIR:-/tmp}/impi_slurm.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export IMPI_HOST_ADDRESS=127.0.0.1  # the "nodes" are this machine: stay on loopback
# impirun runs where salloc runs (this node): one-node allocations are
# pinned to it, or Slurm may place them on the other node.
here_node=$(hostname -s)

case $mode in
plain)
  out=$(timeout 60 srun -n 2 "$hello" 2>&1) && fail "plain srun -n 2 ran: $out"
  grep -q "srun --mpi=pmix" <<< "$out" || fail "no hint at --mpi=pmix: $out"
  [ "$(grep -c 'started without PMIx' <<< "$out")" = 2 ] || fail "not every task said why: $out"
  timeout 60 srun -n 1 "$hello" | grep -q "rank 0 of 1" || fail "srun -n 1 (a singleton) failed"
  echo "ok: plain srun -n 2 refuses to run singletons and says to use --mpi=pmix"
  ;;
pmix)
  out=$(timeout 60 srun --mpi=pmix -n 3 "$hello" 2>&1) || fail "srun --mpi=pmix: $out"
  [ "$(grep -c 'of 3 on' <<< "$out")" = 3 ] || fail "not one world of 3: $out"
  "$build/bin/mpicc" -o "$work/publish" "$here/publish_name.c" || fail "mpicc"
  out=$(timeout 60 srun --mpi=pmix -n 2 "$work/publish" 2>&1) || fail "publish: $out"
  grep -q "MPI_Publish_name -> .*MPI_ERR_UNSUPPORTED_OPERATION" <<< "$out" || fail "publish class: $out"
  grep -q "rank 1: MPI_Lookup_name -> .*MPI_ERR_UNSUPPORTED_OPERATION" <<< "$out" || fail "lookup: $out"
  # The reason reaches the user (MPI_ERRORS_ARE_FATAL prints it).
  out=$(timeout 60 srun --mpi=pmix -n 1 "$work/publish" fatal 2>&1) && fail "a fatal error exited 0"
  grep -q "PMIx" <<< "$out" || fail "the PMIx reason is not in the message: $out"
  if [ "$nodes" -ge 2 ]; then  # one PMIx job over two nodes: no path between them, said clearly
    out=$(timeout 60 srun --mpi=pmix -N 2 -n 2 "$hello" < /dev/null 2>&1) && fail "srun -N 2 ran: $out"
    grep -q "not with srun across nodes" <<< "$out" || fail "srun -N 2: $out"
  fi
  echo "ok: srun --mpi=pmix runs one world; no name service is MPI_ERR_UNSUPPORTED_OPERATION with PMIx's reason"
  ;;
salloc)
  out=$(timeout 120 salloc -w "$here_node" -n 3 "$impirun" "$hello" 2>&1) || fail "salloc -n 3 impirun: $out"
  [ "$(grep -c 'of 3 on' <<< "$out")" = 3 ] || fail "the default -np is not the allocation's 3: $out"
  out=$(timeout 120 salloc -w "$here_node" -n 2 "$impirun" -np 3 --nooversubscribe "$hello" 2>&1) &&
    fail "--nooversubscribe ran 3 procs on 2 allocated slots: $out"
  grep -q "slots" <<< "$out" || fail "--nooversubscribe: $out"
  out=$(timeout 120 salloc -w "$here_node" -n 2 "$impirun" "$bin/io_check" universe 2>&1) || fail "universe: $out"
  grep -q "universe 2" <<< "$out" || fail "MPI_UNIVERSE_SIZE is not the allocation's: $out"
  if [ "$nodes" -ge 2 ]; then
    for prog in p2p_check coll_check; do
      out=$(timeout 120 salloc -N 2 -n 4 "$impirun" -v "$bin/$prog" 2>&1) || fail "salloc -N 2 $prog: $out"
      [ "$(grep -c 'of 4 ok' <<< "$out")" = 4 ] || fail "$prog on 2 nodes: $out"
      grep -q "started the agent of host .* through srun" <<< "$out" || fail "no agent through srun: $out"
    done
  fi
  cat > "$work/job.sh" <<JOB
#!/bin/sh
exec "$impirun" "$hello"
JOB
  id=$(sbatch --parsable -n 2 -o "$work/job.out" "$work/job.sh") || fail "sbatch"
  for _ in $(seq 120); do squeue -h -j "$id" 2>/dev/null | grep -q . || break; sleep 0.5; done
  [ "$(grep -c 'of 2 on' "$work/job.out")" = 2 ] || fail "sbatch: $(cat "$work/job.out")"
  echo "ok: impirun takes the allocation's task count, slots and nodes (salloc, sbatch; $nodes nodes)"
  ;;
mixed)
  export IMPI_AUTH_KEY=5150
  "$impirun" -server 2 --address 127.0.0.1 > "$work/addr" 2> "$work/srv.err" &
  spid=$!
  for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
  addr=$(cat "$work/addr")
  [ -n "$addr" ] || fail "server: $(cat "$work/srv.err")"
  # Client 0 inside an allocation (its procs: the allocation's 2 tasks),
  # client 1 started outside Slurm.
  timeout 120 salloc -w "$here_node" -n 2 "$impirun" -client 0 "$addr" --address 127.0.0.1 "$bin/coll_check" \
    > "$work/c0" 2>&1 &
  c0=$!
  timeout 120 "$impirun" -client 1 "$addr" --address 127.0.0.2 -np 2 "$bin/coll_check" \
    > "$work/c1" 2>&1 || fail "client 1 (outside Slurm): $(tail -5 "$work/c1")"
  wait $c0 || fail "client 0 (in the allocation): $(tail -5 "$work/c0")"
  wait $spid || fail "server: $(cat "$work/srv.err")"
  [ "$(cat "$work/c0" "$work/c1" | grep -c 'of 4 ok')" = 4 ] || fail "not one world of 4"
  echo "ok: an IMPI job of a client in a Slurm allocation and a client outside"
  ;;
*) fail "unknown mode $mode" ;;
esac
