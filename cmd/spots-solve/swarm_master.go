package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/internal/searchstatus"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// runMaster is `spots-solve --algorithm swarm POSITION`: the master runs
// the pipeline with the swarm as its search (masterSearch).
func runMaster(ctx context.Context, cfg config, sf swarmFlags, input string, root sprouts.Position, stdout, stderr io.Writer) (status int) {
	fail := func(status int, msg string, a ...any) int {
		fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...)
		return status
	}
	sf.params.Capacity = cfg.capacity
	sf.reuse = cfg.reuse
	sf.progress = cfg.progress
	pool, err := loadSwarmPool(ctx, sf.reuse, "spots-solve", stderr)
	if err != nil {
		return fail(2, "--reuse %s: %v (leave out --reuse to solve without them)", strings.Join(sf.reuse, ", "), err)
	}
	m, key, err := newMaster(ctx, &sf, root, pool, stderr)
	if err != nil {
		return fail(2, "%v", err)
	}
	member, pages, stop, err := startMaster(sf, m, key, input, stderr)
	if err != nil {
		return fail(2, "%v", err)
	}
	defer stop()
	statusFile := keepStatus(sf.statusFile, pages, stderr)
	search := &masterSearch{m: m, start: time.Now(), supervise: func(ctx context.Context) (solve.Outcome, error) {
		return superviseMaster(ctx, cfg, sf, root, m, member, stderr)
	}}
	p := &prove.Pipeline[sprouts.Position]{Game: sprouts.Game, Searcher: search, Timeout: cfg.timeout, Memory: masterMemory(), CertDir: cfg.certDir, Version: buildinfo.Version(),
		Stopped: func() {
			if sf.stateDir != "" {
				saveState(sf.stateDir, root, m, sf.params)
			}
		}}
	// The written certificate is verified with the library that checked
	// the certificates the audit's proof cites: they are not checked
	// again.
	p.Pool, p.Verify.Library = pool, m.Library()
	// Audited (unless --no-verify); the certificate the audit built is
	// written and verified again.
	pr, err := p.Prove(ctx, root, 0)
	defer func() { status = max(status, statusFile.final()) }()
	st := m.Stats()
	r := newResult(cfg, input, root, 0, pr)
	r.Iterations, r.GrundyNumbers = st.Iterations, m.DB().Len()
	if !pr.Outcome.Known() {
		return masterUnsolved(cfg, r, pr.Stop, search.err, stdout, stderr)
	}
	if err != nil {
		claim, _ := certify.Claim(root, 0, pr.Outcome, nil)
		return fail(1, "certifying %s: %v", claim, err)
	}
	printResult(stdout, cfg, r)
	if cfg.json {
		b, _ := json.Marshal(st)
		fmt.Fprintf(stderr, "swarm: %s\n", b)
	}
	return 0
}

// newMaster makes the master of root with the flags sf (setting the
// key, masterKey, and the master's initial nodes), its database loaded
// from --resume, drawing on pool if not nil, and returns it with the
// swarm's key. Every error is bad input (exit status 2).
func newMaster(ctx context.Context, sf *swarmFlags, root sprouts.Position, pool *certify.Pool, stderr io.Writer) (*swarm.Master, swarm.Key, error) {
	key, err := masterKey(sf)
	if err != nil {
		return nil, key, err
	}
	db := solve.NewNimberDB()
	savedRun, err := resumeMaster(ctx, *sf, root, db, stderr)
	if err != nil {
		return nil, key, fmt.Errorf("--resume %s: %w", sf.resumeDir, err)
	}
	sf.params.InitNodes = 100 * max(1, sf.workersLocal)
	var opts []swarm.MasterOption
	if pool != nil {
		opts = append(opts, swarm.WithPool(pool))
	}
	m, err := swarm.NewMaster(root, sf.params, db, opts...)
	if err != nil {
		return nil, key, err
	}
	if savedRun != "" {
		// The nonces of the saved run are gone with it: its requests are
		// refused by their run instead.
		fmt.Fprintf(stderr, "spots-solve: this is run %s; requests signed for the saved run %s are refused\n", m.Run(), savedRun)
	}
	m.Log = func(msg string, a ...any) { fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...) }
	return m, key, nil
}

// masterSearch is the swarm, led by its master, as the search of a
// prove.Pipeline: Solve supervises the solve of the master's root to its
// end; the certificate is the one the master's audit built.
type masterSearch struct {
	m         *swarm.Master
	start     time.Time
	supervise func(context.Context) (solve.Outcome, error)
	err       error // why the last Solve ended unsolved
}

