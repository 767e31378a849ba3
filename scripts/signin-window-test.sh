#!/usr/bin/env bash
# Sign-in in the PRODUCTION window under Xvfb, with real input
# (internal/suites/signintest): the fake agent asks for authentication with
# codex-acp's methods; the chat offers them, a click on ChatGPT runs the
# agent's own sign-in, whose page goes to the OS opener (a recording
# xdg-open) while the window stays on the app, and the prompt is then
# answered. Saves docs/sign-in.png. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/window-test}
mkdir -p build/bin "$out"
# make test built them first (test-prep); run alone, the script builds them.
[ -n "${TEST_PREPARED:-}" ] || make -s --no-print-directory build/bin/fakeagent build/bin/signintest || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
NO_AT_BRIDGE=1 "${bus[@]}" scripts/xvfb.sh -s "-screen 0 1920x1200x24" \
  build/bin/signintest -app build/bin/cdxtheme -agent build/bin/fakeagent -out "$out" -shot docs/sign-in.png
