package format

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// AtomicFile is a file being written to a path, in one of two ways.
//
// Over a regular file, or where there is none, it is written to a
// temporary file beside its final path, and Commit puts it in place only
// when it is complete: a reader never sees a partial file, and a failure
// leaves any old file as it was. Where the system allows (Linux, on the
// usual file systems), the temporary file has no name until Commit: a
// process that ends before, however it ends (a signal that exits at once,
// kill -9, a crash), leaves nothing behind, so no command has to keep a
// list of the files it is writing to clean them up. Elsewhere it is named
// ".NAME.spots-tmpDIGITS"; one a killed writer left is removed by the next
// write into its directory (RemoveStaleTemps). A symbolic link that leads to a regular
// file (or to nothing yet in an existing directory) is kept: the file it
// leads to is replaced in the same way, beside it, so that a link the user
// made to keep an output elsewhere goes on doing so.
//
// Over a device, a named pipe or a socket (/dev/null, /dev/stdout, a
// process substitution) there is nothing to keep safe and no file to
// rename over it: the output is written to it directly.
//
// A directory is refused. Creating the file fails at once when the
// directory cannot take it, unless the file is there and writable: then
// it is written in place.
type AtomicFile struct {
	*os.File
	path      string // the final path: where a link led
	direct    bool   // written in place: a device, a pipe
	anonymous bool   // the temporary file has no name yet (createAnonymous)
}

// CreateAtomic starts writing the output path (see AtomicFile).
func CreateAtomic(path string) (*AtomicFile, error) {
	target, direct, err := outputTarget(path)
	if err != nil {
		return nil, err
	}
	if direct {
		// Non-blocking: a pipe without a reader is an error (ENXIO), not
		// a hang; writes still wait for the reader, through the poller.
		f, err := os.OpenFile(target, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return nil, err
		}
		return &AtomicFile{File: f, path: target, direct: true}, nil
	}
	a, err := createReplacing(target)
	if errors.Is(err, fs.ErrPermission) {
		// A file the user may write in a directory that takes no new
		// file: written in place, as it could be before outputs went
		// through temporary files. Not all or nothing, but written.
		if f, ferr := os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0); ferr == nil {
			return &AtomicFile{File: f, path: target, direct: true}, nil
		}
	}
	return a, err
}

// createReplacing starts writing path through a temporary file that Commit
// renames over whatever is at path: for the files of a directory spots
// owns (the certificates of a content-addressed directory), where a link
// or anything else at a file's name is damage to repair.
func createReplacing(path string) (*AtomicFile, error) {
	dir := filepath.Dir(path)
	RemoveStaleTemps(dir)
	if f, err := createAnonymous(dir); err == nil {
		lockTemp(f) // held by the name it takes for a moment in Commit
		return &AtomicFile{File: f, path: path, anonymous: true}, nil
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempInfix+"*")
	if err != nil {
		return nil, err
	}
	lockTemp(f)
	return &AtomicFile{File: f, path: path}, nil
}

// outputTarget says where writing the output path goes: the file itself
// or, for a symbolic link, where it leads; and whether it is written
// directly (a device, a pipe) rather than replaced.
func outputTarget(path string) (string, bool, error) {
	info, err := os.Stat(path) // follows links
	if errors.Is(err, fs.ErrNotExist) {
		if l, lerr := os.Lstat(path); lerr == nil && l.Mode()&fs.ModeSymlink != 0 {
			return danglingTarget(path)
		}
		return path, false, nil
	}
	if err != nil {
		return "", false, err
	}
	switch {
	case info.IsDir():
		return "", false, notRegular(path, info.Mode())
	case !info.Mode().IsRegular():
		return path, true, nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false, err
	}
	return target, false, nil
}

// danglingTarget is the output target of a symbolic link that leads to
// nothing: the file it names, created there if its directory exists.
func danglingTarget(path string) (string, bool, error) {
	link, err := os.Readlink(path)
	if err != nil {
		return "", false, err
	}
	if !filepath.IsAbs(link) {
		link = filepath.Join(filepath.Dir(path), link)
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(link))
	if err != nil {
		return "", false, fmt.Errorf("%s is a link to %s, which cannot be created: %w", path, link, err)
	}
	return filepath.Join(dir, filepath.Base(link)), false, nil
}

// Commit puts the file in place: a temporary file is synced and renamed
// (an anonymous one linked) over the path, readable by everyone and
// writable by its owner, 0644, as results meant to be shared should be (a
// temporary file alone would be private); a device is closed. On failure
// the temporary file is removed.
func (a *AtomicFile) Commit() error {
	if a.direct {
		return a.Close()
	}
	err := a.Chmod(0o644)
	if err == nil {
		err = a.Sync()
	}
	if a.anonymous {
		if err == nil {
			err = linkAnonymous(a.File, a.path) // before Close: linked through the descriptor
		}
		if cerr := a.Close(); err == nil {
			err = cerr
		}
		return err // unlinked, the file is gone with its descriptor
	}
	if cerr := a.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(a.Name(), a.path)
	}
	if err != nil {
		os.Remove(a.Name())
	}
	return err
}

// Abort closes and removes the temporary file (an anonymous one goes with
// its descriptor); path is left as it was (a device written directly has
// had what was written).
func (a *AtomicFile) Abort() {
	a.Close()
	if !a.direct && !a.anonymous {
		os.Remove(a.Name())
	}
}

// WriteFileAtomic writes the output path with the bytes write produces,
// through an AtomicFile: all or nothing over a regular file.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	a, err := CreateAtomic(path)
	if err != nil {
		return err
	}
	if err := write(a); err != nil {
		a.Abort()
		return err
	}
	return a.Commit()
}

// tempInfix is in the name of every temporary file of an AtomicFile,
// ".NAME.spots-tmpDIGITS": distinct enough that no file of a user's is
// taken for one.
const tempInfix = ".spots-tmp"

// started is when this process started writing files, near enough: a
// temporary file changed later may belong to a writer of another process
// that has not locked it yet.
var started = time.Now()

// cleaned holds the directories whose stale temporary files this process
// has removed: once is enough.
var cleaned sync.Map // directory → struct{}

// RemoveStaleTemps removes, once per process and directory, the temporary
// files that writers killed before Commit or Abort left in dir (kill -9, a
// crash, a power cut). A live writer holds a lock on its temporary file
// (lockTemp), so only a file nobody holds, last changed before this process
// started, is removed; where files cannot be locked nothing is. The first
// atomic write into a directory calls it; a command that keeps files in a
// directory may call it when it starts.
func RemoveStaleTemps(dir string) {
	if _, done := cleaned.LoadOrStore(filepath.Clean(dir), struct{}{}); done {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !isTempName(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(started) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if unheld(path) {
			os.Remove(path)
		}
	}
}

// isTempName reports whether name is that of a temporary file of an
// AtomicFile: ".NAME.spots-tmpDIGITS".
func isTempName(name string) bool {
	if !strings.HasPrefix(name, ".") {
		return false
	}
	i := strings.LastIndex(name, tempInfix)
	if i <= 1 || i+len(tempInfix) == len(name) {
		return false
	}
	for _, c := range name[i+len(tempInfix):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
