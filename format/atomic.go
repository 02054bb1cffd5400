package format

import (
	"io"
	"os"
	"path/filepath"
	"sync"
)

// pending holds the atomic files being written, for AbortPending.
var pending sync.Map // *AtomicFile → struct{}

// AtomicFile is a file being written under a temporary name beside its
// final path. Commit puts it in place only when it is complete, so a
// reader never sees a partial file and a failure leaves any old file as it
// was. Creating it fails at once when the directory cannot take the file.
type AtomicFile struct {
	*os.File
	path string
}

// CreateAtomic starts writing path.
func CreateAtomic(path string) (*AtomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, err
	}
	a := &AtomicFile{File: f, path: path}
	pending.Store(a, struct{}{})
	return a, nil
}

// Commit syncs and closes the file and renames it into place. It is
// readable by everyone and writable by its owner (0644), as results meant
// to be shared should be; a temporary file alone would be private. On
// failure the temporary file is removed.
func (a *AtomicFile) Commit() error {
	defer pending.Delete(a)
	err := a.Chmod(0o644)
	if err == nil {
		err = a.Sync()
	}
	if cerr := a.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.Name(), a.path)
	}
	if err != nil {
		os.Remove(a.Name())
	}
	return err
}

// Abort closes and removes the temporary file; path is left as it was.
func (a *AtomicFile) Abort() {
	pending.Delete(a)
	a.Close()
	os.Remove(a.Name())
}

// AbortPending aborts every atomic file of the process not yet committed
// or aborted: for a command that must exit at once (on SIGTERM) without
// leaving temporary files behind.
func AbortPending() {
	pending.Range(func(k, _ any) bool {
		k.(*AtomicFile).Abort()
		return true
	})
}

// WriteFileAtomic creates path with the bytes write produces, through an
// AtomicFile: all or nothing.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	a, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	if err := write(a); err != nil {
		a.Abort()
		return err
	}
	return a.Commit()
}
