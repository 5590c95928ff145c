#!/usr/bin/env bash
# slurm_probe.sh - check what impi sees under the test Slurm of slurm_up.sh.
# Prints what each step saw and ends with "N passed, N failed".
# Usage: tests/slurm/slurm_probe.sh [build-dir]   (default: build)
# Needs slurm_up.sh to have run; IMPI_SLURM_NODES=2 adds the two-node checks.
set -uo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
export SLURM_CONF=${IMPI_SLURM_DIR:-/tmp/impi-slurm}/etc/slurm.conf
hello=$build/examples/hello
T="timeout 60"
work=$(mktemp -d /tmp/impi-slurm-probe.XXXXXX)
trap 'rm -rf "$work"' EXIT
node=$(sinfo -h -N -o %N | head -1)
nnodes=$(sinfo -h -N -o %N | sort -u | wc -l)
pass=0 fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { # description, then a command whose success is the check
  local d=$1
  shift
  if "$@"; then ok "$d"; else ko "$d"; fi
}

[ -x "$hello" ] || { echo "no $hello: build impi first" >&2; exit 1; }
echo "nodes: $(sinfo -h -N -o '%N/%t/%c' | tr '\n' ' ')"

check "srun --mpi=list lists pmix" bash -c "$T srun --mpi=list 2>&1 | grep -qw pmix"

$T srun --mpi=pmix -n 2 -w "$node" "$hello" >"$work/pmix.out" 2>&1
cat "$work/pmix.out"
check "srun --mpi=pmix -n 2: one world of 2" [ "$(grep -c ' of 2 ' "$work/pmix.out")" = 2 ]

$T srun -n 2 -w "$node" "$hello" >"$work/plain.out" 2>&1
cat "$work/plain.out"
# Older impi ran N singletons here; newer impi refuses in MPI_Init, naming --mpi=pmix.
if [ "$(grep -c 'rank 0 of 1 ' "$work/plain.out")" = 2 ]; then
  ok "plain srun -n 2: two singletons"
elif [ "$(grep -c 'without PMIx.*--mpi=pmix' "$work/plain.out")" = 2 ]; then
  ok "plain srun -n 2: refused in MPI_Init with a hint to --mpi=pmix"
else
  ko "plain srun -n 2: neither two singletons nor a clear refusal"
fi

envs='env | grep -E "^(SLURM|PMI|PMIX)" | sort'
$T srun -n 1 -w "$node" bash -c "$envs" >"$work/env.plain" 2>&1
$T srun --mpi=pmix -n 1 -w "$node" bash -c "$envs" >"$work/env.pmix" 2>&1
check "plain srun task has no PMI*/PMIX* variables" bash -c "! grep -q '^PMI' '$work/env.plain'"
check "pmix task has PMIX_NAMESPACE/RANK/SERVER_URI*" bash -c \
  "grep -q '^PMIX_NAMESPACE=' '$work/env.pmix' && grep -q '^PMIX_RANK=0' '$work/env.pmix' &&
   grep -q '^PMIX_SERVER_URI4=' '$work/env.pmix'"
echo "--- pmix-only variables:"
comm -13 <(sed 's/=.*//' "$work/env.plain" | sort) <(sed 's/=.*//' "$work/env.pmix" | sort) | tr '\n' ' '
echo

# Inside an allocation: the shell's variables, and an extra process started
# with --overlap on a given node while a step holds every CPU.
cat >"$work/alloc.sh" <<'EOF'
env | grep -E '^SLURM_(JOB_NODELIST|NODELIST|TASKS_PER_NODE|NTASKS|NPROCS|JOB_CPUS_PER_NODE|NNODES|JOB_NUM_NODES|JOB_ID)=' | sort
node=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | tail -1)
srun -n "$SLURM_NTASKS" sleep 8 </dev/null >/dev/null 2>&1 &
sleep 1.5
t0=$(date +%s%N)
timeout 5 srun --overlap -N1 -n1 -w "$node" bash -c 'echo "overlap ran on $SLURMD_NODENAME"' </dev/null
echo "overlap_rc=$? ms=$(( ($(date +%s%N) - t0) / 1000000 ))"
timeout 3 srun -N1 -n1 -w "$node" true </dev/null >/dev/null 2>&1
echo "plain_rc=$?"
coproc AG { srun --overlap -N1 -n1 -w "$node" cat; }
echo "ping" >&"${AG[1]}"
read -r -t 5 line <&"${AG[0]}"
echo "echoed=$line"
exec {AG[1]}>&-
wait "$AG_PID"
echo "agent_rc=$?"
kill %1 2>/dev/null
wait
EOF
$T salloc -Q -N "$nnodes" -n 4 bash "$work/alloc.sh" >"$work/alloc.out" 2>&1
cat "$work/alloc.out"
check "salloc -n 4: SLURM_NTASKS=4" grep -q '^SLURM_NTASKS=4$' "$work/alloc.out"
check "srun --overlap starts at once beside a full step" grep -q '^overlap_rc=0 ' "$work/alloc.out"
check "a step without --overlap has to wait" bash -c "grep -q '^plain_rc=124' '$work/alloc.out'"
check "stdin/stdout of an --overlap step round-trip" grep -q '^echoed=ping$' "$work/alloc.out"
check "the step ends when its stdin closes" grep -q '^agent_rc=0$' "$work/alloc.out"

"$build/bin/mpicc" -o "$work/publish_name" "$here/tests/slurm/publish_name.c"
$T srun --mpi=pmix -n 2 -w "$node" "$work/publish_name" >"$work/pub.out" 2>&1
cat "$work/pub.out"
check "publish_name runs to the end under srun --mpi=pmix" [ "$(grep -c ' done$' "$work/pub.out")" = 2 ]

if [ "$nnodes" -ge 2 ]; then
  $T srun -N2 -n2 -l printenv SLURMD_NODENAME >"$work/n2.out" 2>&1
  check "srun -N2 runs on two slurmd nodes" [ "$(sort -u "$work/n2.out" | wc -l)" = 2 ]
  # informational: impi expects all procs of one PMIx job on one host today
  $T srun --mpi=pmix -N2 -n2 -l "$hello" 2>&1 | sed 's/^/  (impi -N2) /'
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
