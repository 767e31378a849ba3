#!/usr/bin/env bash
# The Design view in the PRODUCTION window under Xvfb, with real input
# (internal/suites/designtest): a palette edit made in the view reaches theme.json,
# the preview and the contrast table. Saves design-1440x900.png,
# design-800x600.png and picker.png into $DESIGN_SHOTS (docs/designer to
# refresh the docs; the out folder by default), the real window resized to
# 800×600 for the second edit. Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/window-test}
mkdir -p build/bin "$out"
# make test built them first (test-prep); run alone, the script builds them.
[ -n "${TEST_PREPARED:-}" ] || make -s --no-print-directory build/bin/fakeagent build/bin/designtest || exit 1
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
NO_AT_BRIDGE=1 "${bus[@]}" scripts/xvfb.sh -s "-screen 0 1920x1200x24" \
  build/bin/designtest -app build/bin/cdxtheme -agent build/bin/fakeagent -out "$out" -shots "${DESIGN_SHOTS:-$out}"
