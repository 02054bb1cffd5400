package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular is wrapped by the error of OpenInput for a path that is not
// a regular file (a directory, a named pipe, a device, a socket).
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is a path that names something other than a regular
// file where one is wanted.
type NotRegularError struct {
	Path   string // as given
	Target string // where a symbolic link at Path leads; "" if Path is no link
	Kind   string // what it is: "a directory", "a named pipe (FIFO)", "a device", ...
}

func (e *NotRegularError) Error() string {
	if e.Target != "" {
		return fmt.Sprintf("%s (a link to %s): %s, not a regular file", e.Path, e.Target, e.Kind)
	}
	return fmt.Sprintf("%s: %s, not a regular file", e.Path, e.Kind)
}

// Unwrap makes the error ErrNotRegular.
func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// notRegular describes the file at path, of the given mode (that of what a
// link leads to), as a *NotRegularError.
func notRegular(path string, mode fs.FileMode) error {
	e := &NotRegularError{Path: path, Kind: kindOf(mode)}
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if t, err := filepath.EvalSymlinks(path); err == nil {
			e.Target = t
		} else if t, err := os.Readlink(path); err == nil {
			e.Target = t
		}
	}
	return e
}

func kindOf(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a block device"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a file"
}

// OpenInput opens the file at path for reading if it is a regular file. A
// symbolic link is followed, as users expect of an input: what it leads to
// must be a regular file. A directory, a named pipe, a device or a socket
// is refused with a *NotRegularError naming the path (and the link's
// target): reading one could block for ever (a FIFO without a writer) or
// never end (/dev/zero). The open itself never blocks: on Unix it is
// non-blocking and the kind is checked on the open file, so a FIFO put in
// the file's place between a check and the open cannot hang the caller
// either.
func OpenInput(path string) (*os.File, error) {
	f, _, err := openInput(path)
	return f, err
}

// openInput is OpenInput, also returning what the open file is.
func openInput(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = notRegular(path, info.Mode())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// ReadInput returns the content of the regular file at path (see
// OpenInput), refusing a file of more than max bytes with a *TooLongError:
// what os.ReadFile does, bounded, for the small files a user names (a
// manifest, a state file, a key).
func ReadInput(path string, max int64) ([]byte, error) {
	f, err := OpenInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(NewBoundedReader(f, path, Bounds{File: max}))
}

// Bounds limits what reading a file may cost: its bytes, the bytes of one
// of its lines, and time (the read stops when Ctx ends). A zero field sets
// no limit.
type Bounds struct {
	File int64           // most bytes read
	Line int             // longest line, in bytes, its '\n' not counted
	Ctx  context.Context // its end stops the read with its error
}

// TooLongError is a file, or a line of one, over the limit of Bounds.
type TooLongError struct {
	Path  string // the file, as the caller named it
	Line  int    // the line over the limit (1-based), or 0 for the whole file
	Limit int64  // bytes
}

func (e *TooLongError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d is longer than %d bytes", e.Path, e.Line, e.Limit)
	}
	return fmt.Sprintf("%s: longer than %d bytes", e.Path, e.Limit)
}

// ErrTooLong is what every *TooLongError is.
var ErrTooLong = errors.New("input over its limit")

// Unwrap makes the error ErrTooLong.
func (e *TooLongError) Unwrap() error { return ErrTooLong }

// BoundedReader passes the reads of a file through while they are within
// its Bounds; the read that would cross one fails with a *TooLongError (or
// the context's error) and so does every read after it. Memory does not
// depend on the input: it only counts.
type BoundedReader struct {
	r      io.Reader
	path   string
	b      Bounds
	n      int64 // bytes passed
	line   int   // lines completed
	inLine int   // bytes of the current line so far
	err    error
}

// NewBoundedReader reads path's content from r within b.
func NewBoundedReader(r io.Reader, path string, b Bounds) *BoundedReader {
	return &BoundedReader{r: r, path: path, b: b}
}

// Read implements io.Reader.
func (br *BoundedReader) Read(p []byte) (int, error) {
	if br.err != nil {
		return 0, br.err
	}
	if br.b.Ctx != nil {
		if err := br.b.Ctx.Err(); err != nil {
			br.err = fmt.Errorf("reading %s: %w", br.path, err)
			return 0, br.err
		}
	}
	if br.b.File > 0 && int64(len(p)) > br.b.File-br.n+1 {
		p = p[:br.b.File-br.n+1] // one byte past the limit shows it is crossed
	}
	n, err := br.r.Read(p)
	if br.b.File > 0 && br.n+int64(n) > br.b.File {
		br.err = &TooLongError{Path: br.path, Limit: br.b.File}
		n = int(br.b.File - br.n)
	}
	if br.b.Line > 0 {
		if m, ok := br.lines(p[:n]); !ok {
			n = m
		}
	}
	br.n += int64(n)
	if br.err != nil {
		return n, br.err
	}
	return n, err
}

// lines counts the lines of chunk. On a line over the limit it records the
// error and returns the bytes before that line's excess, false.
func (br *BoundedReader) lines(chunk []byte) (int, bool) {
	done := 0
	for {
		i := bytes.IndexByte(chunk[done:], '\n')
		end := len(chunk)
		if i >= 0 {
			end = done + i
		}
		if br.inLine+end-done > br.b.Line {
			br.err = &TooLongError{Path: br.path, Line: br.line + 1, Limit: int64(br.b.Line)}
			return done + br.b.Line - br.inLine, false
		}
		if i < 0 {
			br.inLine += end - done
			return len(chunk), true
		}
		br.line++
		br.inLine = 0
		done = end + 1
	}
}
