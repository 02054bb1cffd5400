package swarm

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// ErrBanned is returned to (and by) a group the master caught sending wrong
// Grundy values: the master no longer talks to it.
var ErrBanned = errors.New("swarm: banned by the master")

// AuditResult is what Audit found.
type AuditResult struct {
	// Proved: the master's values prove the root's outcome (a certificate
	// built from them verifies).
	Proved bool
	// Unproved says why they do not, when they do not.
	Unproved error
	// Wrong are the values the master found wrong by solving their
	// positions itself ("gn(0.1a2)=3"), Banned the groups that sent them,
	// Dropped the number of values dropped: the wrong ones, every value of
	// their senders and every value that may rest on theirs.
	Wrong   []string
	Banned  []string
	Dropped int
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

// Audit checks the solved root's outcome against the master's values with
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
// certificate Audit builds cites those its proof relies on, and the
// outcome is proved only once every certificate it cites has been checked.
// Audit returns an error when ctx ends, and one wrapping ErrCited when a
// certificate drawn on does not hold.
func (m *Master) Audit(ctx context.Context) (AuditResult, error) {
	m.mu.Lock()
	out := m.outcome()
	snapshot := map[string]uint32{}
	m.db.Range(func(k string, g uint32) bool {
		snapshot[k] = g
		return true
	})
	m.stats.Audits++
	disputes := m.takeDisputes()
	claims := m.takeClaims(maxAuditClaims, m.disputers(disputes))
	m.mu.Unlock()
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
	cert, err := certify.BuildCiting(sprouts.Game, db, m.pool, claim, verify.Options{})
	proved := err == nil
	res.Unproved = err
	// Even when the values prove the outcome, those that contradict others
	// are looked into: the database is saved and shared.
	wrong, refuted, err := m.findWrong(ctx, snapshot, !proved, disputes)
	if err != nil {
		return res, err
	}
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
		m.mu.Lock()
		m.proof = cert
		m.mu.Unlock()
		return AuditResult{Proved: true}, nil
	}
	if proved {
		res.Unproved = fmt.Errorf("the values prove %s but %d of them are wrong, and %d values sent against them are", claim, len(wrong), len(refuted))
	}
	var unsupported map[string]bool
	if !proved && len(wrong) == 0 && len(refuted) == 0 && len(liars) == 0 {
		unsupported = m.underived(db, claim)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	res.Banned, res.Dropped = m.drop(wrong, unsupported, refuted, liars)
	res.Wrong, res.Refuted, res.Claims = describe(wrong, snapshot), describeRefuted(refuted), describeClaims(liars)
	res.Underived = len(unsupported)
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

// Check looks for wrong values while the solve goes on: values that
// contradict the values of their positions' children, solved again by the
// master itself, and outcomes reported by jobs that the values do not
// back (claims.go). It drops what it finds wrong (and what may rest on
// it) as Audit does, bans the senders and starts a new epoch; it does
// nothing if it finds nothing. Run now and then, it catches a lying group before its
// values spread (and before they can stall the groups' searches). It
// returns an error when ctx ends, and one wrapping ErrCited when it found
// that a certificate drawn on does not hold.
func (m *Master) Check(ctx context.Context) (AuditResult, error) {
	m.mu.Lock()
	snapshot := map[string]uint32{}
	m.db.Range(func(k string, g uint32) bool {
		snapshot[k] = g
		return true
	})
	disputes := m.takeDisputes()
	claims := m.takeClaims(maxClaimChecks, m.disputers(disputes))
	m.mu.Unlock()
	wrong, refuted, err := m.findWrong(ctx, snapshot, false, disputes)
	if err != nil {
		return AuditResult{}, err
	}
	liars, err := m.checkClaims(ctx, claims, snapshot)
	if err != nil || len(wrong) == 0 && len(refuted) == 0 && len(liars) == 0 {
		return AuditResult{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var res AuditResult
	res.Banned, res.Dropped = m.drop(wrong, nil, refuted, liars)
	res.Wrong, res.Refuted, res.Claims = describe(wrong, snapshot), describeRefuted(refuted), describeClaims(liars)
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

// outcome is Outcome with the lock held.
func (m *Master) outcome() solve.Outcome {
	switch r := m.dag.root; {
	case r.pn == 0:
		return solve.Win
	case r.dn == 0:
		return solve.Loss
	}
	return solve.Unknown
}

type suspect struct {
	key   string
	pos   sprouts.Position
	lives int
}

// takeDisputes returns the disputes recorded since the last call. With the
// lock held.
func (m *Master) takeDisputes() []dispute {
	d := m.disputes
	m.disputes = nil
	return d
}

// Certificate returns the certificate of the root's outcome that the last
// audit proved from the master's values (certify.Build: the checker's
// search from the rules, trimmed to the entries the proof uses), or nil
// when no audit proved it. It is not written or read back: a caller that
// writes it verifies the file.
func (m *Master) Certificate() *format.Certificate {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.proof
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

// findWrong returns the values of vals (key → g) that are wrong, found by
// solving suspects again with a search of the master's own that trusts no
// value it did not prove, and the disputes whose value is wrong (the
// value of vals they disputed is right). A wrong value that follows from
// the pool's values is an error wrapping ErrCited (blamePool).
func (m *Master) findWrong(ctx context.Context, vals map[string]uint32, incompleteToo bool, disputes []dispute) (wrong map[string]bool, refuted []dispute, err error) {
	// Suspects: values that contradict a child whose lands all have values
	// (the child has the same value, or the children's values are all
	// known and their mex differs), with those lands; then values with a
	// child not all known. Values scanned by an earlier check of this
	// epoch without contradicting anything are scanned again only when
	// incomplete ones are wanted too: making every value's children is
	// most of a check's work, and the values only grow within an epoch, so
	// a value whose children all had values and agreed with them still
	// does. One that lacked a child's value is scanned again.
	m.scanMu.Lock()
	epoch := m.scannedEpoch
	keys := make([]string, 0, len(vals))
	for k, g := range vals {
		// A pooled value is not scanned: its certificate answers for
		// it, and scanning the pool would cost each check its size.
		if (incompleteToo || !m.scanned[k]) && !m.isPooled(k, g) {
			keys = append(keys, k)
		}
	}
	m.scanMu.Unlock()
	contradicting, incomplete, err := scanValues(ctx, vals, keys)
	if err != nil {
		return nil, nil, err
	}
	m.scanMu.Lock()
	if m.scanned == nil || m.scannedEpoch != epoch {
		m.scanned = map[string]bool{}
	}
	for _, k := range keys {
		// An incomplete value is scanned again: the children's values
		// it lacked may come, and contradict it.
		if !contradicting[k] && !incomplete[k] {
			m.scanned[k] = true
		}
	}
	m.scanMu.Unlock()
	order := func(set map[string]bool) []suspect {
		var out []suspect
		for k := range set {
			if m.isPooled(k, vals[k]) {
				continue // a contradiction of a value it gives: the others are solved
			}
			if p, err := sprouts.FromKey(k); err == nil {
				out = append(out, suspect{k, p, p.Lives()})
			}
		}
		slices.SortFunc(out, func(a, b suspect) int {
			return cmp.Or(cmp.Compare(a.lives, b.lives), cmp.Compare(a.key, b.key))
		})
		return out
	}
	var queue []suspect
	queue = append(queue, order(contradicting)...)
	nContradicting := len(queue)
	for k := range contradicting {
		delete(incomplete, k)
	}
	if incompleteToo {
		queue = append(queue, order(incomplete)...)
	}
	wrong = map[string]bool{}
	for k := range vals {
		if _, err := sprouts.FromKey(k); err != nil {
			wrong[k] = true
		}
	}
	checker := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: max(m.params.Capacity, 1024)})
	// The disputes first: one of the two values is wrong, so one solve
	// names either a wrong value of the master's or a wrong value sent.
	// One refuted dispute of a group is enough.
	checks, disputer := 0, map[string]bool{}
	for _, d := range disputes {
		g, ok := vals[d.key]
		p, err := sprouts.FromKey(d.key)
		if !ok || err != nil || disputer[d.group] || wrong[d.key] || checks >= maxRechecks {
			continue
		}
		checks++
		switch checker.Solve(ctx, p, g) {
		case solve.Loss:
			refuted = append(refuted, d)
			disputer[d.group] = true
		case solve.Win:
			if err := m.blamePool(ctx, p, g, solve.Loss); err != nil {
				return nil, nil, err
			}
			wrong[d.key] = true
		default:
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
	}
	for i, s := range queue {
		if checks+i >= maxRechecks || len(wrong) > 0 && i >= nContradicting {
			break // the contradictions named a liar; the rest waits for the next audit
		}
		switch checker.Solve(ctx, s.pos, vals[s.key]) {
		case solve.Loss: // gn = the value: right
		case solve.Win:
			// Wrong, unless the pool's values make it so: then the pool
			// is at fault, not the group that derived it from them.
			if err := m.blamePool(ctx, s.pos, vals[s.key], solve.Loss); err != nil {
				return nil, nil, err
			}
			wrong[s.key] = true
		default:
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
	}
	return wrong, refuted, nil
}

// forgetScans makes the next checks scan every value again: values were
// dropped, so what was consistent may rest on them.
func (m *Master) forgetScans() {
	m.scanMu.Lock()
	m.scanned = nil
	m.scannedEpoch++
	m.scanMu.Unlock()
}

// scanValues looks at the values of keys, each against its children's
// (vals: key → g), on every core: a value is contradicting when a child
// whose lands all have values has its value, or when every child has a
// value and their mex is not it (the lands of such a child are
// contradicting too); it is incomplete when some child's lands lack a
// value. A key that is not a position is contradicting.
func scanValues(ctx context.Context, vals map[string]uint32, keys []string) (contradicting, incomplete map[string]bool, err error) {
	workers := min(runtime.GOMAXPROCS(0), max(1, len(keys)/16))
	var next atomic.Int64
	results := make([][]scanVerdict, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(keys) || ctx.Err() != nil {
					return
				}
				results[w] = append(results[w], scanValue(vals, keys[i]))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	contradicting, incomplete = map[string]bool{}, map[string]bool{}
	for _, rs := range results {
		for _, r := range rs {
			for _, k := range r.bad {
				contradicting[k] = true
			}
			if r.incomplete {
				incomplete[r.key] = true
			}
		}
	}
	return contradicting, incomplete, nil
}

// scanVerdict is what scanValue found of one value.
type scanVerdict struct {
	key        string
	bad        []string // contradicting keys found
	incomplete bool
}

// scanValue is scanValues for one key.
func scanValue(vals map[string]uint32, k string) (v scanVerdict) {
	v.key = k
	g := vals[k]
	p, err := sprouts.FromKey(k)
	if err != nil {
		v.bad = append(v.bad, k)
		return v
	}
	seen := map[uint32]bool{}
	complete := true
	for _, c := range p.Children() {
		x, ok := uint32(0), true
		for _, l := range c.Lands() {
			y, known := vals[l.Key()]
			if !known {
				ok = false
				break
			}
			x ^= y
		}
		if !ok {
			complete = false
			continue
		}
		seen[x] = true
		if x == g {
			v.bad = append(v.bad, k)
			for _, l := range c.Lands() {
				v.bad = append(v.bad, l.Key())
			}
		}
	}
	mex := uint32(0)
	for seen[mex] {
		mex++
	}
	switch {
	case complete && mex != g:
		v.bad = append(v.bad, k)
	case !complete:
		v.incomplete = true
	}
	return v
}

// taint is when a group was first sent a value that may be wrong (a wrong
// value, a culprit's, or one that rests on such a value), and the fewest
// lives of such a value sent to it. What the group sent after seq may rest
// on it, but only a value of a position of more lives: every move takes a
// life, so a position's value rests only on values of positions of fewer
// lives. The zero taint covers nothing.
type taint struct {
	seq   uint64
	lives int
	set   bool
}

// covers reports whether a value of a position of the given lives, sent at
// exchange seq by the tainted group, may rest on what tainted it.
func (t taint) covers(seq uint64, lives int) bool {
	return t.set && seq > t.seq && lives > t.lives
}

// livesOf returns a function giving the lives of the position of a key,
// each worked out once; a key that is no position has the most lives, so
// that it is never taken to rest on nothing.
func livesOf() func(string) int {
	memo := map[string]int{}
	return func(k string) int {
		if n, ok := memo[k]; ok {
			return n
		}
		n := math.MaxInt
		if p, err := sprouts.FromKey(k); err == nil {
			n = p.Lives()
		}
		memo[k] = n
		return n
	}
}

// taints works out which groups were sent values that may be wrong, and
// when (see taint): values found wrong, values of culprits, the master's
// own derivations since t0 of positions of more lives than minBad (they
// may rest on a culprit's), and values a tainted group sent that may rest
// on what tainted it, until nothing changes. A group sent only values
// that cannot be wrong is not tainted, so what it proves is kept: the
// values are shared with every group, so counting every delivery after
// the first lie, as this did, threw away every honest value each time a
// liar was caught. With the lock held.
func (m *Master) taints(wrong, culprits map[string]bool, t0 uint64, minBad int, lives func(string) int) map[string]taint {
	tainted := map[string]taint{}
	suspicious := func(k string, o valueOrigin) bool {
		return wrong[k] || culprits[o.group] || o.group == "" && o.seq >= t0 && lives(k) > minBad ||
			tainted[o.group].covers(o.seq, lives(k))
	}
	for changed := true; changed; {
		changed = false
		for group, ds := range m.deliveries {
			t := tainted[group]
			for _, d := range ds {
				if d.arrived < t0 {
					continue // nothing sent had arrived since the first lie
				}
				if d.log == nil && d.pending == nil {
					// Of an earlier epoch, its content let go: anything
					// sent after it may rest on it.
					t = worse(t, d.seq, 0)
					continue
				}
				for _, v := range d.log {
					if v.from != group && suspicious(v.e.Key, valueOrigin{v.from, v.seq}) {
						t = worse(t, d.seq, lives(v.e.Key))
					}
				}
				for _, e := range d.pending {
					if suspicious(e.Key, m.origin[e.Key]) {
						t = worse(t, d.seq, lives(e.Key))
					}
				}
			}
			if t != tainted[group] {
				tainted[group], changed = t, true
			}
		}
	}
	return tainted
}

// worse is t with a suspicious value of the given lives sent at seq.
func worse(t taint, seq uint64, lives int) taint {
	if !t.set {
		return taint{seq: seq, lives: lives, set: true}
	}
	return taint{seq: min(t.seq, seq), lives: min(t.lives, lives), set: true}
}

// drop removes the wrong values, bans their senders and those of the
// refuted disputes (wrong values the master did not keep) that could not
// have taken them from others, and the liars (groups that reported
// outcomes their values do not back), drops everything that may rest on
// their values or claims, and the underived values, then rebuilds the DAG
// and starts a new epoch. With the lock held.
func (m *Master) drop(wrong, underived map[string]bool, refuted []dispute, liars map[string]claimFault) (banned []string, dropped int) {
	// The culprits: the liars, and the senders of wrong values they could
	// not have taken from others. A group's values may rest on those of a
	// culprit from the first exchange at which it was sent values that
	// arrived after the culprit's first value or claim (the master's own
	// derivations may rest on a claim); its wrong values sent after that
	// are explained, its wrong values sent before are its own.
	const never = uint64(1<<63 - 1)
	culprits := map[string]bool{}
	t0 := never // the first arrival of a value or claim of a culprit (or of a wrong value without a sender)
	for g := range liars {
		culprits[g] = true
		first, ok := m.firstClaim[g]
		if !ok {
			first = liars[g].claim.seq
		}
		t0 = min(t0, first)
	}
	lives := livesOf()
	var tainted map[string]taint
	minBad := math.MaxInt // the fewest lives of a wrong value or a culprit's
	for changed := true; changed; {
		changed = false
		for k := range m.origin {
			if o := m.origin[k]; culprits[o.group] {
				t0 = min(t0, o.seq)
				minBad = min(minBad, lives(k))
			}
		}
		for k := range wrong {
			minBad = min(minBad, lives(k))
			if o := m.origin[k]; o.group == "" || o.group == savedOrigin {
				t0 = min(t0, o.seq)
			}
		}
		tainted = m.taints(wrong, culprits, t0, minBad, lives)
		// The earliest wrong value not explained names a culprit.
		first, firstSeq := "", never
		for k := range wrong {
			o := m.origin[k]
			if o.group == "" || o.group == savedOrigin || culprits[o.group] {
				continue
			}
			if tainted[o.group].covers(o.seq, lives(k)) {
				continue // it may rest on a culprit's values
			}
			if o.seq < firstSeq || o.seq == firstSeq && o.group < first {
				first, firstSeq = o.group, o.seq
			}
		}
		for _, d := range refuted {
			if culprits[d.group] {
				continue
			}
			if tainted[d.group].covers(d.seq, lives(d.key)) {
				continue
			}
			if d.seq < firstSeq || d.seq == firstSeq && d.group < first {
				first, firstSeq = d.group, d.seq
			}
		}
		if first != "" {
			culprits[first] = true
			changed = true
		}
	}
	// A value stays if one of its senders is trusted with it: neither a
	// culprit nor, when it sent the value, possibly resting on one.
	trusted := func(o valueOrigin, k string) bool {
		return !culprits[o.group] && !(o.group == "" && o.seq >= t0 && lives(k) > minBad) && !tainted[o.group].covers(o.seq, lives(k))
	}
	keep := solve.NewNimberDB()
	m.db.Range(func(k string, g uint32) bool {
		o, known := m.origin[k]
		senders := append([]valueOrigin{o}, m.resent[k]...)
		senders = slices.DeleteFunc(senders, func(o valueOrigin) bool { return !trusted(o, k) })
		if wrong[k] || underived[k] || !known || len(senders) == 0 {
			delete(m.origin, k)
			delete(m.resent, k)
			dropped++
			return true
		}
		keep.Put(k, g)
		m.origin[k] = senders[0]
		if len(senders) > 1 {
			m.resent[k] = senders[1:]
		} else {
			delete(m.resent, k)
		}
		return true
	})
	if len(wrong) == 0 && len(underived) == 0 && len(culprits) == 0 {
		// Nothing found wrong: the values stay, the master's own
		// derivations too; the DAG is rebuilt from them.
		dropped = 0
		keep = m.db
	}
	for g := range culprits {
		m.banned[g] = true
		m.forget(g)
		delete(m.deliveries, g)
		banned = append(banned, g)
	}
	sort.Strings(banned)
	for _, g := range banned {
		why := "it sent wrong Grundy values"
		if f, ok := liars[g]; ok && f.wrong {
			why = fmt.Sprintf("it reported a wrong outcome, %s+*%d=%s", f.claim.pos, f.claim.n, f.claim.out)
		} else if ok {
			why = fmt.Sprintf("it reported outcomes without the values that prove them (%s+*%d=%s)", f.claim.pos, f.claim.n, f.claim.out)
		}
		m.record(EventBan, g, 0, "%s", why)
	}
	m.claims, m.firstClaim = nil, map[string]uint64{}
	m.stats.Banned += len(banned)
	m.stats.Unbacked += len(liars)
	m.stats.Dropped += dropped
	m.account(m.now())
	m.db = keep
	m.jobs = map[string]*job{}
	select {
	case <-m.done:
		m.done = make(chan struct{})
	default:
	}
	m.epoch++
	m.forgetScans()
	m.proof = nil
	// Disputes met since the snapshot are of the old epoch: the values
	// they dispute may be gone, and the disputers may have rested on
	// what was dropped.
	m.disputes = nil
	m.unparkAll()
	m.newDAG()
	m.dag.learned = nil // the values it derived are in the database, sent to all below
	m.shared = nil
	// What was sent in the old epoch was judged by this audit; keeping it
	// would keep every old log alive.
	for _, ds := range m.deliveries {
		for i := range ds {
			ds[i].log, ds[i].pending = nil, nil
		}
	}
	for _, g := range m.groups {
		g.pending, g.cursor, g.jobs = nil, 0, map[string]*job{}
		m.db.Range(func(k string, v uint32) bool {
			g.pending = append(g.pending, solve.NimberEntry{Key: k, G: v})
			return true
		})
	}
	for k := range m.origin {
		if _, ok := keep.Get(k); !ok {
			delete(m.origin, k)
			delete(m.resent, k)
		}
	}
	m.db.Range(func(k string, _ uint32) bool {
		if _, ok := m.origin[k]; !ok {
			m.origin[k] = valueOrigin{seq: m.seq}
		}
		return true
	})
	return banned, dropped
}
