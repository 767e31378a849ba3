package live

// tmux and kitty are rendered by core/targets' templates; linking it here
// lets the tests apply them, as the app does.
import _ "cdxtheme/core/targets"
