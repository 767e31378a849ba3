package theme_test

// The formats moved onto templates are rendered by core/targets, the
// packages (.vsix, Zed extension) by core/packaging; linking them here
// lets this package's tests export every format, as the app does.
import (
	_ "cdxtheme/core/packaging"
	_ "cdxtheme/core/targets"
)
