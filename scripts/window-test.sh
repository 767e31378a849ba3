#!/usr/bin/env bash
# The production binary in a real window under Xvfb: the window appears, a
# screenshot of it is not blank, and a prompt sent through the UI against the
# project's fake agent shows the agent's reply (the app's self-test hook reports
# the rendered text). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bin=build/bin/cdxtheme
out=${1:-build/window-test}
mkdir -p build/bin "$out"
# make test built them first (test-prep); run alone, the script builds them.
[ -n "${TEST_PREPARED:-}" ] || make -s --no-print-directory build/bin/fakeagent || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A copy of its own, so "no agent process is left behind" sees this run's
# agent only while other window tests run theirs beside it.
agent=$tmp/fakeagent
cp build/bin/fakeagent "$agent" || exit 1
mkdir -p "$tmp/codex-home" "$tmp/state"
mkdir -m 700 "$tmp/runtime"
report="$tmp/report.json"
shot="$out/window.png"
passed=0 failed=0
# The single-instance lock talks D-Bus: give the app a private session bus.
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)
check() { # name, command...
  local name=$1; shift
  if "$@"; then echo "ok   - $name"; passed=$((passed+1)); else echo "FAIL - $name"; failed=$((failed+1)); fi
}

NO_AT_BRIDGE=1 CDXTHEME_AGENT="$agent" CDXTHEME_CONFIG_DIR="$tmp/config" CDXTHEME_DATA_DIR="$tmp/data" CDXTHEME_CACHE_DIR="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime" \
CODEX_HOME="$tmp/codex-home" FAKE_AGENT_STATE="$tmp/state" FAKE_AGENT_SCENARIO=normal \
CDXTHEME_SELFTEST_OUT="$report" CDXTHEME_SELFTEST_PROMPT="Make me a calm dusk theme" CDXTHEME_SELFTEST_STAY=1 \
CDXTHEME_NO_KEYRING=1 \
"${bus[@]}" scripts/xvfb.sh -s "-screen 0 1440x900x24" bash -c '
  "$0" & app=$!
  for i in $(seq 1 300); do
    if xdotool search --name "CDXTheme Theme Builder" >/dev/null 2>&1; then echo window-up > "$1.window"; break; fi
    sleep 0.1
  done
  for i in $(seq 1 600); do
    grep -q "\"reply\"" "$1" 2>/dev/null && break
    sleep 0.1
  done
  sleep 0.5
  import -window root "$2"
  kill -TERM $app; for i in $(seq 1 50); do kill -0 $app 2>/dev/null || break; sleep 0.1; done
  kill -KILL $app 2>/dev/null; wait $app 2>/dev/null; true
' "$bin" "$report" "$shot" >"$out/app.log" 2>&1

check "the window appears" test -f "$report.window"
check "the UI painted its first frame" grep -q '"paint"' "$report"
check "the fake agent's reply is rendered in the window" grep -q 'Hello from the fake agent' "$report"
# The preview's highlighter (Shiki, JavaScript regex engine) in WebKitGTK's
# JavaScriptCore: code after a comment and an indented comment are coloured
# as the theme says.
hl() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); h=json.loads(r["highlight"]); sys.exit(0 if h["import"]==h["const"]==h["keyword"] and h["firstComment"]==h["indentedComment"]==h["comment"] else 1)' "$report" 2>/dev/null; }
check "Shiki colours code like VS Code in the real webview" hl
colours=$(convert "$shot" -format '%k' info: 2>/dev/null || echo 0)
check "the screenshot is not blank ($colours colours)" test "${colours:-0}" -gt 50
# Without a display the window cannot open: the user is told so, instead
# of GTK aborting the process.
nodisplay=$(env -u DISPLAY -u WAYLAND_DISPLAY CDXTHEME_CONFIG_DIR="$tmp/config" CDXTHEME_DATA_DIR="$tmp/data" CDXTHEME_CACHE_DIR="$tmp/cache" "$bin" 2>&1; echo "rc=$?")
check "without a display it says why and exits 1" grep -qz 'no graphical display.*rc=1' <<<"$nodisplay"
leftover=$(pgrep -f "$agent" || true)
check "no agent process is left behind" test -z "$leftover"
[ -f "$report" ] && echo "self-test report: $(cat "$report")"
echo "screenshot: $shot"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
