//go:build unix

package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openLockFile opens (creating it if missing) the lock file at path for
// reading and writing, refusing with a *LockFileError what is not a lock
// file: a symbolic link is not followed (O_NOFOLLOW), a named pipe is not
// waited on (O_NONBLOCK), and a file that is not regular or has another
// name (a hard link to a file elsewhere) is closed untouched.
func openLockFile(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		if kind := notLockFile(path); kind != "" {
			return nil, &LockFileError{Path: path, Kind: kind}
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	kind := kindOf(info.Mode())
	if st, ok := info.Sys().(*syscall.Stat_t); ok && kind == "" && st.Nlink > 1 {
		kind = fmt.Sprintf("a file of %d names (a hard link, maybe to a file elsewhere)", st.Nlink)
	}
	if kind != "" {
		f.Close()
		return nil, &LockFileError{Path: path, Kind: kind}
	}
	return f, nil
}

// notLockFile describes what is at path when it is no regular file ("" if
// it is one, or nothing is there).
func notLockFile(path string) string {
	info, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		if to, err := os.Readlink(path); err == nil {
			return "a symbolic link (to " + to + ")"
		}
		return "a symbolic link"
	}
	return kindOf(info.Mode())
}

// kindOf names a mode that is not a regular file's ("" for one).
func kindOf(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return ""
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}

// tryLock takes the lock of f without waiting: false (and no error) when
// another open file holds it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// waitLock takes the lock of f, waiting for its holder.
func waitLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}
