//go:build linux

package format

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// createAnonymous opens a file in dir that has no name (O_TMPFILE): until
// linkAnonymous gives it one, no other process sees it, and when the
// process ends without that, however it ends (a signal, os.Exit, kill -9,
// a crash), the kernel frees it and nothing is left in dir. It fails
// where the file system cannot make such files, or where /proc, through
// which the file is linked, is not mounted; the caller then uses a named
// temporary file.
func createAnonymous(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), filepath.Join(dir, "(being written)"))
	if _, err := os.Stat(procPath(f)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// linkAnonymous gives the file f of createAnonymous the name path, in the
// directory f was made in, replacing what is there. The file is linked
// under a temporary name first (a link fails over an existing name), then
// renamed over path; the temporary name lives for the two system calls,
// and holds f's lock, so that no other process takes it for stale.
func linkAnonymous(f *os.File, path string) error {
	dir := filepath.Dir(path)
	for try := 0; try < 1000; try++ {
		tmp := filepath.Join(dir, fmt.Sprintf(".%s%s%d%d", filepath.Base(path), tempInfix, os.Getpid(), try))
		err := unix.Linkat(unix.AT_FDCWD, procPath(f), unix.AT_FDCWD, tmp, unix.AT_SYMLINK_FOLLOW)
		if err == unix.EEXIST {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "link", Old: f.Name(), New: tmp, Err: err}
		}
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			return err
		}
		return nil
	}
	return fmt.Errorf("link %s: every temporary name beside it is taken", path)
}

// procPath is the path through which the file f can be linked.
func procPath(f *os.File) string { return fmt.Sprintf("/proc/self/fd/%d", f.Fd()) }
