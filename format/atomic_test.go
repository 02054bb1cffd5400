package format

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAtomicOutputs (F10): an output over a regular file replaces it whole;
// a symbolic link stays a link, and the file it leads to is replaced (or
// made, if it leads nowhere yet); a device or a named pipe is written
// directly, never renamed over; a directory is refused. (The device of
// this test is made by TestAtomicDeviceNode: one of /dev, written over by
// a faulty build as root, would be lost to the machine.)
func TestAtomicOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(path, text string) error {
		return WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
	}
	read := func(path string) string { b, _ := os.ReadFile(path); return string(b) }

	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("old"), 0o600)
	if err := write(file, "new"); err != nil || read(file) != "new" {
		t.Errorf("regular file: %v, %q", err, read(file))
	}

	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink("target", link)
	if err := write(link, "new"); err != nil || read(target) != "new" || !isLink(link) {
		t.Errorf("link: %v, target %q, still a link %v", err, read(target), isLink(link))
	}

	dangling := filepath.Join(dir, "dangling")
	os.Symlink("made", dangling)
	if err := write(dangling, "new"); err != nil || read(filepath.Join(dir, "made")) != "new" || !isLink(dangling) {
		t.Errorf("dangling link: %v, %q", err, read(filepath.Join(dir, "made")))
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := write(fifo, "x"); err == nil {
		t.Error("a pipe without a reader was written")
	}
	// A reader opened without blocking is there when the write opens; a
	// writer of the test's own (hold) keeps it from seeing the end before
	// the write.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	hold, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		got <- string(b)
	}()
	if err := write(fifo, "through the pipe"); err != nil {
		t.Errorf("pipe: %v", err)
	}
	hold.Close()
	if s := <-got; s != "through the pipe" {
		t.Errorf("pipe: read %q", s)
	}
	r.Close()
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v", err)
	}

	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	if err := write(sub, "x"); err == nil || !strings.Contains(err.Error(), "a directory, not a regular file") {
		t.Errorf("directory: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 7 {
		t.Errorf("%d files in the directory, want 7 (no temporary file left)", len(entries))
	}
}

// TestAtomicDeviceNode (F10) makes a device node (root only) and writes
// over it: it must stay a device.
func TestAtomicDeviceNode(t *testing.T) {
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("cannot make a device node: %v", err)
	}
	if err := WriteFileAtomic(null, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(null); err != nil || info.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("the device node was replaced: %v %v", info.Mode(), err)
	}
}

func isLink(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// TestStaleTemps: the temporary files a killed writer left (here: made
// before this process started writing, and not locked) are removed by the
// first write into their directory; one still held by a live writer, and
// files that are not temporary, are left alone.
func TestStaleTemps(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	stale := filepath.Join(dir, ".out.spots-tmp123")
	held := filepath.Join(dir, ".other.spots-tmp456")
	plain := filepath.Join(dir, ".notes.spots-tmp")
	users := filepath.Join(dir, ".backup.tmp2") // a name of the old scheme: a user's, maybe
	for _, p := range []string{stale, held, plain, users} {
		os.WriteFile(p, []byte("partial"), 0o600)
		os.Chtimes(p, old, old)
	}
	f, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lockTemp(f)
	if err := WriteFileAtomic(filepath.Join(dir, "out"), func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		kept bool
	}{{stale, false}, {held, true}, {plain, true}, {users, true}} {
		if _, err := os.Stat(tc.path); (err == nil) != tc.kept {
			t.Errorf("%s: kept %v, want %v", filepath.Base(tc.path), err == nil, tc.kept)
		}
	}
}

// TestAtomicReadOnlyDir (N42): a file the user may write in a directory
// that takes no new file is written in place, as before outputs went
// through temporary files; a new file there is refused. Root writes
// everywhere, so the test needs another user.
func TestAtomicReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write into any directory")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "stats.csv")
	if err := os.WriteFile(file, []byte("old content"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	write := func(path string) error {
		return WriteFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
	}
	if err := write(file); err != nil {
		t.Fatalf("writable file in a read-only directory: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "new" {
		t.Errorf("the file holds %q, want %q", b, "new")
	}
	if err := write(filepath.Join(dir, "new.csv")); err == nil {
		t.Error("a new file in a read-only directory was written")
	}
}
