#!/usr/bin/env bash
# Lays out the macOS app bundle for one CPU:
#
#   build/bin/macos-ARCH/CDXTheme Theme Builder.app/Contents/
#     Info.plist                 build/darwin/Info.plist filled from wails.json
#     MacOS/cdxtheme             the desktop app (-tags desktop,production)
#     MacOS/cdxtheme-agent-shim  the agent shim (core/agent looks beside the binary)
#     MacOS/bun                  the pinned darwin Bun (scripts/package-sidecar.sh --darwin)
#     Resources/iconfile.icns    build/appicon.png at 16..1024 px (PNG entries)
#
# then signs it (hardened runtime, secure timestamp) when MACOS_SIGN_IDENTITY
# is set, and notarises and staples it when MACOS_NOTARY_PROFILE is set too.
# Bun keeps its own Developer ID signature (Oven's, with the JIT entitlements
# it needs); it is verified, not re-signed. The bundle is zipped with ditto
# (on a Mac) as build/bin/cdxtheme-VERSION-macos-ARCH.zip.
#
# The desktop binary needs cgo, clang and the macOS SDK, so it is built only
# on a Mac; elsewhere give one in MACOS_BIN (the layout check in
# scripts/package-test.sh gives the cgo-less darwin CLI as a stand-in).
#
# usage: scripts/package-macos.sh [arm64|amd64]   (default arm64)
#   env: GO, MACOS_BIN, MACOS_SIGN_IDENTITY ("Developer ID Application: …"),
#        MACOS_NOTARY_PROFILE (a `xcrun notarytool store-credentials` profile),
#        OUT (default build/bin/macos-ARCH)
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
die() { echo "package-macos: $*" >&2; exit 1; }

arch=${1:-arm64}
case $arch in
arm64) cpu=0x0100000c ;; # CPU_TYPE_ARM64
amd64) cpu=0x01000007 ;; # CPU_TYPE_X86_64
*) die "ARCH is arm64 or amd64, not '$arch'" ;;
esac
[ -z "${MACOS_NOTARY_PROFILE:-}" ] || [ -n "${MACOS_SIGN_IDENTITY:-}" ] ||
	die "notarising needs a signature: set MACOS_SIGN_IDENTITY too"

field() { node -p "const w = require('./wails.json'); $1"; }
name=$(field 'w.outputfilename || w.name')
product=$(field 'w.info.productName')
version=$(field 'w.info.productVersion')
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "wails.json info.productVersion '$version' is not x.y.z"

out=${OUT:-build/bin/macos-$arch}
app=$out/$product.app
rm -rf "$app"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources"
exe=$app/Contents/MacOS/$name

# macho FILE: a thin 64-bit Mach-O executable of this CPU, or fail.
macho() {
	node -e '
		const b = require("fs").readFileSync(process.argv[1]);
		if (b.length < 16 || b.readUInt32LE(0) !== 0xfeedfacf || b.readUInt32LE(4) !== Number(process.argv[2]) || b.readUInt32LE(12) !== 2)
			{ console.error("package-macos: " + process.argv[1] + " is not a macOS " + process.argv[3] + " program"); process.exit(1); }' "$1" "$cpu" "$arch"
}

# 1. The app. The minimum macOS is Info.plist's LSMinimumSystemVersion.
if [ -n "${MACOS_BIN:-}" ]; then
	install -m 0755 "$MACOS_BIN" "$exe"
elif [ "$(uname -s)" = Darwin ]; then
	[ -s frontend/dist/index.html ] || die "the UI is not built (make frontend)"
	min=$(sed -n '/LSMinimumSystemVersion/{n;s/.*<string>\([0-9.]*\)<\/string>.*/\1/p;}' build/darwin/Info.plist)
	CGO_ENABLED=1 GOOS=darwin GOARCH=$arch MACOSX_DEPLOYMENT_TARGET=$min \
		CGO_CFLAGS="-mmacosx-version-min=$min" \
		CGO_LDFLAGS="-framework UniformTypeIdentifiers -mmacosx-version-min=$min" \
		$GO build -tags desktop,production -trimpath -ldflags "-s -w" -o "$exe" .
else
	die "the desktop app needs cgo and the macOS SDK: run this on a Mac, or give the binary in MACOS_BIN"
fi
macho "$exe"

