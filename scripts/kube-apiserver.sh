#!/usr/bin/env bash
# Builds the real Kubernetes API server (and a kubectl of the same version) that the k8s tests run, the
# envtest idea from kubebuilder: a real kube-apiserver against a real etcd, with no kubelet.
#
# No registry carries a kube-apiserver binary, so it is built from Debian's `kubernetes` source package
# (1.20.2) with Debian's Go 1.19. Go >= 1.18 breaks the vendored github.com/modern-go/reflect2 1.0.1 at run
# time, so the vendored copy is swapped for Debian's golang-github-modern-go-reflect2-dev (1.0.2) first.
# etcd comes from Debian's etcd-server package. See docs/deployment.md ("The test API server").
#
# Output (outside the repository): ${IDPLANE_CACHE:-$HOME/.cache/idplane}/kubernetes/bin/{kube-apiserver,kubectl}
# Idempotent: does nothing when both binaries and etcd are already there. Needs root for apt-get.
# The build takes about 5-6 minutes on 2 cores; it runs under `nice` because the cores are shared.
set -euo pipefail

CACHE_DIR="${IDPLANE_CACHE:-$HOME/.cache/idplane}"
KUBE_DIR="$CACHE_DIR/kubernetes"
BIN_DIR="$KUBE_DIR/bin"
SRC_PARENT="$KUBE_DIR/src"
SOURCES_FILE=/etc/apt/sources.list.d/idplane-debian-src.sources
REFLECT2_DIR=/usr/share/gocode/src/github.com/modern-go/reflect2

log() { echo "kube-apiserver.sh: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_updated=0
apt_install() {
  if [ "$apt_updated" -eq 0 ]; then
    as_root apt-get update -qq
    apt_updated=1
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

have_etcd() { command -v etcd >/dev/null 2>&1; }
have_binaries() { [ -x "$BIN_DIR/kube-apiserver" ] && [ -x "$BIN_DIR/kubectl" ]; }

if have_binaries && have_etcd; then
  log "kube-apiserver, kubectl and etcd already present in $BIN_DIR (nothing to do)"
  exit 0
fi

if ! have_etcd; then
  log "installing etcd-server (Debian)"
  apt_install etcd-server
  # The package starts an etcd service on the default ports where an init system runs; the tests start their
  # own etcd on free ports, so a running system etcd is only left alone, never relied on.
fi

if have_binaries; then
  log "done: kube-apiserver and kubectl in $BIN_DIR, etcd at $(command -v etcd)"
  exit 0
fi

# `apt-get source` needs deb-src entries, which Debian images do not carry. Add them in a file of our own,
# for the same archive the machine already uses.
if ! apt-cache showsrc kubernetes >/dev/null 2>&1; then
  if [ ! -f "$SOURCES_FILE" ]; then
    log "adding Debian deb-src entries in $SOURCES_FILE"
    as_root tee "$SOURCES_FILE" >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  fi
  apt_updated=0
fi

log "installing the build tools (golang-go 1.19, reflect2 1.0.2, dpkg-dev, make, rsync, jq)"
apt_install golang-go golang-github-modern-go-reflect2-dev dpkg-dev make rsync jq ca-certificates

mkdir -p "$SRC_PARENT" "$BIN_DIR"
src_dir="$(find "$SRC_PARENT" -mindepth 1 -maxdepth 1 -type d -name 'kubernetes-*' | head -n 1)"
if [ -z "$src_dir" ]; then
  log "fetching Debian's kubernetes source package into $SRC_PARENT"
  (cd "$SRC_PARENT" && apt-get source -qq kubernetes >/dev/null)
  src_dir="$(find "$SRC_PARENT" -mindepth 1 -maxdepth 1 -type d -name 'kubernetes-*' | head -n 1)"
fi
if [ -z "$src_dir" ] || [ ! -f "$src_dir/go.mod" ]; then
  log "the kubernetes source tree was not found under $SRC_PARENT"
  exit 1
fi

vendored="$src_dir/vendor/github.com/modern-go/reflect2"
if [ ! -f "$vendored/.idplane-debian-1.0.2" ]; then
  log "swapping the vendored modern-go/reflect2 for Debian's 1.0.2"
  rm -rf "$vendored"
  mkdir -p "$vendored"
  # Copy only the package sources (no tests): vendor/ holds exactly what the build compiles.
  find -L "$REFLECT2_DIR" -maxdepth 1 -type f \( -name '*.go' -o -name '*.s' -o -name 'LICENSE' \) ! -name '*_test.go' \
    -exec cp {} "$vendored/" \;
  touch "$vendored/.idplane-debian-1.0.2"
fi

log "building cmd/kube-apiserver and cmd/kubectl (about 5-6 minutes on 2 cores)"
started=$(date +%s)
(
  cd "$src_dir"
  export GOFLAGS=-mod=vendor GOPROXY=off GO111MODULE=on GOCACHE="$KUBE_DIR/go-build-cache"
  # Debian's tarball is not a git checkout: give the version stamp explicitly instead of asking git.
  export KUBE_GIT_VERSION=v1.20.2 KUBE_GIT_TREE_STATE=clean KUBE_GIT_MAJOR=1 KUBE_GIT_MINOR=20
  nice -n 10 make WHAT="cmd/kube-apiserver cmd/kubectl"
)
log "build took $(($(date +%s) - started)) s"

out="$src_dir/_output/bin"
install -m 0755 "$out/kube-apiserver" "$BIN_DIR/kube-apiserver"
install -m 0755 "$out/kubectl" "$BIN_DIR/kubectl"
"$BIN_DIR/kube-apiserver" --version >&2
log "done: binaries in $BIN_DIR"
