package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/verify"
)

// TestScript runs the transcripts of testdata/script: spots-corpus as a user
// meets it, with the other commands on PATH. Beside the commands of
// cmdtest.Scripts a transcript has
//
//	corpus DIR N
//		makes DIR a corpus of the repository's certificates of 0*1 … 0*N
//		(its literature whole), its generated files regenerated;
//	spoil FILE
//		changes one byte of the certificate FILE, keeping its size, so
//		that it no longer verifies;
//	unlist DIR ADDRESS
//		takes the certificate ADDRESS out of the corpus DIR: its row of
//		index.csv and its file;
//	waitlock FILE
//		waits until the lock file FILE names its holder (a command
//		started in the background has taken the lock), failing after a
//		minute.
func TestScript(t *testing.T) {
	cmdtest.Scripts(t, map[string]func(*testscript.TestScript, bool, []string){
		"corpus": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: corpus DIR N")
			}
			n, err := strconv.Atoi(args[1])
			ts.Check(err)
			ts.Check(copyCorpus(ts.MkAbs(args[0]), n))
		},
		"spoil": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: spoil FILE")
			}
			ts.Check(spoilCert(ts.MkAbs(args[0])))
		},
		"unlist": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: unlist DIR ADDRESS")
			}
			ts.Check(unlist(ts.MkAbs(args[0]), args[1]))
		},
		"waitlock": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 1 {
				ts.Fatalf("usage: waitlock FILE")
			}
			ts.Check(waitLock(ts.MkAbs(args[0]), time.Minute))
		},
	})
}

// waitLock waits until the lock file at path holds a line (its holder's
// process id, which the holder writes once it has the lock), or fails
// after timeout.
func waitLock(path string, timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); ; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: no holder after %v", path, timeout)
		}
	}
}

// copyCorpus copies the certificates of 0*n, n ≤ maxN, of the
// repository's corpus into a new corpus in dir, and generates its files.
func copyCorpus(dir string, maxN int) error {
	c, err := corpus.Open(filepath.Join("..", "..", "corpus"))
	if err != nil {
		return err
	}
	if _, err := c.Copy(dir, func(r corpus.Record) bool { return r.N <= maxN }); err != nil {
		return err
	}
	var out bytes.Buffer
	if status := run(context.Background(), []string{"regenerate", "--progress", "none", "--dir", dir}, io.Discard, &out); status != 0 {
		return fmt.Errorf("regenerate %s: status %d: %s", dir, status, out.String())
	}
	return nil
}

// spoilCert changes one byte of the certificate at path, keeping its
// size, so that it no longer verifies: the first byte from the middle on
// whose change the checker notices.
func spoilCert(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for i := len(data) / 2; i < len(data); i++ {
		data[i] ^= 0x55
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		if _, err := verify.File(path, verify.Options{}); err != nil {
			return nil
		}
		data[i] ^= 0x55
	}
	return fmt.Errorf("no change of one byte spoils %s", path)
}

// unlist takes the certificate of the given address out of the corpus in
// dir: its row of index.csv and its file.
func unlist(dir, address string) error {
	c, err := corpus.Open(dir)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(c.Records, func(r corpus.Record) bool { return r.Address == address })
	if i < 0 {
		return fmt.Errorf("%s lists no certificate %s", c.Path(corpus.IndexFile), address)
	}
	if err := os.Remove(c.CertPath(c.Records[i])); err != nil {
		return err
	}
	c.Records = slices.Delete(c.Records, i, i+1)
	return c.SaveIndex()
}
