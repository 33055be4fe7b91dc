# The two commands a newcomer needs: `make run` (embedded platform on :5000) and `make test` (every test).
# Both run on Node 24 LTS: scripts/ensure-node.sh finds it, or fetches it from the npm registry into the cache
# when the machine's node is older, and every step below (npm ci, build, jest, the programs and the agents they
# spawn) runs with it first on PATH.
SHELL := /bin/bash
NPM ?= npm

NODE_BIN := $(shell bash scripts/ensure-node.sh)
ifeq ($(NODE_BIN),)
$(error Node 24 is needed and scripts/ensure-node.sh could not provide it (see its message above))
endif
export PATH := $(NODE_BIN):$(PATH)
NODE_MAJOR = node -p 'process.versions.node.split(".")[0]'

.PHONY: run test build lint typecheck install clean test-unit test-integration sync-crd node-version chaos chaos-short soak bench

# Reinstalled when the lockfile changes or when node_modules was installed by another Node major.
node_modules/.package-lock.json: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@$(NODE_MAJOR) > node_modules/.node-major
	@touch $@

install: node-version node_modules/.package-lock.json
	@installed=$$(cat node_modules/.node-major 2>/dev/null); current=$$($(NODE_MAJOR)); \
	if [ "$$installed" != "$$current" ]; then \
	  echo "node_modules was installed by Node $${installed:-(unknown)}; reinstalling on Node $$current"; \
	  $(NPM) ci --no-audit --no-fund && echo "$$current" > node_modules/.node-major; \
	fi

node-version:
	@echo "Node $$(node --version) ($$(command -v node))"

build: install
	node scripts/build.mjs

# The embedded platform's agents talk to each other on loopback: private targets allowed unless the caller says no.
run: build
	NETWORK_ALLOW_PRIVATE_TARGETS=$${NETWORK_ALLOW_PRIVATE_TARGETS:-$${WEBHOOK_ALLOW_PRIVATE_TARGETS:-true}} node dist/api/src/main.js

typecheck: install
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p console/tsconfig.json

lint: install
	npx eslint .
	npx prettier --check .
	bash scripts/sync-crd.sh --check

# Lint and type checks run beside jest (its workers spend much of their time waiting on agent processes); the target
# fails when either side fails, after both have finished.
test: install build
	@bash scripts/test-all.sh

test-unit: install
	npx jest --ci --selectProjects unit

# Types are checked by `make test`; JEST_ARGS narrows the run (.ci/run leaves out what its first pass covered).
test-integration: install build
	npx jest --ci --selectProjects integration e2e $(JEST_ARGS)

# A benchmark on Node 24 from a fresh clone (docs/benchmarks.md): `make bench B=agent` runs `npm run bench:agent`
# with the Node above first on PATH (the machine's own node may be older); BENCH_* settings pass through the
# environment, e.g. `BENCH_ORGS=5 make bench B=provisioning`.
bench: install
	@if [ -z "$(B)" ]; then \
	  echo "Name the benchmark: make bench B=<name>, one of:"; \
	  node -p 'Object.keys(require("./package.json").scripts).filter((name) => name.startsWith("bench:")).map((name) => "  " + name.slice(6)).join("\n")'; \
	  exit 2; \
	fi
	$(NPM) run bench:$(B)

sync-crd:
	bash scripts/sync-crd.sh

clean:
	rm -rf dist coverage

# Issue 28: the chaos run (CHAOS_MINUTES, default 20) and the soak (SOAK_MINUTES, default 60) on this machine's
# PostgreSQL and RabbitMQ (docs/reliability.md); both on the Node 24 found above.
chaos: build
	node -r ./bench/register-ts.cjs bench/chaos.ts

# The one-minute chaos run of test/e2e/chaos-short.e2e.test.ts alone (`make test` runs it on the real services).
chaos-short: build
	DATABASE_URL=$${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/test} AMQP_URL=$${AMQP_URL:-amqp://guest:guest@127.0.0.1:5672} npx jest --ci --selectProjects e2e test/e2e/chaos-short.e2e.test.ts

soak: build
	node -r ./bench/register-ts.cjs bench/soak.ts
