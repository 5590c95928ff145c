#!/bin/bash
# bench_order (bench/header.sh) gives each round a permutation, and over a
# cycle of N rounds (2N when N is odd) every library runs equally often in
# each position and right after each other library: the property the
# bench scripts rely on to spread what one job leaves behind over the
# others.
set -euo pipefail
. "$(dirname "$0")/../bench/header.sh"
fail=0
for n in 1 2 3 4 5 6 7; do
  cycle=$n
  ((n % 2)) && cycle=$((2 * n))
  declare -A pos=() after=()
  for ((r = 1; r <= 2 * cycle; r++)); do  # two cycles: the pattern repeats
    read -r -a o <<<"$(bench_order "$r" "$n")"
    if [ "${#o[@]}" -ne "$n" ] || [ "$(printf '%s\n' "${o[@]}" | sort -n | paste -sd' ')" != "$(seq -s' ' 0 $((n - 1)))" ]; then
      echo "n=$n round $r: '${o[*]}' is not a permutation of 0..$((n - 1))"
      fail=1
      continue
    fi
    for ((j = 0; j < n; j++)); do
      pos[$j,${o[j]}]=$((${pos[$j,${o[j]}]:-0} + 1))
      ((j > 0)) && after[${o[j - 1]},${o[j]}]=$((${after[${o[j - 1]},${o[j]}]:-0} + 1))
    done
  done
  want=$((2 * cycle / n))  # times in each position over two cycles
  for ((a = 0; a < n; a++)); do
    for ((p = 0; p < n; p++)); do
      [ "${pos[$p,$a]:-0}" -eq "$want" ] || { echo "n=$n: library $a in position $p ${pos[$p,$a]:-0} times, not $want"; fail=1; }
    done
    for ((b = 0; b < n; b++)); do
      [ "$a" -ne "$b" ] || continue
      # n - 1 successors share the rounds' n - 1 adjacent pairs
      [ "${after[$a,$b]:-0}" -eq "$want" ] || { echo "n=$n: $b right after $a ${after[$a,$b]:-0} times, not $want"; fail=1; }
    done
  done
  unset pos after
done
[ "$fail" = 0 ] && echo "bench_order: balanced for 1-7 libraries"
exit "$fail"
