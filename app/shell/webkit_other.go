//go:build !(linux && cgo && (production || dev))

package shell

// tuneWebKit has nothing to tune without WebKitGTK (other systems, the
// tagless CLI build).
func tuneWebKit() error { return nil }
