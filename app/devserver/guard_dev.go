//go:build dev

package devserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"reflect"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// serve is what Guard left for Serve to do.
var serve = func(context.Context) {}

// Serve starts the guarded dev server; call it from OnStartup, once Wails
// has built its server.
func Serve(ctx context.Context) { serve(ctx) }

// Guard puts Check in front of Wails' dev server. Call it before wails.Run,
// and Serve from OnStartup.
//
// Wails v2.9.2 builds its echo server inside the app and starts it at once
// on the -devserver address, with no way to add middleware. So the address
// is taken away from Wails (flag and env var), the port is bound here, and
// once Wails hands the app its context the server is taken from the dev
// frontend (an unexported field, reached by reflection), given the check,
// and started on that listener. Nothing is served before the check is in
// place; if the server cannot be reached, nothing is served at all.
func Guard(log zerolog.Logger) {
	addr := takeAddr()
	if addr == "" {
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		log.Error().Err(err).Str("addr", addr).Msg("dev server: cannot listen")
		return
	}
	serve = func(ctx context.Context) {
		serve = func(context.Context) {}
		e, err := echoOf(ctx.Value("frontend"))
		if err != nil {
			log.Error().Err(err).Msg("dev server: Wails' server not reachable; serving nothing")
			ln.Close()
			return
		}
		e.Pre(func(next echo.HandlerFunc) echo.HandlerFunc {
			return func(c echo.Context) error {
				if err := Check(c.Request()); err != nil {
					log.Warn().Err(err).Str("path", c.Request().URL.Path).Msg("dev server: refused")
					return c.String(http.StatusForbidden, err.Error()+"\n")
				}
				return next(c)
			}
		})
		e.Listener = ln
		go func() {
			if err := e.Start(""); err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error().Err(err).Msg("dev server stopped")
			}
		}()
	}
}

// takeAddr removes the dev server address from Wails' inputs (the
// "devserver" env var, the -devserver flag) and returns it.
func takeAddr() string {
	addr := os.Getenv("devserver")
	os.Unsetenv("devserver")
	args := os.Args[:1]
	for i := 1; i < len(os.Args); i++ {
		a := os.Args[i]
		name := strings.TrimLeft(a, "-")
		switch {
		case a != name && name == "devserver" && i+1 < len(os.Args):
			addr = os.Args[i+1]
			i++
		case a != name && strings.HasPrefix(name, "devserver="):
			addr = strings.TrimPrefix(name, "devserver=")
		default:
			args = append(args, a)
		}
	}
	os.Args = args
	return addr
}

// echoOf finds the *echo.Echo in Wails' dev frontend (its field "server").
func echoOf(frontend any) (*echo.Echo, error) {
	v := reflect.ValueOf(frontend)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil, errors.New("the dev frontend is not a struct pointer")
	}
	f := v.Elem().FieldByName("server")
	if !f.IsValid() || f.Type() != reflect.TypeOf((*echo.Echo)(nil)) || f.IsNil() {
		return nil, errors.New("the dev frontend has no echo server field")
	}
	return (*echo.Echo)(f.UnsafePointer()), nil
}
