package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spots-dev/spots/internal/cmdtest"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return cmdtest.Run(t, func(args []string, stdout, stderr io.Writer) int {
		return run(context.Background(), args, stdout, stderr)
	}, args...)
}

func TestSolveLines(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		stdout string
		stderr string
	}{
		{[]string{"0*7", "0*9"}, 0, "0*7  L  (second player wins)\n0*9  W  (first player wins)\n", ""},
		{[]string{"--algorithm", "pns", "0*6"}, 0, "0*6  L  (second player wins)\n", ""},
		{[]string{"--nimber", "0*9"}, 0, "0*9  1  (Grundy value; first player wins)\n", ""},
		{[]string{"--nimber", "0*3+1a1a"}, 0, "0*3+1a1a  3  (Grundy value; first player wins)\n", ""},
		{[]string{"--max-iterations", "10", "0*12"}, 1, "0*12  unknown  (stopped after", ""},
		{[]string{"--timeout", "1ms", "0*14"}, 1, "0*14  unknown", ""},
		{[]string{"0*3", "0.A|0"}, 2, "", `uppercase letter A occurs once`},
		{[]string{}, 2, "", "no position given"},
		{[]string{"--algorithm", "mcts", "0*3"}, 2, "", `unknown --algorithm "mcts"`},
		{[]string{"--algorithm", "pdfpn", "--threads", "2", "0*7"}, 0, "0*7  L  (second player wins)\n", ""},
		{[]string{"--threads", "0", "0*3"}, 2, "", "--threads 0"},
		{[]string{"--capacity", "2", "0*3"}, 2, "", "--capacity 2 is too small"},
		{[]string{"--db-in", "/nonexistent/db.spr", "0*3"}, 2, "", "/nonexistent/db.spr"},
		{[]string{"--help"}, 0, "usage: spots-solve", ""},
		{[]string{"-h"}, 0, "usage: spots-solve", ""},
		{[]string{"--version"}, 0, "spots-solve ", ""},
		{[]string{"--bogus", "0*3"}, 2, "", "unknown flag: --bogus"},
		{[]string{"0*3+*1"}, 0, "0*3+*1  L  (second player wins)\n", ""},
		{[]string{"0*3+*0"}, 0, "0*3+*0  W  (first player wins)\n", ""},
		{[]string{"0*2+*1"}, 0, "0*2+*1  W  (first player wins)\n", ""},
		{[]string{"0*3+*x"}, 2, "", `"0*3+*x": the heap after "+*" must be a number`},
		{[]string{"--nimber", "0*3+*1"}, 2, "", "leave out the heap"},
		{[]string{"2AB.}AB.}]!"}, 0, "2AB.}AB.}]!  ", ""},
		{[]string{"0.]!"}, 2, "", `"0.]!": GLOP notation: land 1 must end with '}'`},
		{[]string{"--compute_nimber", "0*9"}, 0, "0*9  1  (Grundy value; first player wins)\n", ""},
		{[]string{"--algorithm", "pns-pdfpn", "--nimber", "0*3"}, 2, "", "the swarm solves outcomes"},
	}
	for _, tt := range tests {
		status, stdout, stderr := runCmd(t, append(tt.args, "--no-progress")...)
		if status != tt.status || !strings.HasPrefix(stdout, tt.stdout) || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("spots-solve %v: status %d, stdout %q, stderr %q; want %d, %q, %q",
				tt.args, status, stdout, stderr, tt.status, tt.stdout, tt.stderr)
		}
	}
}

func TestSolveJSON(t *testing.T) {
	status, stdout, _ := runCmd(t, "--json", "--no-progress", "0*8", "--nimber", "--algorithm", "dfpn")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%q: %v", stdout, err)
	}
	for _, k := range []string{"input", "canonical", "outcome", "nimber", "algorithm", "seconds", "iterations", "grundy_numbers", "tt_entries"} {
		if _, ok := r[k]; !ok {
			t.Errorf("no %q in %s", k, stdout)
		}
	}
	if r["outcome"] != "L" || r["nimber"] != 0.0 || r["algorithm"] != "dfpn" {
		t.Errorf("got %s", stdout)
	}
}

func TestDatabaseRoundTrip(t *testing.T) {
	dir := t.TempDir()
	db, stats := filepath.Join(dir, "db.spr"), filepath.Join(dir, "stats.csv")
	if status, _, stderr := runCmd(t, "--no-progress", "--algorithm", "dfpn", "--db-out", db, "--stats", stats, "0*8"); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data, err := os.ReadFile(db)
	if err != nil || !strings.HasPrefix(string(data), "[Positions+Nimber]\n") {
		t.Fatalf("database %q, %v", data, err)
	}
	csv, _ := os.ReadFile(stats)
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[1], "0*8,0*8,dfpn,L,,") {
		t.Errorf("stats %q", csv)
	}
	// A preloaded database proves the position without search.
	status, stdout, _ := runCmd(t, "--no-progress", "--json", "--db-in", db, "0*8")
	if status != 0 || !strings.Contains(stdout, `"iterations":0`) || !strings.Contains(stdout, `"outcome":"L"`) {
		t.Errorf("with --db-in: %d %s", status, stdout)
	}
	// Contradicting entries are refused, naming the line.
	bad := filepath.Join(dir, "bad.spr")
	os.WriteFile(bad, []byte("[Positions+Nimber]\n0*2 0\n0.0 1\n"), 0o644)
	if status, _, stderr := runCmd(t, "--no-progress", "--db-in", bad, "0*3"); status != 2 || !strings.Contains(stderr, "line 3") {
		t.Errorf("conflicting database: %d %q", status, stderr)
	}
	// Bad input writes no file.
	out := filepath.Join(dir, "none.spr")
	if status, _, _ := runCmd(t, "--no-progress", "--db-out", out, "0*3", "4"); status != 2 {
		t.Errorf("bad position: status %d", status)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a file was written for bad input: %v", err)
	}
}

