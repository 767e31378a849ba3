//go:build !unix

package serve

import (
	"errors"
	"net"
	"time"
)

// ErrNoServer: nothing listens on the socket.
var ErrNoServer = errors.New("no server on the socket")

// ErrInUse: another server answers on the socket.
var ErrInUse = errors.New("another server answers on the socket")

func Dir() (string, error)                         { return "", ErrUnsupported }
func Path(string) (string, error)                  { return "", ErrUnsupported }
func Dial(string, time.Duration) (net.Conn, error) { return nil, ErrUnsupported }
func Listen(string) (net.Listener, error)          { return nil, ErrUnsupported }
