#!/usr/bin/env bash
# Fails when frontend/wailsjs is not what `make bindings` makes of the Go
# code now: regenerates into a temporary folder and compares.
set -euo pipefail
GO=${GO:-go}
TAGS=${TAGS:-webkit2_41}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GO" build -tags "bindings,$TAGS" -o "$tmp/bindings" .
# The generator reads wails.json in its working directory for where to write.
printf '{"name": "cdxtheme", "wailsjsdir": "%s"}\n' "$tmp/out" >"$tmp/wails.json"
(cd "$tmp" && tsoutputtype=interfaces ./bindings >"$tmp/log" 2>&1) || { cat "$tmp/log"; exit 1; }
if ! diff -ru frontend/wailsjs "$tmp/out/wailsjs"; then
  echo "bindings-check: frontend/wailsjs is stale; run \`make bindings\` and commit the result" >&2
  exit 1
fi
echo "bindings-check: frontend/wailsjs is current ($(ls "$tmp/out/wailsjs/go/app" | grep -c '\.d\.ts$') services)"
