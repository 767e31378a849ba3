#!/usr/bin/env bash
# Starts the production desktop binary on a virtual X display, waits for its
# window to show real content, saves a screenshot, and stops the app. Fails
# when the window never appears or the picture stays blank (e.g. the web view
# did not render), so it doubles as a smoke test of the desktop build.
#
# usage: scripts/screenshot.sh OUT.png
# env:   BIN                    binary to run (default build/bin/cdxtheme)
#        SCREENSHOT_CODEX_HOME  Codex home to show (default: an empty temp dir;
#                               never the user's own, which would leak their sessions)
#        SCREENSHOT_SIZE        screen and window size (default 1280x800)
#        SCREENSHOT_TIMEOUT     seconds to wait for the window and content (default 90)
#        SCREENSHOT_MIN_COLOURS fewer unique colours than this counts as blank (default 200)
#        SCREENSHOT_PROMPT      if set, the app's self-test sends this prompt through
#                               New Build (to CDXTHEME_AGENT) and the shot is taken
#                               once the reply is rendered
set -euo pipefail
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$0")/.."

die() { echo "screenshot: $*" >&2; exit 1; }

# Second stage: runs inside xvfb-run (and a private D-Bus session, which the
# single-instance lock uses) with DISPLAY set.
if [ "${1:-}" = --inner ]; then
	out=$2
	bin=$3
	size=$4
	timeout=$5
	min_colours=$6
	work=$(mktemp -d)
	export CDXTHEME_CONFIG_DIR=$work/config CDXTHEME_DATA_DIR=$work/data CDXTHEME_CACHE_DIR=$work/cache
	if [ -n "${SCREENSHOT_CODEX_HOME:-}" ]; then
		export CODEX_HOME=$SCREENSHOT_CODEX_HOME
	else
		export CODEX_HOME=$work/codex-home
		mkdir -p "$CODEX_HOME"
	fi
	# No GPU under Xvfb: WebKitGTK's accelerated paths can leave the view blank.
	export WEBKIT_DISABLE_COMPOSITING_MODE=1 WEBKIT_DISABLE_DMABUF_RENDERER=1 LIBGL_ALWAYS_SOFTWARE=1
	# No accessibility bus either; without this GTK starts one and chatters.
	export NO_AT_BRIDGE=1
	# Keep the agent from being found by accident: the screenshot is of the idle app.
	export CDXTHEME_AGENT=${CDXTHEME_AGENT:-/bin/false}
	if [ -n "${SCREENSHOT_PROMPT:-}" ]; then
		export CDXTHEME_SELFTEST_OUT=$work/selftest.json CDXTHEME_SELFTEST_PROMPT=$SCREENSHOT_PROMPT CDXTHEME_SELFTEST_STAY=1
	fi

	# Its own process group, so stopping it also stops anything it started.
	setsid "$bin" >"$work/app.out" 2>&1 &
	pid=$!
	stop() {
		kill -TERM -- -"$pid" 2>/dev/null || true
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL -- -"$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	}
	fail() {
		echo "screenshot: $*" >&2
		tail -n 20 "$work/app.out" "$CDXTHEME_CONFIG_DIR/cdxtheme.log" >&2 2>/dev/null || true
		exit 1 # the EXIT trap stops the app
	}
	trap 'stop; rm -rf "$work"' EXIT

	deadline=$((SECONDS + timeout))
	wid=
	while [ -z "$wid" ]; do
		kill -0 "$pid" 2>/dev/null || fail "$bin exited before showing a window"
		[ $SECONDS -lt $deadline ] || fail "no window named 'CDXTheme' within ${timeout}s"
		wid=$(timeout 5 xdotool search --sync --onlyvisible --name 'CDXTheme' 2>/dev/null | head -n 1 || true)
	done
	# No window manager here: put the window at the origin, screen-sized.
	xdotool windowmove "$wid" 0 0 windowsize "$wid" "${size%x*}" "${size#*x}" || true

	if [ -n "${SCREENSHOT_PROMPT:-}" ]; then
		until grep -q '"reply"' "$CDXTHEME_SELFTEST_OUT" 2>/dev/null; do
			kill -0 "$pid" 2>/dev/null || fail "$bin exited before the reply was rendered"
			[ $SECONDS -lt $deadline ] || fail "no reply rendered within ${timeout}s"
			sleep 0.5
		done
		sleep 1 # the preview follows the agent's last write
	fi
	# The window maps before the web view has painted; poll until the picture
	# has real content, then take one more after a second so fonts settle.
	colours=0
	while :; do
		kill -0 "$pid" 2>/dev/null || fail "$bin exited while rendering"
		import -window root "$work/shot.png"
		colours=$(identify -format %k "$work/shot.png")
		[ "$colours" -ge "$min_colours" ] && break
		[ $SECONDS -lt $deadline ] || fail "screenshot stayed blank ($colours colours < $min_colours) for ${timeout}s"
		sleep 1
	done
	sleep 1
	import -window root "$work/shot.png"
	colours=$(identify -format %k "$work/shot.png")
	[ "$colours" -ge "$min_colours" ] || fail "screenshot went blank ($colours colours)"
	mkdir -p "$(dirname "$out")"
	convert "$work/shot.png" -strip -define png:exclude-chunks=date,time "$out"
	echo "screenshot: $out ($size, $colours colours)"
	exit 0
fi

[ $# -eq 1 ] || die "usage: $0 OUT.png"
out=$1
case $out in /*) ;; *) out=$PWD/$out ;; esac
bin=${BIN:-build/bin/cdxtheme}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
size=${SCREENSHOT_SIZE:-1280x800}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || die "SCREENSHOT_SIZE must be WxH, not '$size'"
[ -x "$bin" ] || die "$bin missing: run 'make build' first"
for tool in Xvfb xdotool import identify convert; do
	command -v "$tool" >/dev/null || die "$tool not found (apt-get install xvfb xdotool imagemagick)"
done
if [ -n "${SCREENSHOT_CODEX_HOME:-}" ]; then
	[ -d "$SCREENSHOT_CODEX_HOME" ] || die "SCREENSHOT_CODEX_HOME $SCREENSHOT_CODEX_HOME is not a directory"
	SCREENSHOT_CODEX_HOME=$(cd "$SCREENSHOT_CODEX_HOME" && pwd)
	export SCREENSHOT_CODEX_HOME
fi

bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
# scripts/xvfb.sh, not xvfb-run -a: test suites running side by side start
# X servers at the same moment, and xvfb-run -a then picks one display twice.
exec "$(dirname "$self")/xvfb.sh" -s "-screen 0 ${size}x24" \
	"${bus[@]}" bash "$self" --inner "$out" "$bin" "$size" "${SCREENSHOT_TIMEOUT:-90}" "${SCREENSHOT_MIN_COLOURS:-200}"
