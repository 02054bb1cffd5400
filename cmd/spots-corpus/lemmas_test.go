package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/verify"
)

// TestAddKeepsLemmas stops a search of 0*14 part way: what it proved is
// kept in the corpus as certificates of lemmas (each valid in both
// checkers, listed, passing check; in several files that cite the ones
// before when the files are small), with no checkpoint left; add run
// again draws on them, certifies 0*14 and retires the lemmas.
func TestAddKeepsLemmas(t *testing.T) {
	for _, tc := range []struct {
		name    string
		perFile int
	}{{"one file", 0}, {"files of 40 entries", 40}} {
		t.Run(tc.name, func(t *testing.T) {
			keepLemmasOf14(t, tc.perFile)
		})
	}
}

func keepLemmasOf14(t *testing.T, perFile int) {
	dir := smallCorpus(t, 10)
	c := stopWithLemmas(t, dir, perFile)
	files := checkLemmaFiles(t, dir, c, perFile)
	if status, stdout, stderr := runCmd(t, "check", "--dir", dir); status != 0 {
		t.Fatalf("check with the lemmas: %d\n%s%s", status, stdout, stderr)
	}

	status, stdout, stderr := runCmd(t, "add", "--solve", "14", "--dir", dir, "--no-state")
	if status != 0 || !strings.Contains(stderr, "certificates of lemmas") || !strings.Contains(stderr, fmt.Sprintf("retired %d certificate(s) of lemmas of 0*14", len(c.Lemmas))) {
		t.Fatalf("add again: %d\n%s%s", status, stdout, stderr)
	}
	for _, l := range c.Lemmas {
		if _, err := os.Stat(c.LemmaPath(l)); !os.IsNotExist(err) {
			t.Errorf("the retired lemmas are still there: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, corpus.LemmaIndexFile)); !os.IsNotExist(err) {
		t.Errorf("lemmas.csv is left with no lemmas: %v", err)
	}
	_, r := record(t, dir, 14, false)
	if r.Claim.String() != "0*14=L" {
		t.Errorf("added %s", r.Claim)
	}
	for _, a := range r.Cites {
		if files[a] {
			t.Errorf("the certificate cites the lemmas it retired")
		}
	}
	if status, stdout, stderr := runCmd(t, "check", "--dir", dir); status != 0 {
		t.Fatalf("check after: %d\n%s%s", status, stdout, stderr)
	}
}

// stopWithLemmas stops add --solve 14 after 6000 iterations, with files
// of lemmas of perFile entries (0: the default), and returns the corpus.
func stopWithLemmas(t *testing.T, dir string, perFile int) *corpus.Corpus {
	t.Helper()
	addMaxIterations = 6000
	defer func() { addMaxIterations = 0 }()
	if perFile > 0 {
		defer func(n int) { lemmaPartEntries = n }(lemmaPartEntries)
		lemmaPartEntries = perFile
	}
	status, stdout, stderr := runCmd(t, "add", "--solve", "14", "--dir", dir, "--no-state")
	if status != 1 || !strings.Contains(stderr, "kept what it proved") {
		t.Fatalf("add stopped part way: status %d\n%s%s", status, stdout, stderr)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Lemmas) == 0 || c.Lemmas[0].Claim.String() != "lemmas(0*14)" || c.Lemmas[0].Iterations != 6000 {
		t.Fatalf("lemmas listed: %+v", c.Lemmas)
	}
	return c
}

// checkLemmaFiles checks that the lemmas of c are in files of perFile
// entries at most (one file for 0), each valid in both checkers; it
// returns their addresses.
func checkLemmaFiles(t *testing.T, dir string, c *corpus.Corpus, perFile int) map[string]bool {
	t.Helper()
	entries, files := 0, map[string]bool{}
	for _, l := range c.Lemmas {
		entries += l.Entries
		files[l.Address] = true
		if perFile > 0 && l.Entries > perFile {
			t.Errorf("a file of %d entries, over %d", l.Entries, perFile)
		}
	}
	if perFile == 0 && len(c.Lemmas) != 1 || perFile > 0 && (len(c.Lemmas) < 2 || len(c.Lemmas) != (entries+perFile-1)/perFile) {
		t.Fatalf("%d entries in %d files (%d entries a file at most)", entries, len(c.Lemmas), perFile)
	}
	for _, l := range c.Lemmas {
		path := c.LemmaPath(l)
		for _, independent := range []bool{false, true} {
			res, err := verify.File(path, verify.Options{Independent: independent, Library: verify.NewLibrary(filepath.Join(dir, corpus.CertsDir))})
			if err != nil || res.Entries != l.Entries {
				t.Fatalf("%s, independent %v: %v, %d entries", path, independent, err, res.Entries)
			}
		}
	}
	return files
}

// TestCheckLemmaProblems: an unlisted file in lemmas/, and lemmas of an n
// the index certifies, are problems.
func TestCheckLemmaProblems(t *testing.T) {
	dir := smallCorpus(t, 8)
	if err := os.MkdirAll(filepath.Join(dir, corpus.LemmaCertsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(dir, corpus.LemmaCertsDir, strings.Repeat("a", 64)+".arrow")
	if err := os.WriteFile(stray, []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCmd(t, "check", "--dir", dir)
	if status != 1 || !strings.Contains(stdout+stderr, "not listed in lemmas.csv") {
		t.Fatalf("check with a stray lemma file: %d\n%s%s", status, stdout, stderr)
	}
}

// TestCheckLemmasOverTheFileLimit: lemmas live outside certs/, where the
// repository holds every file to 1 MiB; a row of more bytes is a problem.
func TestCheckLemmasOverTheFileLimit(t *testing.T) {
	dir := smallCorpus(t, 8)
	header := "n,claim,address,entries,bytes,algorithm,solve_seconds,verify_seconds,added,producer,machine,command,iterations,cites\n"
	row := fmt.Sprintf("9,lemmas(0*9),%s,1,%d,dfpn,1.0,1.0,2026-11-29,spots test,test,spots-corpus add --solve 9,1,\n", strings.Repeat("a", 64), corpus.MaxLemmaBytes+1)
	if err := os.WriteFile(filepath.Join(dir, corpus.LemmaIndexFile), []byte(header+row), 0o644); err != nil {
		t.Fatal(err)
	}
	status, stdout, stderr := runCmd(t, "check", "--dir", dir)
	if status != 1 || !strings.Contains(stdout+stderr, "a file outside certs/ may have") {
		t.Fatalf("check with lemmas over 1 MiB: %d\n%s%s", status, stdout, stderr)
	}
}

// TestAddKeepsLemmasWhileRunning: with --lemmas-every, the lemmas are
// kept while the search runs, not only when it stops, and each keep
// replaces the one before: one row, one file.
func TestAddKeepsLemmasWhileRunning(t *testing.T) {
	dir := smallCorpus(t, 10)
	addMaxIterations = 30000
	status, stdout, stderr := runCmd(t, "add", "--solve", "16", "--dir", dir, "--no-state", "--lemmas-every", "1ms")
	addMaxIterations = 0
	if status != 1 || strings.Count(stderr, "kept what it proved") < 2 {
		t.Fatalf("add with --lemmas-every: status %d\n%s%s", status, stdout, stderr)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, err := os.ReadDir(filepath.Join(dir, corpus.LemmaCertsDir))
	if err != nil || len(c.Lemmas) != 1 || len(files) != 1 || c.Lemmas[0].Iterations != 30000 {
		t.Fatalf("%v: %d rows, %d files; %+v", err, len(c.Lemmas), len(files), c.Lemmas)
	}
	if status, stdout, stderr := runCmd(t, "check", "--dir", dir); status != 0 {
		t.Fatalf("check: %d\n%s%s", status, stdout, stderr)
	}
}
