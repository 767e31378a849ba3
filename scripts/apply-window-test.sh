#!/usr/bin/env bash
# Apply of a light/dark family to VS Code in the PRODUCTION window under
# Xvfb, with real clicks (internal/suites/applytest): the plan dialog opens with
# each file once, both variants install into a private HOME, and Export and
# Apply are usable after. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/window-test}
mkdir -p build/bin "$out"
# make test built them first (test-prep); run alone, the script builds them.
[ -n "${TEST_PREPARED:-}" ] || make -s --no-print-directory build/bin/fakeagent build/bin/applytest || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
NO_AT_BRIDGE=1 "${bus[@]}" scripts/xvfb.sh -s "-screen 0 1920x1200x24 -noreset" \
  build/bin/applytest -app build/bin/cdxtheme -agent build/bin/fakeagent -out "$out"
