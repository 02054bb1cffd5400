package format

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenInput: a regular file, or a link to one, opens; a directory, a
// FIFO (without blocking: no one writes it), a device, a link to a device
// and a dangling link are refused with an error naming the path.
func TestOpenInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x\n"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	os.Symlink("/dev/zero", zero)
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "none"), dangling)
	for _, tc := range []struct {
		path, want string
	}{
		{file, ""},
		{link, ""},
		{dir, dir + ": a directory, not a regular file"},
		{fifo, fifo + ": a named pipe (FIFO), not a regular file"},
		{"/dev/null", "/dev/null: a character device, not a regular file"},
		{zero, zero + " (a link to /dev/zero): a character device, not a regular file"},
		{dangling, "no such file"},
	} {
		f, err := OpenInput(tc.path)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.path, err)
				continue
			}
			f.Close()
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.path, err, tc.want)
		}
		if strings.Contains(tc.want, "regular") && !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v is not ErrNotRegular", tc.path, err)
		}
	}
}

// TestBoundedReader: a read within the bounds passes everything through; a
// file or a line over its bound fails with a *TooLongError naming the path
// and the line, having passed no more than the bound; a context that ends
// stops the read.
func TestBoundedReader(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		b        Bounds
		want     string // error; "" for none
		passed   int    // bytes passed before the error
	}{
		{"within", "ab\ncd\n", Bounds{File: 6, Line: 2}, "", 6},
		{"no limits", "abcdef", Bounds{}, "", 6},
		{"file", "ab\ncd\n", Bounds{File: 5}, "f: longer than 5 bytes", 5},
		{"line", "ab\ncde\nf", Bounds{Line: 2}, "f: line 2 is longer than 2 bytes", 5},
		{"first line", strings.Repeat("x", 100), Bounds{Line: 10}, "f: line 1 is longer than 10 bytes", 10},
		{"last line unended", "ab\ncd", Bounds{Line: 2}, "", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte a read, and all at once: the bounds hold either way.
			for _, r := range []io.Reader{&oneByte{strings.NewReader(tc.in)}, strings.NewReader(tc.in)} {
				got, err := io.ReadAll(NewBoundedReader(r, "f", tc.b))
				if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want || !errors.Is(err, ErrTooLong)) {
					t.Errorf("%v, want %q", err, tc.want)
				}
				if len(got) != tc.passed || !strings.HasPrefix(tc.in, string(got)) {
					t.Errorf("passed %q, want the first %d bytes", got, tc.passed)
				}
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	br := NewBoundedReader(zeros{}, "zeros", Bounds{Ctx: ctx})
	if _, err := br.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := io.Copy(io.Discard, br); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "zeros") {
		t.Errorf("after cancel: %v", err)
	}
}

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(1, len(p))]) }

// zeros never ends.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestReadSPRStopsAtLongLine (F5): a database of one endless line is
// refused after its first MaxSPRLine bytes or so, even with Lenient (which
// used to skip the rest of the line, for ever).
func TestReadSPRStopsAtLongLine(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		r := &counting{r: io.MultiReader(strings.NewReader(SPRHeader+"\n"), zeros{})}
		_, err := ReadSPR(r, SPROptions{Lenient: lenient})
		if err == nil || !strings.Contains(err.Error(), "line 2: line longer than") {
			t.Errorf("lenient %v: %v", lenient, err)
		}
		if r.n > 2*MaxSPRLine {
			t.Errorf("lenient %v: %d bytes read", lenient, r.n)
		}
	}
}

type counting struct {
	r io.Reader
	n int
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestReadInput: a small file is read whole; a larger one is refused.
func TestReadInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, bytes.Repeat([]byte("a"), 100), 0o644)
	if b, err := ReadInput(path, 100); err != nil || len(b) != 100 {
		t.Errorf("100 bytes, limit 100: %d, %v", len(b), err)
	}
	if _, err := ReadInput(path, 99); !errors.Is(err, ErrTooLong) {
		t.Errorf("100 bytes, limit 99: %v", err)
	}
	if _, err := ReadInput("/dev/zero", 99); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v", err)
	}
}
