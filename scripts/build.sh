#!/usr/bin/env bash
# Compiles what runs in production (raft, internal, cmd), the benchmarks and the chaos harness that
# drive it (bench, test/chaos, and the test helpers they import) to plain JavaScript under dist/,
# laid out as the repository is, with the .proto files, the generated schemas and the vendored
# OpenAPI documents beside it: `make run`, `make bench` and
# `make chaos` run this build (internal/cluster/build-layout.ts says why). Tests run the sources
# through tsx. Incremental, and in place: a cluster or benchmark running from
# dist/ meanwhile keeps finding its files (`make clean` removes dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.build.json
mkdir -p dist/proto dist/internal/registry/schema/generated dist/third_party
cp -R proto/. dist/proto/
cp internal/registry/schema/generated/*.json dist/internal/registry/schema/generated/
cp -R third_party/. dist/third_party/
