//go:build unix

package faults

import "golang.org/x/sys/unix"

// FreeBytes is the space an unprivileged writer may still use under dir.
func FreeBytes(dir string) (uint64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return st.Bavail * uint64(st.Bsize), nil
}
