#!/usr/bin/env bash
# Copies the OrgAgent CRD (crds/orgagent.yaml, the single source of truth) into the Helm chart, which must ship
# it byte for byte (test/k8s/helm-chart.k8s.test.ts asserts it). `--check` only reports a difference (exit 1).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source_file="$root/crds/orgagent.yaml"
chart_file="$root/helm/idplane/crds/orgagent.yaml"

if [ "${1:-}" = "--check" ]; then
  if cmp -s "$source_file" "$chart_file"; then
    echo "sync-crd.sh: helm/idplane/crds/orgagent.yaml matches crds/orgagent.yaml"
    exit 0
  fi
  echo "sync-crd.sh: helm/idplane/crds/orgagent.yaml differs from crds/orgagent.yaml; run scripts/sync-crd.sh" >&2
  exit 1
fi

mkdir -p "$(dirname "$chart_file")"
cp "$source_file" "$chart_file"
echo "sync-crd.sh: copied crds/orgagent.yaml to helm/idplane/crds/orgagent.yaml"
