#!/usr/bin/env bash
# Measures the production app under Xvfb: time from process start to the
# UI's first painted frame (reported by the UI through the self-test hook),
# and idle memory (PSS where available, else RSS) of the app plus its WebKit
# processes. Writes JSON to $1 (default build/bench-window.json).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/bench-window.json}
runs=${BENCH_WINDOW_RUNS:-5}
bin=build/bin/cdxtheme
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)

paints=() mems=()
for i in $(seq 1 "$runs"); do
  rm -rf "$tmp/run" && mkdir -p "$tmp/run/codex"
  report="$tmp/run/report.json"
  CDXTHEME_CONFIG_DIR="$tmp/run/config" CDXTHEME_DATA_DIR="$tmp/run/data" CDXTHEME_CACHE_DIR="$tmp/run/cache" CODEX_HOME="$tmp/run/codex" \
  NO_AT_BRIDGE=1 CDXTHEME_AGENT=/bin/false CDXTHEME_NO_KEYRING=1 CDXTHEME_SELFTEST_OUT="$report" \
  "${bus[@]}" xvfb-run -a -s "-screen 0 1440x900x24" bash -c '
    # mem_kb PID...: the sum of Pss (shared pages split fairly), else RSS.
    mem_kb() {
      local total=0 p v
      for p in "$@"; do
        v=$(awk "/^Pss:/ {s+=\$2} END {print s+0}" /proc/$p/smaps_rollup 2>/dev/null || echo 0)
        [ "${v:-0}" = 0 ] && v=$(awk "/^VmRSS:/ {print \$2}" /proc/$p/status 2>/dev/null || echo 0)
        total=$((total + ${v:-0}))
      done
      echo $total
    }
    "$0" & app=$!
    for i in $(seq 1 200); do grep -q "\"paint\"" "$1" 2>/dev/null && break; sleep 0.05; done
    sleep 5   # idle
    # The app and all its descendants (WebKit web and network processes).
    pids=$app; frontier=$app
    while [ -n "$frontier" ]; do
      next=""
      for p in $frontier; do next="$next $(pgrep -P $p | tr "\n" " ")"; done
      frontier=$(echo $next); pids="$pids $frontier"
    done
    echo "$pids" > "$1.pids"
    mem_kb $pids > "$1.mem"
    kill -TERM $app; wait $app 2>/dev/null; true
  ' "$bin" "$report" >/dev/null 2>&1
  p=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("paintMs", ""))' "$report" 2>/dev/null)
  m=$(cat "$report.mem" 2>/dev/null)
  [ -n "$p" ] && paints+=("$p")
  [ -n "$m" ] && mems+=("$m")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {if (NR==0) print "null"; else print a[int((NR+1)/2)]}'; }
pm=$(median "${paints[@]}")
mm=$(median "${mems[@]}")
mkdir -p "$(dirname "$out")"
printf '{"runs": %d, "firstPaintMs": %s, "idleMemoryKB": %s}\n' "$runs" "${pm:-null}" "${mm:-null}" > "$out"
cat "$out"
