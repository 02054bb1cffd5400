package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
	"github.com/spots-dev/spots/verify/verifytest"
)

// solveJSON runs spots-solve with --json and returns its status and the
// one object it printed.
func solveJSON(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	status, stdout, stderr := runCmd(t, append([]string{"--json", "--no-progress"}, args...)...)
	var r map[string]any
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("spots-solve %v: %q: %v (stderr %s)", args, stdout, err, stderr)
	}
	return status, r, stderr
}

// TestCertReproducible: --cert without --algorithm uses dfpn, so two runs
// give the same certificate at the same address; the JSON names the claim
// and the address.
func TestCertReproducible(t *testing.T) {
	var addrs []any
	for range 2 {
		status, r, stderr := solveJSON(t, "--cert", t.TempDir(), "0*8")
		if status != 0 {
			t.Fatalf("status %d: %s", status, stderr)
		}
		if r["algorithm"] != "dfpn" || r["claim"] != "0*8=L" || r["input"] != "0*8" {
			t.Errorf("got %v", r)
		}
		addrs = append(addrs, r["address"])
	}
	if addrs[0] != addrs[1] || addrs[0] == nil {
		t.Errorf("two --cert runs of 0*8 give the addresses %v and %v", addrs[0], addrs[1])
	}
	// An explicit parallel search is honoured, with a note.
	status, r, stderr := solveJSON(t, "--cert", t.TempDir(), "--algorithm", "pdfpn", "--threads", "2", "0*6")
	if status != 0 || r["algorithm"] != "pdfpn" || !strings.Contains(stderr, "will differ from run to run") {
		t.Errorf("--algorithm pdfpn --cert: status %d, %v, stderr %q", status, r, stderr)
	}
}

// TestRootMoves: --root-moves lists each move of the position the search
// entered with the iterations below it, most first, in JSON and in the
// human output; together with the root's own entry they are all the
// iterations. 0*7 is lost: every one of its five moves is answered.
func TestRootMoves(t *testing.T) {
	status, r, stderr := solveJSON(t, "--algorithm", "dfpn", "--root-moves", "0*7")
	if status != 0 || r["outcome"] != "L" {
		t.Fatalf("status %d, %v, %s", status, r, stderr)
	}
	moves, _ := r["root_moves"].([]any)
	var sum, last float64
	for i, m := range moves {
		m := m.(map[string]any)
		if _, err := sprouts.Parse(m["position"].(string)); err != nil {
			t.Errorf("move %d: %v", i, err)
		}
		n := m["iterations"].(float64)
		if i > 0 && n > last {
			t.Errorf("move %d (%v) has more iterations than the one before", i, m)
		}
		sum, last = sum+n, n
	}
	if len(moves) != len(sprouts.MustParse("0*7").Children()) || sum+1 != r["iterations"].(float64) {
		t.Errorf("%d moves, %g iterations below them, %v in all; want every move of 0*7, and all but the root's own", len(moves), sum, r["iterations"])
	}
	status, out, _ := runCmd(t, "--no-progress", "--algorithm", "dfpn", "--root-moves", "0*7")
	if status != 0 || strings.Count(out, "iterations (") != len(moves) || !strings.Contains(out, "below 0*5.1a1a") {
		t.Errorf("status %d, output %q", status, out)
	}
}

// TestCertHeap: POS+*N is solved as the couple and certified as such.
func TestCertHeap(t *testing.T) {
	dir := t.TempDir()
	started := time.Now().Add(-time.Second) // RFC 3339 in the file: whole seconds at worst
	status, r, stderr := solveJSON(t, "--cert", dir, "0*3+*1")
	if status != 0 || r["claim"] != "0*3+*1=L" || r["canonical"] != "0*3 + *1" {
		t.Fatalf("status %d, %v, %s", status, r, stderr)
	}
	verifytest.Certificate(t, r["certificate"].(string))
	// Its provenance: this build's version and the time it was made.
	c, err := format.ReadCertificate(r["certificate"].(string))
	if err != nil {
		t.Fatal(err)
	}
	if c.Version != certify.Version || c.Created.Before(started) {
		t.Errorf("certificate version %q, created %v; want %q and after %v", c.Version, c.Created, certify.Version, started)
	}
}

