#!/usr/bin/env bash
# Cross-builds the Windows desktop binary (no cgo: Wails on Windows is pure Go)
# with the app icon, version info and a GUI manifest embedded, and the console
# command line beside it; puts the pinned Bun for Windows beside them (the
# agent runtime); then, when makensis is installed (apt-get install nsis),
# wraps all three in the 64-bit per-user installer (scripts/windows-installer.sh).
# With SIGN_PFX and SIGN_PASS (and optionally SIGN_TIMESTAMP) the programs,
# the uninstaller and the installer are Authenticode-signed (sign-windows.sh);
# without them everything is unsigned, and it says so.
#
#   build/bin/cdxtheme.exe, build/bin/cdxtheme.com, build/bin/bun.exe
#   build/bin/cdxtheme-<version>-windows-amd64-setup.exe   (with makensis)
#
# usage: scripts/package-windows.sh     env: GO (default go), SIGN_PFX, SIGN_PASS, SIGN_TIMESTAMP
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
# go-winres is a pure-Go resource compiler run straight from the module proxy;
# pinned so the .syso is the same on every machine.
WINRES=github.com/tc-hib/go-winres@v0.3.3
die() { echo "package-windows: $*" >&2; exit 1; }

field() { node -p "const w=require('./wails.json'); $1"; }
version=$(field 'w.info.productVersion')
product=$(field 'w.info.productName')
company=$(field 'w.info.companyName')
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "wails.json info.productVersion '$version' is not x.y.z (Windows needs four numbers)"

mkdir -p build/bin
# The .syso must sit in the main package's directory for `go build` to link
# it; it only exists for the length of this build so the tree stays clean.
syso=rsrc_windows_amd64.syso
[ -e "$syso" ] && die "$syso already exists at the repo root; remove it (it is generated here)"
trap 'rm -f "$syso"' EXIT
GOFLAGS= "$GO" run "$WINRES" simply --arch amd64 --out rsrc \
	--icon build/windows/icon.ico --manifest gui \
	--product-version "$version.0" --file-version "$version.0" \
	--product-name "$product" --file-description "$product" \
	--copyright "$company" --original-filename cdxtheme.exe
[ -s "$syso" ] || die "go-winres did not write $syso"

GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" build -tags desktop,production -trimpath \
	-ldflags "-H windowsgui -s -w" -o build/bin/cdxtheme.exe .
rm -f "$syso"
echo "windows: build/bin/cdxtheme.exe ($(du -h build/bin/cdxtheme.exe | cut -f1))"
# The command line as a console program beside it: cmd and PowerShell try
# .com before .exe (PATHEXT), so `cdxtheme help` in the install folder (or
# with it on PATH) runs this one, which they wait for and whose output
# they show in order. The GUI exe attaches to a console too when named in
# full (app/shell/console_windows.go).
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" build -trimpath -ldflags "-s -w" -o build/bin/cdxtheme.com .
echo "windows: build/bin/cdxtheme.com ($(du -h build/bin/cdxtheme.com | cut -f1))"

scripts/package-sidecar.sh --windows build/bin

if ! command -v makensis >/dev/null 2>&1; then
	if [ -n "${SIGN_PFX:-}" ]; then
		scripts/sign-windows.sh build/bin/cdxtheme.exe build/bin/cdxtheme.com
	fi
	echo "windows: makensis not found (apt-get install nsis); installer skipped"
	exit 0
fi
scripts/windows-installer.sh build/bin/cdxtheme.exe build/bin/cdxtheme.com build/bin/bun.exe \
	"build/bin/cdxtheme-$version-windows-amd64-setup.exe"
