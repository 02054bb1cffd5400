package corpus

import (
	"bytes"
	"fmt"
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

// TestTableRows (N48): an index padded with repeated rows is refused at
// the row past MaxTableRows, naming its line, before anything is built
// from it (450,000 such rows took more than a minute and 1.5 GB); one of
// MaxTableRows rows is read, and Check reports each row repeated.
func TestTableRows(t *testing.T) {
	c := smallCopy(t, 2)
	data, err := os.ReadFile(c.Path(IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	header, row := lines[0], lines[1]
	index := func(rows int) string { return header + strings.Repeat(row, rows) }
	recs, err := ReadIndex(strings.NewReader(index(MaxTableRows)))
	if err != nil || len(recs) != MaxTableRows {
		t.Fatalf("%d rows: %d records, %v", MaxTableRows, len(recs), err)
	}
	want := fmt.Sprintf("line %d: more than %d rows", MaxTableRows+2, MaxTableRows)
	if _, err := ReadIndex(strings.NewReader(index(MaxTableRows + 1))); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%d rows: %v, want an error saying %q", MaxTableRows+1, err, want)
	}
	if err := os.WriteFile(c.Path(IndexFile), []byte(index(3)), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	repeats := 0
	for _, p := range d.Check(CheckOptions{NoVerify: true}).Problems {
		if strings.Contains(p.What, "both list the claim") {
			repeats++
		}
	}
	if repeats != 2 {
		t.Errorf("3 equal rows: %d repeats reported, want 2", repeats)
	}
}