// TestAddressIgnoresProvenance: the producer's version and the creation
// time are outside the content address.
func TestAddressIgnoresProvenance(t *testing.T) {
	db := solve.NewNimberDB()
	root := sprouts.MustParse("0*5")
	s := solve.NewDFPN(sprouts.Rules{}, db, solve.Options{Capacity: 1 << 12})
	g, ok := s.Grundy(t.Context(), root)
	if !ok {
		t.Fatal("0*5 not solved")
	}
	claim, err := certify.Claim(root, 0, solve.Win, &g)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v string) { certify.Version = v }(certify.Version)
	var addrs []string
	for _, tc := range []struct {
		version string
		created time.Time
	}{
		{"dev", time.Time{}},
		{"v1.2.3 0123456789ab", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		{"(devel)", time.Now()},
	} {
		certify.Version = tc.version
		c, err := certify.Build(db, claim, verify.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Version != tc.version || c.Created.IsZero() {
			t.Errorf("certificate version %q created %v, want %q and now", c.Version, c.Created, tc.version)
		}
		c.Created = tc.created
		addrs = append(addrs, c.Address())
	}
	for _, a := range addrs[1:] {
		if a != addrs[0] {
			t.Errorf("addresses %v differ with version and creation time only", addrs)
		}
	}
}

// TestUnknownReason: an unknown result says why.
func TestUnknownReason(t *testing.T) {
	for _, tt := range []struct {
		args   []string
		reason string
	}{
		{[]string{"--max-iterations", "10", "0*12"}, "iteration limit"},
		{[]string{"--timeout", "1ms", "0*14"}, "timeout"},
	} {
		status, r, _ := solveJSON(t, tt.args...)
		if status != 1 || r["outcome"] != "unknown" || r["reason"] != tt.reason {
			t.Errorf("%v: status %d, %v; want 1 and reason %q", tt.args, status, r, tt.reason)
		}
	}
}

// TestStatsAppend: --stats appends rows, with the header once, the
// arguments and the time; SPOTS's option names are accepted.
func TestStatsAppend(t *testing.T) {
	dir := t.TempDir()
	stats, db := filepath.Join(dir, "stats.csv"), filepath.Join(dir, "db.spr")
	if status, _, stderr := runCmd(t, "--no-progress", "--stats_path", stats, "--output_database", db, "0*5", "0*6"); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	if status, _, stderr := runCmd(t, "--no-progress", "--stats", stats, "--input_database", db, "--compute_nimber", "0*6"); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 4 || strings.Join(statsHeader, ",") != lines[0] {
		t.Fatalf("stats:\n%s", data)
	}
	for i, want := range []string{"0*5,0*5,", "0*6,0*6,", "0*6,0*6,"} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("row %d %q, want %q…", i+1, lines[i+1], want)
		}
	}
	if !strings.Contains(lines[3], ",--no-progress --stats "+stats+" --input_database "+db+" --compute_nimber 0*6,") || !strings.Contains(lines[3], ",0,") {
		t.Errorf("row 3 %q lacks the arguments or the nimber", lines[3])
	}
	// A file with other columns is not appended to.
	other := filepath.Join(dir, "other.csv")
	os.WriteFile(other, []byte("a,b\n1,2\n"), 0o644)
	if status, _, stderr := runCmd(t, "--no-progress", "--stats", other, "0*3"); status != 2 || !strings.Contains(stderr, "not appending") {
		t.Errorf("other header: status %d, %s", status, stderr)
	}
	if data, _ := os.ReadFile(other); string(data) != "a,b\n1,2\n" {
		t.Errorf("the other file was changed: %q", data)
	}
}

