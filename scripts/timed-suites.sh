#!/usr/bin/env bash
# Runs make targets in stages and prints how long each took, wall and CPU,
# so the end of `make test` shows where its minutes went (issue #42: keep a
# fresh clone's run under 15 minutes on 2 cores).
#
# Each argument is a stage; stages run one after another. A stage is one
# target, or lanes separated by "," that run at the same time, each lane a
# sequence of targets joined by "+":
#
#   deps  cross+test-go,test-window+test-e2e  test-package
#
# runs deps, then cross followed by test-go beside test-window followed by
# test-e2e, then test-package. Lanes exist because most suites wait (an app
# starting under Xvfb, a fake agent, a browser) while others compile: side
# by side they share two cores instead of taking turns. A lone target's
# output streams as it runs; a lane's goes to build/test-logs/<target>.log
# and is printed whole when the target fails (its "N passed" line always).
# The first failure stops what has not started yet; the table is printed
# either way and the exit status is 1.
#
# CPU is the user+sys time of the target's processes (bash's `times` in a
# subshell after make returns: every process make and its children waited
# for), the figure to compare on a machine others are loading.
#
# usage: scripts/timed-suites.sh STAGE...
# env: MAKE (default make), TIMED_LOGS (default build/test-logs)
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
logs=${TIMED_LOGS:-build/test-logs}
rm -rf "$logs"
mkdir -p "$logs"
failed="$logs/.failed"

# secs "1m2.500s" -> 62 (rounded)
secs() { awk -v t="$1" 'BEGIN { split(t, a, "m"); sub("s", "", a[2]); printf "%d", a[1] * 60 + a[2] + 0.5 }'; }

# suite TARGET [quiet]: runs one target, records verdict, wall and CPU seconds
# in $logs/TARGET.time; a quiet one writes its output to $logs/TARGET.log.
suite() {
	local t=$1 quiet=${2:-} t0=$SECONDS rc
	if [ -e "$failed" ]; then
		echo "skip 0 0" >"$logs/$t.time"
		return
	fi
	if [ -n "$quiet" ]; then
		echo "== $t: started (output in $logs/$t.log)"
		(
			"$MAKE" --no-print-directory "$t" >"$logs/$t.log" 2>&1
			rc=$?
			times >"$logs/$t.cpu"
			exit $rc
		)
	else
		(
			"$MAKE" --no-print-directory "$t" 2>&1 | tee "$logs/$t.log"
			rc=${PIPESTATUS[0]}
			times >"$logs/$t.cpu"
			exit $rc
		)
	fi
	rc=$?
	read -r u s < <(tail -n 1 "$logs/$t.cpu") # the children's line
	local cpu=$(($(secs "$u") + $(secs "$s"))) wall=$((SECONDS - t0))
	if [ "$rc" = 0 ]; then
		echo "ok $wall $cpu" >"$logs/$t.time"
		[ -n "$quiet" ] && echo "== $t: ok in $wall s ($cpu s CPU)$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$t.log" | tail -n 1 | sed 's/^/; /')"
	else
		echo "FAIL $wall $cpu" >"$logs/$t.time"
		: >"$failed"
		if [ -n "$quiet" ]; then
			echo "== $t: FAILED in $wall s; its output:"
			sed "s/^/$t| /" "$logs/$t.log"
			echo "== $t: end of output"
		fi
	fi
}

order=()
start=$SECONDS
for stage in "$@"; do
	[ -e "$failed" ] && break
	IFS=, read -r -a lanes <<<"$stage"
	if [ "${#lanes[@]}" = 1 ] && [[ $stage != *+* ]]; then
		order+=("$stage")
		suite "$stage"
		continue
	fi
	pids=()
	for lane in "${lanes[@]}"; do
		IFS=+ read -r -a ts <<<"$lane"
		order+=("${ts[@]}")
		(for t in "${ts[@]}"; do suite "$t" quiet; done) &
		pids+=($!)
	done
	wait "${pids[@]}"
done

echo
echo "suite timings (s; lanes joined by \",\" ran side by side: $*):"
printf '  %-4s %-16s %5s %5s\n' "" suite wall cpu
status=0
for t in "${order[@]}"; do
	read -r v w c <"$logs/$t.time" 2>/dev/null || { v=skip w=0 c=0; }
	[ "$v" = FAIL ] && status=1
	[ "$v" = skip ] && continue
	printf '  %-4s %-16s %5s %5s\n' "$v" "$t" "$w" "$c"
done
[ -e "$failed" ] && status=1
printf '  %-4s %-16s %5s\n' "" total $((SECONDS - start))
exit "$status"
