//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// stateLockFile is the file in a state directory that a process using the
// directory holds locked.
const stateLockFile = ".spots-solve.lock"

// heldLocks keeps the lock files open for the life of the process (a file
// collected by the garbage collector would be closed, and its lock gone).
var heldLocks []*os.File

// lockStateDir takes the lock of the state directory dir (made if
// missing) for as long as the process lives, or says which process holds
// it. Two processes saving into one directory alternate their saves and
// can leave a checkpoint neither wrote whole; the lock (flock, advisory)
// ends with its process, kill -9 included.
func lockStateDir(flag, dir string) error {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil // not a directory: --state says so
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	path := filepath.Join(dir, stateLockFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("%s %s: locking it: %w", flag, dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			holder := "another process"
			if b, err := os.ReadFile(path); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
					holder = fmt.Sprintf("another spots-solve (process %d)", pid)
				}
			}
			return fmt.Errorf("%s %s: %s is using it: wait for it to end (or stop it), or give another directory", flag, dir, holder)
		}
		return fmt.Errorf("%s %s: locking it: %w", flag, dir, err)
	}
	// The holder's process id, for the message of the next one.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	heldLocks = append(heldLocks, f)
	return nil
}
