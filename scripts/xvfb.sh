#!/usr/bin/env bash
# Runs a command under its own Xvfb, like `xvfb-run -a -s ARGS`, but safe to
# start several at once: xvfb-run -a picks "the first display without a lock
# file" and then starts the server, so two runs starting together pick the
# same number and one fails ("Xvfb failed to start"). Here the server
# claims a free display itself (-displayfd) and says which.
#
# usage: scripts/xvfb.sh [-s "SERVER ARGS"] COMMAND...
set -uo pipefail
server_args="-screen 0 1280x1024x24"
if [ "${1:-}" = -s ]; then
	server_args=$2
	shift 2
fi
tmp=$(mktemp -d)
xvfb=
trap '[ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null; rm -rf "$tmp"' EXIT
mkfifo "$tmp/display"
# shellcheck disable=SC2086
Xvfb -displayfd 3 -nolisten tcp $server_args 3>"$tmp/display" >"$tmp/xvfb.log" 2>&1 &
xvfb=$!
read -r n <"$tmp/display"
if [ -z "${n:-}" ]; then
	echo "xvfb.sh: Xvfb did not start:" >&2
	cat "$tmp/xvfb.log" >&2
	exit 1
fi
DISPLAY=:$n "$@"
rc=$?
kill "$xvfb" 2>/dev/null
wait "$xvfb" 2>/dev/null
xvfb=
exit "$rc"
