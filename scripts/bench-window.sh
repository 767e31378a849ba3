#!/usr/bin/env bash
# Measures the production app under Xvfb: time from process start to the
# UI's first painted frame (reported by the UI through the self-test hook),
# and idle memory (PSS where available, else RSS) of the app plus its WebKit
# processes. Beside it, in the same runs and the same way, the bare Wails
# window of internal/bench/barewails (the floor: Wails and WebKit with a
# one-paragraph page), when built. Runs alternate app, bare, app, bare, so
# both see the same machine. Writes JSON to $1 (default build/bench-window.json).
#
# Environment: BENCH_WINDOW_RUNS (default 5); BENCH_APP (default
# build/bin/cdxtheme); BENCH_BARE (default
# build/bin/barewails; missing = no bare figures).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/bench-window.json}
runs=${BENCH_WINDOW_RUNS:-5}
bin=${BENCH_APP:-build/bin/cdxtheme}
bare=${BENCH_BARE:-build/bin/barewails}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bus=()
command -v dbus-run-session >/dev/null && bus=(dbus-run-session --)

# measure BIN: one start of BIN; prints "PAINT_MS PSS_KB ANON_KB" (empty
# fields when not measured).
measure() {
  rm -rf "$tmp/run" && mkdir -p "$tmp/run/codex"
  local report="$tmp/run/report.json"
  CDXTHEME_CONFIG_DIR="$tmp/run/config" CDXTHEME_DATA_DIR="$tmp/run/data" CDXTHEME_CACHE_DIR="$tmp/run/cache" CODEX_HOME="$tmp/run/codex" \
  NO_AT_BRIDGE=1 CDXTHEME_AGENT=/bin/false CDXTHEME_NO_KEYRING=1 CDXTHEME_SELFTEST_OUT="$report" \
  "${bus[@]}" xvfb-run -a -s "-screen 0 1440x900x24" bash -c '
    # mem_kb FIELD PID...: the sum of FIELD (Pss: shared pages split fairly;
    # Pss_Anon) from smaps_rollup, else of VmRSS.
    mem_kb() {
      local field=$1 total=0 p v; shift
      for p in "$@"; do
        v=$(awk "/^$field:/ {s+=\$2} END {print s+0}" /proc/$p/smaps_rollup 2>/dev/null || echo 0)
        [ "${v:-0}" = 0 ] && [ "$field" = Pss ] && v=$(awk "/^VmRSS:/ {print \$2}" /proc/$p/status 2>/dev/null || echo 0)
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
    kill -0 $app 2>/dev/null && echo "$(mem_kb Pss $pids) $(mem_kb Pss_Anon $pids)" > "$1.mem"
    kill -TERM $app; wait $app 2>/dev/null; true
  ' "$1" "$report" >/dev/null 2>&1
  local p m
  p=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("paintMs", ""))' "$report" 2>/dev/null)
  m=$(cat "$report.mem" 2>/dev/null)
  echo "${p:-} ${m:-}"
}

paints=() mems=() anons=() bpaints=() bmems=() banons=() pairs=()
for i in $(seq 1 "$runs"); do
  read -r p m a <<<"$(measure "$bin")"
  [ -n "${p:-}" ] && paints+=("$p")
  [ -n "${m:-}" ] && mems+=("$m") && anons+=("$a")
  if [ -x "$bare" ]; then
    am=${m:-}
    read -r p m a <<<"$(measure "$bare")"
    [ -n "${p:-}" ] && bpaints+=("$p")
    [ -n "${m:-}" ] && bmems+=("$m") && banons+=("$a")
    # Back to back, the two see the same machine: the ratio is taken per pair.
    [ -n "$am" ] && [ -n "${m:-}" ] && pairs+=("[$am, $m]")
  fi
done
median() { printf '%s\n' "$@" | awk 'NF' | sort -n | awk '{a[NR]=$1} END {if (NR==0) print "null"; else print a[int((NR+1)/2)]}'; }
bareJSON=null
if [ -x "$bare" ]; then
  bareJSON=$(printf '{"firstPaintMs": %s, "idleMemoryKB": %s, "idleAnonKB": %s, "pairsKB": [%s]}' \
    "$(median "${bpaints[@]}")" "$(median "${bmems[@]}")" "$(median "${banons[@]}")" "$(IFS=,; echo "${pairs[*]}")")
fi
mkdir -p "$(dirname "$out")"
printf '{"runs": %d, "firstPaintMs": %s, "idleMemoryKB": %s, "idleAnonKB": %s, "bare": %s}\n' "$runs" \
  "$(median "${paints[@]}")" "$(median "${mems[@]}")" "$(median "${anons[@]}")" "$bareJSON" > "$out"
cat "$out"
