package swarm

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// ErrBanned is returned to (and by) a group the master caught sending wrong
// Grundy values: the master no longer talks to it.
var ErrBanned = errors.New("swarm: banned by the master")

// AuditResult is what an audit or a check of the master found
// (Master.Supervise reports each).
type AuditResult struct {
	// Proved: the master's values prove the root's outcome (a certificate
	// built from them verifies).
	Proved bool
	// Unproved says why they do not, when they do not.
	Unproved error
	// Wrong are the values the master found wrong by solving their
	// positions itself ("gn(0.1a2)=3"), Banned the groups blamed for
	// them (every sender that could not have taken its wrong value from
	// another's; see blame), Dropped the number of values dropped: the
	// wrong ones, every value of those banned and every value that may
	// rest on theirs.
	Wrong   []string
	Banned  []string
	Dropped int
	// Kept are the groups that keep their values and tables through the
	// new epoch: they read none of the values dropped, nor any that may
	// rest on them, and sent none (ExchangeReply.Kept). The others start
	// afresh.
	Kept []string
	// Refuted are the values groups sent against the master's, found
	// wrong by solving their positions ("gn(0.1a2)=3 from g7"); the
	// master had not kept them.
	Refuted []string
	// Underived counts the values (among those Dropped) that no check
	// found wrong but the verifier could not derive from the others,
	// dropped when no value was found wrong, so that the groups derive
	// them again.
	Underived int
	// Claims are the outcomes reported by jobs that the master's values
	// do not back ("0*5+*0=W from g7"), or that it found wrong by solving
	// their couples ("… (wrong)"), one for each group banned for them:
	// such a group reports outcomes without the values that prove them.
	Claims []string
}

// Limits of the search for wrong values: how many of the master's values it
// solves again.
const (
	maxRechecks = 400
)

// audit checks the solved root's outcome against the master's values with
// the verifier. When they do not prove it, the master looks for the values
// that are wrong: those that contradict the values of their positions'
// children, then those whose children are not all known, smallest first,
// each solved again by the master itself. It drops the wrong values, every
// value their senders sent, and the values other groups and the master
// derived after they could have learned them; it bans the senders,
// rebuilds its DAG from the values left and starts a new epoch (the groups
// forget what they learned), so the solve goes on. If it finds no wrong
// value it drops the values the verifier could not derive from the others
// (each lacks a value it rests on) and rebuilds the DAG from the rest.
//
// The values of the master's pool (WithPool) are cited, not derived: the
// certificate audit builds cites those its proof relies on, and the
// outcome is proved only once every certificate it cites has been checked.
// audit returns an error when ctx ends, and one wrapping ErrCited when a
// certificate drawn on does not hold.
func (m *Master) audit(ctx context.Context) (AuditResult, error) {
	out, snapshot, disputes, claims := m.snapshot(maxAuditClaims, true)
	var res AuditResult
	if out == solve.Unknown {
		return res, errors.New("audit: the root is not solved")
	}
	claim, err := certify.Claim(m.root, 0, out, nil)
	if err != nil {
		return res, err
	}
	db := solve.NewNimberDB()
	for k, g := range snapshot {
		db.Put(k, g)
	}
	// BuildCiting proves the claim from the rules (the checker's search
	// over the values, the pool's taken as proved by their certificates)
	// before it writes the proof's entries as a certificate.
	cert, err := certify.BuildCiting(sprouts.Game, db, m.pool.pool, claim, verify.Options{})
	proved := err == nil
	res.Unproved = err
	// Even when the values prove the outcome, those that contradict others
	// are looked into: the database is saved and shared.
	found, err := m.findWrong(ctx, snapshot, !proved, disputes)
	if err != nil {
		return res, err
	}
	wrong, refuted := found.wrong, found.refuted
	var liars map[string]claimFault
	if !proved || len(wrong)+len(refuted) > 0 {
		// The DAG settled its root from the claims too: one the values
		// do not back may be a lie.
		if liars, err = m.checkClaims(ctx, claims, snapshot); err != nil {
			return res, err
		}
	}
	if proved && len(wrong) == 0 && len(refuted) == 0 {
		if err := m.checkCited(cert); err != nil {
			return res, err
		}
		m.trail.mu.Lock()
		m.trail.proof = cert
		m.trail.mu.Unlock()
		return AuditResult{Proved: true}, nil
	}
	if proved {
		res.Unproved = fmt.Errorf("the values prove %s but %d of them are wrong, and %d values sent against them are", claim, len(wrong), len(refuted))
	}
	if !proved && len(wrong) == 0 && len(refuted) == 0 && len(liars) == 0 {
		found.underived = m.underived(db, claim)
	}
	unlock := m.lockAll()
	defer unlock()
	res.Banned, res.Dropped, res.Kept = m.drop(found, liars)
	res.Wrong, res.Refuted, res.Claims = describe(wrong, snapshot), describeRefuted(refuted), describeClaims(liars)
	res.Underived = len(found.underived)
	return res, nil
}

