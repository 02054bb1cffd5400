package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	status := run(append(args, "--no-progress"), &stdout, &stderr)
	return status, stdout.String(), stderr.String()
}

var spr = filepath.Join("..", "..", "..", "shared", "testdata", "spots-databases", "pns_0x8.spr")

func TestDatabaseAndCertificates(t *testing.T) {
	if _, err := os.Stat(spr); err != nil {
		t.Skipf("reference databases not available: %v", err)
	}
	dir := t.TempDir()
	status, stdout, stderr := runCmd(t, "--spr", spr, "--claim", "0.0.0.0.0.0.0.0=L", "--convert", dir)
	if status != 0 || !strings.HasPrefix(stdout, "VALID    0*8=L  ") || !strings.Contains(stdout, "written as ") {
		t.Fatalf("status %d\n%s%s", status, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.arrow"))
	if len(files) != 1 {
		t.Fatalf("%d certificates written", len(files))
	}
	status, stdout, _ = runCmd(t, "--json", files[0])
	var r report
	if err := json.Unmarshal([]byte(stdout), &r); status != 0 || err != nil || !r.Valid || r.Claim != "0*8=L" || r.Entries == 0 {
		t.Fatalf("status %d: %s", status, stdout)
	}
	// The opposite claim: invalid, exit 1.
	if status, stdout, _ := runCmd(t, "--spr", spr, "--claim", "0*8=W"); status != 1 || !strings.HasPrefix(stdout, "INVALID") {
		t.Errorf("opposite claim: %d %s", status, stdout)
	}
	// A damaged copy: invalid, exit 1; with the valid file as well, still 1.
	data, _ := os.ReadFile(files[0])
	bad := filepath.Join(dir, "bad.arrow")
	os.WriteFile(bad, data[:len(data)/2], 0o644)
	if status, stdout, _ := runCmd(t, files[0], bad); status != 1 || !strings.Contains(stdout, "INVALID  "+bad) {
		t.Errorf("damaged file: %d %s", status, stdout)
	}
	// A missing file: exit 2.
	if status, stdout, _ := runCmd(t, files[0], filepath.Join(dir, "none.arrow")); status != 2 || !strings.Contains(stdout, "UNREADABLE") {
		t.Errorf("missing file: %d %s", status, stdout)
	}
}

func TestUsage(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{nil, "nothing to check"},
		{[]string{"--spr", "x.spr"}, "--spr needs --claim"},
		{[]string{"--claim", "0*8=L", "a.arrow"}, "--claim and --convert go with --spr"},
		{[]string{"--spr", "x.spr", "--claim", "0*8=X"}, "outcome must be"},
		{[]string{"--spr", "x.spr", "--claim", "0*8x=L"}, "must be followed by a separator"},
		{[]string{"--frobnicate"}, "unknown flag"},
	}
	for _, tt := range tests {
		if status, _, stderr := runCmd(t, tt.args...); status != 2 || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: %d %q, want 2 and %q", tt.args, status, stderr, tt.stderr)
		}
	}
	if status, _, _ := runCmd(t, "--spr", "/nonexistent.spr", "--claim", "0*8=L"); status != 2 {
		t.Errorf("missing database: %d", status)
	}
}
