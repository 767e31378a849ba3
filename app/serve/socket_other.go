//go:build !unix && !windows

package serve

import (
	"net"
	"time"
)

func Dir() (string, error)                         { return "", ErrUnsupported }
func Path(string) (string, error)                  { return "", ErrUnsupported }
func Dial(string, time.Duration) (net.Conn, error) { return nil, ErrUnsupported }
func Listen(string) (net.Listener, error)          { return nil, ErrUnsupported }
