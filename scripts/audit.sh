#!/usr/bin/env bash
# Known vulnerabilities in the dependencies: govulncheck for the Go module
# (the CLI build and the desktop build's tags) and npm audit for frontend/
# and e2e/. Each line says what was checked and how it came out; a database
# that cannot be reached is said so plainly and never counts as clean.
#
# Exit: 0 every database answered and nothing is affected; 1 something is
# affected (or a tool failed); 3 the audit is incomplete because a database
# could not be reached (AUDIT_ALLOW_OFFLINE=1 makes that 0, still loudly).
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
GOVULNCHECK=${GOVULNCHECK:-golang.org/x/vuln/cmd/govulncheck@latest}
affected=0 unreachable=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

unreachable_net() { grep -Eqi 'fetching vulnerabilities|no such host|dial tcp|connection refused|i/o timeout|network is unreachable|TLS handshake|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|audit endpoint returned an error|405 Method Not Allowed' "$1"; }

govuln() { # label, flags...
	local label=$1 out=$tmp/go.txt rc
	shift
	"$GO" run "$GOVULNCHECK" "$@" ./... >"$out" 2>&1
	rc=$?
	case $rc in
	0) echo "ok          govulncheck ($label): no known vulnerability reaches the code" ;;
	3) echo "AFFECTED    govulncheck ($label):"; sed 's/^/    /' "$out"; affected=1 ;;
	*)
		if unreachable_net "$out"; then
			echo "UNREACHABLE govulncheck ($label): the Go vulnerability database (vuln.go.dev) could not be reached; NOT checked:"
			grep -m1 -Ei 'fetching|dial|host|timeout' "$out" | sed 's/^/    /'
			unreachable=1
		else
			echo "FAILED      govulncheck ($label), exit $rc:"; sed 's/^/    /' "$out"; failed=1
		fi ;;
	esac
}

npmaudit() { # dir
	local dir=$1 out=$tmp/npm.json err=$tmp/npm.err
	(cd "$dir" && npm audit --json >"$out" 2>"$err")
	if node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")); process.exit(r.auditReportVersion && r.metadata ? 0 : 1)' "$out" 2>/dev/null; then
		local summary
		summary=$(node -e 'const v=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8")).metadata.vulnerabilities; const n=Object.values(v).reduce((a,b)=>a+b,0)-(v.total||0); console.log(n+" "+["critical","high","moderate","low","info"].map(k=>k+" "+(v[k]||0)).join(", "))' "$out")
		if [ "${summary%% *}" = 0 ]; then
			echo "ok          npm audit ($dir): no known vulnerability"
		else
			echo "AFFECTED    npm audit ($dir): ${summary#* }"; (cd "$dir" && npm audit 2>/dev/null | sed 's/^/    /'); affected=1
		fi
	elif cat "$out" "$err" >"$tmp/npm.all" && unreachable_net "$tmp/npm.all"; then
		echo "UNREACHABLE npm audit ($dir): the registry's advisory database could not be reached; NOT checked:"
		grep -m1 -Eo '"message": *"[^"]*"|npm (warn|error) .*' "$tmp/npm.all" | sed 's/^/    /'
		unreachable=1
	else
		echo "FAILED      npm audit ($dir):"; sed 's/^/    /' "$tmp/npm.all"; failed=1
	fi
}

govuln "CLI build"
CGO_ENABLED=1 govuln "desktop build" -tags desktop,production,webkit2_41
npmaudit frontend
npmaudit e2e

if [ $affected = 1 ] || [ $failed = 1 ]; then
	echo "audit: FAILED (see above)"
	exit 1
fi
if [ $unreachable = 1 ]; then
	echo "audit: INCOMPLETE: a vulnerability database could not be reached, so those dependencies were not checked."
	[ "${AUDIT_ALLOW_OFFLINE:-}" = 1 ] && exit 0
	exit 3
fi
echo "audit: ok (every database answered; nothing affected)"