// TestInterrupt sends SIGINT (and SIGTERM) to a real spots-solve while it
// solves the second of three positions: it stops, prints the first, says
// the second is unknown because interrupted (or, when the signal came
// between the two, never starts it), does not start the third, writes
// --stats whole and exits 130.
func TestInterrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			stats := filepath.Join(dir, "stats.csv")
			p := start(t, testKey, "--no-progress", "--algorithm", "dfpn", "--stats", stats, "0*6", "0*14", "0*7")
			deadline := time.Now().Add(30 * time.Second)
			for !strings.Contains(p.Stdout.String(), "0*6  L") {
				if time.Now().After(deadline) {
					t.Fatalf("0*6 not solved after 30 s: %q", p.Stdout.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			// 0*14 takes seconds: let it start. On a loaded machine the
			// signal may still come before it does, and then 0*14 is, rightly,
			// not started at all; either way 0*7 must not be.
			time.Sleep(200 * time.Millisecond)
			p.Cmd.Process.Signal(sig)
			if status := p.Wait(t, 30*time.Second); status != statusInterrupted {
				t.Fatalf("exit %d, want %d\n%s", status, statusInterrupted, p.Stderr.String())
			}
			out := p.Stdout.String()
			started := strings.Contains(out, "0*14")
			if started && (!strings.Contains(out, "0*14  unknown") || !strings.Contains(out, "interrupted")) || strings.Contains(out, "0*7") {
				t.Errorf("stdout %q", out)
			}
			if !strings.Contains(p.Stderr.String(), "spots-solve: interrupted") {
				t.Errorf("stderr %q", p.Stderr.String())
			}
			rows := 2 // the header and 0*6
			if started {
				rows = 3
			}
			data, _ := os.ReadFile(stats)
			if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != rows {
				t.Errorf("stats %q, want %d lines", data, rows)
			}
			if files, _ := os.ReadDir(dir); len(files) != 1 {
				t.Errorf("%d files in the directory, want only stats.csv", len(files))
			}
		})
	}
}

// TestWorkerWaits: a worker whose master never comes says so and gives
// up after --wait.
func TestWorkerWaits(t *testing.T) {
	w := start(t, testKey, "worker", "--join", freeAddr(t), "--wait", "1s")
	if status := w.Wait(t, 30*time.Second); status != 1 {
		t.Fatalf("exit %d, want 1", status)
	}
	if e := w.Stderr.String(); !strings.Contains(e, "waiting for a master at") || !strings.Contains(e, "no master at") {
		t.Errorf("stderr %q", e)
	}
}