// underived returns the values of db that the checker could not derive
// from the others while deciding claim. None was found wrong, so each
// lacks a value it rests on: dropping them lets the groups derive them
// again, with what they rest on, instead of the DAG settling the root
// from them at once and the audit failing again.
func (m *Master) underived(db *solve.NimberDB, claim format.Claim) map[string]bool {
	d, err := verify.FromValues(db.Range)
	if err != nil {
		return nil
	}
	m.citePool(d) // proved by their certificates, as the audit takes them
	if _, err := d.Check(claim, verify.Options{}); err == nil {
		return nil
	}
	out := map[string]bool{}
	for _, k := range d.Invalid() {
		out[k] = true
	}
	return out
}

// check looks for wrong values while the solve goes on: values that
// contradict the values of their positions' children, solved again by the
// master itself, and outcomes reported by jobs that the values do not
// back (claims.go). It drops what it finds wrong (and what may rest on
// it) as audit does, bans the senders and starts a new epoch; it does
// nothing if it finds nothing. Run now and then, it catches a lying group before its
// values spread (and before they can stall the groups' searches). It
// returns an error when ctx ends, and one wrapping ErrCited when it found
// that a certificate drawn on does not hold.
func (m *Master) check(ctx context.Context) (AuditResult, error) {
	_, snapshot, disputes, claims := m.snapshot(maxClaimChecks, false)
	found, err := m.findWrong(ctx, snapshot, false, disputes)
	if err != nil {
		return AuditResult{}, err
	}
	liars, err := m.checkClaims(ctx, claims, snapshot)
	if err != nil || len(found.wrong) == 0 && len(found.refuted) == 0 && len(liars) == 0 {
		return AuditResult{}, err
	}
	unlock := m.lockAll()
	defer unlock()
	var res AuditResult
	res.Banned, res.Dropped, res.Kept = m.drop(found, liars)
	res.Wrong, res.Refuted, res.Claims = describe(found.wrong, snapshot), describeRefuted(found.refuted), describeClaims(liars)
	return res, nil
}

// describe writes wrong values as gn(position)=value, in key order.
func describe(wrong map[string]bool, vals map[string]uint32) []string {
	var out []string
	for _, k := range sortedKeys(wrong) {
		if p, err := sprouts.FromKey(k); err == nil {
			out = append(out, fmt.Sprintf("gn(%s)=%d", p, vals[k]))
		} else {
			out = append(out, fmt.Sprintf("gn(%q)=%d", k, vals[k]))
		}
	}
	return out
}

// describeRefuted writes refuted disputes as gn(position)=value from
// group.
func describeRefuted(refuted []dispute) []string {
	var out []string
	for _, d := range refuted {
		if p, err := sprouts.FromKey(d.key); err == nil {
			out = append(out, fmt.Sprintf("gn(%s)=%d from %s", p, d.g, d.group))
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// snapshot copies, at one point of the exchanges, the root's outcome and
// the master's values, and takes the disputes and up to limit claims to
// check (those of groups with disputes wait); an audit counts itself.
func (m *Master) snapshot(limit int, audit bool) (solve.Outcome, map[string]uint32, []dispute, []claim) {
	w, t := m.work, m.trail
	w.mu.Lock()
	defer w.mu.Unlock()
	out := m.outcome()
	vals := make(map[string]uint32, w.db.Len())
	w.db.Range(func(k string, g uint32) bool {
		vals[k] = g
		return true
	})
	t.mu.Lock()
	defer t.mu.Unlock()
	if audit {
		t.count.audits++
	}
	disputes := t.takeDisputes()
	return out, vals, disputes, t.takeClaims(limit, t.disputers(disputes))
}

// lockAll takes the master's chained locks, in order, and returns what
// lets them go.
func (m *Master) lockAll() (unlock func()) {
	m.members.mu.Lock()
	m.work.mu.Lock()
	m.share.mu.Lock()
	m.trail.mu.Lock()
	return func() {
		m.trail.mu.Unlock()
		m.share.mu.Unlock()
		m.work.mu.Unlock()
		m.members.mu.Unlock()
	}
}

// outcome is Outcome with work's lock held.
func (m *Master) outcome() solve.Outcome {
	switch r := m.work.dag.root; {
	case r.pn == 0:
		return solve.Win
	case r.dn == 0:
		return solve.Loss
	}
	return solve.Unknown
}

// Certificate returns the certificate of the root's outcome that the last
// audit proved from the master's values (certify.Build: the checker's
// search from the rules, trimmed to the entries the proof uses), or nil
// when no audit proved it. It is not written or read back: a caller that
// writes it verifies the file.
func (m *Master) Certificate() *format.Certificate {
	m.trail.mu.Lock()
	defer m.trail.mu.Unlock()
	return m.trail.proof
}

// ProvedValues returns the values of the entries of the audit's proof (see
// Certificate), each checked from the rules by the audit, or nil when no
// audit proved the root. Other values of the master may be lies the proof
// did not need, which no check could refute because the values of their
// children never came.
func (m *Master) ProvedValues() *solve.NimberDB {
	proof := m.Certificate()
	if proof == nil {
		return nil
	}
	db := solve.NewNimberDB()
	for _, e := range proof.Entries {
		p, err := sprouts.Parse(e.Position)
		if err != nil {
			return nil // not of this master's making: keep nothing rather than guess
		}
		db.Put(p.Key(), e.Grundy)
	}
	return db
}
