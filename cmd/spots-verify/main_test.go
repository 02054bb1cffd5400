package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/sprouts"
)

func TestMain(m *testing.M) {
	cmdtest.ScriptMain(m, "spots-verify", runMain)
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return cmdtest.Run(t, run, append(args, "--no-progress")...)
}

// smallCert is the smallest certificate of the corpus.
var smallCert = filepath.Join("..", "..", "corpus", "certs", "de73f1d09b4181ec9d618d638d70757df26eecef038c5745c8bda9154c99a1b2.arrow")

// TestSignal: SIGINT or SIGTERM ends spots-verify at once with status 130
// and a word on stderr, here while it checks more certificates than its
// output pipe can hold the verdicts of: the test reads the first verdict
// (spots-verify is running, its handler installed), then reads no more,
// so spots-verify cannot finish before the signal.
func TestSignal(t *testing.T) {
	args := []string{"--no-progress"}
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

// TestNotRegular (F3, F5): a database or certificate that is a named pipe,
// a device (or a link to one) or a directory is refused at once, with a
// message naming it: reading it could block for ever or never end.
func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "db.spr")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.arrow")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--spr", fifo, "--claim", "0*8=L"}, fifo + ": a named pipe (FIFO), not a regular file"},
		{[]string{"--spr", "/dev/zero", "--claim", "0*10=W"}, "/dev/zero: a character device, not a regular file"},
		{[]string{"--spr", dir, "--claim", "0*10=W"}, dir + ": a directory, not a regular file"},
		{[]string{zero}, zero + " (a link to /dev/zero): a character device, not a regular file"},
		{[]string{fifo}, fifo + ": a named pipe (FIFO), not a regular file"},
	} {
		p := cmdtest.Start(t, nil, append([]string{"--no-progress"}, tc.args...)...)
		if status := p.Wait(t, 30*time.Second); status != 2 || !strings.Contains(p.Stdout.String(), tc.want) {
			t.Errorf("%v: status %d, stdout %q, want 2 and %q", tc.args, status, p.Stdout.String(), tc.want)
		}
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
	status := run([]string{"--no-progress", smallCert, second}, out, &stderr)
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

var spr = filepath.Join("..", "..", "testdata", "spots-databases", "pns_0x8.spr")

func TestDatabaseAndCertificates(t *testing.T) {
	if _, err := os.Stat(spr); err != nil {
		t.Fatalf("reference database (part of the repository): %v", err)
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

// TestHostileInputIsRefused: positions too large to expand are refused
// with exit 2 and a message naming the limit and the flag that raises it;
// raising the limit lets the check reach its verdict.
func TestHostileInputIsRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(claim string, entries ...string) string {
		c, err := format.ParseClaim(claim)
		if err != nil {
			t.Fatal(err)
		}
		cert := &format.Certificate{Claim: c, Game: sprouts.Game, Notation: sprouts.Notation, Producer: "test", Version: "1"}
		for _, e := range entries {
			cert.Entries = append(cert.Entries, format.Entry{Position: e})
		}
		path, err := format.WriteCertificate(dir, cert, format.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return path
	}
	db := filepath.Join(dir, "db.spr")
	if err := os.WriteFile(db, []byte(format.SPRHeader+"\n0 0\n0*2 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge := write("0*100000=W")
	tests := []struct {
		args   []string
		status int
		stdout string // a fragment of the output
	}{
		{[]string{huge}, 2, "REFUSED  " + huge + ": refused: claim (0*100000): 300000 lives, over the limit of 1000 on lives (raise it with --max-lives)"},
		{[]string{write("0=L", "0*100000")}, 2, "row 1 (0*100000): 300000 lives"},
		{[]string{write("0=L", "1.11.111.1111.11111.111111.1111111.11111111.111111111.1111111111.11111111111")}, 2, "(raise it with --max-moves)"},
		{[]string{"--spr", db, "--claim", "0*100000=W"}, 2, "(raise it with --max-lives)"},
		{[]string{"--max-lives", "-1", huge}, 2, "(raise it with --max-boundaries)"},
		{[]string{"--max-lives", "6000", "--max-boundaries", "2000", write("0*2000=W")}, 1, "INVALID"},
		{[]string{"--max-work", "100", write("0*2000=W")}, 2, "(raise it with --max-lives)"},
		{[]string{"--max-work", "100", "--spr", db, "--claim", "0*8=L"}, 2, "(raise it with --max-work)"},
	}
	for _, tt := range tests {
		status, stdout, stderr := runCmd(t, tt.args...)
		if status != tt.status || !strings.Contains(stdout, tt.stdout) || strings.Contains(stderr, "goroutine") {
			t.Errorf("%v: status %d, want %d and %q\n%s%s", tt.args, status, tt.status, tt.stdout, stdout, stderr)
		}
	}
	status, stdout, _ := runCmd(t, "--json", huge)
	var r report
	if err := json.Unmarshal([]byte(stdout), &r); status != 2 || err != nil || !r.Refused || r.Limit != "lives" || r.Valid {
		t.Errorf("--json: status %d: %s", status, stdout)
	}
	if status, _, stderr := runCmd(t, "--max-lives", "-2", huge); status != 2 || !strings.Contains(stderr, "--max-lives -2") {
		t.Errorf("--max-lives -2: status %d: %s", status, stderr)
	}
}

// TestHelpAndVersion: --help and --version go to standard output, exit 0;
// the usage after an error goes to standard error.
func TestHelpAndVersion(t *testing.T) {
	for _, tt := range []struct {
		args           []string
		status         int
		stdout, stderr string
	}{
		{[]string{"--help"}, 0, "usage: spots-verify", ""},
		{[]string{"-h"}, 0, "Exit status:", ""},
		{[]string{"--version"}, 0, "spots-verify ", ""},
		{nil, 2, "", "usage: spots-verify"},
	} {
		status, stdout, stderr := runCmd(t, tt.args...)
		if status != tt.status || !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) ||
			(tt.stdout == "") != (stdout == "") || (tt.stderr == "") != (stderr == "") {
			t.Errorf("%v: status %d, stdout %q, stderr %q", tt.args, status, stdout, stderr)
		}
	}
}
