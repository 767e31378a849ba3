#!/usr/bin/env bash
# Authenticode-signs a Windows program in place with osslsigncode (SHA-256),
# with the PKCS#12 certificate and key in SIGN_PFX, its password in SIGN_PASS
# and, when SIGN_TIMESTAMP names an RFC 3161 server, a timestamp (so the
# signature outlives the certificate). The password goes to osslsigncode in a
# 0600 file, never on its command line, which every local user can read.
#
# usage: SIGN_PFX=cert.pfx SIGN_PASS=… scripts/sign-windows.sh FILE...
set -euo pipefail
die() { echo "sign-windows: $*" >&2; exit 1; }
[ $# -gt 0 ] || die "usage: SIGN_PFX=cert.pfx SIGN_PASS=... $0 FILE..."
[ -n "${SIGN_PFX:-}" ] || die "SIGN_PFX is not set"
[ -r "$SIGN_PFX" ] || die "cannot read the certificate $SIGN_PFX"
command -v osslsigncode >/dev/null || die "osslsigncode not found (apt-get install osslsigncode)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(umask 077 && printf '%s' "${SIGN_PASS:-}" >"$tmp/pass")
for f in "$@"; do
	[ -s "$f" ] || die "$f is missing or empty"
	args=(sign -pkcs12 "$SIGN_PFX" -readpass "$tmp/pass" -h sha256 -n "CDXTheme Theme Builder")
	[ -n "${SIGN_TIMESTAMP:-}" ] && args+=(-ts "$SIGN_TIMESTAMP")
	if ! out=$(osslsigncode "${args[@]}" -in "$f" -out "$tmp/signed" 2>&1); then
		die "signing $f failed: $(tail -n 3 <<<"$out")"
	fi
	# Replace, keeping the mode: the unsigned file never stays under the
	# signed one's name half-written.
	cp "$tmp/signed" "$f.signed" && chmod --reference="$f" "$f.signed" && mv -f "$f.signed" "$f"
	rm -f "$tmp/signed"
	echo "signed: $f"
done
