//go:build unix

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockCorpus takes the corpus directory's add lock, waiting for another
// add to release it (after calling waiting, when it has to), and returns
// its release. add holds it from writing a certificate into certs/ until
// the index lists it and the generated files are rewritten: two adds
// solving side by side would otherwise each see the other's certificate
// in certs/ before it is listed, and fail their check. The lock is
// advisory (flock) and ends with the process.
func lockCorpus(dir string, waiting func()) (release func(), err error) {
	path := filepath.Join(dir, ".add.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		waiting()
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
