//go:build windows

package serve

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows has AF_UNIX stream sockets since Windows 10 1803. It has no
// socket modes and no SO_PEERCRED: the lock is the folder's DACL,
// protected (nothing inherited from the profile above) and granting this
// user alone, which the socket file inherits when it is bound; both are
// read back before use. "Bypass traverse checking" lets anyone walk
// through a folder, so the socket's own inherited DACL is what keeps
// another user from connecting; it is checked after bind and before dial.

// Dir is the private folder the sockets live in:
// %LOCALAPPDATA%\cdxtheme\run. It is made if missing and given the
// user-only DACL when it has another (an older version's folder, one
// made by hand); a folder owned by someone else, or not a real folder
// (a junction, a link), is refused.
func Dir() (string, error) {
	dir, err := socketDir(place{goos: "windows", localAppData: os.Getenv("LOCALAPPDATA")})
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", fmt.Errorf("socket folder: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("socket folder: %w", err)
	}
	user, err := currentUser()
	if err != nil {
		return "", fmt.Errorf("socket folder %s: %w", dir, err)
	}
	if err := checkACL(dir, user, true); err != nil {
		if !errors.Is(err, errForeignACL) {
			return "", fmt.Errorf("socket folder %s: %w", dir, err)
		}
		if err := restrict(dir, user); err != nil {
			return "", fmt.Errorf("socket folder %s: %w", dir, err)
		}
		if err := checkACL(dir, user, true); err != nil {
			return "", fmt.Errorf("socket folder %s, after setting its DACL: %w", dir, err)
		}
	}
	return dir, nil
}

// unixSockets says whether this Windows has AF_UNIX (10 1803 and later;
// not Wine 8), as Go's own net tests ask: by the protocols Winsock lists.
// Without it the hand-off is ErrUnsupported, so a follow-up runs at once
// instead of waiting for a serve that cannot listen.
var unixSockets = sync.OnceValue(func() bool {
	var size uint32
	syscall.WSAEnumProtocols(nil, nil, &size) // fails, saying the size needed
	n := int(size) / int(unsafe.Sizeof(syscall.WSAProtocolInfo{}))
	if n == 0 {
		return false
	}
	buf := make([]syscall.WSAProtocolInfo, n)
	got, err := syscall.WSAEnumProtocols(nil, &buf[0], &size)
	if err != nil {
		return false
	}
	for _, p := range buf[:got] {
		if p.AddressFamily == syscall.AF_UNIX {
			return true
		}
	}
	return false
})

// Path is the socket called name ("app", "serve") in Dir.
func Path(name string) (string, error) {
	if !unixSockets() {
		return "", ErrUnsupported
	}
	dir, err := Dir()
	if err != nil {
		return "", err
	}
	return socketPath("windows", dir, name)
}

// Dial connects to the socket at path after checking that it is a socket
// only this user may open.
func Dial(path string, timeout time.Duration) (net.Conn, error) {
	if !unixSockets() {
		return nil, ErrUnsupported
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoServer
	}
	if err != nil {
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return nil, fmt.Errorf("socket %s refused: not a socket (%s)", path, fi.Mode().Type())
	}
	user, err := currentUser()
	if err != nil {
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	if err := checkACL(path, user, false); err != nil {
		return nil, fmt.Errorf("socket %s refused: %w", path, err)
	}
	c, err := net.DialTimeout("unix", path, timeout)
	if err != nil {
		if errors.Is(err, windows.WSAECONNREFUSED) || errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNoServer // a socket file a dead server left
		}
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	return c, nil
}

// Listen makes the socket at path, replacing a stale one. A socket
// something still answers on is left alone: ErrInUse. The socket is bound
// where it stays (a Windows socket file is not known to survive a rename)
// and closed again unless its inherited DACL is the user's alone.
func Listen(path string) (net.Listener, error) {
	if !unixSockets() {
		return nil, ErrUnsupported
	}
	if _, err := Dir(); err != nil {
		return nil, err
	}
	user, err := currentUser()
	if err != nil {
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("socket %s: not a socket (%s); remove it to serve here", path, fi.Mode().Type())
		}
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return nil, ErrInUse
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove the stale socket %s: %w", path, err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false) // ownListener.Close removes only its own
	fi, err := os.Lstat(path)
	if err == nil {
		err = checkACL(path, user, false)
	}
	if err != nil {
		ln.Close()
		os.Remove(path)
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	return &ownListener{Listener: ln, path: path, made: fi}, nil
}

// ownListener removes its socket on Close, unless another has taken its
// place since.
type ownListener struct {
	net.Listener
	path string
	made fs.FileInfo
}

func (l *ownListener) Close() error {
	err := l.Listener.Close()
	if fi, lerr := os.Lstat(l.path); lerr == nil && os.SameFile(fi, l.made) {
		os.Remove(l.path)
	}
	return err
}

// currentUser is the SID this process runs as.
func currentUser() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("this process's user: %w", err)
	}
	return tu.User.Sid.Copy()
}

