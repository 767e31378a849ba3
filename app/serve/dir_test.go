package serve

import (
	"strings"
	"testing"
)

// The socket folder for every OS, decided from what each offers: the
// per-user one first, a shorter one when sun_path would not hold the
// socket's path, never a folder the app shares with its config.
func TestSocketDirPerOS(t *testing.T) {
	macTmp := "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/" // what launchd gives a user
	long := "/Users/ann/" + strings.Repeat("deep/", 16)           // a TMPDIR sun_path cannot hold
	cases := []struct {
		name string
		p    place
		want string
	}{
		{"linux runtime dir", place{goos: "linux", runtime: "/run/user/1000", temp: "/tmp", uid: 1000}, "/run/user/1000/cdxtheme"},
		{"linux without one", place{goos: "linux", temp: "/tmp", uid: 1000}, "/tmp/cdxtheme-1000"},
		{"linux, a relative runtime dir is ignored", place{goos: "linux", runtime: "run", temp: "/tmp", uid: 7}, "/tmp/cdxtheme-7"},
		{"macOS: the user's own TMPDIR", place{goos: "darwin", temp: macTmp, uid: 501}, macTmp + "cdxtheme-501"},
		{"macOS with XDG_RUNTIME_DIR set", place{goos: "darwin", runtime: "/Users/ann/.run", temp: macTmp, uid: 501}, "/Users/ann/.run/cdxtheme"},
		{"macOS, a TMPDIR too long for sun_path", place{goos: "darwin", temp: long, uid: 501}, "/tmp/cdxtheme-501"},
		{"linux, a runtime dir too long", place{goos: "linux", runtime: long + strings.Repeat("x", 20), temp: "/tmp", uid: 1000}, "/tmp/cdxtheme-1000"},
		{"windows", place{goos: "windows", localAppData: `C:\Users\ann\AppData\Local`, runtime: "/run/user/1", temp: `C:\Temp`}, `C:\Users\ann\AppData\Local\cdxtheme\run`},
		{"windows, a trailing separator", place{goos: "windows", localAppData: `D:\Profiles\ann\Local\`}, `D:\Profiles\ann\Local\cdxtheme\run`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := socketDir(c.p)
			if err != nil || got != c.want {
				t.Fatalf("socketDir = %q, %v; want %q", got, err, c.want)
			}
			if n := len(got) + len("/serve.sock") + len(bindSuffix); n > sunPathMax(c.p.goos) {
				t.Fatalf("the socket's temporary path is %d bytes, over %d", n, sunPathMax(c.p.goos))
			}
		})
	}
}

func TestSocketDirRefusesWhatCannotHoldASocket(t *testing.T) {
	for _, p := range []place{
		{goos: "windows"}, // no LOCALAPPDATA
		{goos: "windows", localAppData: `AppData\Local`},
		{goos: "windows", localAppData: `C:\Users\` + strings.Repeat("a", 90)},
	} { // (on unix /tmp/cdxtheme-<uid> always fits)
		if got, err := socketDir(p); err == nil {
			t.Errorf("%+v: got %q, want an error", p, got)
		}
	}
	// The limit is the OS's: 103 bytes of path on macOS, 107 on Linux.
	dir := "/" + strings.Repeat("d", 80)
	if _, err := socketPath("linux", dir, "serve"); err != nil {
		t.Errorf("linux: %v", err)
	}
	if _, err := socketPath("darwin", dir, "serve"); err == nil || !strings.Contains(err.Error(), "103") {
		t.Errorf("darwin: %v, want the 103-byte limit", err)
	}
}
