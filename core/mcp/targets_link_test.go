package mcp_test

// The formats moved onto templates are rendered by core/targets, and the
// .vsix and Zed extension by core/packaging; linking them lets this
// package's tests export every format, as the app does.
import (
	_ "cdxtheme/core/packaging"
	_ "cdxtheme/core/targets"
)
