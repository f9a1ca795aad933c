#!/usr/bin/env bash
# Runs node's test runner over the test files under the given directories. Node 20's runner has
# no globbing and passes when it finds nothing, so the files are listed here and an empty list fails.
set -euo pipefail
dirs=()
for d in "$@"; do [[ -d $d ]] && dirs+=("$d"); done
if ((${#dirs[@]} == 0)); then echo "run-tests: none of $* exists" >&2; exit 1; fi
mapfile -t files < <(find "${dirs[@]}" -name '*.test.ts' -type f | sort)
if ((${#files[@]} == 0)); then
  echo "run-tests: no test files under ${dirs[*]}" >&2
  exit 1
fi
echo "run-tests: ${#files[@]} files under ${dirs[*]}"
exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" "${files[@]}"
