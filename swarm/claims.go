package swarm

import (
	"context"
	"fmt"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// A claim is an outcome a job reported for its leaf, which settled the
// leaf in the master's DAG. The master takes it at once (the DAG steers
// by it), and checks it later against its values (checkClaims): an
// honest group sends, with or before a report of an outcome, the values
// that back it, because its solver records the value of every atomic
// couple it proves lost and solves a sum component by component. A group
// that reports outcomes its values do not back (a liar that reports every
// job a win and sends no value, say) is banned, and what the DAG
// derived from its claims is dropped with it.
type claim struct {
	pos   sprouts.Position
	n     uint32
	out   solve.Outcome
	group string
	seq   uint64 // the exchange it came with
}

// text writes the claim as its couple, outcome and sender ("0*5+*0=W from g7").
func (c claim) text() string {
	return fmt.Sprintf("%s+*%d=%s from %s", c.pos, c.n, c.out, c.group)
}

// Bounds of the claims the master keeps and checks.
const (
	// maxClaims bounds the claims waiting to be checked; past it new ones
	// are not checked (the audit still checks the outcome itself).
	maxClaims = 1 << 16
	// maxClaimChecks bounds the claims one check looks at (each costs at
	// most one generation of a position's children), and maxAuditClaims
	// those an audit looks at; the rest wait for the next. Both take the
	// groups in turn, so a group's claims are looked at however many the
	// others make.
	maxClaimChecks = 1024
	maxAuditClaims = 8 * maxClaimChecks
	// maxClaimSolves bounds the claims one check solves again (those the
	// values contradict), and maxClaimIterations each solve.
	maxClaimSolves     = 16
	maxClaimIterations = 1 << 20
)

// noteClaim records a claim, made by a job that settled its leaf. With
// the trail's lock held.
func (t *trail) noteClaim(c claim) {
	t.count.claims++
	if _, ok := t.firstClaim[c.group]; !ok {
		t.firstClaim[c.group] = c.seq
	}
	if len(t.claims) < maxClaims {
		t.claims = append(t.claims, c)
	}
}

// takeClaims takes up to limit of the claims waiting to be checked, in
// turn from each group, but those of the groups in skip, which wait. With
// the trail's lock held.
func (t *trail) takeClaims(limit int, skip map[string]bool) []claim {
	var taken, kept []claim
	byGroup := map[string][]claim{}
	var order []string
	for _, c := range t.claims {
		if skip[c.group] {
			kept = append(kept, c)
			continue
		}
		if _, ok := byGroup[c.group]; !ok {
			order = append(order, c.group)
		}
		byGroup[c.group] = append(byGroup[c.group], c)
	}
	for len(taken) < limit && len(order) > 0 {
		next := order[:0]
		for _, g := range order {
			cs := byGroup[g]
			if len(taken) < limit {
				taken, cs = append(taken, cs[0]), cs[1:]
			}
			byGroup[g] = cs
			if len(cs) > 0 {
				next = append(next, g)
			}
		}
		order = next
	}
	for _, g := range order {
		kept = append(kept, byGroup[g]...)
	}
	t.claims = kept
	return taken
}

// disputers returns the groups whose values the master disputes in
// disputes or could not record as disputes: their claims may rest on
// their own values, which the master does not hold, so they wait until
// the disputes are settled. With the trail's lock held; it resets the
// groups it could not record.
func (t *trail) disputers(disputes []dispute) map[string]bool {
	out := t.overflow
	t.overflow = map[string]bool{}
	for _, d := range disputes {
		out[d.group] = true
	}
	return out
}

// verdict is what the values say of a claim.
type verdict int

const (
	backed       verdict = iota // the values prove the outcome
	undecided                   // they prove nothing of it
	contradicted                // they prove the other outcome
)

// judge says what the values (value: key → Grundy value, and whether it
// is known) say of the claim that pos + *n has the outcome out. A win of a couple whose lands but one
// have values is backed by a move of that land to a position whose value
// the values give, as the checker would see it: it costs at most one
// generation of that land's children.
func judge(pos sprouts.Position, n uint32, out solve.Outcome, value func(key string) (uint32, bool)) verdict {
	var rest []sprouts.Position
	for _, l := range pos.Lands() {
		if g, ok := value(l.Key()); ok {
			n ^= g
		} else {
			rest = append(rest, l)
		}
	}
	switch {
	case len(rest) == 0 && (n != 0) == (out == solve.Win):
		return backed
	case len(rest) == 0:
		return contradicted
	case out != solve.Win || len(rest) > 1:
		return undecided
	}
	_, complete := rest[0].ChildrenUntil(func(c sprouts.Position) bool {
		x := uint32(0)
		for _, l := range c.Lands() {
			g, ok := value(l.Key())
			if !ok {
				return false
			}
			x ^= g
		}
		return x == n
	})
	if complete {
		return undecided
	}
	return backed
}

// lookup returns the value function of a map of values.
func lookup(vals map[string]uint32) func(string) (uint32, bool) {
	return func(k string) (uint32, bool) {
		g, ok := vals[k]
		return g, ok
	}
}

// claimFault is why the master bans a group for its claims: the first
// claim found wrong or unbacked.
type claimFault struct {
	claim claim
	wrong bool // solved again and found wrong (else: unbacked)
}

// checkClaims checks claims against the values vals: a claim the values
// do not back names its group a liar; one they contradict is solved
// again, and names its group if it is wrong (unless the pool's values make
// it right: blamePool). It returns the liars, by group, and an error when
// ctx ends or the pool is at fault.
func (m *Master) checkClaims(ctx context.Context, claims []claim, vals map[string]uint32) (map[string]claimFault, error) {
	liars := map[string]claimFault{}
	var checker *solve.DFPN[sprouts.Position]
	solves := 0
	for _, c := range claims {
		if _, ok := liars[c.group]; ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		switch judge(c.pos, c.n, c.out, lookup(vals)) {
		case undecided:
			liars[c.group] = claimFault{claim: c}
		case contradicted:
			// One of the claim and the values is wrong: solving the
			// couple says which (a wrong value is left to findWrong).
			if solves >= maxClaimSolves {
				continue
			}
			solves++
			if checker == nil {
				checker = solve.NewDFPN(sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}, nil, solve.Options{Capacity: max(m.params.Capacity, 1024), MaxIterations: maxClaimIterations})
			}
			if got := checker.Solve(ctx, c.pos, c.n); got.Known() && got != c.out {
				if err := m.blamePool(ctx, c.pos, c.n, c.out); err != nil {
					return nil, err
				}
				liars[c.group] = claimFault{claim: c, wrong: true}
			}
		}
	}
	return liars, nil
}

// describeClaims writes the claims of the liars, in the order of their
// groups: "0*5+*0=W from g7", with " (wrong)" when solving the couple
// refuted it (else no value backs it).
func describeClaims(liars map[string]claimFault) []string {
	var out []string
	for _, g := range sortedKeys(liars) {
		f := liars[g]
		d := f.claim.text()
		if f.wrong {
			d += " (wrong)"
		}
		out = append(out, d)
	}
	return out
}