func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	if status, _, stderr := runCmd(t, "--no-progress", "--cpuprofile", path, "0*8"); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	// pprof files are gzip-compressed protocol buffers.
	if data, err := os.ReadFile(path); err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("profile not written as gzip: %v, %d bytes", err, len(data))
	}
	if status, _, stderr := runCmd(t, "--cpuprofile", "/nonexistent/cpu.prof", "0*3"); status != 2 || !strings.Contains(stderr, "--cpuprofile /nonexistent/cpu.prof") {
		t.Errorf("unwritable profile: status %d: %s", status, stderr)
	}
}

// TestBadOptions gives each option a value that cannot be honoured: each
// is a usage error (exit 2) naming the flag and its value, and nothing is
// allocated or solved.
func TestBadOptions(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"--capacity", "9223372036854775807", "0*3"}, "--capacity 9223372036854775807: "},
		{[]string{"--capacity", "1000000000000", "0*3"}, "more than this machine's"},
		{[]string{"--capacity", "0", "0*3"}, "--capacity 0 is too small"},
		{[]string{"--capacity", "-5", "0*3"}, "--capacity -5 is too small"},
		{[]string{"--threads", "-1", "0*3"}, "--threads -1"},
		{[]string{"--threads", "65", "0*3"}, "--threads 65"},
		{[]string{"--timeout", "0", "0*3"}, "--timeout 0"},
		{[]string{"--timeout", "-1s", "0*3"}, "--timeout -1s is negative"},
		{[]string{"--max-iterations", "0", "0*3"}, "--max-iterations 0"},
		{[]string{"--algorithm", "swarm", "--grouping", "0", "0*3"}, "--grouping 0"},
		{[]string{"--algorithm", "swarm", "--grouping", "65536", "0*3"}, "--grouping 65536"},
		{[]string{"--algorithm", "swarm", "--iterations", "0", "0*3"}, "--iterations 0"},
		{[]string{"--algorithm", "swarm", "--updates", "0", "0*3"}, "--updates 0"},
		{[]string{"--algorithm", "swarm", "--lease", "0s", "0*3"}, "--lease 0s"},
		{[]string{"--algorithm", "swarm", "--lease", "-3s", "0*3"}, "--lease -3s"},
		{[]string{"--algorithm", "swarm", "--workers-local", "0", "0*3"}, "--workers-local 0"},
		{[]string{"--algorithm", "swarm", "--workers-local", "100000", "0*3"}, "--workers-local 100000"},
		{[]string{"worker", "--join", "127.0.0.1:1", "--capacity", "0"}, "--capacity 0 is too small"},
		{[]string{"worker", "--join", "127.0.0.1:1", "--capacity", "9223372036854775807"}, "--capacity 9223372036854775807: "},
		{[]string{"worker", "--join", "127.0.0.1:1", "--capacity", "100000000000", "--grouping", "2"}, "× 2 tables"},
		{[]string{"worker", "--join", "127.0.0.1:1", "--threads", "0"}, "--threads 0"},
		{[]string{"worker", "--join", "127.0.0.1:1", "--grouping", "0"}, "--grouping 0"},
		{[]string{"worker", "--join", "127.0.0.1:1", "--grouping", "65536"}, "--grouping 65536"},
		{[]string{"worker", "--join", "127.0.0.1:1", "--wait", "0s"}, "--wait 0s"},
		{[]string{"--algorithm", "pns", "--root-moves", "0*3"}, "--root-moves counts the iterations of dfpn and pdfpn, not of pns"},
		{[]string{"--algorithm", "swarm", "--root-moves", "0*3"}, "not of swarm"},
	}
	for _, tt := range tests {
		status, stdout, stderr := runCmd(t, append(tt.args, "--no-progress")...)
		if tt.args[0] == "worker" {
			status, stdout, stderr = runCmd(t, tt.args...)
		}
		if status != 2 || stdout != "" || !strings.Contains(stderr, tt.stderr) || strings.Contains(stderr, "panic") {
			t.Errorf("spots-solve %v: status %d, stdout %q, stderr %q; want 2 and %q", tt.args, status, stdout, stderr, tt.stderr)
		}
	}
}

// TestHelpFlags checks that --help lists at most 25 flags, and the swarm
// master's page (after --algorithm swarm) and a worker's at most 30; none
// lists a flag that belongs to another.
func TestHelpFlags(t *testing.T) {
	for _, tc := range []struct {
		args          []string
		want, without string
		most          int
	}{
		{[]string{"--help"}, "--nimber", "--listen", 25},
		{[]string{"--algorithm", "swarm", "--help"}, "--listen", "--nimber", 30},
		{[]string{"--algorithm", "pns-pdfpn", "--help"}, "--workers-local", "--threads", 30},
		{[]string{"worker", "--help"}, "--join", "--listen", 30},
	} {
		status, stdout, _ := runCmd(t, tc.args...)
		n := 0
		_, list, _ := strings.Cut(stdout, "\nFlags:\n")
		for _, line := range strings.Split(list, "\n") {
			if f := strings.Fields(line); len(f) > 0 && (strings.HasPrefix(f[0], "--") || f[0] == "-h,") {
				n++
			}
		}
		if status != 0 || n > tc.most || !strings.Contains(stdout, tc.want+" ") || strings.Contains(stdout, tc.without+" ") {
			t.Errorf("spots-solve %v: status %d, %d flags, want 0, at most %d, with %s and without %s:\n%s", tc.args, status, n, tc.most, tc.want, tc.without, stdout)
		}
	}
}
