package swarm

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

type suspect struct {
	key   string
	pos   sprouts.Position
	lives int
}

// findWrong returns the values of vals (key → g) that are wrong, found by
// solving suspects again with a search of the master's own that trusts no
// value it did not prove, and the disputes whose value is wrong (the
// value of vals they disputed is right). A wrong value that follows from
// the pool's values is an error wrapping ErrCited (blamePool).
func (m *Master) findWrong(ctx context.Context, vals map[string]uint32, incompleteToo bool, disputes []dispute) (findings, error) {
	wrong, refuted, inconsistent, err := m.solveSuspects(ctx, vals, incompleteToo, disputes)
	if err != nil {
		return findings{}, err
	}
	// Only the wrong values matter to blame among the inconsistent.
	for k := range inconsistent {
		if !wrong[k] {
			delete(inconsistent, k)
		}
	}
	disputed := map[string]map[string]bool{}
	for _, d := range disputes {
		if disputed[d.group] == nil {
			disputed[d.group] = map[string]bool{}
		}
		disputed[d.group][d.key] = true
	}
	return findings{wrong: wrong, refuted: refuted, inconsistent: inconsistent, disputed: disputed}, nil
}

// solveSuspects is findWrong, with the values found inconsistent with
// their children's values (see findings) beside.
func (m *Master) solveSuspects(ctx context.Context, vals map[string]uint32, incompleteToo bool, disputes []dispute) (wrong map[string]bool, refuted []dispute, inconsistent map[string][]string, err error) {
	// Suspects: values that contradict a child whose lands all have values
	// (the child has the same value, or the children's values are all
	// known and their mex differs), with those lands; then values with a
	// child not all known. Values scanned by an earlier check of this
	// epoch without contradicting anything are scanned again only when
	// incomplete ones are wanted too: making every value's children is
	// most of a check's work, and the values only grow within an epoch, so
	// a value whose children all had values and agreed with them still
	// does. One that lacked a child's value is scanned again.
	m.scans.mu.Lock()
	epoch := m.scans.epoch
	keys := make([]string, 0, len(vals))
	for k, g := range vals {
		// A pooled value is not scanned: its certificate answers for
		// it, and scanning the pool would cost each check its size.
		if (incompleteToo || !m.scans.scanned[k]) && !m.isPooled(k, g) {
			keys = append(keys, k)
		}
	}
	m.scans.mu.Unlock()
	// One cache of canonical codes for the whole check: the children of
	// the values scanned and of the suspects solved share their lands.
	game := sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}
	contradicting, incomplete, inconsistent, err := scanValues(ctx, game, vals, keys)
	if err != nil {
		return nil, nil, nil, err
	}
	m.scans.mu.Lock()
	if m.scans.scanned == nil || m.scans.epoch != epoch {
		m.scans.scanned = map[string]bool{}
	}
	for _, k := range keys {
		// An incomplete value is scanned again: the children's values
		// it lacked may come, and contradict it.
		if !contradicting[k] && !incomplete[k] {
			m.scans.scanned[k] = true
		}
	}
	m.scans.mu.Unlock()
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
	checker := solve.NewDFPN(game, nil, solve.Options{Capacity: max(m.params.Capacity, 1024)})
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
				return nil, nil, nil, err
			}
			wrong[d.key] = true
		default:
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
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
				return nil, nil, nil, err
			}
			wrong[s.key] = true
		default:
			if err := ctx.Err(); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	return wrong, refuted, inconsistent, nil
}

// forgetScans makes the next checks scan every value again: values were
// dropped, so what was consistent may rest on them.
func (m *Master) forgetScans() {
	m.scans.mu.Lock()
	m.scans.scanned = nil
	m.scans.epoch++
	m.scans.mu.Unlock()
}

// scanValues looks at the values of keys, each against its children's
// (vals: key → g), on every core: a value is contradicting when a child
// whose lands all have values has its value, or when every child has a
// value and their mex is not it (the lands of such a child are
// contradicting too); it is incomplete when some child's lands lack a
// value. A key that is not a position is contradicting. A value with a
// child of the same value is inconsistent too, with that child's lands.
// The children are made by game.
func scanValues(ctx context.Context, game sprouts.Rules, vals map[string]uint32, keys []string) (contradicting, incomplete map[string]bool, inconsistent map[string][]string, err error) {
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
				results[w] = append(results[w], scanValue(game, vals, keys[i]))
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	contradicting, incomplete, inconsistent = map[string]bool{}, map[string]bool{}, map[string][]string{}
	for _, rs := range results {
		for _, r := range rs {
			for _, k := range r.bad {
				contradicting[k] = true
			}
			if r.incomplete {
				incomplete[r.key] = true
			}
			if r.against != nil {
				inconsistent[r.key] = r.against
			}
		}
	}
	return contradicting, incomplete, inconsistent, nil
}

// scanVerdict is what scanValue found of one value.
type scanVerdict struct {
	key        string
	bad        []string // contradicting keys found
	incomplete bool
	against    []string // the lands of a child of the same value

}

// scanValue is scanValues for one key.
func scanValue(game sprouts.Rules, vals map[string]uint32, k string) (v scanVerdict) {
	v.key = k
	g := vals[k]
	p, err := sprouts.FromKey(k)
	if err != nil {
		v.bad = append(v.bad, k)
		return v
	}
	seen := map[uint32]bool{}
	complete, first := true, true
	for _, c := range game.Children(p) {
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
				if first {
					v.against = append(v.against, l.Key())
				}
			}
			first = false
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
