#!/usr/bin/env bash
# Runs node's test runner over the test files under the given directories, compiled: scripts/build.sh
# --with-tests first, then each test's .js under dist/ (TESTS_FROM=source runs the .ts files through
# tsx instead, as a developer runs one file). Node 20's runner has no globbing and passes when it
# finds nothing, so the files are listed here and an empty list fails.
set -euo pipefail
cd "$(dirname "$0")/.."
dirs=()
for d in "$@"; do [[ -d $d ]] && dirs+=("$d"); done
if ((${#dirs[@]} == 0)); then echo "run-tests: none of $* exists" >&2; exit 1; fi
mapfile -t files < <(find "${dirs[@]}" -name '*.test.ts' -type f | sort)
if ((${#files[@]} == 0)); then
  echo "run-tests: no test files under ${dirs[*]}" >&2
  exit 1
fi
echo "run-tests: ${#files[@]} files under ${dirs[*]}"
if [[ ${TESTS_FROM:-compiled} == source ]]; then
  exec node --import tsx --test --test-concurrency="${TEST_CONCURRENCY:-2}" "${files[@]}"
fi
scripts/build.sh --with-tests
compiled=()
for f in "${files[@]}"; do compiled+=("dist/${f%.ts}.js"); done
exec node --test --test-concurrency="${TEST_CONCURRENCY:-2}" "${compiled[@]}"
