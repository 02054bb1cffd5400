package format

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// nodeSummary is what testdata/node/read.mjs prints about a certificate.
type nodeSummary struct {
	Rows          int     `json:"rows"`
	Batches       int     `json:"batches"`
	Claim         string  `json:"claim"`
	FirstPosition *string `json:"firstPosition"`
	GrundySum     int64   `json:"grundySum"`
	ReachItems    int64   `json:"reachItems"`
	WinSum        int64   `json:"winSum"`
}

// TestNodeReadsCertificate proves that another Arrow implementation, Arrow
// JS under node, reads our files: zstd bodies, several batches, metadata
// and list columns. It installs the packages pinned by
// testdata/node/package-lock.json (npm ci) into a temporary directory, never
// into the source tree, and skips, saying why, where node or npm is not
// installed or the npm registry cannot be reached.
func TestNodeReadsCertificate(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not installed (%v), so no non-Go Arrow reader can be tried", err)
	}
	dir := installNodePackages(t, filepath.Join("testdata", "node"))

	rng := rand.New(rand.NewPCG(3, 4))
	c := randomCert(rng, 1000)
	c.Claim = Claim{Root: "0*12", Kind: ClaimWin, N: 3}
	path, err := WriteCertificate(t.TempDir(), c, WriteOptions{BatchRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "read.mjs", path)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node read.mjs: %v\n%s", err, stderr(err))
	}
	var got nodeSummary
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	if want := summarize(c); !sameSummary(got, want) {
		t.Errorf("node read %+v, want %+v", got, want)
	}
	if got.Batches != 10 {
		t.Errorf("node read %d batches, want 10", got.Batches)
	}
}

// nodeFiles are the files of testdata/node that the reader needs.
var nodeFiles = []string{"package.json", "package-lock.json", "read.mjs"}

// installNodePackages copies the reader in src into a temporary directory,
// runs npm ci there and returns the directory. It skips the test when npm
// is not installed or its registry does not answer (npm ping).
func installNodePackages(t *testing.T, src string) string {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed (%v), so Arrow JS cannot be installed", err)
	}
	dir := t.TempDir()
	for _, name := range nodeFiles {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatalf("the node reader: %v", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	npmIn := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = dir
		return cmd.CombinedOutput()
	}
	// The cache may hold the packages; otherwise the registry must answer.
	if _, err := npmIn("ci", "--offline", "--no-audit", "--no-fund"); err == nil {
		return dir
	}
	if out, err := npmIn("ping"); err != nil {
		t.Skipf("the npm registry does not answer, so Arrow JS cannot be installed: npm ping: %v\n%s", err, out)
	}
	if out, err := npmIn("ci", "--prefer-offline", "--no-audit", "--no-fund"); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return dir
}

// summarize computes what read.mjs should print about c.
func summarize(c *Certificate) nodeSummary {
	s := nodeSummary{Rows: len(c.Entries), Claim: c.Claim.String()}
	if len(c.Entries) > 0 {
		s.FirstPosition = &c.Entries[0].Position
	}
	for _, e := range c.Entries {
		s.GrundySum += int64(e.Grundy)
		s.ReachItems += int64(len(e.Reach))
		for _, w := range e.Win {
			s.WinSum += int64(w)
		}
	}
	return s
}

func sameSummary(a, b nodeSummary) bool {
	if (a.FirstPosition == nil) != (b.FirstPosition == nil) || a.FirstPosition != nil && *a.FirstPosition != *b.FirstPosition {
		return false
	}
	a.FirstPosition, b.FirstPosition, a.Batches, b.Batches = nil, nil, 0, 0
	return a == b
}

func stderr(err error) []byte {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.Stderr
	}
	return nil
}
