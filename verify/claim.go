package verify

import (
	"fmt"

	"github.com/spots-dev/spots/format"
)

// values holds the Grundy values of the entries checked so far, by key.
type values map[string]uint32

// lookup gives the values a check relies on: get for a value used, peek
// for one only looked at (a candidate among others).
type lookup interface {
	get(k string) (uint32, bool)
	peek(k string) (uint32, bool)
}

func (v values) get(k string) (uint32, bool) {
	x, ok := v[k]
	return x, ok
}

func (v values) peek(k string) (uint32, bool) { return v.get(k) }

// valueOf returns the xor of the values of p's components, and whether
// every component has a value.
func valueOf[P any](g rules[P], v lookup, p P) (uint32, bool) {
	return valueBy(g, v.get, p)
}

// valueBy is valueOf with the lookup get.
func valueBy[P any](g rules[P], get func(string) (uint32, bool), p P) (uint32, bool) {
	x := uint32(0)
	for _, c := range g.components(p) {
		gv, ok := get(g.key(c))
		if !ok {
			return 0, false
		}
		x ^= gv
	}
	return x, true
}

// claimRoot parses the root of a claim, which must be written in canonical
// form so that a claim has one text, and refuses it if it is over the
// limits (resolved), before anything else is done.
func claimRoot[P any](g rules[P], c format.Claim, l Limits) (P, error) {
	p, err := g.parse(c.Root)
	if err != nil {
		return p, &Failure{Position: c.Root, Rule: "claim", Detail: err.Error()}
	}
	if t := g.text(p); t != c.Root {
		return p, &Failure{Position: c.Root, Rule: "claim", Detail: fmt.Sprintf("the root is not in canonical form (%s)", cutText(t))}
	}
	if err := l.check(g.measure(p)); err != nil {
		err.Position = cutText(c.Root)
		return p, err
	}
	return p, nil
}

// checkClaim decides the claim from the values of valid entries. A Win may
// also be shown by one move of the root to a position of value N.
//
// The root's children are generated here without a check: claimRoot, which
// made root, has held it to the limits.
func checkClaim[P any](g rules[P], c format.Claim, root P, known lookup) error {
	x, ok := valueOf(g, known, root)
	fail := func(detail string, args ...any) error {
		return &Failure{Position: c.Root, Rule: "claim", Detail: fmt.Sprintf(detail, args...)}
	}
	switch c.Kind {
	case format.ClaimLemmas:
		// Every row was checked before the claim: they are the claim.
		return nil
	case format.ClaimLoss, format.ClaimGrundy:
		if !ok {
			return fail("the root's components are not all valid entries")
		}
		if x != c.N {
			return fail("the root's value is %d, not %d", x, c.N)
		}
		return nil
	case format.ClaimWin:
		if ok && x != c.N {
			return nil
		}
		for _, child := range rootChildren(g, root) {
			if y, ok := valueBy(g, known.peek, child); ok && y == c.N {
				valueOf(g, known, child) // the move chosen: its values are used
				return nil
			}
		}
		if ok {
			return fail("the root's value is %d, so root + *%d is lost", x, c.N)
		}
		return fail("no move from the root reaches a position of value %d, and its own value is not known", c.N)
	}
	return fail("unknown kind of claim")
}

// rootChildren returns every position one move away from root, which may
// be a sum: the moves of each component, beside the others.
func rootChildren[P any](g rules[P], root P) []P {
	comps := g.components(root)
	if len(comps) == 1 {
		return g.children(comps[0])
	}
	var out []P
	for i, c := range comps {
		others := make([]P, 0, len(comps))
		others = append(others, comps[:i]...)
		others = append(others, comps[i+1:]...)
		for _, k := range g.children(c) {
			out = append(out, g.sum(append(others, k)))
		}
	}
	return out
}

