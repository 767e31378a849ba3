#!/usr/bin/env bash
# Installs an exported theme into the user's programs.
set -euo pipefail

THEME_DIR="${XDG_DATA_HOME:-$HOME/.local/share}/cdxtheme"
readonly MAX_TRIES=3
declare -a targets=(bat nvim helix)

log() {
  printf '%s: %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

copy_theme() {
  local src=$1 dest=$2
  if [[ ! -f "$src" ]]; then
    log "missing $src"
    return 1
  fi
  mkdir -p "$(dirname "$dest")"
  cp -- "$src" "$dest" && log "installed $dest"
}

for target in "${targets[@]}"; do
  case "$target" in
    bat)
      copy_theme "$THEME_DIR/bat.tmTheme" "$HOME/.config/bat/themes/cdx.tmTheme"
      batcat cache --build >/dev/null 2>&1 || true
      ;;
    nvim)
      copy_theme "$THEME_DIR/cdx.lua" "$HOME/.config/nvim/colors/cdx.lua"
      ;;
    *)
      log "no installer for $target"
      ;;
  esac
done

tries=0
while (( tries < MAX_TRIES )); do
  tries=$((tries + 1))
  if command -v code >/dev/null; then
    code --install-extension "$THEME_DIR/cdx.vsix" && break
  fi
  sleep 0
done
echo "done after $tries tries" | tee -a "$THEME_DIR/install.log"
exit 0
