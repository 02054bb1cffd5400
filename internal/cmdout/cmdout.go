// Package cmdout keeps a command's standard output honest: a write that
// fails (a full disk, /dev/full, a closed file) is remembered, and the
// command reports it and exits with status 1 instead of ending 0 with its
// output lost.
package cmdout

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"syscall"
)

// Writer passes writes through to an output and remembers the first that
// failed. It is safe for concurrent use.
type Writer struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

// New returns a Writer of w (os.Stdout).
func New(w io.Writer) *Writer { return &Writer{w: w} }

// Write implements io.Writer.
func (o *Writer) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		o.mu.Lock()
		if o.err == nil {
			o.err = err
		}
		o.mu.Unlock()
	}
	return n, err
}

// Err returns the first write that failed, except a broken pipe: a reader
// that stops reading (spots-solve … | head) has had what it wanted.
func (o *Writer) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if errors.Is(o.err, syscall.EPIPE) {
		return nil
	}
	return o.err
}

// Status returns the command's exit status: status, or at least 1 after a
// message on stderr if the output failed.
func (o *Writer) Status(name string, status int, stderr io.Writer) int {
	err := o.Err()
	if err == nil {
		return status
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // "write /dev/stdout: …" says less than the message does
	}
	fmt.Fprintf(stderr, "%s: writing standard output: %v (the output is incomplete)\n", name, err)
	return max(status, 1)
}
