#!/usr/bin/env bash
# check_format.sh - every hand-written C and C++ file of the repository
# follows .clang-format (clang-format 14). Files under a generated/ folder
# are tools/gen_api.py output and are left out (include/mpi/mpi.h marks its
# generated part with clang-format off/on).
#
# Usage: tools/check_format.sh          report the files that differ (exit 1)
#        tools/check_format.sh --fix    format them in place
set -euo pipefail
cd "$(dirname "$0")/.."
fmt=$(command -v clang-format-14 || command -v clang-format || true)
if [[ -z "$fmt" ]]; then
  echo "check_format: clang-format 14 is not installed (scripts/setup.sh installs clang-format-14)" >&2
  exit 2
fi
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' | grep -v '/generated/')
if [[ "${1:-}" == "--fix" ]]; then
  "$fmt" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$fmt" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check_format: ${#bad[@]} file(s) differ from .clang-format (fix: tools/check_format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check_format: ${#files[@]} files follow .clang-format"
