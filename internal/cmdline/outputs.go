package cmdline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// File is a file a command line names: the flag that names it ("" for an
// argument) and the path as given.
type File struct {
	Flag string // "--db-out", or "" for an argument
	Path string
}

func (f File) String() string {
	if f.Flag == "" {
		return f.Path
	}
	return f.Flag + " " + f.Path
}

// CheckOutputs checks, before any work is done, what the command will
// write: every output can be written (its directory exists and takes a
// new file, or the file is there and writable), and no output names an
// input or another output (the same cleaned absolute path, or the same
// file through a link or another name). Empty paths are skipped. The error
// names the files and says what to do; a command exits 2 on it, so that a
// long run never ends by losing its result, or by overwriting its input.
func CheckOutputs(inputs, outputs []File) error {
	for i, out := range outputs {
		if out.Path == "" {
			continue
		}
		if info, err := os.Stat(out.Path); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
			continue // a device or a pipe (/dev/null) is written directly, by any number of outputs
		}
		for _, in := range inputs {
			if in.Path != "" && SameFile(in.Path, out.Path) {
				return fmt.Errorf("%s would overwrite the input %s: write the output to another file", out, in)
			}
		}
		for _, other := range outputs[:i] {
			if other.Path != "" && SameFile(other.Path, out.Path) {
				return fmt.Errorf("%s and %s name the same file: give each output its own", other, out)
			}
		}
		if err := writable(out.Path); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
	}
	return nil
}

// SameFile reports whether paths a and b name the same file: the same
// cleaned absolute path, or files that os.SameFile says are one (a link,
// a hard link, another spelling of the path). An empty path names none.
func SameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	aa, erra := filepath.Abs(a)
	ab, errb := filepath.Abs(b)
	if erra == nil && errb == nil && aa == ab {
		return true
	}
	sa, erra := os.Stat(a)
	sb, errb := os.Stat(b)
	return erra == nil && errb == nil && os.SameFile(sa, sb)
}

// writable says why the output path cannot be written, or returns nil:
// a directory is no output, its directory must exist, and take a new file
// (which a write through a temporary file needs) unless the file is
// already there and writable. A device or a pipe (/dev/null, /dev/stdout)
// is written directly, as it is.
func writable(path string) error {
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return errors.New("is a directory; name a file")
	case err == nil && !info.Mode().IsRegular():
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil {
		return fmt.Errorf("its directory %s does not exist: make it first (mkdir -p %s)", dir, dir)
	} else if !st.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	probe, err := os.CreateTemp(dir, ".spots-probe*")
	if err == nil {
		probe.Close()
		os.Remove(probe.Name())
		return nil
	}
	if info != nil {
		f, ferr := os.OpenFile(path, os.O_WRONLY, 0)
		if ferr == nil {
			f.Close()
			return nil
		}
		return fmt.Errorf("cannot be written (%v): choose a file you may write", ferr)
	}
	return fmt.Errorf("cannot be created in %s (%v): choose a directory you may write", dir, err)
}
