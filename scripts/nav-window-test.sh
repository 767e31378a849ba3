#!/usr/bin/env bash
# The navigation lock in the PRODUCTION window under Xvfb, with real input:
# internal/suites/navtest serves a loopback page and drives the app (clicks,
# middle-click, Enter, drags, drops from another program) at the fake
# agent's navigation vectors and at the page's own script. Prints
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/window-test}
mkdir -p build/bin "$out"
# make test built them first (test-prep); run alone, the script builds them.
[ -n "${TEST_PREPARED:-}" ] || make -s --no-print-directory build/bin/fakeagent build/bin/navtest build/bin/dragsource || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
NO_AT_BRIDGE=1 "${bus[@]}" scripts/xvfb.sh -s "-screen 0 1920x1200x24" \
  build/bin/navtest -app build/bin/cdxtheme -agent build/bin/fakeagent -dragsource build/bin/dragsource -out "$out"
