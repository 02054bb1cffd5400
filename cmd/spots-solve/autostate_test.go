package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCtrlCThenAgain: Ctrl-C on a solve of 0*20 with no --state keeps the
// search in the default checkpoint and says how to go on; the same
// command again goes on from it, and once the answer is printed the
// checkpoint is gone.
func TestCtrlCThenAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("solves 0*20: half a minute")
	}
	dir := filepath.Join(os.Getenv("XDG_CACHE_HOME"), "spots", "solve", "0*20")
	os.RemoveAll(dir)
	p := start(t, testKey, "--progress", "json", "--algorithm", "dfpn", "0*20")
	waitFor(t, time.Minute, "0*20 under way", func() bool { return strings.Contains(p.Stderr.String(), `"phase":"solving"`) }, p)
	p.Cmd.Process.Signal(syscall.SIGINT)
	if status := p.Wait(t, 30*time.Second); status != statusInterrupted {
		t.Fatalf("exit %d, want %d\n%s", status, statusInterrupted, p.Stderr.String())
	}
	if e := p.Stderr.String(); !strings.Contains(e, "0*20: the search is saved in "+dir+": run the same command again to go on") {
		t.Fatalf("stderr says no way to go on:\n%s", e)
	}
	if _, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil {
		t.Fatalf("no checkpoint left: %v", err)
	}
	again := start(t, testKey, "--progress", "none", "--algorithm", "dfpn", "0*20")
	if status := again.Wait(t, 5*time.Minute); status != 0 {
		t.Fatalf("again: exit %d\n%s", status, again.Stderr.String())
	}
	if !strings.Contains(again.Stdout.String(), "0*20  L") || !strings.Contains(again.Stderr.String(), "resumed 0*20 from "+dir) {
		t.Errorf("again: did not go on from the checkpoint:\n%s%s", again.Stdout.String(), again.Stderr.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is left once solved: %v", err)
	}
}
