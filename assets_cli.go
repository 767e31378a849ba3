//go:build !desktop && !dev && !bindings

package main

import "cdxtheme/app/shell"

// files: the CLI-only build embeds no UI (it has no window to open).
func files() shell.Files { return shell.Files{} }
