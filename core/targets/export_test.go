package targets

// The helpers the external tests (apply_test.go: package targets_test,
// which core/apply, importing this package, needs) share with this
// package's own.
var (
	Family  = family
	Hex     = hex
	Run     = run
	Program = program
)

const VimProbe = vimProbe
