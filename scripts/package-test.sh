#!/usr/bin/env bash
# Checks the packaging pieces a user meets: the icons are the sizes the desktop
# asks for and not blank, the menu entry is valid, the .deb installs the right
# tree and refuses to build from missing parts, and the screenshot script tells
# a rendered window from a blank one. Stand-in programs replace the real app so
# this runs without a desktop build. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1${2:+: $2}"; }
check() { # check NAME COMMAND...
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$name"; else bad "$name" "$(tail -n 3 <<<"$out")"; fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- icons -------------------------------------------------------------------
icon_ok() { # icon_ok FILE SIZE: right size, transparent corner, many colours
	local geom corner colours
	geom=$(identify -format '%wx%h' "$1") || return 1
	[ "$geom" = "$2x$2" ] || { echo "$1 is $geom"; return 1; }
	corner=$(convert "$1" -format '%[fx:u.a]' info:) # alpha of pixel 0,0
	[ "$corner" = 0 ] || { echo "$1 corner alpha $corner, want 0"; return 1; }
	colours=$(identify -format %k "$1")
	[ "$colours" -ge 50 ] || { echo "$1 has only $colours colours"; return 1; }
}
check "appicon.png 1024x1024" icon_ok build/appicon.png 1024
for n in 16 32 48 64 128 256 512; do
	check "hicolor ${n}x$n" icon_ok "build/linux/icons/hicolor/${n}x$n/apps/cdxtheme.png" "$n"
done
ico_sizes() {
	local got
	got=$(identify -format '%w ' build/windows/icon.ico)
	[ "$got" = "256 128 64 48 32 16 " ] || { echo "icon.ico sizes: $got"; return 1; }
}
check "icon.ico holds 256..16" ico_sizes

# --- menu entry --------------------------------------------------------------
if command -v desktop-file-validate >/dev/null; then
	check "cdxtheme.desktop validates" desktop-file-validate --no-hints build/linux/cdxtheme.desktop
fi
desktop_keys() {
	local f=build/linux/cdxtheme.desktop
	grep -qx 'Exec=/usr/bin/cdxtheme' "$f" && grep -qx 'Icon=cdxtheme' "$f" &&
		grep -qx 'StartupWMClass=cdxtheme' "$f" && grep -qx 'Name=CDXTheme Theme Builder' "$f"
}
check "desktop entry runs /usr/bin/cdxtheme with the cdxtheme icon" desktop_keys

# --- .deb --------------------------------------------------------------------
mkdir -p "$tmp/bin" "$tmp/out"
printf '#!/bin/sh\necho stand-in app\n' >"$tmp/bin/cdxtheme"
printf '#!/bin/sh\necho 9.9.9\n' >"$tmp/bin/bun"
printf '#!/bin/sh\nexit 2\n' >"$tmp/bin/cdxtheme-agent-shim"
chmod +x "$tmp/bin/cdxtheme" "$tmp/bin/bun" "$tmp/bin/cdxtheme-agent-shim"
version=$(node -p "require('./wails.json').info.productVersion")
deb=$tmp/out/cdxtheme_${version}_amd64.deb

check "package-deb builds from stand-ins" scripts/package-deb.sh "$tmp/bin/cdxtheme" "$tmp/out"
deb_layout() {
	local list
	list=$(dpkg-deb -c "$deb" | awk '{printf "%s %s %s", $1, $2, $6; if (NF > 6) printf " %s %s", $7, $8; print ""}') || return 1
	for want in \
		"-rwxr-xr-x root/root ./usr/lib/cdxtheme/cdxtheme" \
		"-rwxr-xr-x root/root ./usr/lib/cdxtheme/bun" \
		"-rwxr-xr-x root/root ./usr/lib/cdxtheme/cdxtheme-agent-shim" \
		"lrwxrwxrwx root/root ./usr/bin/cdxtheme -> ../lib/cdxtheme/cdxtheme" \
		"-rw-r--r-- root/root ./usr/share/applications/cdxtheme.desktop" \
		"-rw-r--r-- root/root ./usr/share/icons/hicolor/256x256/apps/cdxtheme.png"; do
		grep -qxF -- "$want" <<<"$list" || { echo "missing: $want"; return 1; }
	done
}
check ".deb installs binary, sidecar, agent shim, symlink, menu entry, icons" deb_layout
deb_control() {
	[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || return 1
	dpkg-deb -f "$deb" Depends | grep -q 'libwebkit2gtk-4.1-0' || return 1
	dpkg-deb -f "$deb" Depends | grep -q 'libgtk-3-0' || return 1
	dpkg-deb -I "$deb" postinst | grep -q gtk-update-icon-cache
}
check ".deb control: version from wails.json, GTK/WebKit depends, postinst" deb_control
installed_runs() {
	dpkg-deb -x "$deb" "$tmp/root" && [ "$("$tmp/root/usr/bin/cdxtheme")" = "stand-in app" ]
}
check "installed /usr/bin/cdxtheme runs the packaged binary" installed_runs
refuses() { # refuses WANT_MESSAGE COMMAND...: fails, and says why
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then echo "succeeded"; return 1; fi
	grep -q -- "$want" <<<"$out" || { echo "said: $out"; return 1; }
}
mv "$tmp/bin/cdxtheme-agent-shim" "$tmp/shim"
check "package-deb refuses without the agent shim" refuses "make build" scripts/package-deb.sh "$tmp/bin/cdxtheme" "$tmp/out"
mv "$tmp/shim" "$tmp/bin/cdxtheme-agent-shim"
rm "$tmp/bin/bun"
check "package-deb refuses without the sidecar" refuses "make sidecar" scripts/package-deb.sh "$tmp/bin/cdxtheme" "$tmp/out"
check "package-deb refuses without the binary" refuses "make build" scripts/package-deb.sh "$tmp/none/cdxtheme" "$tmp/out"

# --- screenshot ----------------------------------------------------------------
if command -v xvfb-run >/dev/null && command -v xdotool >/dev/null && command -v xmessage >/dev/null &&
	command -v display >/dev/null; then
	printf '#!/bin/sh\nexec display -title "CDXTheme Theme Builder" %q\n' "$PWD/build/appicon.png" >"$tmp/colourful"
	printf '#!/bin/sh\nexec xmessage -title "CDXTheme Theme Builder" -geometry 600x400 " "\n' >"$tmp/blank"
	printf '#!/bin/sh\necho "cannot open display" >&2\nexit 1\n' >"$tmp/dies"
	chmod +x "$tmp/colourful" "$tmp/blank" "$tmp/dies"
	shot_ok() {
		BIN=$tmp/colourful scripts/screenshot.sh "$tmp/shot.png" &&
			[ "$(identify -format '%wx%h' "$tmp/shot.png")" = 1280x800 ]
	}
	check "screenshot of a rendered window" shot_ok
	shot_blank() { BIN=$tmp/blank SCREENSHOT_TIMEOUT=10 refuses "stayed blank" scripts/screenshot.sh "$tmp/blank.png"; }
	check "screenshot fails on a blank window" shot_blank
	shot_dies() { BIN=$tmp/dies refuses "cannot open display" scripts/screenshot.sh "$tmp/dies.png"; }
	check "screenshot fails when the app exits, showing its error" shot_dies
else
	echo "skip screenshot checks: needs xvfb-run, xdotool, xmessage and ImageMagick display"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
