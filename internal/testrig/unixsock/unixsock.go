// Package unixsock tells tests whether this system has AF_UNIX sockets, on
// which the warm-agent hand-off (app.sock, serve.sock) runs.
package unixsock
