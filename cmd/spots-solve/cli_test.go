package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/sprouts"
)

// solveJSON runs spots-solve with --json and returns its status and the
// one object it printed.
func solveJSON(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	status, stdout, stderr := runCmd(t, append([]string{"--json", "--progress", "none"}, args...)...)
	var r map[string]any
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("spots-solve %v: %q: %v (stderr %s)", args, stdout, err, stderr)
	}
	return status, r, stderr
}

// TestRootMoves: --root-moves lists each move of the position the search
// entered with the iterations below it, most first; together with the
// root's own entry they are all the iterations. 0*7 is lost: every one of
// its five moves is answered. (solve.txtar shows the human output.)
func TestRootMoves(t *testing.T) {
	status, r, stderr := solveJSON(t, "--algorithm", "dfpn", "--root-moves", "0*7")
	if status != 0 || r["outcome"] != "L" {
		t.Fatalf("status %d, %v, %s", status, r, stderr)
	}
	moves, _ := r["root_moves"].([]any)
	var sum, last float64
	for i, m := range moves {
		m := m.(map[string]any)
		if _, err := sprouts.Parse(m["position"].(string)); err != nil {
			t.Errorf("move %d: %v", i, err)
		}
		n := m["iterations"].(float64)
		if i > 0 && n > last {
			t.Errorf("move %d (%v) has more iterations than the one before", i, m)
		}
		sum, last = sum+n, n
	}
	if len(moves) != len(sprouts.MustParse("0*7").Children()) || sum+1 != r["iterations"].(float64) {
		t.Errorf("%d moves, %g iterations below them, %v in all; want every move of 0*7, and all but the root's own", len(moves), sum, r["iterations"])
	}
}

// TestInterrupt sends SIGINT (and SIGTERM) to a real spots-solve while it
// solves the second of three positions (its progress says it is
// solving, after the first position's line): it stops, prints the
// first, says the second is unknown because interrupted, does not start
// the third, writes --stats whole and exits 130.
func TestInterrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			stats := filepath.Join(dir, "stats.csv")
			p := start(t, testKey, "--progress", "json", "--algorithm", "dfpn", "--stats", stats, "0*6", "0*14", "0*7")
			waitFor(t, time.Minute, "0*6 solved", func() bool { return strings.Contains(p.Stdout.String(), "0*6  L") }, p)
			from := len(p.Stderr.String())
			waitFor(t, time.Minute, "0*14 under way", func() bool { return strings.Contains(p.Stderr.String()[from:], `"phase":"solving"`) }, p)
			p.Cmd.Process.Signal(sig)
			if status := p.Wait(t, 30*time.Second); status != statusInterrupted {
				t.Fatalf("exit %d, want %d\n%s", status, statusInterrupted, p.Stderr.String())
			}
			if out := p.Stdout.String(); !strings.Contains(out, "0*14  unknown") || !strings.Contains(out, "interrupted") || strings.Contains(out, "0*7") {
				t.Errorf("stdout %q", out)
			}
			if !strings.Contains(p.Stderr.String(), "spots-solve: interrupted") {
				t.Errorf("stderr %q", p.Stderr.String())
			}
			data, _ := os.ReadFile(stats)
			if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 3 { // the header, 0*6, 0*14
				t.Errorf("stats %q, want 3 lines", data)
			}
			if files, _ := os.ReadDir(dir); len(files) != 1 {
				t.Errorf("%d files in the directory, want only stats.csv", len(files))
			}
		})
	}
}

// TestWorkerGivesUpWhenMasterIsGone: a worker whose master dies mid-solve
// looks for it again for --wait, then exits 1. (It used to look forever:
// the group retried the link's "no master" like a failed exchange.)
func TestWorkerGivesUpWhenMasterIsGone(t *testing.T) {
	m, _, gossip := master(t, "0*14")
	w := start(t, testKey, "worker", "--join", gossip, "--wait", "2s")
	waitFor(t, time.Minute, "a job", func() bool { return strings.Contains(w.Stderr.String(), "job ") }, w)
	m.Cmd.Process.Signal(syscall.SIGKILL)
	m.Wait(t, 10*time.Second)
	if status := w.Wait(t, time.Minute); status != 1 {
		t.Fatalf("exit %d, want 1: %s", status, w.Stderr.String())
	}
	if e := w.Stderr.String(); !strings.Contains(e, "no master at "+gossip) {
		t.Errorf("stderr %q", e)
	}
}