// landMoves remembers the children of lands (the atomic components of
// positions, whatever the game calls them): a checker needs those of
// every entry and,
// for winning replies, of the lands of its children, which are sometimes
// met again. Every land is measured against the limits before its
// children are generated, and the memory the cache holds is bounded.
//
// Which lands it holds decides which generations an entry pays for (a land
// remembered costs no work), so in hinted checking it is only ever used by
// the in-order loop, and the parallel pipeline (pipeline.go) hands it, in
// ready, the children its workers made for the current row: a miss then
// takes them from there instead of generating them, and everything else
// (the limits, the work added up, what is remembered and when the cache is
// emptied) is as in a sequential check.
//
// The bounds: on the 0*21 certificate (47,910 entries) the checker asks
// for the children of 286,458 lands, of which only 60,123 are asked for
// again (226,335 distinct lands); with these bounds the cache is emptied 7
// times and answers 52,834 asks (18.4 %), against 21.0 % for a cache
// without bounds. Raising them would save under 3 % of the generations, so
// they stay where the hostile-input limits put them.
type landMoves[P any] struct {
	g      rules[P]
	m      map[string][]P
	bytes  int64  // the estimated size of what m holds
	limits Limits // resolved
	// With perEntry, the work of every generation since the last
	// startEntry is added up in spent and held to limits.Work.
	perEntry bool
	spent    int64
	// ready, if set, holds lands measured and generated ahead of time for
	// the current entry (by the pipeline's workers); a miss takes its cost
	// and children from there. They are the same as measure and children
	// would give: ready only saves the time.
	ready map[string]prepared[P]
	// ahead, if set, holds lands made ahead of time by the workers of an
	// unhinted check (ahead.go), used as ready is.
	ahead *ahead[P]
}

// prepared is a land measured and, if made, generated ahead of time.
type prepared[P any] struct {
	cost Cost
	kids []P
	made bool
}

const (
	landMovesMax      = 1 << 16  // lands remembered
	landMovesMaxBytes = 64 << 20 // estimated bytes of children remembered
)

// childrenBytes is the estimated size of a list of children, as the
// caches count it.
func childrenBytes[P any](g rules[P], kids []P) int64 {
	size := int64(0)
	for _, k := range kids {
		size += int64(len(g.key(k))) + 64
	}
	return size
}

func newLandMoves[P any](g rules[P], l Limits, perEntry bool) landMoves[P] {
	return landMoves[P]{g: g, limits: l.resolved(), perEntry: perEntry}
}

// startEntry starts counting the work of a new entry.
func (lm *landMoves[P]) startEntry() { lm.spent = 0 }

// of returns the children of land, or a *LimitError (without a row) if
// generating them would break a limit.
func (lm *landMoves[P]) of(land P) ([]P, error) {
	key := lm.g.key(land)
	if kids, ok := lm.m[key]; ok {
		return kids, nil
	}
	pre, ok := lm.ready[key]
	if !ok {
		pre, ok = lm.ahead.take(key)
	}
	c := pre.cost
	if !ok {
		c = lm.g.measure(land)
	}
	if e := lm.limits.check(c); e != nil {
		e.Position = cutText(lm.g.text(land))
		return nil, e
	}
	if lm.perEntry {
		lm.spent = saturate(float64(lm.spent) + float64(c.Work))
		if lm.spent > lm.limits.Work {
			return nil, &LimitError{Position: cutText(lm.g.text(land)), Limit: "work", Value: lm.spent, Max: lm.limits.Work}
		}
	}
	kids := pre.kids
	if !pre.made {
		lm.ahead.skip(key)
		kids = lm.g.children(land)
	}
	size := childrenBytes(lm.g, kids)
	if lm.m == nil || len(lm.m) >= landMovesMax || lm.bytes+size > landMovesMaxBytes {
		lm.m, lm.bytes = make(map[string][]P), 0
	}
	lm.m[key] = kids
	lm.bytes += size
	return kids, nil
}
