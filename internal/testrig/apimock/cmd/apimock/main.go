// Command apimock serves the model API mock (internal/testrig/apimock) for tests that
// drive a third-party agent from outside Go (the e2e suite): it prints one
// JSON line {"url": "http://127.0.0.1:P", "control": "http://127.0.0.1:Q"}
// and serves until stdin closes or it is signalled. The control server:
//
//	GET /requests   the turn requests so far: [{"api", "model", "user", "texts"}]
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"cdxtheme/internal/testrig/apimock"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "apimock:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	mock, err := apimock.Start(ctx, nil)
	if err != nil {
		return err
	}
	defer mock.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /requests", func(w http.ResponseWriter, r *http.Request) {
		type row struct {
			API   string   `json:"api"`
			Model string   `json:"model"`
			User  string   `json:"user"`
			Texts []string `json:"texts"`
			Side  bool     `json:"side,omitempty"`
		}
		out := []row{}
		for _, t := range mock.Requests() {
			if t.JSONMode && r.URL.Query().Get("all") == "" {
				continue
			}
			out = append(out, row{t.API, t.Model, t.User, t.Texts, t.JSONMode})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()
	line, _ := json.Marshal(map[string]string{"url": mock.URL(), "control": "http://" + ln.Addr().String()})
	fmt.Println(string(line))
	go func() {
		io.Copy(io.Discard, os.Stdin)
		stop()
	}()
	<-ctx.Done()
	return nil
}
