#!/usr/bin/env bash
# Compiles what runs in production (raft, internal, cmd, bench) to plain JavaScript under dist/,
# laid out as the repository is, with the .proto files beside it: `make run` and `make bench` run
# this build (internal/cluster/build-layout.ts says why). Tests run the sources through tsx.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
npx tsc -p tsconfig.build.json
cp -R proto dist/proto
