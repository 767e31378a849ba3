# Scheme name: Nord Light
# Scheme system: base16
# Scheme author: threddast, based on fuxialexander&#39;s doom-nord-light-theme (Doom Emacs)
# Template author: Tinted Theming (https://github.com/tinted-theming)

$ENV:FZF_DEFAULT_OPTS=@"
--color=bg+:#c2d0e7,bg:#e5e9f0,spinner:#398eac,hl:#3b6ea8
--color=fg:#60728c,header:#3b6ea8,info:#9a7500,pointer:#398eac
--color=marker:#398eac,fg+:#3b4252,prompt:#9a7500,hl+:#3b6ea8
"@
