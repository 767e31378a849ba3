package targets_test

// The .vsix and the Zed extension are written by core/packaging, which
// imports this package; linking it here lets this package's tests export
// every format of the menu, as the app does.
import _ "cdxtheme/core/packaging"
