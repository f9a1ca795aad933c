# orch — the commands a developer and CI need. `make test` is the one test command.
SHELL := /bin/bash
NODE_MODULES := node_modules/.package-lock.json
SEEDS ?= 10000
SEED ?=
NODES ?=

.PHONY: all install build generate vendor-proto test typecheck lint unit sim sim-soak integration e2e run chaos bench clean

all: test

$(NODE_MODULES): package.json package-lock.json
	npm ci
	@touch $(NODE_MODULES)

install: $(NODE_MODULES)

## build: the compiled JavaScript under dist/ that make run, make bench and make chaos start (scripts/build.sh).
build: install
	scripts/build.sh

## generate: the built-in kinds' schemas from the vendored v1.28 OpenAPI documents (third_party/kubernetes-api-v1.28).
generate: install
	node --import tsx scripts/generate-builtin-schemas.ts

## vendor-proto: Kubernetes' v1.28 .proto files and their licence into proto/ from ../shared/kubernetes-api-v1.28 (SOURCE=dir for another copy).
vendor-proto: install
	node --import tsx scripts/vendor-proto.ts $(if $(SOURCE),--source $(SOURCE))

## test: everything a fresh checkout needs: types, lint, unit, a seeded simulation, integration and e2e.
test: install typecheck lint
	scripts/run-tests.sh test/unit test/sim test/integration test/e2e

typecheck: install
	npx tsc --noEmit -p .

lint: install
	npx eslint .

unit: install
	scripts/run-tests.sh test/unit

sim: install
	scripts/run-tests.sh test/sim

## sim-soak: many simulation seeds (SEEDS=n, or SEED=n to replay one; KEEP_GOING=1 counts every failing seed).
sim-soak: install
	node --import tsx test/sim/soak.ts --seeds=$(SEEDS) $(if $(SEED),--seed=$(SEED)) $(if $(NODES),--nodes=$(NODES)) $(if $(KEEP_GOING),--keep-going)

integration: install
	scripts/run-tests.sh test/integration

e2e: install
	scripts/run-tests.sh test/e2e

## run: a 3-replica cluster on loopback in the foreground.
run: build
	node dist/cmd/orch-cluster.js --data-dir .orch/data --kubeconfig .orch/kubeconfig

clean:
	rm -rf .orch dist

## bench: benchmarks side by side with etcd and the machine's limits (BENCH_QUICK=1 for a smoke run).
bench: build
	bash bench/install-etcd.sh && node dist/bench/run.js

## chaos: the checkers on a million-operation history, then a long chaos run against real replica processes (DURATION seconds, default 600; SEED=n replays a schedule).
DURATION ?= 600
chaos: build
	LONG_HISTORY_OPERATIONS=1000000 node --import tsx --test test/unit/chaos/long-history.test.ts
	node dist/test/chaos/run-chaos.js --duration=$(DURATION) $(if $(SEED),--seed=$(SEED))
