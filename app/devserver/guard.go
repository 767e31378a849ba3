//go:build !dev

package devserver

import (
	"context"

	"github.com/rs/zerolog"
)

// Guard does nothing outside the dev build: there is no dev server.
func Guard(zerolog.Logger) {}

// Serve does nothing outside the dev build.
func Serve(context.Context) {}