# 2. The agent shim: pure Go, built for that CPU anywhere.
CGO_ENABLED=0 GOOS=darwin GOARCH=$arch $GO build -trimpath -ldflags "-s -w" \
	-o "$app/Contents/MacOS/cdxtheme-agent-shim" ./internal/ship/agentshim
macho "$app/Contents/MacOS/cdxtheme-agent-shim"

# 3. Bun, pinned and integrity-checked, beside the binary.
scripts/package-sidecar.sh --darwin "$arch" "$app/Contents/MacOS"

# 4. Info.plist: the template's {{…}} fields, XML-escaped.
node -e '
	const fs = require("fs"), w = require("./wails.json");
	const esc = s => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
	const f = { ".Info.ProductName": w.info.productName, ".Name": process.argv[2], ".Info.ProductVersion": w.info.productVersion,
		".Info.Comments": w.info.comments, ".Info.CompanyName": w.info.companyName };
	const out = fs.readFileSync("build/darwin/Info.plist", "utf8").replace(/<!--.*?-->\n/s, "")
		.replace(/\{\{(.*?)\}\}/g, (m, k) => { if (!(k in f)) throw new Error("unknown field " + m); return esc(f[k]); });
	fs.writeFileSync(process.argv[1], out);' "$app/Contents/Info.plist" "$name"
printf 'APPL????' >"$app/Contents/PkgInfo"

# 5. The icon: PNG entries of every size macOS asks for, in one .icns
# (written directly, so no iconutil is needed off a Mac).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for px in 16 32 64 128 256 512 1024; do
	if command -v sips >/dev/null; then
		sips -z "$px" "$px" build/appicon.png --out "$tmp/$px.png" >/dev/null
	else
		convert build/appicon.png -resize "${px}x${px}" -strip "$tmp/$px.png"
	fi
done
node -e '
	const fs = require("fs"), dir = process.argv[1];
	// OSType → pixel size (Apple Icon Image format; PNG payloads since 10.7).
	const types = [["icp4", 16], ["icp5", 32], ["icp6", 64], ["ic07", 128], ["ic08", 256], ["ic09", 512], ["ic10", 1024],
		["ic11", 32], ["ic12", 64], ["ic13", 256], ["ic14", 512]];
	const parts = types.map(([t, px]) => {
		const png = fs.readFileSync(dir + "/" + px + ".png"), h = Buffer.alloc(8);
		h.write(t, 0, "latin1"); h.writeUInt32BE(png.length + 8, 4);
		return Buffer.concat([h, png]);
	});
	const body = Buffer.concat(parts), h = Buffer.alloc(8);
	h.write("icns", 0, "latin1"); h.writeUInt32BE(body.length + 8, 4);
	fs.writeFileSync(process.argv[2], Buffer.concat([h, body]));' "$tmp" "$app/Contents/Resources/iconfile.icns"

echo "package-macos: $app ($arch, $version)"

# 6. Signing: inside out (--deep is not for signing), each executable with
# the hardened runtime and a secure timestamp, as notarisation requires.
if [ -n "${MACOS_SIGN_IDENTITY:-}" ]; then
	codesign --verify --strict "$app/Contents/MacOS/bun" || die "Bun's own signature does not verify"
	for f in "$app/Contents/MacOS/cdxtheme-agent-shim" "$exe" "$app"; do
		codesign --force --options runtime --timestamp --sign "$MACOS_SIGN_IDENTITY" "$f"
	done
	codesign --verify --strict --deep "$app"
	echo "package-macos: signed by $MACOS_SIGN_IDENTITY"
fi

# 7. Notarising, then stapling the ticket so Gatekeeper needs no network.
zip=build/bin/cdxtheme-$version-macos-$arch.zip
if command -v ditto >/dev/null; then
	rm -f "$zip"
	ditto -c -k --keepParent "$app" "$zip"
	if [ -n "${MACOS_NOTARY_PROFILE:-}" ]; then
		xcrun notarytool submit "$zip" --keychain-profile "$MACOS_NOTARY_PROFILE" --wait
		xcrun stapler staple "$app"
		spctl --assess --type execute --verbose "$app"
		rm -f "$zip"
		ditto -c -k --keepParent "$app" "$zip"
		echo "package-macos: notarised and stapled"
	fi
	echo "package-macos: $zip"
fi