// Solve implements solve.Searcher: pos is the master's root.
func (s *masterSearch) Solve(ctx context.Context, _ sprouts.Position, _ uint32) solve.Outcome {
	out, err := s.supervise(ctx)
	s.err = err
	return out
}

// Grundy implements solve.Searcher: the swarm solves outcomes only.
func (s *masterSearch) Grundy(context.Context, sprouts.Position) (uint32, bool) { return 0, false }

// Stats implements solve.Searcher: the swarm's iterations, the values the
// master holds and the time since it started.
func (s *masterSearch) Stats() solve.Stats {
	return solve.Stats{Iterations: s.m.Stats().Iterations, GrundyNumbers: s.m.DB().Len(), Seconds: time.Since(s.start).Seconds()}
}

// DB implements solve.Searcher.
func (s *masterSearch) DB() *solve.NimberDB { return s.m.DB() }

// Certificate implements prove.Certified: the certificate the master's
// audit built (nil with --no-verify).
func (s *masterSearch) Certificate() *format.Certificate { return s.m.Certificate() }

// masterKey returns the swarm's key: the one given, or for a master with
// only --workers-local workers and none given, a random one that its
// workers get through their environment (sf.key is set to it).
func masterKey(sf *swarmFlags) (swarm.Key, error) {
	keyText, err := sf.keyText()
	if err != nil {
		return swarm.Key{}, err
	}
	if keyText == "" && sf.workersLocal > 0 {
		if keyText, err = randomKey(); err != nil {
			return swarm.Key{}, err
		}
	}
	sf.key, sf.keyFile = keyText, ""
	return sf.swarmKey()
}

// startMaster serves m: jobs and status pages over HTTP (--listen,
// --status-listen), membership by gossip (--gossip) and the
// --workers-local workers. It returns the gossip member, the status the
// pages show, and stop, which ends all of it.
func startMaster(sf swarmFlags, m *swarm.Master, key swarm.Key, input string, stderr io.Writer) (*swarm.Member, *swarm.Status, func(), error) {
	ln, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("--listen %s: %w", sf.listen, err)
	}
	var gossip atomic.Pointer[swarm.Member] // for the status pages, once it exists
	status := swarm.NewStatus(m, swarm.StatusOptions{Position: input, Members: func() []swarm.MemberInfo {
		if g := gossip.Load(); g != nil {
			return g.Members()
		}
		return nil
	}})
	stopServing := serveMaster(sf, ln, m, key, status, stderr)
	member, err := swarm.StartMember(context.Background(), swarm.MemberConfig{Name: "master-" + uuid.NewString()[:8], Bind: sf.gossip, Key: key,
		Meta:   swarm.Meta{Role: "master", HTTP: ln.Addr().String(), Version: buildinfo.Version()},
		OnDead: func(name string) { m.DropGroup(name) }})
	if err != nil {
		stopServing()
		return nil, nil, nil, err
	}
	gossip.Store(member)
	workers := startLocalWorkers(sf, member.Addr(), stderr)
	return member, status, func() {
		workers.stop()
		member.Leave()
		stopServing()
	}, nil
}

// superviseMaster runs the solve to its end (swarm.Master.Supervise):
// it shows progress, saves the state every few seconds with --state,
// stops at --max-iterations and says on stderr what the audits found.
func superviseMaster(ctx context.Context, cfg config, sf swarmFlags, root sprouts.Position, m *swarm.Master, member *swarm.Member, stderr io.Writer) (solve.Outcome, error) {
	prog := cfg.progress.New(stderr)
	defer prog.Clear()
	lastSave := time.Now()
	every := func(st swarm.MasterStats) bool {
		if cfg.maxIterations > 0 && st.Iterations >= cfg.maxIterations {
			return false
		}
		if sf.stateDir != "" && time.Since(lastSave) >= 5*time.Second {
			saveState(sf.stateDir, root, m, sf.params)
			lastSave = time.Now()
		}
		prog.Report(false, "swarm", swarmFigures(st, countWorkers(member), m.DB().Len()),
			fmt.Sprintf("jobs %d out, %d done  workers %d  util %.0f%%  nimbers %d (shared %d)  T-It %d  root pn/dn %s/%s",
				st.Open, st.Expanded, countWorkers(member), 100*st.Utilisation,
				m.DB().Len(), st.NimbersShared, st.Iterations, searchstatus.Num(st.RootPN), searchstatus.Num(st.RootDN)))
		return true
	}
	report := func(res swarm.AuditResult) {
		prog.Clear()
		reportAudit(stderr, res)
		if res.Unproved != nil && sf.stateDir != "" {
			saveState(sf.stateDir, root, m, sf.params)
		}
	}
	return m.Supervise(ctx, swarm.SuperviseOptions{NoAudit: sf.noVerify, Every: every, Report: report})
}

