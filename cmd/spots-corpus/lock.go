package main

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/spots-dev/spots/internal/checkpoint"
)

// addLockName is the file of a corpus directory that add holds locked.
const addLockName = ".add.lock"

// lockCorpus takes the corpus directory's add lock, waiting for another
// add to release it (after calling waiting, when it has to), and returns
// its release. add holds it from writing a certificate into certs/ until
// the index lists it and the generated files are rewritten: two adds
// solving side by side would otherwise each see the other's certificate
// in certs/ before it is listed, and fail their check. The lock is
// advisory (flock) and ends with the process. A link planted at its name
// is refused, never followed (checkpoint.Lock).
func lockCorpus(dir string, waiting func()) (release func(), err error) {
	return checkpoint.Lock(filepath.Join(dir, addLockName), "spots-corpus add", waiting)
}

// lockState takes the lock of the checkpoint directory dir (made if
// missing; none for ""), the lock spots-solve takes of its --state and
// --resume directories: a second add, or a spots-solve, saving into the
// directory at the same time would alternate their saves with this one's.
// Its release also removes the directory when it holds no checkpoint,
// only the lock file.
func lockState(dir string) (unlock func(), err error) {
	if dir == "" {
		return func() {}, nil
	}
	release, err := checkpoint.LockDir(dir, "spots-corpus add")
	if err != nil {
		return nil, err
	}
	return func() {
		if _, err := checkpoint.Load(dir); errors.Is(err, checkpoint.ErrNone) {
			os.Remove(filepath.Join(dir, checkpoint.LockName))
			os.Remove(dir) // only if empty
		}
		release()
	}, nil
}
