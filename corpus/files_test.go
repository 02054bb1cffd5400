package corpus

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestHostileTables (F4, N53): a table of the corpus that never ends (a
// link to /dev/zero), blocks its reader (a FIFO), or is a regular file of
// one endless line, is refused at once with an error naming it, after
// reading at most a line's bound (format.TestBoundedReader holds the
// file's); a link, to anything, is never followed.
func TestHostileTables(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(path string) error
		want string
	}{
		{"link to /dev/zero", func(path string) error { return os.Symlink("/dev/zero", path) },
			"index.csv is a symbolic link (to /dev/zero), which the corpus never follows"},
		{"link to a table", func(path string) error { return os.Symlink("../../index.csv", path) },
			"index.csv is a symbolic link (to ../../index.csv), which the corpus never follows"},
		{"FIFO", func(path string) error { return syscall.Mkfifo(path, 0o600) },
			"index.csv: a named pipe (FIFO), not a regular file"},
		{"directory", func(path string) error { return os.Mkdir(path, 0o755) },
			"index.csv: a directory, not a regular file"},
		{"endless line", func(path string) error {
			return os.WriteFile(path, bytes.Repeat([]byte("0"), maxTableLine+1), 0o644)
		}, "index.csv: line 1 is longer than 65536 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := smallCopy(t, 2)
			path := c.Path(IndexFile)
			os.Remove(path)
			if err := tc.make(path); err != nil {
				t.Fatal(err)
			}
			if _, err := Open(c.Dir); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open: %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
