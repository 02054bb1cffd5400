//go:build unix

package cmdtest

import (
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the commands a transcript has beside testscript's own.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
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
