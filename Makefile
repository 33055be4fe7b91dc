# The two commands a newcomer needs: `make run` (embedded platform on :5000) and `make test` (every test).
SHELL := /bin/bash
NPM ?= npm

.PHONY: run test build lint typecheck install clean test-unit test-integration sync-crd

node_modules/.package-lock.json: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

install: node_modules/.package-lock.json

build: install
	node scripts/build.mjs

run: build
	node dist/api/src/main.js

typecheck: install
	npx tsc -p tsconfig.json --noEmit

lint: install
	npx eslint .
	npx prettier --check .
	bash scripts/sync-crd.sh --check

test: install lint typecheck build
	npx jest --ci

test-unit: install
	npx jest --ci --selectProjects unit

test-integration: install build
	npx jest --ci --selectProjects integration e2e

sync-crd:
	bash scripts/sync-crd.sh

clean:
	rm -rf dist coverage
