//go:build !unix

package checkpoint

import (
	"fmt"
	"io/fs"
	"os"
)

// openLockFile opens (creating it if missing) the lock file at path,
// refusing what is not a regular file, a link included. Where flock is
// missing the file locks nothing (tryLock): two processes using one
// directory at the same time must be avoided by hand.
func openLockFile(path string) (*os.File, error) {
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		kind := "not a regular file"
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			kind = "a symbolic link"
		case info.IsDir():
			kind = "a directory"
		}
		return nil, &LockFileError{Path: path, Kind: kind}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	return f, nil
}

// tryLock takes no lock where flock is missing: it always succeeds.
func tryLock(*os.File) (bool, error) { return true, nil }

// waitLock is never reached where tryLock always succeeds.
func waitLock(*os.File) error { return nil }
