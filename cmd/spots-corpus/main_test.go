package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/verify"
)

// TestMain runs the command instead of the tests in the process add starts
// to time a check (see verifyApart).
func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	// add keeps its checkpoints in the user's cache directory: not the
	// real one in tests.
	cache, err := os.MkdirTemp("", "spots-corpus-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	cmdtest.ScriptMain(m, "spots-corpus", runMain, func() { os.RemoveAll(cache) })
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	if len(args) > 0 {
		args = append(args, "--no-progress")
	}
	return cmdtest.Run(t, func(args []string, stdout, stderr io.Writer) int {
		return run(context.Background(), args, stdout, stderr)
	}, args...)
}

// smallCorpus copies the certificates of 0*n, n ≤ maxN, of the repository's
// corpus into a temporary one, and generates its files.
func smallCorpus(t *testing.T, maxN int) string {
	t.Helper()
	c, err := corpus.Open(filepath.Join("..", "..", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "corpus")
	if _, err := c.Copy(dir, func(r corpus.Record) bool { return r.N <= maxN }); err != nil {
		t.Fatal(err)
	}
	if status, stdout, stderr := runCmd(t, "regenerate", "--dir", dir); status != 0 {
		t.Fatalf("regenerate the copy: %d\n%s%s", status, stdout, stderr)
	}
	return dir
}

// TestCommittedCorpus runs check on the repository's corpus, found from
// the working directory, as CI does. In short mode (make test, which runs
// spots-corpus check itself, so that each certificate is verified once) it
// runs regenerate --check --no-verify instead: it finds the corpus the same
// way and checks everything but the certificates' contents. (That the
// generated files are up to date is tested in package corpus too.)
func TestCommittedCorpus(t *testing.T) {
	if testing.Short() {
		status, stdout, stderr := runCmd(t, "regenerate", "--check", "--no-verify")
		if status != 0 || !strings.Contains(stdout, "up to date") {
			t.Errorf("regenerate --check --no-verify: %d\n%s%s", status, stdout, stderr)
		}
		return
	}
	status, stdout, stderr := runCmd(t, "check")
	if status != 0 || !strings.Contains(stdout, "no problem") || !strings.Contains(stdout, "verified  0*14=L  ") {
		t.Errorf("check: %d\n%s%s", status, stdout, stderr)
	}
}

func TestBrokenCorpus(t *testing.T) {
	tests := []struct {
		name   string
		spoil  func(dir string) error
		status int
		stdout string // check's output has this
		// trusted is the status of regenerate --check --no-verify, which
		// does not read the certificates.
		trusted int
	}{
		{"corrupted certificate", func(dir string) error {
			files, _ := filepath.Glob(filepath.Join(dir, "certs", "*.arrow"))
			for _, f := range files {
				data, _ := os.ReadFile(f)
				data[len(data)/2] ^= 1
				os.WriteFile(f, data, 0o644)
				break
			}
			return nil
		}, 1, "invalid certificate", 0},
		{"missing certificate", func(dir string) error {
			files, _ := filepath.Glob(filepath.Join(dir, "certs", "*.arrow"))
			return os.Remove(files[0])
		}, 1, "missing: index.csv line", 1},
		{"contradicting literature", func(dir string) error {
			path := filepath.Join(dir, "literature.csv")
			data, _ := os.ReadFile(path)
			return os.WriteFile(path, bytes.Replace(data, []byte("\n4,W,"), []byte("\n4,L,"), 1), 0o644)
		}, 1, "PROBLEM   n = 4: DIR/certs/ADDR4.arrow: certifies 0*4=W, so 0*4 is W, but literature.csv line 5 says L", 1},
		{"malformed index", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "index.csv"), []byte("n,claim\n"), 0o644)
		}, 2, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := smallCorpus(t, 4)
			c, err := corpus.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.spoil(dir); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.stdout, "DIR", dir)
			want = strings.ReplaceAll(want, "ADDR4", c.Records[c.RecordOf(4, false)].Address)
			status, stdout, stderr := runCmd(t, "check", "--dir", dir)
			if status != tt.status || !strings.Contains(stdout, want) {
				t.Errorf("check: %d, want %d and %q\n%s%s", status, tt.status, want, stdout, stderr)
			}
			if status, _, stderr := runCmd(t, "regenerate", "--check", "--dir", dir); status != tt.status {
				t.Errorf("regenerate --check: %d, want %d\n%s", status, tt.status, stderr)
			}
			if status, _, stderr := runCmd(t, "regenerate", "--check", "--no-verify", "--dir", dir); status != tt.trusted {
				t.Errorf("regenerate --check --no-verify: %d, want %d\n%s", status, tt.trusted, stderr)
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	dir := smallCorpus(t, 3)
	status, stdout, _ := runCmd(t, "check", "--json", "--dir", dir)
	var r checkJSON
	if err := json.Unmarshal([]byte(stdout), &r); status != 0 || err != nil || !r.OK || len(r.Certificates) != 4 || len(r.Problems) != 0 {
		t.Fatalf("%d %v: %s", status, err, stdout)
	}
	if c := r.Certificates[2]; c.Claim != "0*3=W" || c.Status != "verified" || c.Entries != 6 || c.N != 3 || !c.Committed {
		t.Errorf("certificate 3: %+v", c)
	}
	os.Remove(filepath.Join(dir, "certs", r.Certificates[0].Address+".arrow"))
	status, stdout, _ = runCmd(t, "check", "--json", "--dir", dir)
	if err := json.Unmarshal([]byte(stdout), &r); status != 1 || err != nil || r.OK || len(r.Problems) != 1 || r.Problems[0].N != 1 {
		t.Errorf("missing file: %d %v: %s", status, err, stdout)
	}
}