// errForeignACL: the DACL lets someone other than the user in, or is not
// protected; the owner may replace it.
var errForeignACL = errors.New("its DACL is not the user's alone")

// checkACL checks that the file or folder at path (never followed: a
// link or junction is refused) is owned by the user (or, as an elevated
// user's files are, by Administrators or SYSTEM) and that its DACL allows
// the user alone; protected, when asked, so nothing is inherited.
func checkACL(path string, user *windows.SID, protected bool) error {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(p, windows.READ_CONTROL,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return fmt.Errorf("open for its DACL: %w", err)
	}
	defer windows.CloseHandle(h)
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return fmt.Errorf("read its attributes: %w", err)
	}
	isDir := info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0
	isReparse := info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0
	if protected && (!isDir || isReparse) {
		return errors.New("not a folder (a link, a junction or a file)")
	}
	sd, err := windows.GetSecurityInfo(h, windows.SE_FILE_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("read its DACL: %w", err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("read its owner: %w", err)
	}
	if !trustedOwner(owner, user) {
		return fmt.Errorf("owned by %s, not %s", owner, user)
	}
	control, _, err := sd.Control()
	if err != nil {
		return fmt.Errorf("read its DACL: %w", err)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		return fmt.Errorf("%w: it has none, so everyone may use it", errForeignACL)
	}
	if protected && control&windows.SE_DACL_PROTECTED == 0 {
		return fmt.Errorf("%w: it inherits from the folder above", errForeignACL)
	}
	return onlyUser(dacl, user)
}

// onlyUser: every allowing ACE is the user's, and one is.
func onlyUser(dacl *windows.ACL, user *windows.SID) error {
	allows := 0
	for i := uint32(0); i < uint32(dacl.AceCount); i++ {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return fmt.Errorf("read its DACL: %w", err)
		}
		switch ace.Header.AceType {
		case windows.ACCESS_DENIED_ACE_TYPE:
			continue // a denial keeps others out, never lets them in
		case windows.ACCESS_ALLOWED_ACE_TYPE:
		default:
			return fmt.Errorf("%w: an ACE of type %d", errForeignACL, ace.Header.AceType)
		}
		// An ACCESS_ALLOWED_ACE's SID starts at SidStart.
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if !sid.Equals(user) {
			return fmt.Errorf("%w: it lets %s in", errForeignACL, sid)
		}
		allows++
	}
	if allows == 0 {
		return fmt.Errorf("%w: it grants this user nothing", errForeignACL)
	}
	return nil
}

func trustedOwner(owner, user *windows.SID) bool {
	if owner.Equals(user) {
		return true
	}
	for _, k := range []windows.WELL_KNOWN_SID_TYPE{windows.WinBuiltinAdministratorsSid, windows.WinLocalSystemSid} {
		if s, err := windows.CreateWellKnownSid(k); err == nil && owner.Equals(s) {
			return true
		}
	}
	return false
}

// restrict gives dir a protected DACL granting the user full control,
// inherited by what is made in it (OICI): the sockets, the log, the lock.
func restrict(dir string, user *windows.SID) error {
	sd, err := windows.SecurityDescriptorFromString("D:P(A;OICI;GA;;;" + user.String() + ")")
	if err != nil {
		return fmt.Errorf("build its DACL: %w", err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return fmt.Errorf("build its DACL: %w", err)
	}
	if err := windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		return fmt.Errorf("set its DACL: %w", err)
	}
	return nil
}