// TestWorkerJoinInterrupt: a worker waiting to join a master that is not
// there (--wait 2 minutes) stops at SIGINT, long before the wait ends, and
// exits 130, saying so, within a few seconds of the signal. (It ignored
// the signal until the wait ended, then exited 1.)
func TestWorkerJoinInterrupt(t *testing.T) {
	w := start(t, testKey, "worker", "--join", freeAddr(t), "--wait", "2m")
	waitFor(t, time.Minute, "the worker waiting", func() bool { return strings.Contains(w.Stderr.String(), "waiting for a master") }, w)
	sent := time.Now()
	w.Cmd.Process.Signal(syscall.SIGINT)
	if status := w.Wait(t, 30*time.Second); status != statusInterrupted {
		t.Fatalf("exit %d, want %d: %s", status, statusInterrupted, w.Stderr.String())
	}
	// The join loop waits on the signal's context, a quarter of a second
	// between tries: a few seconds leave room for a loaded machine.
	if d := time.Since(sent); d > 5*time.Second {
		t.Errorf("stopped %v after SIGINT, want about a second at most", d.Round(time.Millisecond))
	}
	if e := w.Stderr.String(); !strings.Contains(e, "interrupted while waiting for a master") {
		t.Errorf("stderr %q", e)
	}
}

// TestNoteFarBeyond: a position of more lives than 0*47, the largest ever
// solved, given with nothing to stop its search, gets a note naming
// --timeout at once (the search itself would run for ever, so the test
// interrupts it); with --timeout there is no note.
func TestNoteFarBeyond(t *testing.T) {
	p := start(t, testKey, "--progress", "none", "--algorithm", "dfpn", "0*200")
	waitFor(t, time.Minute, "the note", func() bool { return strings.Contains(p.Stderr.String(), "--timeout 10m") }, p)
	p.Cmd.Process.Signal(syscall.SIGINT)
	if status := p.Wait(t, 30*time.Second); status != statusInterrupted {
		t.Fatalf("exit %d, want %d: %s", status, statusInterrupted, p.Stderr.String())
	}
	if e := p.Stderr.String(); !strings.Contains(e, "spots-solve: note: 0*200 has 600 lives, past the 141 of 0*47, the largest position ever solved") {
		t.Errorf("stderr %q", e)
	}
	status, _, stderr := runCmd(t, "--progress", "none", "--algorithm", "dfpn", "--max-iterations", "10", "0*200")
	if status != 1 || strings.Contains(stderr, "note") {
		t.Errorf("with --max-iterations: exit %d, stderr %q; want 1 and no note", status, stderr)
	}
}

// TestCramStopsAtOnce (N25): a Cram search of a board whose every
// expansion makes thousands of children (64x64: 8,064, seconds of work)
// stops at --timeout between two children, in its first expansion. It
// looked at its context (which a timeout and SIGINT or SIGTERM alike end)
// every 32 expansions: --timeout 10s ran past 150 s, and the first SIGINT
// went unheeded for a minute.
func TestCramStopsAtOnce(t *testing.T) {
	p := start(t, testKey, "--progress", "none", "--game", "cram", "--algorithm", "dfpn", "--max-work", "-1", "--timeout", "1s", "64x64")
	if status := p.Wait(t, 20*time.Second); status != 1 {
		t.Fatalf("exit %d, want 1\n%s", status, p.Stderr.String())
	}
	if out := p.Stdout.String(); !strings.Contains(out, "64x64  unknown  (stopped after ") || !strings.Contains(out, "timeout") {
		t.Errorf("stdout %q, want 64x64 unknown, stopped by the timeout", out)
	}
}
