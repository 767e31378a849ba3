// Command respmock serves the Responses API mock for tests that drive a real
// Codex from outside Go (the e2e suite): it writes an offline CODEX_HOME
// whose config.toml points at the mock, prints one JSON line
//
//	{"baseURL": "http://127.0.0.1:P/v1", "control": "http://127.0.0.1:Q", "codexHome": DIR}
//
// and serves until stdin closes or it is signalled. The control server:
//
//	GET  /requests       the model turn requests so far: [{"seq", "model", "effort", "sandbox", "user"}]
//	POST /reply?mode=M   how later turns are answered: echo (default) or hang
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"cdxtheme/internal/testrig/peers"
	"cdxtheme/internal/testrig/respmock"
)

func main() {
	home := flag.String("home", "", "CODEX_HOME to create (must not lie under the temp dir)")
	model := flag.String("model", peers.DefaultModel, "config.toml's model")
	flag.Parse()
	if err := run(*home, *model); err != nil {
		fmt.Fprintln(os.Stderr, "respmock:", err)
		os.Exit(1)
	}
}

func run(home, model string) error {
	if home == "" {
		return fmt.Errorf("-home is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	mock, err := respmock.Start(ctx, nil)
	if err != nil {
		return err
	}
	defer mock.Close()
	if err := os.MkdirAll(home, 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(peers.Config(peers.HomeOptions{BaseURL: mock.BaseURL(), Model: model})), 0o600); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: control(mock)}
	go srv.Serve(ln)
	defer srv.Close()
	line, _ := json.Marshal(map[string]string{"baseURL": mock.BaseURL(), "control": "http://" + ln.Addr().String(), "codexHome": home})
	fmt.Println(string(line))
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin) // the parent went away
		stop()
	}()
	<-ctx.Done()
	return nil
}

func control(mock *respmock.Server) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /requests", func(w http.ResponseWriter, r *http.Request) {
		type turn struct {
			Seq     int    `json:"seq"`
			Model   string `json:"model"`
			Effort  string `json:"effort"`
			Sandbox string `json:"sandbox"`
			User    string `json:"user"`
		}
		out := []turn{}
		for _, t := range mock.Turns() {
			out = append(out, turn{Seq: t.Seq, Model: t.Model, Effort: t.Effort, Sandbox: t.Sandbox(), User: t.LastUserText()})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("POST /reply", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("mode") {
		case "", "echo":
			mock.SetResponder(nil)
		case "hang":
			mock.SetResponder(func(respmock.Request) respmock.Reply { return respmock.Hanging() })
		default:
			http.Error(w, "mode is echo or hang", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}
