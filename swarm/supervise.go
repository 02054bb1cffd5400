package swarm

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spots-dev/spots/solve"
)

// SuperviseOptions configure Supervise. The zero value audits every
// result, checks the values every Params.Lease and gives up after 3
// fruitless audits.
type SuperviseOptions struct {
	// NoAudit takes the root's outcome as soon as the DAG solves it,
	// without checking the values it rests on: faster at the end of a
	// solve, but a lying worker can then make the outcome wrong.
	NoAudit bool
	// Tick is how often the master takes back the jobs of groups silent
	// longer than their lease (Expire) and calls Every (0: a second).
	Tick time.Duration
	// CheckEvery is how often the master looks for wrong values while the
	// solve goes on (check), so that a lying group is caught before its
	// values spread (0: Params.Lease). Each check solves suspect
	// positions again on the master's cores.
	CheckEvery time.Duration
	// MaxFruitless is how many audits in a row may find the outcome
	// unproved without finding a wrong value before Supervise gives up
	// (0: 3). Each such audit drops the values the verifier could not
	// derive, and the groups derive them again.
	MaxFruitless int
	// Report, if set, is told of each audit that did not prove the
	// outcome (its Unproved set) and each check that found wrong values
	// or outcomes the values do not back (Unproved nil).
	Report func(AuditResult)
	// Every, if set, is called each Tick with the master's counters; when
	// it returns false Supervise stops, the root unsolved (a limit of the
	// caller's was reached).
	Every func(MasterStats) bool
}

// ErrStopped is returned by Supervise when SuperviseOptions.Every stopped
// the solve.
var ErrStopped = errors.New("swarm: stopped")

// ErrUnproved is returned by Supervise when audits kept finding the
// outcome unproved without finding a value wrong.
var ErrUnproved = errors.New("swarm: the result is not proved by the swarm's values")

// Supervise is the master's side of a solve once its groups are being
// served: it runs until the root's outcome is proved or ctx ends. Every
// Tick it takes back the jobs of silent groups, every CheckEvery it looks
// for wrong values, and each time the DAG solves the root it audits the
// outcome (audit): when the values do not prove it, the audit dropped
// what it found wrong, or what the verifier could not derive, and the
// solve goes on. Once the outcome is proved it tells the groups the solve
// is over (finish) and gives them up to a lease (5 s at most) to hear it.
//
// It returns the proved outcome, or solve.Unknown with ctx's error when
// ctx ended first, with ErrStopped when Every stopped it, and with
// ErrUnproved after MaxFruitless fruitless audits.
func (m *Master) Supervise(ctx context.Context, opts SuperviseOptions) (solve.Outcome, error) {
	tick := cmpOr(opts.Tick, time.Second)
	checkEvery := cmpOr(opts.CheckEvery, m.params.Lease)
	maxFruitless := max(opts.MaxFruitless, 0)
	if maxFruitless == 0 {
		maxFruitless = 3
	}
	report := func(res AuditResult) {
		if opts.Report != nil {
			opts.Report(res)
		}
	}
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	lastCheck, fruitless := time.Now(), 0
	for {
		select {
		case <-ctx.Done():
			return solve.Unknown, ctx.Err()
		case now := <-ticker.C:
			m.expire()
			if !opts.NoAudit && now.Sub(lastCheck) >= checkEvery {
				lastCheck = now
				res, err := m.check(ctx)
				if err != nil {
					return solve.Unknown, err
				}
				if len(res.Wrong)+len(res.Refuted)+len(res.Claims) > 0 {
					report(res)
				}
			}
			if opts.Every != nil && !opts.Every(m.Stats()) {
				return solve.Unknown, ErrStopped
			}
			continue
		case <-m.solved():
		}
		if !opts.NoAudit {
			start := time.Now()
			m.logf("the root is solved (%s); checking it against the rules with the %d values it may rest on", m.Outcome(), m.DB().Len())
			res, err := m.audit(ctx)
			if err != nil {
				return solve.Unknown, err
			}
			if res.Proved {
				m.logf("the values prove it (checked in %.1f s)", time.Since(start).Seconds())
			}
			if !res.Proved {
				report(res)
				if len(res.Wrong)+len(res.Refuted)+len(res.Claims) > 0 {
					fruitless = 0
				} else if fruitless++; fruitless >= maxFruitless {
					return solve.Unknown, fmt.Errorf("%w after %d audits, and no wrong value was found", ErrUnproved, fruitless)
				}
				continue
			}
		}
		out := m.Outcome()
		m.finish()
		m.waitHeard(ctx, min(m.params.Lease, 5*time.Second))
		return out, nil
	}
}

// waitHeard waits, at most for wait, until every group has been told
// that the solve is over.
func (m *Master) waitHeard(ctx context.Context, wait time.Duration) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	for m.unheard() > 0 {
		select {
		case <-poll.C:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// cmpOr returns d, or def when d is not positive.
func cmpOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// logf tells Log, if set, how the solve goes.
func (m *Master) logf(format string, args ...any) {
	if m.Log != nil {
		m.Log(format, args...)
	}
}
