//go:build unix

package cmdtest

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// platformCmds are the commands a transcript has on this platform only.
var platformCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"mkfifo": mkfifo,
}

// mkfifo makes a named pipe at each path (relative to $WORK).
func mkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mkfifo PATH...")
	}
	for _, a := range args {
		ts.Check(syscall.Mkfifo(ts.MkAbs(a), 0o600))
	}
}

// lockDir makes dir and takes a lock on it (a file lock, held until
// unlock), waiting for another process that holds it.
func lockDir(dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
