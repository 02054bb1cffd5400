package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// LockName is the file of a state directory that the process using the
// directory holds locked: spots-solve's --state and --resume, spots-corpus
// add's checkpoint directory. Two processes saving into one directory
// alternate their saves and can leave a checkpoint neither wrote whole, so
// every command that saves a search takes this one lock, under this one
// name, before it reads or writes the directory.
const LockName = ".spots-solve.lock"

// HeldError says that another process holds a lock: Holder names it as the
// lock file says ("another spots-solve (process 4242)"), or "another
// process" when the file says nothing readable.
type HeldError struct {
	Path   string // the lock file
	Holder string
}

func (e *HeldError) Error() string {
	return e.Holder + " is using it: wait for it to end (or stop it), or give another directory"
}

// LockFileError says that what is at a lock file's name is not a lock file
// the commands made: a symbolic link, a directory, a named pipe, a file of
// several names (a hard link). It is never followed, truncated or written:
// a link planted there would otherwise have the file it leads to emptied.
type LockFileError struct {
	Path string
	Kind string // "a symbolic link (to ../x)", "a named pipe (FIFO)", …
}

func (e *LockFileError) Error() string {
	return fmt.Sprintf("%s is %s, not a lock file: it is never followed or written; remove it (rm '%s') and run again, it holds nothing but a lock", e.Path, e.Kind, e.Path)
}

// held keeps the lock files open until released: a file the garbage
// collector closed would release its lock.
var held struct {
	sync.Mutex
	files map[*os.File]bool
}

// keep holds f open until its release, which closes it (and so releases
// its lock). Release may be called more than once.
func keep(f *os.File) (release func()) {
	held.Lock()
	if held.files == nil {
		held.files = map[*os.File]bool{}
	}
	held.files[f] = true
	held.Unlock()
	return func() {
		held.Lock()
		defer held.Unlock()
		if held.files[f] {
			delete(held.files, f)
			f.Close()
		}
	}
}

// LockDir takes the lock of the state directory dir (made if missing),
// without waiting: the lock file LockName, created if missing, is held
// locked (flock, advisory) until release is called or the process ends,
// however it ends (kill -9 included). A release that is never called keeps
// the lock for the life of the process. program names this process in the
// lock file ("spots-solve", "spots-corpus add") for the message of the
// next one, which gets a *HeldError naming it. A link or anything but a
// regular file of one name at LockName is a *LockFileError, left as it is.
func LockDir(dir, program string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return Lock(filepath.Join(dir, LockName), program, nil)
}

// Lock takes the lock of the file path as LockDir does. If another process
// holds it, wait nil returns a *HeldError; otherwise wait is called and
// Lock waits for the other to release it.
func Lock(path, program string, wait func()) (release func(), err error) {
	f, err := openLockFile(path)
	if err != nil {
		return nil, err
	}
	got, err := tryLock(f)
	if err == nil && !got {
		if wait == nil {
			holder := holderOf(f)
			f.Close()
			return nil, &HeldError{Path: path, Holder: holder}
		}
		wait()
		err = waitLock(f)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// Who holds it, for the message of the next one. The file is the lock
	// file itself (a regular file of one name, opened without following a
	// link), so truncating it touches nothing else.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+" "+program+"\n"), 0)
	}
	return keep(f), nil
}

// holderOf reads who holds the lock file f: "PID PROGRAM" as Lock writes
// it (or "PID" alone, as spots-solve wrote it before).
func holderOf(f *os.File) string {
	buf := make([]byte, 256)
	n, _ := f.ReadAt(buf, 0)
	fields := strings.Fields(string(buf[:n]))
	if len(fields) == 0 {
		return "another process"
	}
	pid, err := strconv.Atoi(fields[0])
	if err != nil || pid <= 0 {
		return "another process"
	}
	program := "spots-solve"
	if len(fields) > 1 {
		program = strings.Join(fields[1:], " ")
	}
	return fmt.Sprintf("another %s (process %d)", program, pid)
}
