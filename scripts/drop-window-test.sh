#!/usr/bin/env bash
# A theme file dropped from another program onto the PRODUCTION window under
# Xvfb (real input: xdotool and the project's GTK drag source) becomes a
# build, on Home and on New build (internal/suites/droptest). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/window-test}
mkdir -p build/bin "$out"
go build -o build/bin/droptest ./internal/suites/droptest || exit 1
# shellcheck disable=SC2046
gcc -O1 -o build/bin/dragsource scripts/dragsource.c $(pkg-config --cflags --libs gtk+-3.0) || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
# -noreset: the app starts twice; Xvfb would otherwise reset once its last
# client is gone, and a GTK start during that reset finds no display.
NO_AT_BRIDGE=1 "${bus[@]}" xvfb-run -a -s "-screen 0 1920x1200x24 -noreset" \
  build/bin/droptest -app build/bin/cdxtheme -dragsource build/bin/dragsource -out "$out"
