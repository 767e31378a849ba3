#!/usr/bin/env bash
# Records the terminal sample the preview renders (frontend/src/lib/fixtures/
# terminal-sample.ansi): the real ANSI output of ls, git and grep in a
# scratch folder, so the preview shows what these programs really print
# through the theme's 16 colours. Run it again to refresh the fixture.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/frontend/src/lib/fixtures/terminal-sample.ansi"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
export LC_ALL=C.UTF-8 TERM=xterm-256color GIT_CONFIG_NOSYSTEM=1 HOME="$dir"
unset LS_COLORS
eval "$(dircolors -b)"
git="git -c user.name=Theme -c user.email=theme@example.invalid -c color.ui=always -c init.defaultBranch=main"
mkdir -p src dist .cache
printf '#!/bin/sh\necho build\n' > build.sh && chmod +x build.sh
printf 'theme notes\n' > NOTES.md
printf '<svg/>' > logo.svg
ln -s NOTES.md README.md
printf 'export const accent = "#7fb4ff";\nexport const muted = "#9ca7ba";\n' > src/palette.ts
$git init -q . && $git add -A && $git commit -qm 'First palette'
printf 'export const accent = "#ff7a59";\nexport const muted = "#9ca7ba";\nexport const warning = "#f2c572";\n' > src/palette.ts
prompt() { printf '\033[32m➜\033[0m \033[36mtheme\033[0m \033[34mgit:(\033[31mmain\033[34m)\033[0m %s\n' "$1"; }
{
  prompt 'ls -A --color'
  ls -A -C --color=always -w 72
  prompt 'git diff'
  $git diff --color=always | grep -v '^.\[1mindex'
  prompt 'grep -n accent src/palette.ts'
  grep -n --color=always accent src/palette.ts
  prompt 'git log --oneline'
  $git log --oneline --decorate --color=always | sed -E 's/[0-9a-f]{7}/1a2b3c4/'
} > "$out"
echo "wrote $out"
