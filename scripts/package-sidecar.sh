#!/usr/bin/env bash
# Puts the pinned Bun runtime beside the built binary (build/bin/bun). The app
# runs the ACP adapter with it when no codex-acp is on PATH.
# The version is pinned in build/sidecar/package-lock.json; npm installs it into
# .cache/sidecar/ so repeated builds reuse the download.
#
# usage: scripts/package-sidecar.sh [OUT_DIR]   (default build/bin)
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-build/bin}
cache=.cache/sidecar
pkg=@oven/bun-linux-x64

mkdir -p "$cache" "$out"
# Reinstall only when the pinned lock changed since the last install.
if ! cmp -s build/sidecar/package-lock.json "$cache/package-lock.json" ||
	! [ -x "$cache/node_modules/$pkg/bin/bun" ]; then
	cp build/sidecar/package.json build/sidecar/package-lock.json "$cache/"
	(cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
fi

want=$(node -p "require('./build/sidecar/package-lock.json').packages['node_modules/$pkg'].version")
src="$cache/node_modules/$pkg/bin/bun"
[ -x "$src" ] || { echo "package-sidecar: $src missing after npm ci" >&2; exit 1; }

install -m 0755 "$src" "$out/bun.tmp"
mv -f "$out/bun.tmp" "$out/bun"

# A bun that cannot start here (e.g. a CPU without AVX2 needs the -baseline
# build) must fail the build, not the user's first chat.
got=$("$out/bun" --version) || { echo "package-sidecar: $out/bun does not run on this machine" >&2; exit 1; }
if [ "$got" != "$want" ]; then
	echo "package-sidecar: $out/bun reports $got, pinned $want" >&2
	exit 1
fi
echo "sidecar: $out/bun $got"
