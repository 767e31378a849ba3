#!/usr/bin/env bash
# Runs make targets one after another and prints how long each took, so the
# end of `make test` shows where its minutes went (issue #42: keep a fresh
# clone's run under 15 minutes on 2 cores). Stops at the first failing target
# (as make would) and still prints the table.
#
# usage: scripts/timed-suites.sh TARGET...     env: MAKE (default make)
set -uo pipefail
cd "$(dirname "$0")/.."
MAKE=${MAKE:-make}
names=() secs=() verdicts=()
status=0
start=$SECONDS
for t in "$@"; do
	t0=$SECONDS
	if "$MAKE" --no-print-directory "$t"; then v=ok; else v=FAIL status=1; fi
	names+=("$t") secs+=($((SECONDS - t0))) verdicts+=("$v")
	[ "$status" = 0 ] || break
done
echo
echo "suite timings (s):"
for i in "${!names[@]}"; do
	printf '  %-4s %-16s %5s\n' "${verdicts[$i]}" "${names[$i]}" "${secs[$i]}"
done
printf '  %-4s %-16s %5s\n' "" total $((SECONDS - start))
exit "$status"
