package cmdtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStdoutFull (F9): each command, its standard output on /dev/full (a
// full disk), says that its output was lost and exits 1; it used to exit
// 0, the output silently gone.
func TestStdoutFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	bin, root := commandsAndRoot(t)
	corpus := filepath.Join(root, "corpus")
	cert := filepath.Join(corpus, "certs", "de73f1d09b4181ec9d618d638d70757df26eecef038c5745c8bda9154c99a1b2.arrow")
	for _, args := range [][]string{
		{"spots-solve", "--progress", "none", "0*5"},
		{"spots-verify", "--progress", "none", cert},
		{"spots-position", "canon", "0*5"},
		{"spots-corpus", "status", "--no-verify", "--progress", "none", "--dir", corpus},
		{"spots-play", "best", "0*5", "--corpus", corpus},
	} {
		cmd := exec.Command(filepath.Join(bin, args[0]), args[1:]...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		want := args[0] + ": writing standard output: no space left on device"
		if status != 1 || !strings.Contains(stderr.String(), want) {
			t.Errorf("%v > /dev/full: status %d, stderr %q, want 1 and %q", args, status, stderr.String(), want)
		}
	}
}
