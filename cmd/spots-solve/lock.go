package main

import (
	"fmt"
	"os"

	"github.com/spots-dev/spots/internal/checkpoint"
)

// stateLockFile is the file in a state directory that a process using the
// directory holds locked (spots-corpus add takes the same lock).
const stateLockFile = checkpoint.LockName

// lockStateDir takes the lock of the state directory dir (made if
// missing) for as long as the process lives, or says which process holds
// it. Two processes saving into one directory alternate their saves and
// can leave a checkpoint neither wrote whole; the lock (flock, advisory)
// ends with its process, kill -9 included. A link planted at the lock
// file's name is refused, never followed (checkpoint.LockDir).
func lockStateDir(flag, dir string) error {
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil // not a directory: --state says so
	}
	if _, err := checkpoint.LockDir(dir, "spots-solve"); err != nil {
		return fmt.Errorf("%s %s: %w", flag, dir, err)
	}
	return nil
}
