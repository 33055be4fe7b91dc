#!/usr/bin/env bash
# Prints the bin directory of the Node.js the project runs on (Node 24 LTS). A machine whose own node is 24 or
# newer uses it. An older one gets Node 24 from the npm registry's node-linux-<arch> package (the official
# binary with its headers), unpacked once into the cache outside the repository (IDPLANE_CACHE, default
# ~/.cache/idplane). The Makefile puts the printed directory first on PATH, so npm ci, the build, jest, the
# programs and the agents they spawn (process.execPath) all run on it.
set -euo pipefail

REQUIRED_MAJOR=24
# Pinned: the version CI and the image run (Dockerfile's NODE_IMAGE names the same line).
PINNED_VERSION=24.21.0

own_node=$(command -v node || true)
if [ -n "$own_node" ]; then
  own_major=$("$own_node" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$own_major" -ge "$REQUIRED_MAJOR" ]; then
    dirname "$own_node"
    exit 0
  fi
fi

case "$(uname -m)" in
  x86_64 | amd64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "ensure-node: no node-linux package for $(uname -m); install Node $REQUIRED_MAJOR yourself" >&2; exit 1 ;;
esac

cache="${IDPLANE_CACHE:-$HOME/.cache/idplane}"
target="$cache/node-v$PINNED_VERSION-linux-$arch"
if [ ! -x "$target/bin/node" ]; then
  echo "ensure-node: fetching Node $PINNED_VERSION (node-linux-$arch) from the npm registry into $target" >&2
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/.node-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-$arch@$PINNED_VERSION" >/dev/null)
  tar xzf "$work"/node-linux-*.tgz -C "$work"
  "$work/package/bin/node" --version >/dev/null
  # A rename is atomic: a concurrent run sees either no directory or a whole one.
  mv "$work/package" "$target.$$" && { mv -T "$target.$$" "$target" 2>/dev/null || rm -rf "$target.$$"; }
fi
echo "$target/bin"
