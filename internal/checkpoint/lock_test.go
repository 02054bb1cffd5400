//go:build unix

package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestLockRefusesWhatIsNoLockFile: whatever is planted at a state
// directory's lock file name that is not a regular file of one name (a
// link to a file, one to nothing, a hard link, a named pipe, a directory)
// is refused with a *LockFileError naming it, and the file it leads to is
// neither truncated, written nor created. (The link's target was
// truncated and given the process id.)
func TestLockRefusesWhatIsNoLockFile(t *testing.T) {
	const keep = "a file the user keeps\n"
	for _, tc := range []struct {
		name  string
		plant func(lock, victim string) error
		kind  string
	}{
		{"link to a file", func(lock, victim string) error { return os.Symlink(victim, lock) }, "a symbolic link (to "},
		{"link to nothing", func(lock, victim string) error { return os.Symlink(victim+".new", lock) }, "a symbolic link (to "},
		{"hard link", func(lock, victim string) error { return os.Link(victim, lock) }, "a file of 2 names"},
		{"named pipe", func(lock, _ string) error { return syscall.Mkfifo(lock, 0o600) }, "a named pipe (FIFO)"},
		{"directory", func(lock, _ string) error { return os.Mkdir(lock, 0o755) }, "a directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim.txt")
			if err := os.WriteFile(victim, []byte(keep), 0o644); err != nil {
				t.Fatal(err)
			}
			state := filepath.Join(dir, "state")
			if err := os.Mkdir(state, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := tc.plant(filepath.Join(state, LockName), victim); err != nil {
				t.Fatal(err)
			}
			release, err := LockDir(state, "test")
			var lfe *LockFileError
			if !errors.As(err, &lfe) || !strings.Contains(err.Error(), tc.kind) || !strings.Contains(err.Error(), "rm '"+filepath.Join(state, LockName)+"'") {
				if release != nil {
					release()
				}
				t.Fatalf("LockDir: %v; want a *LockFileError saying %q and how to remove it", err, tc.kind)
			}
			if b, err := os.ReadFile(victim); err != nil || string(b) != keep {
				t.Errorf("the victim now holds %q (%v), want it untouched", b, err)
			}
			if _, err := os.Lstat(victim + ".new"); err == nil {
				t.Errorf("a file was made where the link led")
			}
		})
	}
}

// TestLockHeld: a second lock of a held directory is a *HeldError naming
// the holder the lock file names (PID and program, or the PID alone that
// spots-solve wrote before); released, the lock can be taken again.
func TestLockHeld(t *testing.T) {
	dir := t.TempDir()
	release, err := LockDir(dir, "spots-corpus add")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("another spots-corpus add (process %d) is using it", os.Getpid())
	_, err = LockDir(dir, "spots-solve")
	var held *HeldError
	if !errors.As(err, &held) || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("a second lock: %v; want a *HeldError %q", err, want)
	}
	for _, tc := range []struct{ content, holder string }{
		{"4242\n", "another spots-solve (process 4242)"},
		{"4242 spots-corpus add\n", "another spots-corpus add (process 4242)"},
		{"", "another process"},
		{"junk\n", "another process"},
	} {
		f, err := os.CreateTemp(t.TempDir(), "lock")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(tc.content)
		if got := holderOf(f); got != tc.holder {
			t.Errorf("holder of %q: %q, want %q", tc.content, got, tc.holder)
		}
		f.Close()
	}
	release()
	release() // twice: harmless
	again, err := LockDir(dir, "spots-solve")
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	again()
}
