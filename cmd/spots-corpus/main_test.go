package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/corpus"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if len(args) > 0 {
		args = append(args, "--no-progress")
	}
	status := run(context.Background(), args, &stdout, &stderr)
	return status, stdout.String(), stderr.String()
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
	if r3.N != 3 || r3.Outcome != "W" || r3.Grundy == nil || *r3.Grundy != 1 || len(r3.Certificates) != 2 ||
		r3.Certificates[1].Claim != "gn(0*3)=1" || r3.Certificates[1].Status != "verified" || r3.Literature.Who != "Conway" {
		t.Errorf("row 3: %s", lines[2])
	}
	var r63 rowJSON
	json.Unmarshal([]byte(lines[62]), &r63)
	if r63.Outcome != "?" || r63.Grundy != nil || r63.Conjecture != "W" || len(r63.Certificates) != 0 {
		t.Errorf("row 63: %s", lines[62])
	}
	var r33 rowJSON
	json.Unmarshal([]byte(lines[32]), &r33)
	if r33.Literature == nil || r33.Literature.Who != "GLOP" || r33.Literature.Year != "2010-2011" {
		t.Errorf("row 33: %s", lines[32])
	}

	status, stdout, _ = runCmd(t, "status", "--dir", dir)
	if status != 0 || !strings.HasPrefix(stdout, "n  ") || !strings.Contains(stdout, "gn(0*3)=1") || !strings.Contains(stdout, "verified") {
		t.Errorf("status: %d\n%s", status, stdout)
	}
	status, stdout, _ = runCmd(t, "status", "--no-verify", "--dir", dir)
	if status != 0 || !strings.Contains(stdout, "unchecked") {
		t.Errorf("status --no-verify: %d\n%s", status, stdout)
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
	if err := json.Unmarshal([]byte(strings.SplitN(stdout, "\n", 2)[0]), &j); status != 0 || err != nil || j.Claim != "0*5=W" || j.Algorithm != "pns" || j.Outcome != "W" {
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
	if status, _, stderr := runCmd(t, "add", "--solve", "14", "--timeout", "1ms", "--dir", dir); status != 1 || !strings.Contains(stderr, "not solved") {
		t.Errorf("add with a timeout: %d %q", status, stderr)
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
		{[]string{"add", "--solve", "5", "--out", "x"}, 2, "--out goes with --no-commit"},
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
