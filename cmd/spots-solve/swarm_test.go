package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
	"github.com/spots-dev/spots/verify/verifytest"
)

// The swarm tests run real processes on 127.0.0.1: this test binary,
// started again with SPOTS_TEST_MAIN=1, behaves as spots-solve (and so do
// the workers a master starts with --workers-local). Started with
// SPOTS_TEST_LIE_EVERY=k too, its worker lies (lyingLink): the test
// binary alone can make a worker lie, not spots-solve.
func TestMain(m *testing.M) {
	if k, err := strconv.Atoi(os.Getenv(lieEveryEnv)); err == nil && k > 0 {
		wrapLink = func(l swarm.Link) swarm.Link { return &lyingLink{Link: l, every: k} }
	}
	cmdtest.ScriptMain(m, "spots-solve", runMain)
}

// lieEveryEnv makes the worker of a process of the test binary lie.
const lieEveryEnv = "SPOTS_TEST_LIE_EVERY"

// lyingLink is the link of a lying worker: every k-th Grundy value of at
// least 1 that it sends is sent one less.
type lyingLink struct {
	swarm.Link
	every, n int
}

func (l *lyingLink) Exchange(ctx context.Context, req swarm.ExchangeRequest) (swarm.ExchangeReply, error) {
	if len(req.Nimbers) > 0 {
		req.Nimbers = slices.Clone(req.Nimbers)
		for i := range req.Nimbers {
			if req.Nimbers[i].G > 0 {
				if l.n++; l.n%l.every == 0 {
					req.Nimbers[i].G--
				}
			}
		}
	}
	return l.Link.Exchange(ctx, req)
}

const testKey = "swarm-test-key"

