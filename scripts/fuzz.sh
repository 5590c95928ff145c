#!/usr/bin/env bash
# fuzz.sh - build the fuzz targets with clang's libFuzzer (+ASan/UBSan) and
# run each for SECONDS (default 20), starting from the checked-in seeds.
# Usage: scripts/fuzz.sh [SECONDS] [build-dir]   (default build-dir: build-fuzz)
# Findings are written as crash-* files in the build dir and fail the run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-20}
build=${2:-$here/build-fuzz}
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || {
    echo "fuzz: $p is missing (scripts/setup.sh installs it)"; exit 1; }
done
CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DIMPI_FUZZ=ON -DIMPI_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_server_core fuzz_client_parser fuzz_packet_reader fuzz_dyn_wire fuzz_agent fuzz_rma_request >/dev/null
status=0
for t in server_core client_parser packet_reader dyn_wire agent rma_request; do
  corpus=$(mktemp -d)
  cp "$here/fuzz/corpus/$t"/* "$corpus/"
  log="$build/fuzz_$t.log"
  if (cd "$build" && "$build/fuzz/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 \
        -max_len=4096 "$corpus" > "$log" 2>&1); then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz_$t: ${execs:-?} executions in ${secs} s, no findings"
  else
    echo "fuzz_$t: FINDING (see $log)"; tail -30 "$log"; status=1
  fi
  rm -rf "$corpus"
done
exit $status
