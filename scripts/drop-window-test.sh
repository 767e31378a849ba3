#!/usr/bin/env bash
# A theme file dropped from another program onto the PRODUCTION window under
# Xvfb (real input: xdotool and the project's GTK drag source) becomes a
# build, on Home and on New build (internal/suites/droptest). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/window-test}
mkdir -p build/bin "$out"
# make test built them first (test-prep); run alone, the script builds them.
[ -n "${TEST_PREPARED:-}" ] || make -s --no-print-directory build/bin/droptest build/bin/dragsource || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
# -noreset: the app starts twice; Xvfb would otherwise reset once its last
# client is gone, and a GTK start during that reset finds no display.
NO_AT_BRIDGE=1 "${bus[@]}" scripts/xvfb.sh -s "-screen 0 1920x1200x24 -noreset" \
  build/bin/droptest -app build/bin/cdxtheme -dragsource build/bin/dragsource -out "$out"