func start(t *testing.T, key string, args ...string) *cmdtest.Process {
	t.Helper()
	return cmdtest.Start(t, []string{"SPOTS_SWARM_KEY=" + key}, args...)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	addr, err := cmdtest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// master starts a master on free ports and returns it with its gossip
// address.
func master(t *testing.T, extra ...string) (*cmdtest.Process, string, string) {
	listen, gossip := freeAddr(t), freeAddr(t)
	args := append([]string{"--algorithm", "swarm", "--listen", listen, "--gossip", gossip, "--lease", "4s"}, extra...)
	return start(t, testKey, args...), listen, gossip
}

func worker(t *testing.T, gossip, key string) *cmdtest.Process {
	return start(t, key, "worker", "--join", gossip)
}

// solvedWithCertificate checks the master's result line and certificate.
func solvedWithCertificate(t *testing.T, p *cmdtest.Process, certs, want string) {
	t.Helper()
	if !strings.HasPrefix(p.Stdout.String(), want) {
		t.Fatalf("master printed %q, want %q\nstderr: %s", p.Stdout.String(), want, p.Stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(certs, "*.arrow"))
	if len(files) != 1 {
		t.Fatalf("%d certificates in %s", len(files), certs)
	}
	verifytest.Certificate(t, files[0])
}

// waitForJobs waits until every worker has said that it runs a job.
func waitForJobs(t *testing.T, ws ...*cmdtest.Process) {
	t.Helper()
	waitFor(t, time.Minute, "a job on every worker", func() bool {
		for _, w := range ws {
			if !strings.Contains(w.Stderr.String(), "job ") {
				return false
			}
		}
		return true
	}, ws...)
}

// TestSwarmSurvivesKilledWorker: a worker killed (SIGKILL) once every
// worker has jobs loses them to the others; the master ends with the
// right, verified answer and the other workers exit 0.
func TestSwarmSurvivesKilledWorker(t *testing.T) {
	certs := t.TempDir()
	m, _, gossip := master(t, "--cert", certs, "--iterations", "2000", "0*12")
	var ws []*cmdtest.Process
	for range 3 {
		ws = append(ws, worker(t, gossip, testKey))
	}
	waitForJobs(t, ws...)
	ws[1].Cmd.Process.Signal(syscall.SIGKILL)
	if status := m.Wait(t, 3*time.Minute); status != 0 {
		t.Fatalf("master exit %d: %s", status, m.Stderr.String())
	}
	solvedWithCertificate(t, m, certs, "0*12  L  ")
	for i, w := range ws {
		if i != 1 {
			if status := w.Wait(t, 30*time.Second); status != 0 {
				t.Errorf("worker %d exit %d: %s", i, status, w.Stderr.String())
			}
		}
	}
}

// TestSwarmSurvivesHungWorker: a worker stopped (SIGSTOP) while it runs
// jobs keeps its sockets and answers nothing; its lease runs out and its
// jobs move on.
func TestSwarmSurvivesHungWorker(t *testing.T) {
	certs := t.TempDir()
	m, _, gossip := master(t, "--cert", certs, "0*12")
	a, b := worker(t, gossip, testKey), worker(t, gossip, testKey)
	waitForJobs(t, a, b)
	// A hung process keeps its sockets open but answers nothing: its lease
	// runs out (and the gossip declares it dead), so its jobs move on.
	b.Cmd.Process.Signal(syscall.SIGSTOP)
	if status := m.Wait(t, 3*time.Minute); status != 0 {
		t.Fatalf("master exit %d: %s", status, m.Stderr.String())
	}
	solvedWithCertificate(t, m, certs, "0*12  L  ")
	a.Wait(t, 30*time.Second)
	b.Cmd.Process.Signal(syscall.SIGKILL)
}

func TestSwarmSurvivesMasterRestart(t *testing.T) {
	state, certs := t.TempDir(), t.TempDir()
	listen, gossip := freeAddr(t), freeAddr(t)
	args := []string{"--algorithm", "swarm", "--listen", listen, "--gossip", gossip, "--lease", "4s", "--state", state}
	m1 := start(t, testKey, append(args, "0*12")...)
	var ws []*cmdtest.Process
	for range 2 {
		ws = append(ws, worker(t, gossip, testKey))
	}
	// Wait for a saved state, then crash the master.
	waitFor(t, time.Minute, "a saved state", func() bool { return exists(filepath.Join(state, "state.json")) }, m1)
	m1.Cmd.Process.Signal(syscall.SIGKILL)
	m1.Wait(t, 10*time.Second)
	saved, _ := os.ReadFile(filepath.Join(state, "nimbers.spr"))
	before := strings.Count(string(saved), "\n") - 1
	firstRun := savedRun(t, state)
	m2 := start(t, testKey, append(args, "--resume", state, "--cert", certs, "0*12")...)
	if status := m2.Wait(t, 3*time.Minute); status != 0 {
		t.Fatalf("resumed master exit %d: %s", status, m2.Stderr.String())
	}
	solvedWithCertificate(t, m2, certs, "0*12  L  ")
	if !strings.Contains(m2.Stderr.String(), fmt.Sprintf("resumed with %d Grundy values", before)) || before == 0 {
		t.Errorf("saved %d values; resumed master said: %s", before, m2.Stderr.String())
	}
	// The resumed master runs under a run of its own (issue 43, F8: what
	// was signed for the first one is refused), and says so.
	if second := savedRun(t, state); firstRun == "" || second == firstRun ||
		!strings.Contains(m2.Stderr.String(), "requests signed for the saved run "+firstRun+" are refused") {
		t.Errorf("runs %q then %q; the resumed master said: %s", firstRun, second, m2.Stderr.String())
	}
	for i, w := range ws {
		if status := w.Wait(t, 30*time.Second); status != 0 {
			t.Errorf("worker %d exit %d: %s", i, status, w.Stderr.String())
		}
	}
}

// savedRun returns the run of the master that saved the state in dir.
func savedRun(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st savedState
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st.Run
}

// TestSwarmLyingWorker runs a swarm in which one worker sends wrong Grundy
// values (a process of the test binary with a lyingLink): the master
// finds them, bans the liar and ends with the right, verified answer; the
// values it saves with --state are all right.
func TestSwarmLyingWorker(t *testing.T) {
	certs, state := t.TempDir(), t.TempDir()
	m, _, gossip := master(t, "--cert", certs, "--state", state, "--iterations", "500", "--updates", "500", "--progress", "none", "0*11")
	liar := cmdtest.Start(t, []string{"SPOTS_SWARM_KEY=" + testKey, lieEveryEnv + "=2"}, "worker", "--join", gossip)
	honest := []*cmdtest.Process{worker(t, gossip, testKey), worker(t, gossip, testKey)}
	if status := m.Wait(t, 3*time.Minute); status != 0 {
		t.Fatalf("master exit %d: %s", status, m.Stderr.String())
	}
	solvedWithCertificate(t, m, certs, "0*11  W  ")
	caught := strings.Contains(m.Stderr.String(), "banned")
	t.Logf("master: %s", m.Stderr.String())
	if status := liar.Wait(t, 30*time.Second); caught && (status != 1 || !strings.Contains(liar.Stderr.String(), "banned")) {
		t.Errorf("the liar: exit %d, %s", status, liar.Stderr.String())
	}
	for i, w := range honest {
		if status := w.Wait(t, 30*time.Second); status != 0 {
			t.Errorf("honest worker %d: exit %d: %s", i, status, w.Stderr.String())
		}
	}
	// Every saved value is right: solve each again.
	db := solve.NewNimberDB()
	if err := loadSaved(context.Background(), db, filepath.Join(state, "nimbers.spr"), io.Discard); err != nil {
		t.Fatal(err)
	}
	check := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 16})
	wrong := 0
	db.Range(func(k string, g uint32) bool {
		if p, _ := sprouts.FromKey(k); check.Solve(context.Background(), p, g) != solve.Loss {
			wrong++
		}
		return true
	})
	if wrong > 0 || db.Len() == 0 {
		t.Errorf("%d of the %d saved values are wrong", wrong, db.Len())
	}
}

