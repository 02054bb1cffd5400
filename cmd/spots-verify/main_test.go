package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/internal/interrupt"
)

func TestMain(m *testing.M) {
	cmdtest.ScriptMain(m, "spots-verify", runMain)
}

// smallCert is the smallest certificate of the corpus.
var smallCert = filepath.Join("..", "..", "corpus", "certs", "de73f1d09b4181ec9d618d638d70757df26eecef038c5745c8bda9154c99a1b2.arrow")

// TestSignal: SIGINT or SIGTERM ends spots-verify at once with status 130
// and a word on stderr, here while it checks more certificates than its
// output pipe can hold the verdicts of: the test reads the first verdict
// (spots-verify is running, its handler installed), then reads no more,
// so spots-verify cannot finish before the signal.
func TestSignal(t *testing.T) {
	args := []string{"--progress", "none"}
	for range 2000 { // some 200 kB of verdicts: more than a pipe holds
		args = append(args, smallCert)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p := cmdtest.StartIO(t, nil, nil, w, args...)
		w.Close()
		line, err := bufio.NewReader(r).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "VALID") {
			t.Fatalf("first verdict %q, %v", line, err)
		}
		p.Cmd.Process.Signal(sig)
		if status := p.Wait(t, 10*time.Second); status != interrupt.Status || !strings.Contains(p.Stderr.String(), "spots-verify: interrupted") {
			t.Errorf("%v: status %d, stderr %q", sig, status, p.Stderr.String())
		}
		r.Close()
	}
}

// TestVerdictsStream: each certificate's verdict is printed as soon as it
// is known. The second file is put in place only once the first verdict
// has been written: a run that held its output to the end would have
// found it missing.
func TestVerdictsStream(t *testing.T) {
	dir := t.TempDir()
	second := filepath.Join(dir, "second.arrow")
	data, err := os.ReadFile(smallCert)
	if err != nil {
		t.Fatal(err)
	}
	out := &onFirstWrite{do: func() { os.WriteFile(second, data, 0o644) }}
	var stderr strings.Builder
	status := run([]string{"--progress", "none", smallCert, second}, out, &stderr)
	if status != 0 || strings.Count(out.String(), "VALID ") != 2 {
		t.Errorf("status %d\n%s%s", status, out.String(), stderr.String())
	}
}

// onFirstWrite is an output that calls do when it is first written to.
type onFirstWrite struct {
	strings.Builder
	do   func()
	done bool
}

func (w *onFirstWrite) Write(p []byte) (int, error) {
	if !w.done {
		w.done = true
		w.do()
	}
	return w.Builder.Write(p)
}
