#!/usr/bin/env bash
# Puts the pinned Bun runtime beside the built binary (build/bin/bun). The app
# runs the ACP adapter with it when no codex-acp is on PATH.
# The version is pinned in build/sidecar/package-lock.json; npm installs it into
# .cache/sidecar/ so repeated builds reuse the download.
#
# With --windows it puts bun.exe there instead, for the Windows installer,
# and with --darwin arm64|amd64 the macOS bun, for the .app bundle
# (scripts/package-macos.sh): the @oven/bun-windows-x64 or
# @oven/bun-darwin-aarch64|x64 tarball of the same lock (optional
# dependencies, so npm ci on Linux skips them) fetched with npm pack into
# .cache/sidecar-OS/ and checked against the lock's integrity hash; they
# cannot run here, so each is checked to be a program of its OS and CPU.
#
# usage: scripts/package-sidecar.sh [--windows | --darwin ARCH] [OUT_DIR]   (default build/bin)
set -euo pipefail
cd "$(dirname "$0")/.."

# fetch PKG CACHE MEMBER CHECK_JS DEST: MEMBER of PKG's pinned tarball,
# checked by CHECK_JS (node, the file as argv[1]), installed as DEST.
fetch() {
	local pkg=$1 cache=$2 member=$3 check=$4 dest=$5
	lock() { node -p "require('./build/sidecar/package-lock.json').packages['node_modules/$pkg'].$1"; }
	local want integrity tgz
	want=$(lock version)
	integrity=$(lock integrity)
	# npm pack names @scope/name-V.tgz scope-name-V.tgz.
	tgz=$cache/$(echo "${pkg#@}" | tr / -)-$want.tgz
	matches() { [ -s "$tgz" ] && [ "sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)" = "$integrity" ]; }
	mkdir -p "$cache" "$(dirname "$dest")"
	if ! matches; then
		rm -f "$tgz"
		(cd "$cache" && npm pack "$pkg@$want" --loglevel=error >/dev/null)
	fi
	matches || { echo "package-sidecar: $tgz does not match the lock's integrity $integrity" >&2; exit 1; }
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	tar -xzf "$tgz" -C "$tmp" "$member"
	node -e "$check" "$tmp/$member"
	install -m 0755 "$tmp/$member" "$dest.tmp"
	mv -f "$dest.tmp" "$dest"
	echo "sidecar: $dest $want ($pkg, integrity checked)"
}

if [ "${1:-}" = --windows ]; then
	# MZ, then at e_lfanew "PE\0\0" and machine 0x8664 (x86-64).
	fetch @oven/bun-windows-x64 .cache/sidecar-windows package/bin/bun.exe '
		const b = require("fs").readFileSync(process.argv[1]);
		const pe = b.readUInt32LE(0x3c);
		if (b.toString("latin1", 0, 2) !== "MZ" || b.toString("latin1", pe, pe + 4) !== "PE\0\0" || b.readUInt16LE(pe + 4) !== 0x8664)
			{ console.error("package-sidecar: " + process.argv[1] + " is not an x86-64 Windows program"); process.exit(1); }' "${2:-build/bin}/bun.exe"
	exit 0
fi
if [ "${1:-}" = --darwin ]; then
	case ${2:-} in
	arm64) pkg=@oven/bun-darwin-aarch64 cpu=0x0100000c ;; # CPU_TYPE_ARM64
	amd64) pkg=@oven/bun-darwin-x64 cpu=0x01000007 ;;     # CPU_TYPE_X86_64
	*) echo "package-sidecar: --darwin takes arm64 or amd64" >&2; exit 2 ;;
	esac
	# A thin 64-bit Mach-O (magic 0xfeedfacf) executable (filetype 2) of that CPU.
	fetch "$pkg" .cache/sidecar-darwin package/bin/bun '
		const b = require("fs").readFileSync(process.argv[1]);
		if (b.readUInt32LE(0) !== 0xfeedfacf || b.readUInt32LE(4) !== '"$cpu"' || b.readUInt32LE(12) !== 2)
			{ console.error("package-sidecar: " + process.argv[1] + " is not a macOS '"$2"' program"); process.exit(1); }' "${3:-build/bin}/bun"
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
