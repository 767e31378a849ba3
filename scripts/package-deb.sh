#!/usr/bin/env bash
# Builds the Debian package from what `make build` and `make sidecar` left in
# build/bin, then unpacks it into a temp root and checks the layout, so a
# broken package fails here rather than on a user's machine.
#
#   /usr/lib/cdxtheme/cdxtheme     the production binary
#   /usr/lib/cdxtheme/bun          the Bun sidecar (the app looks beside itself)
#   /usr/lib/cdxtheme/cdxtheme-agent-shim   leads each agent's process group (core/agent)
#   /usr/bin/cdxtheme              -> ../lib/cdxtheme/cdxtheme
#   /usr/share/applications/cdxtheme.desktop
#   /usr/share/icons/hicolor/NxN/apps/cdxtheme.png
#
# usage: scripts/package-deb.sh [BIN] [OUT_DIR]   (defaults build/bin/cdxtheme, build/bin)
# env:   DEB_COMPRESS (dpkg-deb -Z: gzip | xz | zstd | none; default gzip, which every
#        dpkg reads and packs the 100 MB Bun in seconds; xz saves ~25% but takes minutes)
#        DEB_LEVEL (compression level, default 6)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:-build/bin/cdxtheme}
out=${2:-build/bin}
bun=$(dirname "$bin")/bun
shim=$(dirname "$bin")/cdxtheme-agent-shim
die() { echo "package-deb: $*" >&2; exit 1; }

[ -x "$bin" ] || die "$bin missing: run 'make build' first"
[ -x "$bun" ] || die "$bun missing: run 'make sidecar' first"
[ -x "$shim" ] || die "$shim missing: run 'make build' first"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found (apt-get install dpkg)"

field() { node -p "const w=require('./wails.json'); $1"; }
version=$(field 'w.info.productVersion')
maint=$(field '`${w.author.name} <${w.author.email}>`')
summary=$(field 'w.info.comments')
[[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "wails.json info.productVersion '$version' is not a Debian version"
arch=amd64 # the sidecar is @oven/bun-linux-x64

stage=$(mktemp -d)
check=$(mktemp -d)
trap 'rm -rf "$stage" "$check"' EXIT
root=$stage/cdxtheme

install -d -m 0755 "$root/DEBIAN" "$root/usr/lib/cdxtheme" "$root/usr/bin" \
	"$root/usr/share/applications" "$root/usr/share/doc/cdxtheme"
install -m 0755 "$bin" "$root/usr/lib/cdxtheme/cdxtheme"
install -m 0755 "$bun" "$root/usr/lib/cdxtheme/bun"
install -m 0755 "$shim" "$root/usr/lib/cdxtheme/cdxtheme-agent-shim"
ln -s ../lib/cdxtheme/cdxtheme "$root/usr/bin/cdxtheme"
install -m 0644 build/linux/cdxtheme.desktop "$root/usr/share/applications/cdxtheme.desktop"
for icon in build/linux/icons/hicolor/*/apps/cdxtheme.png; do
	size=$(basename "$(dirname "$(dirname "$icon")")")
	install -D -m 0644 "$icon" "$root/usr/share/icons/hicolor/$size/apps/cdxtheme.png"
done
cat >"$root/usr/share/doc/cdxtheme/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: cdxtheme
Comment: usr/lib/cdxtheme/bun is the Bun runtime (MIT licence), redistributed unchanged.
EOF
chmod 0644 "$root/usr/share/doc/cdxtheme/copyright"

# Icon cache and menu refresh. Debian's triggers usually do this already; the
# scripts cover systems without them and never fail the install.
for script in postinst postrm; do
	cat >"$root/DEBIAN/$script" <<'EOF'
#!/bin/sh
set -e
case "$1" in
configure | remove | purge | abort-install | abort-upgrade)
	# DPKG_ROOT is set when dpkg installs into another root (--root with
	# chrootless scripts); the caches to refresh are the ones in there.
	if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -d "${DPKG_ROOT:-}/usr/share/icons/hicolor" ]; then
		gtk-update-icon-cache -q -t -f "${DPKG_ROOT:-}/usr/share/icons/hicolor" || true
	fi
	if command -v update-desktop-database >/dev/null 2>&1 && [ -d "${DPKG_ROOT:-}/usr/share/applications" ]; then
		update-desktop-database -q "${DPKG_ROOT:-}/usr/share/applications" || true
	fi
	;;
esac
exit 0
EOF
	chmod 0755 "$root/DEBIAN/$script"
done

installed_kb=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat >"$root/DEBIAN/control" <<EOF
Package: cdxtheme
Version: $version
Architecture: $arch
Maintainer: $maint
Installed-Size: $installed_kb
Depends: libc6, libgtk-3-0 | libgtk-3-0t64, libwebkit2gtk-4.1-0
Section: devel
Priority: optional
Description: $summary
 CDXTheme Theme Builder is a desktop app in which you chat with an AI coding
 agent (OpenAI Codex through the ACP adapter codex-acp) while it writes a
 colour theme, with a live preview, export and a browser for saved Codex
 sessions. The same binary offers a headless command line (cdxtheme help).
 A Bun runtime is bundled to run the adapter when codex-acp is not installed.
EOF
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb=$out/cdxtheme_${version}_${arch}.deb
dpkg-deb --root-owner-group -Z"${DEB_COMPRESS:-gzip}" -z"${DEB_LEVEL:-6}" --build "$root" "$deb" >/dev/null

# Check what a user would get: unpack and look at the installed tree.
dpkg-deb -x "$deb" "$check"
[ "$(dpkg-deb -f "$deb" Package Version Architecture | tr '\n' ' ')" = "Package: cdxtheme Version: $version Architecture: $arch " ] ||
	die "control fields wrong in $deb"
for f in usr/lib/cdxtheme/cdxtheme usr/lib/cdxtheme/bun usr/lib/cdxtheme/cdxtheme-agent-shim; do
	[ -x "$check/$f" ] || die "$f missing or not executable in $deb"
done
[ "$(readlink "$check/usr/bin/cdxtheme")" = ../lib/cdxtheme/cdxtheme ] || die "usr/bin/cdxtheme is not the expected symlink"
[ -x "$check/usr/bin/cdxtheme" ] || die "usr/bin/cdxtheme does not resolve inside the package"
cmp -s "$check/usr/lib/cdxtheme/cdxtheme" "$bin" || die "packaged binary differs from $bin"
"$check/usr/lib/cdxtheme/bun" --version >/dev/null || die "packaged bun does not run"
for n in 16 32 48 64 128 256 512; do
	[ -s "$check/usr/share/icons/hicolor/${n}x$n/apps/cdxtheme.png" ] || die "icon ${n}x$n missing"
done
if command -v desktop-file-validate >/dev/null; then
	desktop-file-validate --no-hints "$check/usr/share/applications/cdxtheme.desktop"
fi
if dpkg-deb -c "$deb" | awk '{print $2}' | grep -qv '^root/root$'; then
	die "files in $deb are not owned by root"
fi

echo "package: $deb ($(du -h "$deb" | cut -f1))"
