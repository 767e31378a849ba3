#!/usr/bin/env bash
# Puts the pinned Bun runtime beside the built binary (build/bin/bun). The app
# runs the ACP adapter with it when no codex-acp is on PATH.
# The version is pinned in build/sidecar/package-lock.json; npm installs it into
# .cache/sidecar/ so repeated builds reuse the download.
#
# With --windows it puts bun.exe there instead, for the Windows installer: the
# @oven/bun-windows-x64 tarball of the same lock (an optional dependency, so
# npm ci on Linux skips it) fetched with npm pack into .cache/sidecar-windows/
# and checked against the lock's integrity hash; it cannot run here, so it is
# checked to be an x86-64 Windows program instead.
#
# usage: scripts/package-sidecar.sh [--windows] [OUT_DIR]   (default build/bin)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --windows ]; then
	out=${2:-build/bin}
	pkg=@oven/bun-windows-x64
	lock() { node -p "require('./build/sidecar/package-lock.json').packages['node_modules/$pkg'].$1"; }
	want=$(lock version)
	integrity=$(lock integrity)
	cache=.cache/sidecar-windows
	tgz=$cache/oven-bun-windows-x64-$want.tgz
	matches() { [ -s "$tgz" ] && [ "sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)" = "$integrity" ]; }
	mkdir -p "$cache" "$out"
	if ! matches; then
		rm -f "$tgz"
		(cd "$cache" && npm pack "$pkg@$want" --loglevel=error >/dev/null)
	fi
	matches || { echo "package-sidecar: $tgz does not match the lock's integrity $integrity" >&2; exit 1; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	tar -xzf "$tgz" -C "$tmp" package/bin/bun.exe
	# MZ, then at e_lfanew "PE\0\0" and machine 0x8664 (x86-64).
	node -e '
		const b = require("fs").readFileSync(process.argv[1]);
		const pe = b.readUInt32LE(0x3c);
		if (b.toString("latin1", 0, 2) !== "MZ" || b.toString("latin1", pe, pe + 4) !== "PE\0\0" || b.readUInt16LE(pe + 4) !== 0x8664)
			{ console.error("package-sidecar: " + process.argv[1] + " is not an x86-64 Windows program"); process.exit(1); }' "$tmp/package/bin/bun.exe"
	install -m 0755 "$tmp/package/bin/bun.exe" "$out/bun.exe.tmp"
	mv -f "$out/bun.exe.tmp" "$out/bun.exe"
	echo "sidecar: $out/bun.exe $want (windows-x64, integrity checked)"
	exit 0
fi

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
