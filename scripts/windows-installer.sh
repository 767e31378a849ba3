#!/usr/bin/env bash
# Makes the Windows installer (build/windows/installer.nsi: 64-bit, per user)
# from built programs, and Authenticode-signs the programs, the uninstaller and
# the installer when a certificate is given (SIGN_PFX, SIGN_PASS, optional
# SIGN_TIMESTAMP: see sign-windows.sh); the programs are signed in place.
# Without SIGN_PFX everything is left unsigned, and it says so.
#
# usage: scripts/windows-installer.sh EXE COM BUN OUTFILE
#   env: VERSION (default wails.json's info.productVersion), SIGN_PFX, SIGN_PASS, SIGN_TIMESTAMP
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "windows-installer: $*" >&2; exit 1; }
[ $# = 4 ] || die "usage: $0 EXE COM BUN OUTFILE"
abs() { [[ $1 = /* ]] && echo "$1" || echo "$PWD/$1"; }
exe=$(abs "$1") com=$(abs "$2") bun=$(abs "$3") setup=$(abs "$4")
for f in "$exe" "$com" "$bun"; do [ -s "$f" ] || die "$f is missing or empty"; done
command -v makensis >/dev/null || die "makensis not found (apt-get install nsis)"
version=${VERSION:-$(node -p "require('./wails.json').info.productVersion")}
sign=$PWD/scripts/sign-windows.sh
[[ $sign != *[[:space:]\"\']* ]] || die "the repo path must not hold spaces or quotes (makensis runs $sign)"

defs=(-DVERSION="$version" -DEXE="$exe" -DCOM="$com" -DBUN="$bun" -DOUTFILE="$setup")
if [ -n "${SIGN_PFX:-}" ]; then
	"$sign" "$exe" "$com"
	defs+=(-DSIGN="$sign") # signs the uninstaller before it is packed
fi
rm -f "$setup"
if ! makensis -V2 "${defs[@]}" build/windows/installer.nsi; then
	rm -f "$setup"
	die "makensis failed"
fi
[ -s "$setup" ] || die "makensis did not write $setup"
if [ -n "${SIGN_PFX:-}" ]; then
	"$sign" "$setup" || { rm -f "$setup"; die "the installer could not be signed; removed"; }
else
	echo "windows: unsigned (no SIGN_PFX: set SIGN_PFX and SIGN_PASS to Authenticode-sign)"
fi
echo "windows: $setup ($(du -h "$setup" | cut -f1))"
