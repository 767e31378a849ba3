package theme

// The helpers palette_export_test.go (package theme_test: it renders
// through core/targets, which imports this package) shares with this
// package's tests.
var (
	PaletteDoc      = paletteDoc
	OtherAppearance = otherAppearance
	Twin            = twin
)
