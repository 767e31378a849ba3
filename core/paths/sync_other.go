//go:build !unix

package paths

// syncFolder: Windows cannot open a folder for syncing, and NTFS journals
// the rename (MoveFileEx) itself.
func syncFolder(string) error { return nil }
