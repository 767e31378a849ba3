package consistency_test

// The formats moved onto templates are rendered by core/targets; linking
// it lets this package's tests export every format, as the app does.
import _ "cdxtheme/core/targets"
