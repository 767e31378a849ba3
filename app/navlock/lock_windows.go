//go:build windows && (desktop || dev)

package navlock

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"syscall"
	"unsafe"

	"github.com/rs/zerolog"
	"golang.org/x/sys/windows"
)

// Origin is where Wails v2 serves the app on Windows: WebView2 requests to
// http://wails.localhost are answered from the embedded assets.
const Origin = "http://wails.localhost"

// Lock adds WebView2 NavigationStarting, FrameNavigationStarting and
// NewWindowRequested handlers to the app's ICoreWebView2. Wails v2.9.2 does
// not expose the webview: it is taken from the frontend Wails puts in the
// OnStartup context (unexported fields "chromium" → "webview", reached by
// reflection; pinned to v2.9.2), and the handlers are added on the window's
// UI thread through its Invoke. If any of that fails the log says the lock
// is off.
func Lock(ctx context.Context, log zerolog.Logger) {
	install(log, Origin)
	fe := frontendOf(ctx.Value("frontend"))
	wv, err := webviewOf(fe)
	if err == nil {
		err = onUIThread(fe, func() error { return addHandlers(wv) })
	}
	if err != nil {
		log.Error().Err(err).Msg("navigation lock: WebView2 not reachable; links and scripts are held by the page alone")
		return
	}
	log.Info().Str("origin", Origin).Msg("navigation lock on")
}

// frontendOf unwraps the dev build's server, which embeds the desktop
// frontend as its field "Frontend".
func frontendOf(v any) reflect.Value {
	fe := reflect.ValueOf(v)
	for fe.IsValid() && fe.Kind() == reflect.Pointer && fe.Elem().Kind() == reflect.Struct {
		if fe.Elem().FieldByName("chromium").IsValid() {
			return fe
		}
		inner := fe.Elem().FieldByName("Frontend")
		if !inner.IsValid() || inner.Kind() != reflect.Interface || inner.IsNil() {
			break
		}
		fe = inner.Elem()
	}
	return reflect.Value{}
}

// field reads the unexported pointer field name of the struct p points to.
func field(p reflect.Value, name string) (reflect.Value, error) {
	if !p.IsValid() || p.Kind() != reflect.Pointer || p.IsNil() || p.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, errors.New("not a struct pointer")
	}
	f := p.Elem().FieldByName(name)
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return reflect.Value{}, errors.New("no field " + name)
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem(), nil
}

func webviewOf(fe reflect.Value) (unsafe.Pointer, error) {
	ch, err := field(fe, "chromium")
	if err != nil {
		return nil, err
	}
	wv, err := field(ch, "webview")
	if err != nil {
		return nil, err
	}
	return wv.UnsafePointer(), nil
}

// onUIThread runs fn through the main window's Invoke (WebView2 answers
// only its own thread) and waits for it.
func onUIThread(fe reflect.Value, fn func() error) error {
	w, err := field(fe, "mainWindow")
	if err != nil {
		return err
	}
	invoke := w.MethodByName("Invoke")
	if !invoke.IsValid() || invoke.Type().NumIn() != 1 || invoke.Type().In(0) != reflect.TypeOf(func() {}) {
		return errors.New("the main window has no Invoke(func())")
	}
	done := make(chan error, 1)
	invoke.Call([]reflect.Value{reflect.ValueOf(func() { done <- fn() })})
	return <-done
}

// The ICoreWebView2 vtable slots used (see WebView2.h).
const (
	slotAddNavigationStarting      = 7
	slotAddFrameNavigationStarting = 17
	slotAddNewWindowRequested      = 44
	// ICoreWebView2NavigationStartingEventArgs
	navArgsGetURI             = 3
	navArgsGetIsUserInitiated = 4
	navArgsPutCancel          = 8
	// ICoreWebView2NewWindowRequestedEventArgs
	winArgsGetURI             = 3
	winArgsPutHandled         = 6
	winArgsGetIsUserInitiated = 8
)

// vcall calls the COM method in vtable slot of obj.
func vcall(obj unsafe.Pointer, slot int, args ...uintptr) uintptr {
	vtbl := *(*unsafe.Pointer)(obj)
	fn := *(*uintptr)(unsafe.Add(vtbl, uintptr(slot)*unsafe.Sizeof(uintptr(0))))
	r, _, _ := syscall.SyscallN(fn, append([]uintptr{uintptr(obj)}, args...)...)
	return r
}

// handler is a COM event handler object: IUnknown plus Invoke(sender, args).
type handler struct {
	vtbl   *[4]uintptr
	invoke func(args unsafe.Pointer)
}

var (
	handlerVtbl = [4]uintptr{
		syscall.NewCallback(func(this *handler, iid uintptr, out **handler) uintptr { *out = this; return 0 }),
		syscall.NewCallback(func(this *handler) uintptr { return 1 }),
		syscall.NewCallback(func(this *handler) uintptr { return 1 }),
		syscall.NewCallback(func(this *handler, sender, args unsafe.Pointer) uintptr {
			this.invoke(args)
			return 0
		}),
	}
	// keep holds the handlers for the life of the process: WebView2 keeps
	// pointers to them.
	keep   []*handler
	keepMu sync.Mutex
)

func uriOf(args unsafe.Pointer, slot int) string {
	var p *uint16
	if vcall(args, slot, uintptr(unsafe.Pointer(&p))) != 0 || p == nil {
		return ""
	}
	defer windows.CoTaskMemFree(unsafe.Pointer(p))
	return windows.UTF16PtrToString(p)
}

func flag(args unsafe.Pointer, slot int) bool {
	var b int32
	return vcall(args, slot, uintptr(unsafe.Pointer(&b))) == 0 && b != 0
}

func addHandlers(wv unsafe.Pointer) error {
	nav := func(args unsafe.Pointer) {
		r := Request{Kind: Navigation, URI: uriOf(args, navArgsGetURI), Cause: "navigation-starting", UserGesture: flag(args, navArgsGetIsUserInitiated)}
		if !decide(r) {
			vcall(args, navArgsPutCancel, 1)
		}
	}
	win := func(args unsafe.Pointer) {
		r := Request{Kind: NewWindow, URI: uriOf(args, winArgsGetURI), Cause: "new-window-requested", UserGesture: flag(args, winArgsGetIsUserInitiated)}
		decide(r) // always refused: Handled without a NewWindow opens nothing
		vcall(args, winArgsPutHandled, 1)
	}
	for _, h := range []struct {
		slot int
		fn   func(unsafe.Pointer)
	}{{slotAddNavigationStarting, nav}, {slotAddFrameNavigationStarting, nav}, {slotAddNewWindowRequested, win}} {
		obj := &handler{vtbl: &handlerVtbl, invoke: h.fn}
		keepMu.Lock()
		keep = append(keep, obj)
		keepMu.Unlock()
		var token int64
		if hr := vcall(wv, h.slot, uintptr(unsafe.Pointer(obj)), uintptr(unsafe.Pointer(&token))); hr != 0 {
			return errors.New("WebView2 refused an event handler (HRESULT " + windows.Errno(hr).Error() + ")")
		}
	}
	return nil
}
