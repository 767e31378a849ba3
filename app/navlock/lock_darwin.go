//go:build darwin && cgo && (desktop || dev)

package navlock

// Cocoa and WebKit for lock_darwin.m (Objective-C, compiled by cgo as the
// .m file it is); the Go side is lock_webkit.go.

/*
#cgo LDFLAGS: -framework Cocoa -framework WebKit
*/
import "C"