func TestStatus(t *testing.T) {
	dir := smallCorpus(t, 3)
	status, stdout, stderr := runCmd(t, "status", "--json", "--dir", dir)
	if status != 0 {
		t.Fatalf("%d: %s", status, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 105 {
		t.Fatalf("%d lines", len(lines))
	}
	var rows []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		rows = append(rows, m)
	}
	for _, k := range []string{"n", "outcome", "grundy", "conjecture", "conjecture_grundy", "literature", "certificates"} {
		if _, ok := rows[0][k]; !ok {
			t.Errorf("no %q in %s", k, lines[0])
		}
	}
	var r3 rowJSON
	json.Unmarshal([]byte(lines[2]), &r3)
	if r3.N != 3 || r3.Outcome != outcome.Win || r3.Grundy == nil || *r3.Grundy != 1 || len(r3.Certificates) != 2 ||
		r3.Certificates[1].Claim != "gn(0*3)=1" || r3.Certificates[1].Status != corpus.StatusFound || r3.Literature.Who != "Conway" {
		t.Errorf("row 3: %s", lines[2])
	}
	var r63 rowJSON
	json.Unmarshal([]byte(lines[62]), &r63)
	if r63.Outcome != outcome.Unknown || r63.Grundy != nil || r63.Conjecture != outcome.Win || len(r63.Certificates) != 0 {
		t.Errorf("row 63: %s", lines[62])
	}
	var r33 rowJSON
	json.Unmarshal([]byte(lines[32]), &r33)
	if r33.Literature == nil || r33.Literature.Who != "GLOP" || r33.Literature.Year != "2010-2011" {
		t.Errorf("row 33: %s", lines[32])
	}

	status, stdout, _ = runCmd(t, "status", "--dir", dir)
	if status != 0 || !strings.HasPrefix(stdout, "n  ") || !strings.Contains(stdout, "gn(0*3)=1") || !strings.Contains(stdout, corpus.StatusFound) {
		t.Errorf("status: %d\n%s", status, stdout)
	}
	status, again, _ := runCmd(t, "status", "--no-verify", "--dir", dir)
	if status != 0 || again != stdout {
		t.Errorf("status --no-verify (accepted, and the same): %d\n%s", status, again)
	}
}

func TestRegenerate(t *testing.T) {
	dir := smallCorpus(t, 2)
	md := filepath.Join(dir, "OUTCOMES.md")
	want, _ := os.ReadFile(md)
	os.WriteFile(md, append(want, "edited\n"...), 0o644)
	if status, _, stderr := runCmd(t, "regenerate", "--check", "--dir", dir); status != 1 || !strings.Contains(stderr, md+" is stale") {
		t.Errorf("stale OUTCOMES.md: %d %q", status, stderr)
	}
	if status, stdout, _ := runCmd(t, "regenerate", "--dir", dir); status != 0 || stdout != "wrote "+md+"\n" {
		t.Errorf("regenerate: %d %q", status, stdout)
	}
	if have, _ := os.ReadFile(md); !bytes.Equal(have, want) {
		t.Error("regenerate wrote different bytes")
	}
	if status, _, _ := runCmd(t, "regenerate", "--check", "--dir", dir); status != 0 {
		t.Errorf("after regenerate: %d", status)
	}
	// Without verifying, the comparison is the same.
	os.WriteFile(md, append(want, "edited\n"...), 0o644)
	if status, _, stderr := runCmd(t, "regenerate", "--check", "--no-verify", "--dir", dir); status != 1 || !strings.Contains(stderr, md+" is stale") {
		t.Errorf("stale OUTCOMES.md, --no-verify: %d %q", status, stderr)
	}
	os.WriteFile(md, want, 0o644)
	if status, stdout, stderr := runCmd(t, "regenerate", "--check", "--no-verify", "--dir", dir); status != 0 || !strings.Contains(stdout, "up to date") {
		t.Errorf("up to date, --no-verify: %d %q %q", status, stdout, stderr)
	}
}

func TestAdd(t *testing.T) {
	dir := smallCorpus(t, 4)
	// 0*5 is not in the copy: add it.
	status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--dir", dir)
	if status != 0 || !strings.HasPrefix(stdout, "0*5  W  (first player wins)\n    certificate ") || !strings.Contains(stdout, "wrote ") {
		t.Fatalf("add --solve 5: %d\n%s%s", status, stdout, stderr)
	}
	if stderr != "" {
		t.Errorf("add --solve 5 (verified in a separate process): stderr %q", stderr)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	i := c.RecordOf(5, false)
	if i < 0 {
		t.Fatal("0*5 not in the index")
	}
	r := c.Records[i]
	if r.Claim.String() != "0*5=W" || !r.Committed || r.Algorithm != "dfpn" || r.Command != "spots-corpus add --solve 5" || r.Added == "" || r.Bytes == 0 {
		t.Errorf("record %+v", r)
	}
	if status, _, _ := runCmd(t, "check", "--dir", dir); status != 0 {
		t.Errorf("check after add: %d", status)
	}
	// Again: refused; with --replace (and another algorithm) it is made again.
	if status, _, stderr := runCmd(t, "add", "--solve", "5", "--dir", dir); status != 2 || !strings.Contains(stderr, "already has 0*5=W") {
		t.Errorf("add twice: %d %q", status, stderr)
	}
	status, stdout, stderr = runCmd(t, "add", "--solve", "5", "--replace", "--algorithm", "pns", "--json", "--dir", dir)
	var j addJSON
	if err := json.Unmarshal([]byte(strings.SplitN(stdout, "\n", 2)[0]), &j); status != 0 || err != nil || j.Claim != "0*5=W" || j.Algorithm != "pns" || j.Outcome != outcome.Win {
		t.Errorf("add --replace --json: %d %v\n%s%s", status, err, stdout, stderr)
	}
	// The Grundy value, listed but not committed.
	out := t.TempDir()
	status, stdout, stderr = runCmd(t, "add", "--solve", "6", "--nimber", "--no-commit", "--out", out, "--dir", dir)
	if status != 0 || !strings.HasPrefix(stdout, "0*6  0  (Grundy value; second player wins)") {
		t.Fatalf("add --nimber --no-commit: %d\n%s%s", status, stdout, stderr)
	}
	if files, _ := filepath.Glob(filepath.Join(out, "*.arrow")); len(files) != 1 {
		t.Errorf("%d files in --out", len(files))
	}
	status, stdout, _ = runCmd(t, "status", "--json", "--dir", dir)
	if status != 0 || !strings.Contains(stdout, `"claim":"gn(0*6)=0"`) || !strings.Contains(stdout, `"status":"not committed"`) {
		t.Errorf("status after --no-commit: %d\n%s", status, stdout)
	}
	if status, _, stderr := runCmd(t, "regenerate", "--check", "--dir", dir); status != 0 {
		t.Errorf("regenerate --check after add: %d %s", status, stderr)
	}
	// A limit that stops the search adds nothing.
	if status, _, stderr := runCmd(t, "add", "--solve", "14", "--timeout", "1ms", "--dir", dir, "--no-state"); status != 1 || !strings.Contains(stderr, "not solved") {
		t.Errorf("add with a timeout: %d %q", status, stderr)
	}
}

// TestAddResumes stops an add of 0*13 (seconds of search) by its timeout, which saves the search;
// the same command run again resumes it, adds the certificate with the
// time of both runs and removes the checkpoint.
func TestAddResumes(t *testing.T) {
	dir := smallCorpus(t, 4)
	root := t.TempDir()
	state := filepath.Join(root, "0*13") // where status looks, under --state-root
	args := []string{"add", "--solve", "13", "--dir", dir, "--state", state}
	status, _, stderr := runCmd(t, append(args, "--timeout", "500ms")...)
	if status != 1 || !strings.Contains(stderr, "run the same command again to go on") {
		t.Fatalf("stopped add: %d %q", status, stderr)
	}
	m, err := checkpoint.Load(state)
	if err != nil || m.Position != "0*13" || m.Iterations == 0 || m.Runs != 1 {
		t.Fatalf("checkpoint after the first run: %+v, %v", m, err)
	}
	if status, stdout, _ := runCmd(t, "status", "--no-verify", "--json", "--state-root", root, "--dir", dir); status != 0 ||
		!strings.Contains(stdout, `"unfinished":[{"claim":"0*13","checkpoint":"`+state) {
		t.Errorf("status does not list the unfinished solve: %d\n%s", status, stdout)
	}
	status, stdout, stderr := runCmd(t, args...)
	if status != 0 || !strings.Contains(stderr, "resumed 0*13 from "+state) {
		t.Fatalf("resumed add: %d\n%s%s", status, stdout, stderr)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Records[c.RecordOf(13, false)]
	if r.Claim.String() != "0*13=L" || r.SolveSeconds < m.Seconds || !strings.Contains(r.Command, "in 2 runs through --state") {
		t.Errorf("record %+v (the first run searched %.3f s)", r, m.Seconds)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is left after the add: %v", err)
	}
	// A checkpoint of another claim is refused.
	other := t.TempDir()
	runCmd(t, "add", "--solve", "14", "--dir", dir, "--state", other, "--timeout", "100ms")
	if status, _, stderr := runCmd(t, "add", "--solve", "12", "--dir", dir, "--state", other); status != 2 || !strings.Contains(stderr, "holds a search of 0*14") {
		t.Errorf("another claim's checkpoint: %d %q", status, stderr)
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		stderr string
	}{
		{nil, 2, "usage: spots-corpus COMMAND"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"--dir", "x", "check"}, 2, "give the command first"},
		{[]string{"check", "--frobnicate"}, 2, "unknown flag: --frobnicate"},
		{[]string{"check", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"add"}, 2, "add needs --solve N"},
		{[]string{"add", "--solve", "0"}, 2, "--solve 0: want a number of spots"},
		{[]string{"add", "--solve", "5", "--algorithm", "mcts"}, 2, `unknown --algorithm "mcts"`},
		{[]string{"add", "--solve", "5", "--capacity", "1"}, 2, "--capacity 1 is too small"},
		{[]string{verifyCommand}, 2, "usage: spots-corpus _verify [--independent] FILE"},
		{[]string{verifyCommand, "/nonexistent.arrow"}, 2, ""},
		{[]string{"check", "--sample", "--budget", "1m"}, 2, "--sample and --budget: give one"},
		{[]string{"check", "--budget", "-1s"}, 2, "--budget -1s is negative"},
		{[]string{"check", "--dir", "main.go"}, 2, "--dir main.go is not a directory"},
		{[]string{"check", "--dir", "../../corpus", "--dir", "../../testdata/nonexistent"}, 2, "testdata/nonexistent"},
		{[]string{"regenerate", "--no-verify"}, 2, "--no-verify goes with --check"},
		{[]string{"check", "--no-verify"}, 2, "unknown flag: --no-verify"},
		{[]string{"check", "--dir", "/nonexistent/corpus"}, 2, "/nonexistent/corpus"},
		{[]string{"status", "--dir", "/nonexistent/corpus"}, 2, "/nonexistent/corpus"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		status := run(context.Background(), tt.args, &stdout, &stderr)
		if status != tt.status || !strings.Contains(stderr.String(), tt.stderr) {
			t.Errorf("spots-corpus %v: %d %q; want %d and %q", tt.args, status, stderr.String(), tt.status, tt.stderr)
		}
	}
	// --help and --version go to standard output.
	for _, tt := range []struct {
		args   []string
		stdout string
	}{
		{[]string{"--help"}, "usage: spots-corpus COMMAND"},
		{[]string{"help"}, "Exit status:"},
		{[]string{"--version"}, "spots-corpus "},
		{[]string{"check", "--help"}, "usage: spots-corpus check"},
		{[]string{"add", "-h"}, "130  interrupted"},
		{[]string{"status", "--version"}, "spots-corpus "},
	} {
		var stdout, stderr bytes.Buffer
		status := run(context.Background(), tt.args, &stdout, &stderr)
		if status != 0 || !strings.HasPrefix(stdout.String(), tt.stdout) && !strings.Contains(stdout.String(), tt.stdout) || stderr.Len() != 0 {
			t.Errorf("spots-corpus %v: %d, stdout %q, stderr %q; want 0 and %q", tt.args, status, stdout.String(), stderr.String(), tt.stdout)
		}
	}
	// add refuses a claim the corpus has before solving anything.
	dir := smallCorpus(t, 3)
	if status, _, stderr := runCmd(t, "add", "--solve", "3", "--nimber", "--dir", dir); status != 2 || !strings.Contains(stderr, "already has gn(0*3)=1 (index.csv line 5)") {
		t.Errorf("add an existing claim: %d %q", status, stderr)
	}
}

// withLimits sets the size rule for the test.
func withLimits(t *testing.T, l corpus.Limits) {
	t.Helper()
	old := limits
	limits = l
	t.Cleanup(func() { limits = old })
}

func TestAddSizeRule(t *testing.T) {
	// The size of the certificate add makes of 0*5 (the writer's, which
	// may differ from the committed file's).
	scratch := smallCorpus(t, 4)
	if status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--dir", scratch); status != 0 {
		t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
	}
	c, err := corpus.Open(scratch)
	if err != nil {
		t.Fatal(err)
	}
	size := c.Records[c.RecordOf(5, false)].Bytes
	tests := []struct {
		name      string
		limits    func(corpusBytes int64) corpus.Limits
		committed bool
		why       string // on stderr when kept elsewhere
	}{
		{"fits", func(int64) corpus.Limits { return corpus.Limits{} }, true, ""},
		{"at the limit", func(int64) corpus.Limits { return corpus.Limits{CertBytes: size} }, true, ""},
		{"over the certificate limit", func(int64) corpus.Limits { return corpus.Limits{CertBytes: size - 1} }, false, fmt.Sprintf("it has %d bytes", size)},
		// (Room for the index's new line and the regenerated files too.)
		{"within the corpus limit", func(b int64) corpus.Limits { return corpus.Limits{CorpusBytes: b + size + 20_000} }, true, ""},
		{"over the corpus limit", func(b int64) corpus.Limits { return corpus.Limits{CorpusBytes: b + size - 1} }, false, "with it "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := smallCorpus(t, 4)
			c, err := corpus.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			corpusBytes, err := c.Size()
			if err != nil {
				t.Fatal(err)
			}
			withLimits(t, tt.limits(corpusBytes))
			out := filepath.Join(t.TempDir(), "kept")
			status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--out", out, "--dir", dir)
			if status != 0 {
				t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
			}
			if c, err = corpus.Open(dir); err != nil {
				t.Fatal(err)
			}
			r := c.Records[c.RecordOf(5, false)]
			if r.Claim.String() != "0*5=W" || r.Bytes != size || r.Committed != tt.committed {
				t.Fatalf("record %+v", r)
			}
			inCorpus, inOut := exists(c.CertPath(r)), exists(filepath.Join(out, r.FileName()))
			if tt.committed {
				if !inCorpus || inOut || r.Command != "spots-corpus add --solve 5" || stderr != "" {
					t.Errorf("committed: in the corpus %v, in --out %v, command %q, stderr %q", inCorpus, inOut, r.Command, stderr)
				}
				return
			}
			if inCorpus || !inOut || r.Command != "spots-corpus add --solve 5 --no-commit --out DIR" ||
				!strings.Contains(stderr, "not committing the certificate of 0*5=W: "+tt.why) || !strings.Contains(stderr, "kept elsewhere (committed no)") {
				t.Errorf("kept elsewhere: in the corpus %v, in --out %v, command %q, stderr %q", inCorpus, inOut, r.Command, stderr)
			}
			// The corpus checks, and verifies the certificate in --out.
			status, stdout, stderr = runCmd(t, "check", "--dir", dir, "--dir", out)
			if status != 0 || !strings.Contains(stdout, "verified  0*5=W  "+r.ShortAddress()+"  31 entries") ||
				!strings.Contains(stdout, "(kept elsewhere)") || !strings.Contains(stdout, "1 listed but not committed (1 verified in --dir, 0 missing)") {
				t.Errorf("check --dir OUT: %d\n%s%s", status, stdout, stderr)
			}
		})
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestCheckSizeRule(t *testing.T) {
	dir := smallCorpus(t, 3)
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	largest := c.Records[c.RecordOf(3, true)] // gn(0*3)=1, the largest of n ≤ 3
	tests := []struct {
		name   string
		limits corpus.Limits
		status int
		stdout string
	}{
		{"defaults", corpus.Limits{}, 0, "no problem"},
		{"a certificate over", corpus.Limits{CertBytes: largest.Bytes - 1}, 1, fmt.Sprintf("the certificate of gn(0*3)=1 has %d bytes", largest.Bytes)},
		{"the corpus over", corpus.Limits{CorpusBytes: 10_000}, 1, "over the 10.0 KB the corpus may have"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			withLimits(t, tt.limits)
			status, stdout, stderr := runCmd(t, "check", "--dir", dir)
			if status != tt.status || !strings.Contains(stdout, tt.stdout) {
				t.Errorf("check: %d, want %d and %q\n%s%s", status, tt.status, tt.stdout, stdout, stderr)
			}
		})
	}
}

func TestCheckElsewhere(t *testing.T) {
	dir := smallCorpus(t, 4)
	kept := t.TempDir()
	if status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--no-commit", "--out", kept, "--dir", dir); status != 0 {
		t.Fatalf("add --no-commit: %d\n%s%s", status, stdout, stderr)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Records[c.RecordOf(5, false)]
	empty, other := t.TempDir(), t.TempDir()
	bad := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(kept, r.FileName()))
	data = bytes.Clone(data)
	data[len(data)/2] ^= 0x55
	os.WriteFile(filepath.Join(bad, r.FileName()), data, 0o644)
	// The committed file of 0*5=W: the same content, another size (other
	// provenance and compression) than the file add made and indexed.
	again := t.TempDir()
	data, err = os.ReadFile(filepath.Join("..", "..", "corpus", "certs", r.FileName()))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(again, r.FileName()), data, 0o644)
	if int64(len(data)) == r.Bytes {
		t.Fatalf("the committed file of 0*5=W has the size of the one add made (%d bytes)", r.Bytes)
	}
	list := func(ds ...string) string { return strings.Join(ds, string(filepath.ListSeparator)) }
	tests := []struct {
		name   string
		dirs   []string
		status int
		stdout []string
	}{
		{"no directory", nil, 0, []string{"1 listed but not committed, 105 literature rows"}},
		{"the directory", []string{kept}, 0, []string{"verified  0*5=W  " + r.ShortAddress() + "  31 entries", "(kept elsewhere)", "(1 verified in --dir, 0 missing)"}},
		{"missing", []string{empty}, 0, []string{"missing   0*5=W  " + r.ShortAddress() + "  kept elsewhere, in none of " + empty + " (spots-corpus add --solve 5 --no-commit --out DIR makes it again)", "(0 verified in --dir, 1 missing)", "no problem"}},
		{"a list", []string{list(empty, other, kept)}, 0, []string{"(kept elsewhere)", "(1 verified in --dir, 0 missing)"}},
		{"repeated", []string{empty, kept}, 0, []string{"(kept elsewhere)", "(1 verified in --dir, 0 missing)"}},
		{"the corpus in the list", []string{list(kept, dir)}, 0, []string{"(kept elsewhere)"}},
		{"made again", []string{again}, 0, []string{"(kept elsewhere)", "(1 verified in --dir, 0 missing)",
			fmt.Sprintf("note      n = 5: %s: kept elsewhere: the file has %d bytes, index.csv line 8 says %d: not the file indexed, one with the same content made again", filepath.Join(again, r.FileName()), len(data), r.Bytes)}},
		{"corrupted", []string{bad, kept}, 1, []string{"PROBLEM   n = 5: " + filepath.Join(bad, r.FileName()) + ": kept elsewhere: invalid certificate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"check", "--dir", dir}
			for _, d := range tt.dirs {
				args = append(args, "--dir", d)
			}
			status, stdout, stderr := runCmd(t, args...)
			if status != tt.status || !containsAll(stdout, tt.stdout) {
				t.Errorf("%v: %d, want %d and %q\n%s%s", args, status, tt.status, tt.stdout, stdout, stderr)
			}
		})
	}
	// JSON: one entry per certificate kept elsewhere.
	status, stdout, _ := runCmd(t, "check", "--json", "--dir", dir, "--dir", empty+string(filepath.ListSeparator)+kept)
	var j checkJSON
	if err := json.Unmarshal([]byte(stdout), &j); status != 0 || err != nil || len(j.Elsewhere) != 1 || j.Elsewhere[0].Status != corpus.StatusElsewhere ||
		j.Elsewhere[0].Path != filepath.Join(kept, r.FileName()) || j.Bytes == 0 {
		t.Errorf("check --json: %d %v\n%s", status, err, stdout)
	}
	status, stdout, _ = runCmd(t, "check", "--json", "--dir", dir, "--dir", empty)
	if err := json.Unmarshal([]byte(stdout), &j); status != 0 || err != nil || len(j.Elsewhere) != 1 || j.Elsewhere[0].Status != corpus.StatusMissing {
		t.Errorf("check --json, missing: %d %v\n%s", status, err, stdout)
	}
	// Two corpora are one too many.
	if status, _, stderr := runCmd(t, "check", "--dir", dir, "--dir", smallCorpus(t, 1)); status != 2 || !strings.Contains(stderr, "are both corpus directories") {
		t.Errorf("two corpora: %d %q", status, stderr)
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// git runs git in dir, failing the test on an error.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=test", "-c", "user.email=test@example.org", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestCheckSample(t *testing.T) {
	old := sampleMaxN
	sampleMaxN = 2
	t.Cleanup(func() { sampleMaxN = old })

	tests := []struct {
		name     string
		git      bool // the corpus is in a git work tree
		tag      bool // with a tag
		after    func(t *testing.T, dir string)
		args     []string
		status   int
		sample   string   // the sample line; "" for none
		verified []string // claims verified
		found    []string // claims only found
	}{
		{"not sampled", true, true, nil, nil, 0, "", []string{"0=L", "0*2=L", "0*3=W", "0*4=W", "gn(0*4)=1"}, nil},
		{"not in git", false, false, nil, []string{"--sample"}, 0, "every certificate (cannot tell which changed: git rev-parse:", []string{"0=L", "0*2=L", "0*3=W", "0*4=W", "gn(0*4)=1"}, nil},
		{"no tag", true, false, nil, []string{"--sample"}, 0, "those of 0*1 … 0*2 and those changed since HEAD (no git tag to compare with) (none)", []string{"0=L", "0*2=L"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}},
		{"no tag, a new certificate", true, false, func(t *testing.T, dir string) {
			if status, stdout, stderr := runCmd(t, "add", "--solve", "3", "--nimber", "--dir", dir); status != 0 {
				t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
			}
		}, []string{"--sample"}, 0, "changed since HEAD (no git tag to compare with) (1)", []string{"0=L", "0*2=L", "gn(0*3)=1"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}},
		{"nothing changed", true, true, nil, []string{"--sample"}, 0, "those of 0*1 … 0*2 and those changed since the tag v1 (none)", []string{"0=L", "0*2=L"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}},
		{"a new certificate", true, true, func(t *testing.T, dir string) {
			if status, stdout, stderr := runCmd(t, "add", "--solve", "3", "--nimber", "--dir", dir); status != 0 {
				t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
			}
		}, []string{"--sample"}, 0, "changed since the tag v1 (1)", []string{"0=L", "0*2=L", "gn(0*3)=1"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}},
		{"a committed change", true, true, func(t *testing.T, dir string) {
			if status, stdout, stderr := runCmd(t, "add", "--solve", "3", "--nimber", "--dir", dir); status != 0 {
				t.Fatalf("add: %d\n%s%s", status, stdout, stderr)
			}
			git(t, dir, "add", "-A", ".")
			git(t, dir, "commit", "-q", "-m", "gn(0*3)")
		}, []string{"--sample"}, 0, "changed since the tag v1 (1)", []string{"0=L", "0*2=L", "gn(0*3)=1"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}},
		{"a spoilt certificate that changed", true, true, func(t *testing.T, dir string) {
			c, err := corpus.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			spoil(t, c.CertPath(c.Records[c.RecordOf(4, false)]))
		}, []string{"--sample"}, 1, "changed since the tag v1 (1)", []string{"0=L", "0*2=L"}, []string{"0*3=W", "gn(0*4)=1"}},
		{"a spoilt certificate outside the sample", true, true, func(t *testing.T, dir string) {
			c, err := corpus.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			spoil(t, c.CertPath(c.Records[c.RecordOf(4, false)]))
			git(t, dir, "commit", "-q", "-a", "-m", "spoilt")
			git(t, dir, "tag", "v2")
		}, []string{"--sample"}, 0, "changed since the tag v2 (none)", []string{"0=L", "0*2=L"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}},
		{"within the budget", true, true, nil, []string{"--budget", "1h"}, 0, "", []string{"0=L", "0*2=L", "0*3=W", "0*4=W", "gn(0*4)=1"}, nil},
		{"over the budget", true, true, nil, []string{"--budget", "1ms"}, 0, "changed since the tag v1 (none) (the recorded verify times add up to 0 s, over --budget 1ms)", []string{"0=L", "0*2=L"}, []string{"0*3=W", "0*4=W", "gn(0*4)=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := smallCorpus(t, 4)
			// gn(0*3)=1 is not in the tagged corpus: some cases add it.
			c, err := corpus.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			gn3 := c.Records[c.RecordOf(3, true)]
			if err := os.Remove(c.CertPath(gn3)); err != nil {
				t.Fatal(err)
			}
			c.Records = slices.DeleteFunc(c.Records, func(r corpus.Record) bool { return r.Address == gn3.Address })
			if err := c.SaveIndex(); err != nil {
				t.Fatal(err)
			}
			if status, stdout, stderr := runCmd(t, "regenerate", "--dir", dir); status != 0 {
				t.Fatalf("regenerate: %d\n%s%s", status, stdout, stderr)
			}
			if tt.git {
				repo := filepath.Dir(dir)
				git(t, repo, "init", "-q")
				git(t, repo, "add", "-A", ".")
				git(t, repo, "commit", "-q", "-m", "corpus")
				if tt.tag {
					git(t, repo, "tag", "v1")
				}
			}
			verified, found := tt.verified, tt.found
			if tt.after != nil {
				tt.after(t, dir)
			}
			status, stdout, stderr := runCmd(t, append([]string{"check", "--dir", dir}, tt.args...)...)
			if status != tt.status {
				t.Errorf("status %d, want %d\n%s%s", status, tt.status, stdout, stderr)
			}
			if hasSample := strings.HasPrefix(stdout, "sample    verifying "); hasSample != (tt.sample != "") || !strings.Contains(stdout, tt.sample) {
				t.Errorf("want the sample line %q:\n%s", tt.sample, stdout)
			}
			var gotVerified, gotFound []string
			for _, line := range strings.Split(stdout, "\n") {
				f := strings.Fields(line)
				switch {
				case len(f) > 1 && f[0] == "verified":
					gotVerified = append(gotVerified, f[1])
				case len(f) > 1 && f[0] == "found":
					gotFound = append(gotFound, f[1])
				}
			}
			if strings.Join(gotVerified, " ") != strings.Join(verified, " ") || strings.Join(gotFound, " ") != strings.Join(found, " ") {
				t.Errorf("verified %v, found %v; want %v, %v\n%s", gotVerified, gotFound, verified, found, stdout)
			}
		})
	}
}

// spoil changes one byte of the certificate at path, keeping its size, so
// that it no longer verifies: the first byte from the middle on whose
// change the checker notices.
func spoil(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(data) / 2; i < len(data); i++ {
		data[i] ^= 0x55
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := verify.File(path, verify.Options{}); err != nil {
			return
		}
		data[i] ^= 0x55
	}
	t.Fatalf("no change of one byte spoils %s", path)
}

// TestRetime times certificates again in separate processes and checks
// that index.csv records the median, that the generated files follow, and
// that bad choices and a spoiled certificate are refused.
func TestRetime(t *testing.T) {
	dir := smallCorpus(t, 6)
	index := filepath.Join(dir, corpus.IndexFile)
	before, _ := os.ReadFile(index)

	status, stdout, stderr := runCmd(t, "retime", "--dir", dir, "--min-n", "5", "--runs", "3", "--dry-run", "--json")
	if status != 0 {
		t.Fatalf("retime --dry-run: %d %s", status, stderr)
	}
	if after, _ := os.ReadFile(index); !bytes.Equal(after, before) {
		t.Error("--dry-run wrote index.csv")
	}
	var got []struct {
		Claim string    `json:"claim"`
		After float64   `json:"verify_seconds"`
		Runs  []float64 `json:"runs_seconds"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got) == 0 {
		t.Fatalf("retime --json: %v %q", err, stdout)
	}
	for _, r := range got {
		if len(r.Runs) != 3 || r.After != millis(r.Runs[1]) {
			t.Errorf("%s: median %v of runs %v", r.Claim, r.After, r.Runs)
		}
	}

	if status, _, stderr := runCmd(t, "retime", "--dir", dir, "--claim", "0*6=L", "--runs", "1"); status != 0 {
		t.Fatalf("retime --claim 0*6=L: %d %s", status, stderr)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := corpus.ReadIndex(bytes.NewReader(before))
	for i, r := range c.Records {
		if r.Claim.String() != "0*6=L" && r.VerifySeconds != old[i].VerifySeconds {
			t.Errorf("%s: verify time changed from %v to %v, not asked to", r.Claim, old[i].VerifySeconds, r.VerifySeconds)
		}
	}
	if status, _, stderr := runCmd(t, "regenerate", "--check", "--no-verify", "--dir", dir); status != 0 {
		t.Errorf("generated files not regenerated after retime: %s", stderr)
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--claim", "0*99=W"}, "no committed certificate"},
		{[]string{"--runs", "0"}, "--runs 0"},
		{[]string{"--min-n", "99"}, "N ≥ 99"},
	} {
		status, _, stderr := runCmd(t, append([]string{"retime", "--dir", dir}, tt.args...)...)
		if status != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("retime %v: %d %q, want 2 and %q", tt.args, status, stderr, tt.want)
		}
	}

	spoil(t, filepath.Join(dir, corpus.CertsDir, c.Records[c.RecordOf(6, false)].FileName()))
	if status, _, stderr := runCmd(t, "retime", "--dir", dir, "--claim", "0*6=L", "--runs", "1"); status != 1 || !strings.Contains(stderr, "0*6=L") {
		t.Errorf("spoiled certificate: %d %q", status, stderr)
	}
}

// TestAddWhileAnotherAdds starts a second add while the first has written
// its certificate into certs/ but not yet listed it, as two long solves
// running side by side do: the second waits for the first's lock, and
// both rows survive (a real run once lost one, and the other failed its
// check on the unlisted file).
func TestAddWhileAnotherAdds(t *testing.T) {
	dir := smallCorpus(t, 4)
	var wg sync.WaitGroup
	var other int
	var otherErr string
	beforeListing = func() {
		beforeListing = nil
		wg.Add(1)
		go func() {
			defer wg.Done()
			other, _, otherErr = runCmd(t, "add", "--solve", "6", "--dir", dir, "--no-state")
		}()
		time.Sleep(200 * time.Millisecond) // let it solve and wait for the lock
	}
	t.Cleanup(func() { beforeListing = nil })
	status, stdout, stderr := runCmd(t, "add", "--solve", "5", "--dir", dir, "--no-state")
	wg.Wait()
	if status != 0 {
		t.Fatalf("add --solve 5: %d\n%s%s", status, stdout, stderr)
	}
	if other != 0 {
		t.Fatalf("the other add: %d %s", other, otherErr)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{5, 6} {
		if c.RecordOf(n, false) < 0 {
			t.Errorf("0*%d is not in the index", n)
		}
	}
	if status, _, stderr := runCmd(t, "check", "--dir", dir); status != 0 {
		t.Errorf("check: %d %s", status, stderr)
	}
}

// TestCheckCountsCram checks that check reports the Cram table's
// certificates, in its summary and in JSON, and fails on a bad one.
func TestCheckCountsCram(t *testing.T) {
	dir := smallCorpus(t, 2)
	src := filepath.Join("..", "..", "corpus")
	index, err := os.ReadFile(filepath.Join(src, corpus.CramIndexFile))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(index), "\n")[:3] // the header and the two rows of 1x2
	var addresses []string
	for _, l := range lines[1:] {
		addresses = append(addresses, strings.Split(l, ",")[2])
	}
	if err := os.WriteFile(filepath.Join(dir, corpus.CramIndexFile), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, corpus.CramCertsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, a := range addresses {
		data, err := os.ReadFile(filepath.Join(src, corpus.CramCertsDir, a+".arrow"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, corpus.CramCertsDir, a+".arrow"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	status, stdout, stderr := runCmd(t, "check", "--dir", dir)
	if status != 0 || !strings.Contains(stdout, "Cram: 2 of 2 verified") {
		t.Errorf("check: %d\n%s%s", status, stdout, stderr)
	}
	status, stdout, _ = runCmd(t, "check", "--json", "--dir", dir)
	var r checkJSON
	if err := json.Unmarshal([]byte(stdout), &r); status != 0 || err != nil || len(r.Cram) != 2 ||
		r.Cram[1].Claim != "gn(1x2)=1" || r.Cram[1].Status != "verified" {
		t.Errorf("check --json: %d %v: %s", status, err, stdout)
	}
	os.Remove(filepath.Join(dir, corpus.CramCertsDir, addresses[0]+".arrow"))
	status, stdout, _ = runCmd(t, "check", "--json", "--dir", dir)
	if err := json.Unmarshal([]byte(stdout), &r); status != 1 || err != nil || r.OK || r.Cram[0].Status != corpus.StatusFailed {
		t.Errorf("a Cram certificate missing: %d %v: %s", status, err, stdout)
	}
}

// TestIndependent: check --independent verifies the Sprouts certificates
// with the second implementation of the rules (and a spoiled one fails);
// retime --independent records the independent check's time in
// independent_seconds and leaves verify_seconds alone.
func TestIndependent(t *testing.T) {
	dir := smallCorpus(t, 6)
	status, stdout, stderr := runCmd(t, "check", "--independent", "--dir", dir)
	if status != 0 || !strings.Contains(stdout, "rules     the independent implementation") || !strings.Contains(stdout, "verified  0*6=L") {
		t.Fatalf("check --independent: %d\n%s%s", status, stdout, stderr)
	}
	before, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if status, _, stderr := runCmd(t, "retime", "--independent", "--dir", dir, "--claim", "0*6=L", "--runs", "1"); status != 0 {
		t.Fatalf("retime --independent: %d %s", status, stderr)
	}
	after, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range after.Records {
		b := before.Records[i]
		switch {
		case r.VerifySeconds != b.VerifySeconds:
			t.Errorf("%s: verify time changed from %v to %v", r.Claim, b.VerifySeconds, r.VerifySeconds)
		case r.Claim.String() == "0*6=L" && r.IndependentSeconds <= 0:
			t.Errorf("%s: no independent time recorded", r.Claim)
		case r.Claim.String() != "0*6=L" && r.IndependentSeconds != b.IndependentSeconds:
			t.Errorf("%s: independent time changed, not asked to", r.Claim)
		}
	}
	spoil(t, filepath.Join(dir, corpus.CertsDir, after.Records[after.RecordOf(6, false)].FileName()))
	if status, stdout, _ := runCmd(t, "check", "--independent", "--dir", dir); status != 1 || !strings.Contains(stdout, "n = 6") {
		t.Errorf("check --independent of a spoiled certificate: %d\n%s", status, stdout)
	}
}
