//go:build linux && cgo && (desktop || dev)

package navlock

// WebKitGTK's libraries for lock_linux.c; the Go side is lock_webkit.go.

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
*/
import "C"
