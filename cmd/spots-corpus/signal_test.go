package main

import (
	"crypto/sha256"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/internal/interrupt"
)

// TestSignal sends SIGINT and SIGTERM to a real spots-corpus as soon as it
// reports that it verifies (its first --progress json line): check,
// regenerate (plain and --check) and retime, on a copy of the whole
// corpus, which they would take minutes to verify. Each stops with status
// 130 and a word on stderr, and leaves the corpus as it was: no file
// written, none half-written. (status answers from the index at once:
// status.txtar.)
func TestSignal(t *testing.T) {
	c, err := corpus.Open(filepath.Join("..", "..", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "corpus")
	if _, err := c.Copy(dir, func(corpus.Record) bool { return true }); err != nil {
		t.Fatal(err)
	}
	before := treeSums(t, dir)
	for _, args := range [][]string{{"check"}, {"regenerate"}, {"regenerate", "--check"}, {"retime", "--min-n", "15"}} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			p := cmdtest.Start(t, nil, append(args, "--dir", dir, "--progress", "json")...)
			deadline := time.Now().Add(60 * time.Second)
			for !strings.Contains(p.Stderr.String(), `"message":`) { // verifying (retime: timing) has begun
				if time.Now().After(deadline) {
					t.Fatalf("%v: no progress after 60 s", args)
				}
				time.Sleep(10 * time.Millisecond)
			}
			p.Cmd.Process.Signal(sig)
			if status := p.Wait(t, 10*time.Second); status != interrupt.Status || !strings.Contains(p.Stderr.String(), "spots-corpus: interrupted") {
				t.Errorf("%v, %v: status %d, stderr %q", args, sig, status, p.Stderr.String())
			}
		}
	}
	if after := treeSums(t, dir); !maps.Equal(before, after) {
		t.Errorf("the corpus changed:\nbefore %v\nafter  %v", before, after)
	}
}

// treeSums returns the SHA-256 of each file under dir, by its path.
func treeSums(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	sums := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		sums[path] = sha256.Sum256(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return sums
}
