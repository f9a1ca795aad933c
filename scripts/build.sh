#!/usr/bin/env bash
# Compiles what runs in production (raft, internal, cmd), the benchmarks and the chaos harness that
# drive it (bench, test/chaos, and the test helpers they import) to plain JavaScript under dist/,
# laid out as the repository is, with the .proto files, the generated schemas and the vendored
# OpenAPI documents beside it: `make run`, `make bench` and
# `make chaos` run this build (internal/cluster/build-layout.ts says why). Incremental, and in
# place: a cluster or benchmark running from dist/ meanwhile keeps finding its files (`make clean`
# removes dist/).
#
# `--with-tests` also compiles every test with its data files (what `make test` runs: a test file
# compiled starts about 2 s sooner than through tsx, and its clusters run compiled replicas). Types
# are not checked then: `make typecheck` checks them, before.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --with-tests ]]; then
  npx tsc -p tsconfig.test-build.json --noCheck
  # The tests' own data (testdata/, scripts they start) and the documents they read, beside them.
  while IFS= read -r -d '' file; do
    mkdir -p "dist/$(dirname "$file")" && cp "$file" "dist/$file"
  done < <(find test docs -type f ! -name '*.ts' -print0)
else
  npx tsc -p tsconfig.build.json
fi
mkdir -p dist/proto dist/internal/registry/schema/generated dist/third_party
cp -R proto/. dist/proto/
cp internal/registry/schema/generated/*.json dist/internal/registry/schema/generated/
cp -R third_party/. dist/third_party/
