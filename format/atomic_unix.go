//go:build unix

package format

import (
	"os"
	"syscall"
)

// lockTemp marks the temporary file f as being written by this process:
// the lock goes with the process, however it ends.
func lockTemp(f *os.File) {
	flock(f)
}

// unheld reports whether no process holds the lock of the temporary file
// at path (its writer is gone).
func unheld(path string) bool {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return flock(f)
}

// flock takes an exclusive lock on f without waiting and reports whether it
// got it.
func flock(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	got := false
	rc.Control(func(fd uintptr) {
		got = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB) == nil
	})
	return got
}