// TestWorkerGivesUpWhenMasterIsGone: a worker whose master dies mid-solve
// looks for it again for --wait, then exits 1. (It used to look forever:
// the group retried the link's "no master" like a failed exchange.)
func TestWorkerGivesUpWhenMasterIsGone(t *testing.T) {
	m, _, gossip := master(t, "0*14")
	w := start(t, testKey, "worker", "--join", gossip, "--wait", "2s")
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(w.Stderr.String(), "job ") {
		if time.Now().After(deadline) {
			t.Fatalf("no job: %s", w.Stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	m.Cmd.Process.Signal(syscall.SIGKILL)
	m.Wait(t, 10*time.Second)
	if status := w.Wait(t, time.Minute); status != 1 {
		t.Fatalf("exit %d, want 1: %s", status, w.Stderr.String())
	}
	if e := w.Stderr.String(); !strings.Contains(e, "no master at "+gossip) {
		t.Errorf("stderr %q", e)
	}
}

// TestSwarmLocalWorkersWithoutKey: a master whose only workers are its own
// makes a key for them, and they say what they do.
func TestSwarmLocalWorkersWithoutKey(t *testing.T) {
	listen, gossip := freeAddr(t), freeAddr(t)
	m := start(t, "", "--algorithm", "swarm", "--listen", listen, "--gossip", gossip, "--workers-local", "1", "--no-progress", "0*6")
	if status := m.Wait(t, 2*time.Minute); status != 0 {
		t.Fatalf("master exit %d: %s", status, m.Stderr.String())
	}
	if !strings.HasPrefix(m.Stdout.String(), "0*6  L") {
		t.Errorf("stdout %q", m.Stdout.String())
	}
	e := m.Stderr.String()
	for _, want := range []string{"waiting for a master at " + gossip, "joined the swarm", "job "} {
		if !strings.Contains(e, want) {
			t.Errorf("stderr lacks %q:\n%s", want, e)
		}
	}
}

// TestWorkerHelp: the worker's --help and --version go to standard output.
func TestWorkerHelp(t *testing.T) {
	for _, tt := range []struct{ arg, want string }{
		{"--help", "usage: spots-solve worker"},
		{"--version", "spots-solve worker "},
	} {
		status, stdout, stderr := runCmd(t, "worker", tt.arg)
		if status != 0 || !strings.HasPrefix(stdout, tt.want) || stderr != "" {
			t.Errorf("worker %s: status %d, stdout %q, stderr %q", tt.arg, status, stdout, stderr)
		}
	}
}

// TestDBInGLOP: --db-in reads positions in GLOP's notation too.
func TestDBInGLOP(t *testing.T) {
	db := filepath.Join(t.TempDir(), "glop.spr")
	os.WriteFile(db, []byte("[Positions+Nimber]\n0*2.}]! 0\n"), 0o644)
	status, r, stderr := solveJSON(t, "--db-in", db, "0*2")
	if status != 0 || r["outcome"] != "L" || r["iterations"] != 0.0 {
		t.Errorf("status %d, %v, %s", status, r, stderr)
	}
}

// TestStateResume stops a solve by its iteration limit, which saves it
// into --state, and continues it with --resume to a verified
// certificate, in fewer iterations than the solve takes alone. A
// checkpoint of another position, and --state where it cannot apply, are
// refused.
func TestStateResume(t *testing.T) {
	_, whole, _ := solveJSON(t, "--algorithm", "dfpn", "0*11")
	total := whole["iterations"].(float64)
	state := t.TempDir()
	limit := strconv.Itoa(int(total / 2))
	status, r, stderr := solveJSON(t, "--algorithm", "dfpn", "--state", state, "--max-iterations", limit, "0*11")
	if status != 1 || r["outcome"] != "unknown" || !strings.Contains(stderr, "saved the search to "+state) {
		t.Fatalf("first half: status %d, %v, stderr %q", status, r, stderr)
	}
	status, r, stderr = solveJSON(t, "--algorithm", "dfpn", "--resume", state, "--cert", t.TempDir(), "0*11")
	if status != 0 || r["outcome"] != whole["outcome"] || r["claim"] != "0*11=W" {
		t.Fatalf("resumed: status %d, %v, stderr %q", status, r, stderr)
	}
	if !strings.Contains(stderr, "resumed 0*11 from "+state) {
		t.Errorf("resumed without saying so: %q", stderr)
	}
	if rest := r["iterations"].(float64); rest >= total {
		t.Errorf("the resumed solve took %v iterations, the whole solve %v", rest, total)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--resume", state, "0*12"}, "holds a search of 0*11"},
		{[]string{"--resume", state, "--nimber", "0*11"}, "holds a search of 0*11"},
		{[]string{"--resume", t.TempDir(), "0*11"}, "no checkpoint"},
		{[]string{"--state", state, "--algorithm", "pns", "0*11"}, "one dfpn or pdfpn search"},
		{[]string{"--state", state, "0*5", "0*6"}, "one dfpn or pdfpn search"},
		{[]string{"--state", state, "--state-every", "0s", "0*5"}, "--state-every 0s"},
	} {
		status, _, stderr := runCmd(t, append([]string{"--no-progress"}, tc.args...)...)
		if status != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, stderr %q, want 2 and %q", tc.args, status, stderr, tc.want)
		}
	}
}
