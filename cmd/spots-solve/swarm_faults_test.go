package main

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spots-dev/spots/internal/cmdtest"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/swarm"
)

// The faults of a swarm's long runs (issue 43): a client that reports
// outcomes without values, a worker stopped past its lease, a local
// worker that dies. Each runs real processes on 127.0.0.1 and waits on
// what they say, never on a fixed time.

// waitFor polls cond until it holds, failing the test after timeout (a
// guard against a hang, not a measured threshold).
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool, logs ...*cmdtest.Process) {
	t.Helper()
	for deadline := time.Now().Add(timeout); !cond(); {
		if time.Now().After(deadline) {
			var out []string
			for _, p := range logs {
				out = append(out, p.Stderr.String())
			}
			t.Fatalf("still waiting for %s after %v\n%s", what, timeout, strings.Join(out, "\n---\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// workerName returns the name a worker process gave itself, once it has
// said it.
var workerNameRE = regexp.MustCompile(`(worker-\S+-(\d+)-[0-9a-f]{8}): waiting for a master`)

// TestSwarmOutcomeLiar (issue 43, F7): a client with the swarm's key
// reports every job it gets as a win and sends no values. The master
// names it and bans it, and ends with the right, verified answer; before,
// it found "wrong Grundy values … from no group" and gave up after three
// audits (exit 1).
func TestSwarmOutcomeLiar(t *testing.T) {
	certs := t.TempDir()
	m, listen, gossip := master(t, "--cert", certs, "--progress", "none", "--iterations", "500", "--updates", "500", "0*11")
	key, _ := swarm.NewKey(testKey)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	link := &swarm.HTTPLink{Key: key, Resolve: func(context.Context) (string, error) { return "http://" + listen, nil }}
	lied := make(chan struct{})
	liar := make(chan error, 1)
	go func() { liar <- lieAboutOutcomes(ctx, link, lied) }()
	select {
	case <-lied: // its first claims are in before an honest worker joins
	case err := <-liar:
		t.Fatalf("the liar: %v", err)
	}
	honest := worker(t, gossip, testKey)
	if status := m.Wait(t, 2*time.Minute); status != 0 {
		t.Fatalf("master exit %d: %s", status, m.Stderr.String())
	}
	solvedWithCertificate(t, m, certs, "0*11  W  ")
	if err := <-liar; !errors.Is(err, swarm.ErrBanned) {
		t.Errorf("the liar: %v, want banned", err)
	}
	for _, want := range []string{"liar banned: it reported outcomes without the values that prove them", "from liar); banned liar;"} {
		if !strings.Contains(m.Stderr.String(), want) {
			t.Errorf("the master did not say %q:\n%s", want, m.Stderr.String())
		}
	}
	if status := honest.Wait(t, 30*time.Second); status != 0 {
		t.Errorf("honest worker: exit %d: %s", status, honest.Stderr.String())
	}
}

// lieAboutOutcomes is the liar of TestSwarmOutcomeLiar, a group named
// "liar": it closes lied once it has reported its first jobs, and returns
// when the master stops talking to it. It asks again when the master is
// not up yet.
func lieAboutOutcomes(ctx context.Context, link swarm.Link, lied chan<- struct{}) error {
	var completed []swarm.Report
	epoch := 0
	for {
		reply, err := link.Exchange(ctx, swarm.ExchangeRequest{Group: "liar", Slots: 1, Epoch: epoch, Completed: completed})
		switch {
		case errors.Is(err, swarm.ErrBanned) || ctx.Err() != nil:
			return err
		case err != nil:
			time.Sleep(50 * time.Millisecond) // the master is starting
			continue
		case reply.Done:
			return nil
		}
		if len(completed) > 0 && lied != nil {
			close(lied)
			lied = nil
		}
		epoch, completed = reply.Epoch, nil
		for _, j := range reply.Jobs {
			completed = append(completed, swarm.Report{ID: j.ID, Outcome: solve.Win, DN: solve.Inf, Iterations: j.MaxIterations})
		}
	}
}

// TestSwarmWorkerStoppedPastLease: a worker of two solvers is stopped
// (SIGSTOP) until the master has taken its jobs back, then continued. It
// drops the jobs it was running and goes on, and the master says what
// happened; before, the worker said "the master sent more jobs than the
// group has solvers" and exited, and the master said nothing.
func TestSwarmWorkerStoppedPastLease(t *testing.T) {
	listen, gossip, status := freeAddr(t), freeAddr(t), freeAddr(t)
	// Cycles of 50,000 iterations: the worker is stopped in the middle of
	// them.
	m := start(t, testKey, "--algorithm", "swarm", "--listen", listen, "--gossip", gossip, "--status-listen", status,
		"--lease", "2s", "--iterations", "100000", "--updates", "50000", "--progress", "none", "0*11")
	w := start(t, testKey, "worker", "--join", gossip, "--grouping", "2")
	var name string
	waitFor(t, time.Minute, "the worker's first two jobs", func() bool {
		if sm := workerNameRE.FindStringSubmatch(w.Stderr.String()); sm != nil {
			name = sm[1]
		}
		return strings.Count(w.Stderr.String(), ": job …") >= 2
	}, m, w)
	w.Cmd.Process.Signal(syscall.SIGSTOP)
	waitFor(t, time.Minute, "the master to take the stopped worker's jobs back", func() bool {
		st, ok := statusOf(t, status)
		return ok && st.Stats.Expired > 0
	}, m, w)
	w.Cmd.Process.Signal(syscall.SIGCONT)
	if status := w.Wait(t, 2*time.Minute); status != 0 {
		t.Fatalf("the continued worker: exit %d: %s", status, w.Stderr.String())
	}
	if status := m.Wait(t, time.Minute); status != 0 {
		t.Fatalf("master exit %d: %s", status, m.Stderr.String())
	}
	if !strings.HasPrefix(m.Stdout.String(), "0*11  W  ") {
		t.Errorf("master printed %q", m.Stdout.String())
	}
	lost := regexp.MustCompile(regexp.QuoteMeta(name) + ` (expired|lost): .*jobs? taken back`)
	if !lost.MatchString(m.Stderr.String()) || !strings.Contains(m.Stderr.String(), name+" re-synchronised") {
		t.Errorf("the master did not say that it took %s's jobs back and re-synchronised it:\n%s", name, m.Stderr.String())
	}
	if !strings.Contains(w.Stderr.String(), "dropping them and going on") {
		t.Errorf("the worker did not say it dropped its jobs:\n%s", w.Stderr.String())
	}
}

// statusOf reads the master's status from its loopback status page, and
// whether it could.
func statusOf(t *testing.T, addr string) (swarm.StatusReport, bool) {
	var r swarm.StatusReport
	resp, err := http.Get("http://" + addr + "/status.json")
	if err != nil {
		return r, false
	}
	defer resp.Body.Close()
	return r, resp.StatusCode == http.StatusOK && json.NewDecoder(resp.Body).Decode(&r) == nil
}

// TestSwarmLocalWorkerRestarted: a --workers-local worker killed while the
// master runs is reaped at once (no zombie), reported and started again,
// and the solve ends. (--progress text: the workers name themselves,
// and so their pids, as they wait for the master.)
func TestSwarmLocalWorkerRestarted(t *testing.T) {
	certs := t.TempDir()
	m, _, _ := master(t, "--workers-local", "2", "--cert", certs, "--progress", "text", "0*11")
	var pid int
	waitFor(t, time.Minute, "a local worker", func() bool {
		sm := workerNameRE.FindStringSubmatch(m.Stderr.String())
		if sm != nil {
			pid, _ = strconv.Atoi(sm[2])
		}
		return sm != nil
	}, m)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, time.Minute, "the master to start the killed worker again", func() bool {
		return strings.Contains(m.Stderr.String(), "(pid "+strconv.Itoa(pid)+") died (signal: killed); starting it again")
	}, m)
	// Reaped: the process is gone, not a zombie.
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("the killed worker %d is still in /proc (a zombie)", pid)
	}
	if status := m.Wait(t, 2*time.Minute); status != 0 {
		t.Fatalf("master exit %d: %s", status, m.Stderr.String())
	}
	solvedWithCertificate(t, m, certs, "0*11  W  ")
}
