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
go build -o build/bin/fakeagent ./internal/testrig/fakeagent || exit 1
go build -o build/bin/navtest ./internal/suites/navtest || exit 1
# shellcheck disable=SC2046
gcc -O1 -o build/bin/dragsource scripts/dragsource.c $(pkg-config --cflags --libs gtk+-3.0) || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
NO_AT_BRIDGE=1 "${bus[@]}" xvfb-run -a -s "-screen 0 1920x1200x24" \
  build/bin/navtest -app build/bin/cdxtheme -agent build/bin/fakeagent -dragsource build/bin/dragsource -out "$out"
