package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestForgedCheckpoint (F1): a checkpoint whose values say the wrong thing
// (written with checkpoint.Save, so that its sizes and sums match: they
// have no key) costs time, never a wrong answer. 0*6 is a second-player
// win (Grundy value 0); the forged checkpoint gives it the value 1 or 2.
// The resumed search finds the forged answer at once, cannot derive it
// from the rules, says so, moves the checkpoint aside and solves 0*6 again
// without it.
func TestForgedCheckpoint(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		lie  uint32
		want string
	}{
		{"outcome", []string{"--algorithm", "dfpn"}, 1, `"outcome":"L"`},
		{"outcome, pdfpn", []string{"--algorithm", "pdfpn", "--threads", "2"}, 1, `"outcome":"L"`},
		{"Grundy value", []string{"--algorithm", "dfpn", "--nimber"}, 2, `"grundy":0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			root := sprouts.MustParse("0*6")
			db := solve.NewNimberDB()
			db.Put(root.Key(), tc.lie)
			search := solve.NewDFPN(sprouts.Rules{}, db, solve.Options{Capacity: 1 << 12})
			nimber := strings.Contains(strings.Join(tc.args, " "), "--nimber")
			if _, err := checkpoint.Save(state, checkpoint.Manifest{Position: root.String(), Nimber: nimber, Algorithm: solve.SearchDFPN}, search); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"--json", "--progress", "none", "--resume", state}, tc.args...)
			status, stdout, stderr := runCmd(t, append(args, "0*6")...)
			if status != 0 || !strings.Contains(stdout, tc.want) {
				t.Errorf("status %d, %s, want %s\nstderr %s", status, stdout, tc.want, stderr)
			}
			if !strings.Contains(stderr, "the checkpoint's values do not prove the result found with them") ||
				!strings.Contains(stderr, "moved it aside into "+filepath.Join(state, "previous-1")) {
				t.Errorf("stderr %q does not say why it solved again", stderr)
			}
			// The forged checkpoint is kept aside; the one saved now is of
			// the search that found the right answer.
			if m, err := checkpoint.Load(filepath.Join(state, "previous-1")); err != nil || m.Position != "0*6" {
				t.Errorf("the forged checkpoint: %+v, %v", m, err)
			}
			again := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 12})
			m, err := checkpoint.Load(state)
			if err == nil {
				err = checkpoint.Restore(context.Background(), state, m, again)
			}
			if g, ok := again.DB().Get(root.Key()); err != nil || ok && g != 0 {
				t.Errorf("the checkpoint saved after: gn(0*6) = %d (%v), %v", g, ok, err)
			}
		})
	}
}

// TestOutputsKeepWhatTheyReplace (F10, F11): --db-out, --stats and
// --cpuprofile over a symbolic link keep the link and write the file it
// leads to; over a named pipe (or, as root, a device node) they write into
// it and leave it what it was: the temporary file and rename used to
// replace it by a regular file. --stats never reads what is not a regular
// file (os.ReadFile of --stats /dev/zero took 23 GB).
func TestOutputsKeepWhatTheyReplace(t *testing.T) {
	t.Run("links", outputsThroughLinks)
	for _, flag := range []string{"--stats", "--db-out"} {
		t.Run("pipe "+flag, func(t *testing.T) { outputIntoPipe(t, flag) })
	}
	t.Run("device", outputsIntoDevice)
}

// outputsThroughLinks: each output a link keeps the link and writes the
// file it leads to.
func outputsThroughLinks(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"db.spr", "stats.csv", "cpu.prof"} {
		os.Symlink(filepath.Join("real", name), filepath.Join(dir, name))
	}
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	at := func(name string) string { return filepath.Join(dir, name) }
	status, _, stderr := runCmd(t, "--progress", "none", "--db-out", at("db.spr"), "--stats", at("stats.csv"), "--cpuprofile", at("cpu.prof"), "0*5")
	if status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	for _, name := range []string{"db.spr", "stats.csv", "cpu.prof"} {
		if info, err := os.Lstat(at(name)); err != nil || info.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", name, err)
		}
		if info, err := os.Stat(at(name)); err != nil || info.Size() == 0 {
			t.Errorf("%s: nothing written where it leads: %v", name, err)
		}
	}
	if rows := readCSV(t, at("stats.csv")); len(rows) != 2 || rows[0][0] != "input" || rows[1][0] != "0*5" {
		t.Errorf("stats through the link: %q", rows)
	}
}

// outputIntoPipe: the output of flag a named pipe read by the test is
// written into and is still a pipe. (The old --stats read it first, and
// waited for ever for a writer.)
func outputIntoPipe(t *testing.T, flag string) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	r, hold := openPipe(t, fifo)
	got := make(chan string)
	go func() { b, _ := io.ReadAll(r); got <- string(b) }()
	status, _, stderr := runCmd(t, "--progress", "none", flag, fifo, "0*5")
	hold.Close()
	text := <-got
	r.Close()
	if status != 0 || !strings.HasPrefix(text, map[string]string{"--stats": "input,", "--db-out": format.SPRHeader}[flag]) {
		t.Errorf("%s into a pipe: status %d, read %q, stderr %s", flag, status, text, stderr)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s: the pipe was replaced: %v", flag, err)
	}
}

// outputsIntoDevice: as root, every output a device node like /dev/null,
// made here, is written into and left a device node.
func outputsIntoDevice(t *testing.T) {
	null := filepath.Join(t.TempDir(), "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
		t.Skipf("no device node (%v): that case is left out", err)
	}
	status, _, stderr := runCmd(t, "--progress", "none", "--db-out", null, "--stats", null, "--cpuprofile", null, "0*5")
	if info, err := os.Lstat(null); status != 0 || err != nil || info.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("device node: status %d, %v, mode %v; stderr %s", status, err, info.Mode(), stderr)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// openPipe opens the named pipe at path for reading, without waiting for a
// writer, and for writing (hold), so that the reader sees the end only
// once hold is closed and every other writer is done.
func openPipe(t *testing.T, path string) (r, hold *os.File) {
	t.Helper()
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	hold, err = os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return r, hold
}

// TestStateDirLocked (N41): a state directory is locked while a process
// uses it. A second spots-solve given it as --resume or --state, while the
// first still saves into it, is refused (exit 2, naming the process that
// holds it) and writes nothing there; once the first is gone, even by
// kill -9, the directory is free again. (Both were accepted and their
// saves alternated, leaving the checkpoint damaged in 2 of 12 trials.)
func TestStateDirLocked(t *testing.T) {
	state := filepath.Join(t.TempDir(), "s")
	first := start(t, testKey, "--progress", "none", "--algorithm", "dfpn", "--state", state, "--state-every", "100ms", "0*30")
	lock := filepath.Join(state, stateLockFile)
	waitFor(t, time.Minute, "the first to lock the directory", func() bool { b, _ := os.ReadFile(lock); return len(b) > 0 }, first)
	for _, args := range [][]string{{"--resume", state}, {"--state", state, "--force"}} {
		status, _, stderr := runCmd(t, append([]string{"--progress", "none", "--algorithm", "dfpn"}, append(args, "0*30")...)...)
		want := fmt.Sprintf("%s %s: another spots-solve (process %d) is using it: wait for it to end (or stop it), or give another directory", args[0], state, first.Cmd.Process.Pid)
		if status != 2 || !strings.Contains(stderr, want) {
			t.Errorf("%v while the first runs: exit %d, stderr %q; want 2 and %q", args, status, stderr, want)
		}
	}
	first.Cmd.Process.Signal(syscall.SIGKILL)
	first.Wait(t, 30*time.Second)
	status, _, stderr := runCmd(t, "--progress", "none", "--algorithm", "dfpn", "--state", state, "--force", "--max-iterations", "10", "0*30")
	if status != 1 || strings.Contains(stderr, "is using it") {
		t.Errorf("after the first was killed: exit %d, stderr %q; want 1 (unsolved in 10 iterations) and the directory free", status, stderr)
	}
}
