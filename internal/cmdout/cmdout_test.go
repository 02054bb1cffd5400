package cmdout

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"
)

// failing fails every write with err.
type failing struct{ err error }

func (f failing) Write([]byte) (int, error) { return 0, f.err }

// TestStatus: a failed write makes the status at least 1, with a message
// naming the error (without the path of /dev/stdout); a broken pipe and a
// write that succeeds change nothing.
func TestStatus(t *testing.T) {
	enospc := &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
	for _, tc := range []struct {
		name       string
		err        error
		status     int
		want       int
		wantStderr string
	}{
		{"ok", nil, 0, 0, ""},
		{"full", enospc, 0, 1, "cmd: writing standard output: no space left on device (the output is incomplete)\n"},
		{"full, claim false", enospc, 1, 1, "cmd: writing standard output"},
		{"full, bad usage", enospc, 2, 2, "cmd: writing standard output"},
		{"full, interrupted", enospc, 130, 130, "cmd: writing standard output"},
		{"broken pipe", &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}, 0, 0, ""},
		{"other", errors.New("bad file descriptor"), 0, 1, "bad file descriptor"},
	} {
		w := New(failing{tc.err})
		w.Write([]byte("x"))
		w.Write([]byte("y"))
		var stderr strings.Builder
		got := w.Status("cmd", tc.status, &stderr)
		if got != tc.want || !strings.Contains(stderr.String(), tc.wantStderr) || tc.wantStderr == "" && stderr.Len() > 0 {
			t.Errorf("%s: status %d, stderr %q; want %d, %q", tc.name, got, stderr.String(), tc.want, tc.wantStderr)
		}
	}
}
