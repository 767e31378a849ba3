#!/usr/bin/env bash
# Builds and vets what ships for the platforms this machine cannot run:
#   windows/amd64, windows/arm64  the CLI and the desktop app (-tags desktop,production),
#                                  go vet of every package with both tag sets
#   darwin/arm64, darwin/amd64     the CLI, go vet of every package (no cgo: the
#                                  desktop app's darwin side needs clang and the SDK)
# go vet runs once per OS (windows/amd64, darwin/arm64): no file of the project
# is chosen by architecture, so vetting arm64 and amd64 analysed the same code
# twice (issue #42: make cross took 352 s of make test).
# go vet type-checks every package's test files too (internal and external test
# packages), so a test that does not compile for Windows or macOS fails here.
# The test binaries are not linked: linking them for two OSes took 350 s of
# make test's critical path and checked nothing vet does not, there being no
# cgo in them (make test-windows links and runs the Windows ones).
# Fails on any error. Jobs run $CROSS_JOBS at a time and share the Go build cache,
# so a second run after a small change takes seconds.
#
# usage: scripts/cross.sh     env: GO (default go), CROSS_JOBS (default 2)
set -uo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
JOBS=${CROSS_JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each job: a name, then the command (run with CGO_ENABLED=0). The desktop
# app embeds frontend/dist, which holds a .gitkeep when the UI is not built:
# the Go side is checked either way.
# Vetting one architecture per OS holds only while no file is chosen by
# architecture: say so plainly when one appears.
archfiles=$(git ls-files '*.go' | grep -E '_(amd64|arm64|386|arm)(_test)?\.go$'; git grep -lE '^//go:build .*\b(amd64|arm64|386|arm)\b' -- '*.go')
if [ -n "$archfiles" ]; then
	echo "cross: files chosen by architecture; vet both architectures again:"
	echo "$archfiles" | sed 's/^/    /'
	exit 1
fi

# -trimpath keeps the folder out of every compile's cache key, so a fresh
# clone reuses what any earlier checkout compiled from the same sources (and
# vet, build and test of one OS share their compiles); -s -w skips the
# symbol table and DWARF no one reads in binaries that are never run here.
# nice: beside the suites that wait on windows and agents (make test runs
# lanes side by side), compiling yields the CPU to them.
B="-trimpath"
L="-ldflags=-s -w"
jobs=()
add() { jobs+=("$1"$'\t'"$2"); }
for arch in amd64 arm64; do
	add "windows/$arch build cli" "GOOS=windows GOARCH=$arch $GO build $B '$L' -o $tmp/cli-$arch.exe ."
	add "windows/$arch build desktop" "GOOS=windows GOARCH=$arch $GO build $B -tags desktop,production '-ldflags=-s -w -H=windowsgui' -o $tmp/app-$arch.exe ."
	add "darwin/$arch build cli" "GOOS=darwin GOARCH=$arch $GO build $B '$L' -o $tmp/cli-darwin-$arch ."
done
add "windows/amd64 vet" "GOOS=windows GOARCH=amd64 $GO vet $B ./... && GOOS=windows GOARCH=amd64 $GO vet $B -tags desktop,production ./..."
add "darwin/arm64 vet" "GOOS=darwin GOARCH=arm64 $GO vet $B ./..."

run() {
	local i=$1 name=${2%%$'\t'*} cmd=${2#*$'\t'} start=$SECONDS
	if (export CGO_ENABLED=0; renice -n 10 -p "$BASHPID" >/dev/null; eval "$cmd") >"$tmp/$i.log" 2>&1; then
		echo "ok $((SECONDS - start))" >"$tmp/$i.rc"
	else
		echo "FAIL $((SECONDS - start))" >"$tmp/$i.rc"
	fi
}

start=$SECONDS
running=0
for i in "${!jobs[@]}"; do
	run "$i" "${jobs[$i]}" &
	if ((++running >= JOBS)); then
		wait -n
		((running--))
	fi
done
wait

passed=0 failed=0
for i in "${!jobs[@]}"; do
	name=${jobs[$i]%%$'\t'*}
	read -r verdict secs <"$tmp/$i.rc"
	printf 'cross: %-4s %-32s %3ss\n' "$verdict" "$name" "$secs"
	if [ "$verdict" = ok ]; then
		((passed++))
	else
		((failed++))
		grep -v '^ok \|no test files' "$tmp/$i.log" | sed 's/^/    /' | head -40
	fi
done
echo "cross: $passed passed, $failed failed ($((SECONDS - start)) s)"
[ "$failed" = 0 ]
