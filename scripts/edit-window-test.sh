#!/usr/bin/env bash
# The hand editor in the PRODUCTION window under Xvfb, with real input
# (internal/suites/edittest): a colour picked in the preview and typed into the hex
# field reaches theme.json, the preview and the contrast table; a lock set by
# a click survives the fake agent's turn, and the next prompt tells the agent
# both; the edit and the lock survive a restart. Saves docs/editor-window.png.
# Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/window-test}
mkdir -p build/bin "$out"
# make test built them first (test-prep); run alone, the script builds them.
[ -n "${TEST_PREPARED:-}" ] || make -s --no-print-directory build/bin/fakeagent build/bin/edittest || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
# -noreset: the app quits and starts again; Xvfb would otherwise reset once
# its last client is gone, and a GTK start during that reset finds no display.
NO_AT_BRIDGE=1 "${bus[@]}" scripts/xvfb.sh -s "-screen 0 1920x1200x24 -noreset" \
  build/bin/edittest -app build/bin/cdxtheme -agent build/bin/fakeagent -out "$out" -shot docs/editor-window.png
