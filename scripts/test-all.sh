#!/usr/bin/env bash
# `make test`: the lint and type checks in the background while jest runs every project; exits non-zero when either
# failed. The checks' output is printed after jest's, so it does not interleave with the test report.
set -uo pipefail
cd "$(dirname "$0")/.."
# Agent data directories made by the test helpers (test/helpers/agent-process.ts), one folder per test process:
# removed once that process is gone (a concurrent run's stay). Their PostgreSQL schemas likewise, by
# scripts/drop-test-agent-schemas.cjs.
remove_agent_dirs_of_ended_processes() {
  local dir
  for dir in "${TMPDIR:-/tmp}"/idplane-test-agents-*; do
    [ -d "$dir" ] || continue
    kill -0 "${dir##*-}" 2>/dev/null || rm -rf "$dir"
  done
}
remove_agent_dirs_of_ended_processes
node scripts/drop-test-agent-schemas.cjs
checks_log=$(mktemp)
(make --no-print-directory lint typecheck >"$checks_log" 2>&1) &
checks_pid=$!
npx jest --ci "$@"
jest_status=$?
remove_agent_dirs_of_ended_processes
node scripts/drop-test-agent-schemas.cjs
wait "$checks_pid"
checks_status=$?
echo "---- lint and type checks (exit $checks_status) ----"
cat "$checks_log"
rm -f "$checks_log"
if [ "$checks_status" -ne 0 ]; then echo "make test: lint or type checks failed" >&2; fi
if [ "$jest_status" -ne 0 ]; then echo "make test: jest failed" >&2; fi
[ "$jest_status" -eq 0 ] && [ "$checks_status" -eq 0 ]
