#!/usr/bin/env bash
# Our library under Open MPI's mpirun (a PMIx launcher): ranks and size right.
set -u
mpirun=$1 prog=$2
if [ -z "$mpirun" ] || [ ! -x "$mpirun" ]; then
  echo "SKIP: mpirun.openmpi is not installed (apt-get install openmpi-bin)"
  exit 77
fi
out=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 90 "$mpirun" \
  --oversubscribe -np 2 --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
  "$prog" 2 2>&1)
rc=$?
echo "$out"
[ $rc = 0 ] || { echo "mpirun.openmpi exited $rc"; exit 1; }
for r in 0 1; do
  [ "$(echo "$out" | grep -c "^rank $r of 2 ok")" = 1 ] || { echo "rank $r missing"; exit 1; }
done
echo "ok"
