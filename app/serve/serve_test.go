//go:build unix

package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"cdxtheme/core/acp"
	"cdxtheme/core/chat"
	"cdxtheme/core/permission"
	"cdxtheme/core/prompt"

	"github.com/rs/zerolog"
)

func runtimeDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", d)
	return d
}

func TestDirIsPrivate(t *testing.T) {
	base := runtimeDir(t)
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(dir)
	if err != nil || dir != filepath.Join(base, "cdxtheme") || fi.Mode().Perm() != 0o700 {
		t.Fatalf("dir %s: %v %v", dir, fi.Mode(), err)
	}
	// Without XDG_RUNTIME_DIR: a folder of our own in the temp dir.
	tmp := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	dir, err = Dir()
	if err != nil || filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), "cdxtheme-") {
		t.Fatalf("fallback dir %s: %v", dir, err)
	}
	if fi, _ := os.Lstat(dir); fi.Mode().Perm() != 0o700 {
		t.Fatalf("fallback dir mode %v", fi.Mode())
	}
}

func TestDirRefusesAPlantedFolder(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("TMPDIR", tmp)
	planted := filepath.Join(tmp, "cdxtheme-"+itoa(os.Getuid()))
	cases := []struct {
		name  string
		plant func() error
		want  string
	}{
		{"open to others", func() error { return os.Mkdir(planted, 0o777) }, "lets others in"},
		{"a symlink", func() error { return os.Symlink(t.TempDir(), planted) }, "not a folder"},
	}
	if os.Getuid() == 0 {
		cases = append(cases, struct {
			name  string
			plant func() error
			want  string
		}{"another user's", func() error {
			if err := os.Mkdir(planted, 0o700); err != nil {
				return err
			}
			return os.Chown(planted, 65534, 65534)
		}, "owned by uid 65534"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.RemoveAll(planted)
			if err := c.plant(); err != nil {
				t.Fatal(err)
			}
			if c.name == "open to others" {
				os.Chmod(planted, 0o777) // Mkdir's mode is cut by the umask
			}
			_, err := Dir()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// sunPathMax is this kernel's limit: a socket path of that many bytes
// binds, one byte more does not.
func TestSunPathMaxIsTheKernels(t *testing.T) {
	max := sunPathMax(runtime.GOOS)
	dir := t.TempDir()
	for len(dir) < max-20 {
		dir = filepath.Join(dir, "d")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	at := filepath.Join(dir, strings.Repeat("s", max-len(dir)-1))
	ln, err := net.Listen("unix", at)
	if err != nil {
		t.Fatalf("a %d-byte socket path: %v", len(at), err)
	}
	ln.Close()
	if ln, err := net.Listen("unix", at+"s"); err == nil {
		ln.Close()
		t.Fatalf("a %d-byte socket path bound; sunPathMax says %d", len(at)+1, max)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// serveFake serves h on the "test" socket until the test ends.
func serveFake(t *testing.T, h Handler) string {
	t.Helper()
	runtimeDir(t)
	path, err := Path("test")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v", fi.Mode())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	srv := &Server{Handle: h, Log: zerolog.Nop()}
	go func() { defer close(done); srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return path
}

func TestRunStreamsAsksAndEnds(t *testing.T) {
	var gotAgent Agent
	path := serveFake(t, func(ctx context.Context, tr chat.Turn, a Agent, emit func(chat.Event)) (chat.Result, error) {
		gotAgent = a
		emit(chat.Event{SessionID: tr.SessionID, Payload: chat.TextChunk{Text: "<b>hi</b> " + tr.Prompt[0].Text}})
		p := permission.Permission{RequestID: `"uuid-1"`, ToolCall: &acp.ToolCall{ToolCallID: "t1", Title: ptr("write <x>")},
			Options: []permission.PermissionOption{{OptionID: "ok", Name: "Allow", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
		emit(chat.Event{SessionID: tr.SessionID, Payload: chat.PermissionAsked{Permission: &p}})
		id, err := tr.Decider.Decide(ctx, tr.SessionID, p)
		if err != nil {
			return chat.Result{}, err
		}
		emit(chat.Event{SessionID: tr.SessionID, Payload: chat.TextChunk{Text: " chose " + id}})
		emit(chat.Event{SessionID: tr.SessionID, Payload: chat.Done{StopReason: "end_turn"}})
		return chat.Result{SessionID: tr.SessionID, StopReason: "end_turn"}, nil
	})
	var evs []chat.Event
	decider := permission.DeciderFunc(func(_ context.Context, _ string, p permission.Permission) (string, error) {
		return permission.ChooseByKind(p.Options, "reject_once"), nil
	})
	res, err, handled := Run(context.Background(), path,
		chat.Turn{SessionID: "s1", Cwd: "/w", Model: "m", Prompt: prompt.Text("there"), Decider: decider},
		Agent{Path: "/bin/agent", Args: []string{"-x"}, Env: []string{"A=1"}, Timeout: time.Minute, Version: "v"},
		func(ev chat.Event) { evs = append(evs, ev) })
	if err != nil || !handled || res.SessionID != "s1" || res.StopReason != "end_turn" {
		t.Fatalf("res %+v err %v handled %v", res, err, handled)
	}
	if gotAgent.Path != "/bin/agent" || gotAgent.Timeout != time.Minute || gotAgent.Env[0] != "A=1" {
		t.Fatalf("agent = %+v", gotAgent)
	}
	var text strings.Builder
	for _, ev := range evs {
		text.WriteString(chat.TextOf(ev))
	}
	perm, _ := evs[1].Payload.(chat.PermissionAsked)
	if text.String() != "<b>hi</b> there chose no" || len(evs) != 4 || perm.Permission == nil || perm.Permission.ToolCall == nil || *perm.Permission.ToolCall.Title != "write <x>" {
		t.Fatalf("events = %+v", evs)
	}
}

func TestCancelAndErrorsCross(t *testing.T) {
	path := serveFake(t, func(ctx context.Context, tr chat.Turn, _ Agent, emit func(chat.Event)) (chat.Result, error) {
		emit(chat.Event{Payload: chat.TextChunk{Text: "working"}})
		<-ctx.Done()
		emit(chat.Event{Payload: chat.Done{StopReason: "cancelled"}})
		return chat.Result{StopReason: "cancelled"}, &chat.Error{Code: chat.CodeCancelled, Message: "cancelled", Stderr: []string{"bye"}, Agent: "fake"}
	})
	ctx, cancel := context.WithCancel(context.Background())
	res, err, handled := Run(ctx, path, chat.Turn{Prompt: prompt.Text("x")}, Agent{}, func(ev chat.Event) {
		if ev.Type() == chat.EventText {
			cancel() // Ctrl-C once the answer streams
		}
	})
	var ce *chat.Error
	if !handled || !errors.As(err, &ce) || ce.Code != chat.CodeCancelled || ce.Stderr[0] != "bye" || ce.Agent != "fake" || res.StopReason != "cancelled" {
		t.Fatalf("res %+v err %#v handled %v", res, err, handled)
	}
}

func TestDeclinedAndNoServer(t *testing.T) {
	path := serveFake(t, func(context.Context, chat.Turn, Agent, func(chat.Event)) (chat.Result, error) {
		return chat.Result{}, &Declined{Reason: "not mine"}
	})
	emitted := 0
	_, err, handled := Run(context.Background(), path, chat.Turn{}, Agent{}, func(chat.Event) { emitted++ })
	var d *Declined
	if handled || !errors.As(err, &d) || d.Reason != "not mine" || emitted != 0 {
		t.Fatalf("err %v handled %v emitted %d", err, handled, emitted)
	}
	_, err, handled = Run(context.Background(), filepath.Join(filepath.Dir(path), "none.sock"), chat.Turn{}, Agent{}, nil)
	if handled || !errors.Is(err, ErrNoServer) {
		t.Fatalf("no server: %v %v", err, handled)
	}
}

// A server of another build may send an event kind this one does not
// know: the client says so and the turn goes on to its result.
func TestUnknownEventKindIsSkippedWithAWarning(t *testing.T) {
	runtimeDir(t)
	path, _ := Path("test")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 4096)
		c.Read(buf)
		c.Write([]byte(`{"type":"event","event":{"type":"text","sessionId":"s","text":"before"}}` + "\n" +
			`{"type":"event","event":{"type":"hologram","sessionId":"s"}}` + "\n" +
			`{"type":"event","event":{"type":"text","sessionId":"s","text":" after"}}` + "\n" +
			`{"type":"result","result":{"sessionId":"s","stopReason":"end_turn"}}` + "\n"))
	}()
	var evs []chat.Event
	res, err, handled := Run(context.Background(), path, chat.Turn{}, Agent{}, func(ev chat.Event) { evs = append(evs, ev) })
	if err != nil || !handled || res.StopReason != "end_turn" || len(evs) != 3 {
		t.Fatalf("res %+v err %v handled %v events %+v", res, err, handled, evs)
	}
	if w, ok := evs[1].Payload.(chat.Warning); !ok || !strings.Contains(w.Text, `"hologram"`) || chat.TextOf(evs[2]) != " after" {
		t.Fatalf("events %+v", evs)
	}
}

func TestServerGoneMidTurnEndsWithAnError(t *testing.T) {
	runtimeDir(t)
	path, _ := Path("test")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		buf := make([]byte, 4096)
		c.Read(buf)
		c.Write([]byte(`{"type":"event","event":{"type":"text","sessionId":"s","text":"half"}}` + "\n"))
		c.Close()
	}()
	var evs []chat.Event
	_, err, handled := Run(context.Background(), path, chat.Turn{}, Agent{}, func(ev chat.Event) { evs = append(evs, ev) })
	var ce *chat.Error
	if !handled || !errors.As(err, &ce) || ce.Code != chat.CodeAgentExit || len(evs) != 2 || evs[1].Type() != chat.EventError {
		t.Fatalf("err %v handled %v events %+v", err, handled, evs)
	}
}

func TestDialRefusesForeignSockets(t *testing.T) {
	runtimeDir(t)
	dir, _ := Dir()
	path := filepath.Join(dir, "serve.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	os.Chmod(path, 0o666)
	if _, err := Dial(path, time.Second); err == nil || !strings.Contains(err.Error(), "lets others in") {
		t.Fatalf("a 0666 socket: %v", err)
	}
	if os.Getuid() == 0 {
		os.Chmod(path, 0o600)
		os.Lchown(path, 65534, 65534)
		if _, err := Dial(path, time.Second); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Fatalf("another user's socket: %v", err)
		}
	}
	os.WriteFile(filepath.Join(dir, "file.sock"), nil, 0o600)
	if _, err := Dial(filepath.Join(dir, "file.sock"), time.Second); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("a regular file: %v", err)
	}
}

// A process of another user that reaches the socket anyway (here it lies
// in an open folder and is opened up on purpose) is dropped by SO_PEERCRED.
func TestServerDropsOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3 to play the other user's client")
	}
	runtimeDir(t)
	open, err := os.MkdirTemp("", "cdxtheme-peer-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(open)
	os.Chmod(open, 0o755)
	path := filepath.Join(open, "serve.sock")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o777)
	var mu sync.Mutex
	ran := false
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	srv := &Server{Log: zerolog.Nop(), Handle: func(context.Context, chat.Turn, Agent, func(chat.Event)) (chat.Result, error) {
		mu.Lock()
		ran = true
		mu.Unlock()
		return chat.Result{}, nil
	}}
	go func() { defer close(done); srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()

	client := exec.Command("/usr/bin/python3", "-c", `
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(5)
s.connect(sys.argv[1])
try:
    s.sendall(b'{"type":"run","version":1,"turn":{},"agent":{}}\n')
    got = s.recv(100)
except (BrokenPipeError, ConnectionResetError):
    got = b''
print("dropped" if got == b'' else repr(got))
`, path)
	client.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	client.Dir = "/"
	out, err := client.CombinedOutput()
	if err != nil {
		t.Fatalf("client as uid 65534: %v: %s", err, out)
	}
	if strings.TrimSpace(string(out)) != "dropped" {
		t.Fatalf("the other user's client got %s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if ran {
		t.Fatal("a turn ran for another user")
	}
}

func ptr(s string) *string { return &s }

// A client dialling while the server starts finds no socket or a private
// one, never one with the umask's mode that it must refuse (the follow-up
// would then run cold).
func TestTheSocketIsPrivateFromItsFirstMoment(t *testing.T) {
	runtimeDir(t)
	path, err := Path("race")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	refused := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				refused <- nil
				return
			default:
			}
			if fi, err := os.Lstat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
				refused <- fmt.Errorf("the socket was reachable with mode %v", fi.Mode().Perm())
				return
			}
		}
	}()
	for i := 0; i < 300; i++ {
		ln, err := Listen(path)
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
	}
	close(stop)
	if err := <-refused; err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("Close left the socket: %v", err)
	}
}

// A turn's long text crosses in pieces (no line near the cap, none cut
// inside a character) and arrives whole; the result carries no copy.
func TestLongTextCrossesInPieces(t *testing.T) {
	long := strings.Repeat("é—x", 700_000) // 4.2 MB, runes of 2, 3 and 1 bytes
	path := serveFake(t, func(ctx context.Context, tr chat.Turn, a Agent, emit func(chat.Event)) (chat.Result, error) {
		emit(chat.Event{SessionID: "s1", Payload: chat.TextChunk{Text: long}})
		emit(chat.Event{SessionID: "s1", Payload: chat.Done{StopReason: "end_turn"}})
		return chat.Result{SessionID: "s1", StopReason: "end_turn"}, nil
	})
	var text strings.Builder
	pieces := 0
	res, err, handled := Run(context.Background(), path, chat.Turn{SessionID: "s1", Cwd: "/w", Prompt: prompt.Text("go")},
		Agent{Path: "/bin/agent", Timeout: time.Minute}, func(ev chat.Event) {
			if ev.Type() == chat.EventText {
				pieces++
				if len(ev.Payload.(chat.TextChunk).Text) > maxPiece || !utf8.ValidString(ev.Payload.(chat.TextChunk).Text) {
					t.Errorf("piece of %d bytes, valid UTF-8 %v", len(ev.Payload.(chat.TextChunk).Text), utf8.ValidString(ev.Payload.(chat.TextChunk).Text))
				}
				text.WriteString(ev.Payload.(chat.TextChunk).Text)
			}
		})
	if err != nil || !handled || res.StopReason != "end_turn" {
		t.Fatalf("res %+v err %v handled %v", res, err, handled)
	}
	if pieces < 5 || text.String() != long {
		t.Fatalf("%d pieces, %d bytes arrived of %d", pieces, text.Len(), len(long))
	}
}
