//go:build desktop || dev || bindings

package main

import _ "embed"

// appIcon is the window and About icon (Linux, macOS).
//
//go:embed build/appicon.png
var appIcon []byte
