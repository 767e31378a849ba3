#!/usr/bin/env bash
# Runs the Windows test binaries of the core and app packages under Wine and prints
# pass/fail per package, with the failures that are Wine's own limits
# (scripts/wine/known-limits.txt: the test, the output that shows the
# limit, the reason) listed apart. Anything else fails the run.
#
#   - installs wine64 and the mingw-w64 C compiler from apt when missing;
#   - builds scripts/wine/bcryptprimitives.c, a stand-in for the
#     bcryptprimitives.dll Go >= 1.24 needs (ProcessPrng) and Wine 8 lacks,
#     into the prefix's system32: Go's runtime loads system DLLs with
#     LOAD_LIBRARY_SEARCH_SYSTEM32, so a copy beside the .exe is not seen;
#   - a Wine prefix of its own under /tmp (WINEDEBUG=-all), with
#     \\localhost\C$ mapped for the UNC tests;
#   - the fake ACP agent built for Windows and named in
#     CDXTHEME_FAKEAGENT_BIN (the tests cannot run Linux's go inside Wine);
#   - GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c for each package,
#     each binary run from its package folder, as go test does;
#   - internal/suites/winetest reads the test2json streams and makes the table.
#
# Not part of `make test` (Wine is not Windows; the result is reported in
# README.md). usage: scripts/test-windows.sh [PACKAGE...]
#   env: GO (default go), WINEPREFIX (default /tmp/cdxtheme-wine-$UID),
#        WINE_TEST_TIMEOUT (per package, default 30m: app takes ~10 min under Wine), WINE_KEEP=1 (keep the
#        binaries and test2json files; the run says where)
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

missing=()
command -v wine64 >/dev/null || [ -x /usr/lib/wine/wine64 ] || missing+=(wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
if [ ${#missing[@]} -gt 0 ]; then
	echo "test-windows: installing ${missing[*]}"
	$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" ||
		{ echo "test-windows: could not install ${missing[*]}" >&2; exit 1; }
fi
# Debian's wine64 package puts the loader in /usr/lib/wine; the wrapper in
# /usr/bin comes with the `wine` package, which is not needed.
WINE=$(command -v wine64 || echo /usr/lib/wine/wine64)

export WINEPREFIX=${WINEPREFIX:-/tmp/cdxtheme-wine-$(id -u)}
export WINEDEBUG=-all
# Take the stand-in before Wine's builtin, which has no ProcessPrng.
export WINEDLLOVERRIDES="bcryptprimitives=n,b;winemenubuilder.exe=d"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
	echo "test-windows: creating the Wine prefix $WINEPREFIX"
	"$WINE" wineboot -i >/dev/null 2>&1 || { echo "test-windows: wineboot failed" >&2; exit 1; }
fi
# Wine has no SMB server: it resolves \\host\share through
# dosdevices/unc/host/share, so the machine's own administrative share
# (\\localhost\C$, as on Windows) is a link to drive C, for the UNC tests.
mkdir -p "$WINEPREFIX/dosdevices/unc/localhost"
ln -sfn ../../../drive_c "$WINEPREFIX/dosdevices/unc/localhost/c\$"
sys32=$WINEPREFIX/drive_c/windows/system32
x86_64-w64-mingw32-gcc -shared -O2 -o "$sys32/bcryptprimitives.dll" scripts/wine/bcryptprimitives.c -ladvapi32 ||
	{ echo "test-windows: cannot build the bcryptprimitives.dll stand-in" >&2; exit 1; }

out=$(mktemp -d /tmp/cdxtheme-wintest.XXXXXX)
trap '[ -n "${WINE_KEEP:-}" ] || rm -rf "$out"' EXIT
mkdir -p "$out/bin" "$out/results"
[ -z "${WINE_KEEP:-}" ] || echo "test-windows: keeping $out"

# Import paths, not patterns: they name the result files.
[ $# -gt 0 ] || set -- ./core/... ./app/...
mapfile -t pkgs < <($GO list "$@") || exit 1

start=$SECONDS
echo "test-windows: building ${#pkgs[@]} test binaries for windows/amd64"
# One go test -c for all: the packages build in parallel; -o DIR names each
# binary PKG.test.exe after the package's last element.
if ! GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO test -c -o "$out/bin/" "${pkgs[@]}"; then
	echo "test-windows: the test binaries do not build" >&2
	exit 1
fi

# The fake ACP agent the engine tests drive, built here: inside Wine the
# tests cannot run the Linux go command to build it themselves. Wine's Z:
# is the Unix root.
if ! GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO build -o "$out/bin/fakeagent.exe" ./internal/testrig/fakeagent; then
	echo "test-windows: the fake agent does not build" >&2
	exit 1
fi
fake="$out/bin/fakeagent.exe"
export CDXTHEME_FAKEAGENT_BIN="Z:${fake//\//\\}"

for pkg in "${pkgs[@]}"; do
	name=${pkg##*/}
	key=${pkg//\//_}
	exe=$out/bin/$name.test.exe
	if [ ! -f "$exe" ]; then
		echo "test-windows: $pkg has no tests"
		continue
	fi
	dir=$($GO list -f '{{.Dir}}' "$pkg")
	echo "test-windows: running $pkg"
	# test2json's own -t adds nothing here; the binary writes its events
	# and go tool test2json turns them into JSON lines.
	t0=$SECONDS
	(cd "$dir" && "$WINE" "$exe" -test.v=test2json -test.timeout="${WINE_TEST_TIMEOUT:-30m}" </dev/null 2>&1
		echo $? >"$out/results/$key.exit") | $GO tool test2json -p "$pkg" >"$out/results/$key.json"
	echo $((SECONDS - t0)) >"$out/results/$key.secs"
done
# End the prefix's wineserver now rather than after its idle timeout.
"${WINE%/*}/wineserver" -k 2>/dev/null || true

echo
echo "test-windows: Wine $("$WINE" --version 2>/dev/null), $((SECONDS - start)) s"
$GO run ./internal/suites/winetest -limits scripts/wine/known-limits.txt "$out/results"