// masterUnsolved reports a swarm that stopped unsolved (err says why,
// stop how) and returns the exit status.
func masterUnsolved(cfg config, r result, stop prove.Stop, err error, stdout, stderr io.Writer) int {
	stopped := string(stop)
	if err != nil {
		stopped = err.Error()
	}
	switch {
	case errors.Is(err, swarm.ErrUnproved):
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return 1
	case errors.Is(err, swarm.ErrCited):
		fmt.Fprintf(stderr, "spots-solve: --reuse: %v; no result is reported (remove that certificate from the --reuse directory, or leave out --reuse)\n", err)
		return 1
	case errors.Is(err, swarm.ErrStopped):
		stopped = fmt.Sprintf("--max-iterations %d reached", cfg.maxIterations)
	case stop == prove.Interrupted:
		stopped = "interrupted"
	case stop == prove.TimedOut:
		stopped = fmt.Sprintf("--timeout %v reached", cfg.timeout)
	case stop == prove.MemoryLimit:
		_, what := memguard.Usable()
		stopped = fmt.Sprintf("the master reached the memory this process may use (%s)", what)
	}
	fmt.Fprintf(stderr, "spots-solve: the swarm stopped unsolved: %s\n", stopped)
	printResult(stdout, cfg, r)
	if stop == prove.Interrupted {
		fmt.Fprintln(stderr, "spots-solve: interrupted")
		return statusInterrupted
	}
	return 1
}

// reportAudit tells what an audit or check of the master found: an audit
// that did not prove the result (res.Unproved), and the wrong values.
func reportAudit(stderr io.Writer, res swarm.AuditResult) {
	if res.Unproved != nil {
		fmt.Fprintf(stderr, "spots-solve: the swarm's values do not prove its result (%v)\n", res.Unproved)
		if len(res.Wrong)+len(res.Refuted)+len(res.Claims) == 0 {
			if res.Underived > 0 {
				fmt.Fprintf(stderr, "spots-solve: no wrong value found; dropped %d values the verifier could not derive from the others; solving on\n", res.Underived)
			} else {
				fmt.Fprintln(stderr, "spots-solve: no wrong value found; solving on from the values")
			}
			return
		}
	}
	reportWrong(stderr, res)
}

// reportWrong tells what an audit or check of the master found wrong:
// wrong values, and outcomes reported without the values that back them.
func reportWrong(stderr io.Writer, res swarm.AuditResult) {
	some := func(list []string) string {
		if len(list) > 5 {
			list = append(list[:5:5], fmt.Sprintf("and %d more", len(list)-5))
		}
		return strings.Join(list, ", ")
	}
	var found []string
	if wrong := append(slices.Clip(res.Wrong), res.Refuted...); len(wrong) > 0 {
		found = append(found, fmt.Sprintf("wrong Grundy values (%s)", some(wrong)))
	}
	if len(res.Claims) > 0 {
		found = append(found, fmt.Sprintf("outcomes reported without the values that prove them (%s)", some(res.Claims)))
	}
	banned := "no group banned"
	if len(res.Banned) > 0 {
		banned = "banned " + strings.Join(res.Banned, ", ")
	}
	kept := "every group starts afresh"
	if len(res.Kept) > 0 {
		kept = some(res.Kept) + " read none of them and keep their work, the others start afresh"
	}
	fmt.Fprintf(stderr, "spots-solve: %s; %s; dropped %d values; %s; solving on\n", strings.Join(found, " and "), banned, res.Dropped, kept)
}

// countWorkers counts the workers the gossip of member holds alive or
// suspect.
func countWorkers(member *swarm.Member) int {
	k := 0
	for _, n := range member.Members() {
		if n.Role == "worker" {
			k++
		}
	}
	return k
}

// masterMemory is the master's pipeline Memory: what the process may use
// (its workers are processes of their own, each with its --memory), so
// that a DAG outgrowing the machine stops the master with its state saved
// instead of crashing the runtime.
func masterMemory() uint64 {
	usable, _ := memguard.Usable()
	return usable
}