// exists reports whether there is a file at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestSwarmForgedReuse: --reuse names a directory whose certificate gives
// the root a wrong value (its content hashes to its name, but it proves
// nothing). The master's DAG settles the root by it, and the audit finds
// the certificate its proof cites invalid: exit 1, the address named, no
// result printed.
func TestSwarmForgedReuse(t *testing.T) {
	dir := t.TempDir()
	forged := &format.Certificate{Claim: format.Claim{Root: "0*10", Kind: format.ClaimGrundy, N: 0},
		Entries: []format.Entry{{Position: "0*10", Grundy: 0}}, Game: sprouts.Game, Notation: sprouts.Notation}
	path, err := format.WriteCertificate(dir, forged, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimSuffix(filepath.Base(path), ".arrow")
	m, _, _ := master(t, "--reuse", dir, "--cert", t.TempDir(), "--status-listen", "", "--progress", "none", "0*10")
	if status := m.Wait(t, time.Minute); status != 1 {
		t.Fatalf("master exit %d, want 1: %s", status, m.Stderr.String())
	}
	if out, errs := m.Stdout.String(), m.Stderr.String(); out != "" || !strings.Contains(errs, "--reuse: swarm: a certificate drawn on does not hold: cited certificate "+addr) {
		t.Fatalf("stdout %q, stderr: %s", out, errs)
	}
}

// TestWorkerNoMasterToJoin: a worker that nothing answers at its --join
// address for all of --wait exits 1 saying there is no master
// (swarm.ErrNoMaster), not 2 as for a wrong key.
func TestWorkerNoMasterToJoin(t *testing.T) {
	nobody := freeAddr(t)
	w := start(t, testKey, "worker", "--join", nobody, "--wait", "1s")
	if status := w.Wait(t, time.Minute); status != 1 {
		t.Fatalf("exit %d, want 1: %s", status, w.Stderr.String())
	}
	if e := w.Stderr.String(); !strings.Contains(e, "no master at "+nobody) {
		t.Errorf("stderr %q", e)
	}
}
