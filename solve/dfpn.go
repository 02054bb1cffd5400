package solve

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"
)

// DFPN is depth-first proof-number search with Grundy numbers: PNS with GN
// in the memory-bounded form of the paper (thresholds pt, dt, mt and shifts
// ps, ds), a transposition table of fixed capacity and a nimber database
// that is never evicted. A DFPN keeps its table and database between calls,
// so the couples of a Grundy computation reuse each other's work. It is not
// safe for concurrent use.
type DFPN[P any] struct {
	base[P]
	opt   Options
	tt    *tt
	rng   *rand.Rand
	ctx   context.Context
	stop  bool
	check uint64 // iteration count at which to look at the context and clock next
	// budgetEnd is the iteration count at which this call stops.
	budgetEnd uint64
	start     time.Time
	last      time.Time
	root      *dnode[P]
	// switching lets a sum's search move between its components (land
	// switching); sequential DFPN does not.
	switching bool
}

// dnode is a couple on the current path, with its children while it is
// open.
type dnode[P any] struct {
	c      couple[P]
	pn, dn uint64
	work   uint64 // work below this couple, as stored in the table
	merged uint32 // sums: the heap with every resolved component folded in
	kids   []*dnode[P]
}

// thresholds are the bounds under which a node's subtree keeps the most
// proving node (paper, appendix).
type thresholds struct {
	pt, dt, mt uint64
	ps, ds     uint64
}

var rootThresholds = thresholds{pt: Inf, dt: Inf, mt: Inf}

// NewDFPN returns a DFPN search of game using the nimber database db (a new
// one if nil), which it fills as it proves couples.
func NewDFPN[P any](game Game[P], db *NimberDB, opt Options) *DFPN[P] {
	if db == nil {
		db = NewNimberDB()
	}
	if opt.Capacity <= 0 {
		opt.Capacity = DefaultCapacity
	}
	if opt.ChildrenCache == 0 {
		opt.ChildrenCache = DefaultChildrenCache
	}
	s := &DFPN[P]{base: base[P]{game: game, db: db, kidsCap: opt.ChildrenCache}, opt: opt}
	s.tt = newTT(opt.Capacity, opt.Replacement, false)
	if opt.Seed != 0 {
		s.rng = rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x5DEECE66D))
	}
	return s
}

// DB returns the nimber database the search fills.
func (s *DFPN[P]) DB() *NimberDB { return s.db }

// Stats returns the counters of all calls so far.
func (s *DFPN[P]) Stats() Stats {
	st := s.stats
	st.NimberDB = s.db.Len()
	st.TTEntries = s.tt.entries
	st.TTCapacity = len(s.tt.buckets) * ttWays
	st.TTEvictions = s.tt.evictions
	return st
}

// Solve returns the outcome of pos + *n for the player to move, or Unknown
// if ctx ends or the iteration budget runs out first.
func (s *DFPN[P]) Solve(ctx context.Context, pos P, n uint32) Outcome {
	s.ctx, s.stop, s.check = ctx, false, 0
	s.budgetEnd = s.stats.Iterations + s.opt.MaxIterations
	s.start = time.Now()
	s.last = s.start
	defer func() { s.stats.Seconds += time.Since(s.start).Seconds() }()
	c, empty := s.fold(pos, n)
	if empty {
		if c.n == 0 {
			return Loss
		}
		return Win
	}
	root := s.newNode(c)
	s.root = root
	for !solved(root.pn, root.dn) && !s.stopped() {
		s.dfpn(root, rootThresholds)
	}
	return outcome(root.pn, root.dn)
}

// Grundy returns the Grundy value of pos: the first n for which pos + *n is
// a Loss. ok is false if the search stopped first.
func (s *DFPN[P]) Grundy(ctx context.Context, pos P) (g uint32, ok bool) {
	for n := uint32(0); ; n++ {
		switch s.Solve(ctx, pos, n) {
		case Loss:
			return n, true
		case Unknown:
			return 0, false
		}
	}
}

func outcome(pn, dn uint64) Outcome {
	switch {
	case pn == 0:
		return Win
	case dn == 0:
		return Loss
	}
	return Unknown
}

// stopped checks the budget, and now and then the context and the clock.
func (s *DFPN[P]) stopped() bool {
	if s.stop {
		return true
	}
	if s.opt.MaxIterations > 0 && s.stats.Iterations >= s.budgetEnd {
		s.stop = true
		return true
	}
	if s.stats.Iterations >= s.check {
		s.check = s.stats.Iterations + 1024
		if s.ctx.Err() != nil {
			s.stop = true
			return true
		}
		if s.opt.Progress != nil {
			now := time.Now()
			every := s.opt.ProgressEvery
			if every <= 0 {
				every = time.Second
			}
			if now.Sub(s.last) >= every {
				s.last = now
				s.opt.Progress(s.progress(now))
			}
		}
	}
	return false
}

func (s *DFPN[P]) progress(now time.Time) Progress {
	p := Progress{Elapsed: now.Sub(s.start), Iterations: s.stats.Iterations, Nimbers: s.db.Len(),
		TTEntries: s.tt.entries, TTCapacity: len(s.tt.buckets) * ttWays}
	if s.root != nil {
		p.RootPN, p.RootDN = s.root.pn, s.root.dn
	}
	return p
}

// newNode returns a node for couple c with the values the table or the
// nimber database knows, or the estimator's.
func (s *DFPN[P]) newNode(c couple[P]) *dnode[P] {
	v := &dnode[P]{c: c}
	switch s.known(&v.c) {
	case Win:
		v.pn, v.dn = 0, Inf
		return v
	case Loss:
		v.pn, v.dn = Inf, 0
		return v
	}
	if pn, dn, work, _, ok := s.tt.get(c.key, c.n); ok {
		v.pn, v.dn, v.work = pn, dn, work
		return v
	}
	v.pn, v.dn = 1, 1
	if s.opt.DepthEstimator {
		d := uint64(1 + c.size + int(c.n))
		v.pn, v.dn = d, d
	}
	return v
}

// dfpn searches below v while the thresholds hold and returns the number of
// iterations it spent.
func (s *DFPN[P]) dfpn(v *dnode[P], th thresholds) uint64 {
	s.stats.Iterations++
	work := uint64(1)
	s.expand(v)
	s.recompute(v)
	for s.holds(v, th) && !s.stopped() {
		w, next := s.choose(v, th)
		work += s.dfpn(w, next)
		s.recompute(v)
	}
	v.work += work
	s.tt.put(v.c.key, v.c.n, v.pn, v.dn, v.work)
	if v.dn == 0 {
		s.record(&v.c)
	}
	v.kids = nil
	return work
}

func (s *DFPN[P]) holds(v *dnode[P], th thresholds) bool {
	return v.pn < th.pt && v.dn < th.dt && min(add(v.pn, th.ps), add(v.dn, th.ds)) < th.mt
}

// expand gives v its children.
func (s *DFPN[P]) expand(v *dnode[P]) {
	if solved(v.pn, v.dn) {
		return
	}
	s.stats.Expansions++
	if v.c.decomp {
		v.merged = v.c.n
		comps := s.game.Components(v.c.pos)
		v.kids = make([]*dnode[P], 0, len(comps))
		for _, q := range comps {
			v.kids = append(v.kids, s.newNode(s.makeCouple(q, 0, 1)))
		}
		slices.SortFunc(v.kids, func(x, y *dnode[P]) int { return s.componentOrder(&x.c, &y.c) })
		return
	}
	children := s.children(&v.c)
	v.kids = make([]*dnode[P], 0, int(v.c.n)+len(children))
	for m := range v.c.n {
		v.kids = append(v.kids, s.newNode(s.makeCouple(v.c.pos, m, 1)))
	}
	for _, q := range children {
		c, empty := s.fold(q, v.c.n)
		if empty {
			if c.n == 0 {
				// A move to a lost position: v is won.
				v.kids = v.kids[:0]
				v.pn, v.dn = 0, Inf
				return
			}
			continue // a move to a won position is no use
		}
		v.kids = append(v.kids, s.newNode(c))
	}
	slices.SortFunc(v.kids, func(x, y *dnode[P]) int { return s.order(&x.c, &y.c) })
	v.kids = slices.CompactFunc(v.kids, func(x, y *dnode[P]) bool { return x.c.n == y.c.n && x.c.key == y.c.key })
}

// recompute brings v's proof and disproof numbers up to date with its
// children.
func (s *DFPN[P]) recompute(v *dnode[P]) {
	if solved(v.pn, v.dn) {
		v.kids = nil
		return
	}
	if v.c.decomp {
		s.recomputeSum(v)
		return
	}
	pn, dn := uint64(Inf), uint64(0)
	k := 0
	for _, c := range v.kids {
		if c.dn == 0 { // a lost child: v is won
			v.pn, v.dn, v.kids = 0, Inf, nil
			return
		}
		if c.pn == 0 {
			continue // a won child is no use
		}
		v.kids[k] = c
		k++
		pn = min(pn, c.dn)
		dn = add(dn, c.pn)
	}
	v.kids = v.kids[:k]
	if k == 0 {
		v.pn, v.dn = Inf, 0
		return
	}
	v.pn, v.dn = pn, dn
}

// recomputeSum keeps the books of a sum: a component whose Grundy value is
// known leaves, its value folded into merged; a component couple (Q, j) that
// is won says gn(Q) > j, so the next candidate (Q, j+1) takes its place.
// When one component is left, the sum's value is that of (Q, merged).
func (s *DFPN[P]) recomputeSum(v *dnode[P]) {
	for i := 0; i < len(v.kids); {
		c := v.kids[i]
		if g, ok := s.db.Get(c.c.key); ok {
			v.merged ^= g
			v.kids = slices.Delete(v.kids, i, i+1)
			continue
		}
		switch {
		case c.dn == 0:
			v.merged ^= c.c.n
			v.kids = slices.Delete(v.kids, i, i+1)
		case c.pn == 0:
			q := c.c
			q.n++
			v.kids[i] = s.newNode(q)
		default:
			i++
		}
	}
	switch len(v.kids) {
	case 0:
		if v.merged != 0 {
			v.pn, v.dn = 0, Inf
		} else {
			v.pn, v.dn = Inf, 0
		}
		return
	case 1:
		if c := v.kids[0]; c.c.n != v.merged {
			q := c.c
			q.n = v.merged
			v.kids[0] = s.newNode(q)
		}
		v.pn, v.dn = v.kids[0].pn, v.kids[0].dn
		if solved(v.pn, v.dn) {
			v.kids = nil
		}
		return
	}
	sum := uint64(0)
	for _, c := range v.kids {
		sum = add(sum, min(c.pn, c.dn))
	}
	v.pn, v.dn = sum, sum
}

// choose selects the child to search next and its thresholds.
func (s *DFPN[P]) choose(v *dnode[P], th thresholds) (*dnode[P], thresholds) {
	if v.c.decomp {
		if len(v.kids) == 1 {
			return v.kids[0], th
		}
		w, second := v.kids[0], -1
		if s.switching {
			var wi int
			wi, second = s.best(v.kids, func(c *dnode[P]) uint64 { return min(c.pn, c.dn) })
			w = v.kids[wi]
		}
		t := min(th.pt, th.dt, sub(th.mt, min(th.ps, th.ds)))
		assert(t > v.pn, "sum: t(v) > pn(v)")
		next := thresholds{pt: Inf, dt: Inf, mt: add(sub(t, v.pn), min(w.pn, w.dn))}
		if second >= 0 {
			c := v.kids[second]
			next.mt = min(next.mt, add(min(c.pn, c.dn), 1))
		}
		return w, next
	}
	wi, second := s.best(v.kids, func(c *dnode[P]) uint64 { return c.dn })
	w := v.kids[wi]
	sTh := uint64(Inf)
	if second >= 0 {
		sTh = add(v.kids[second].dn, 1)
	}
	next := thresholds{
		pt: add(sub(th.dt, v.dn), w.pn),
		dt: min(th.pt, sTh),
		mt: th.mt,
		ps: sub(add(th.ds, v.dn), w.pn),
		ds: th.ps,
	}
	if debugChecks {
		assert(add(w.pn, next.ps) == add(v.dn, th.ds), "atomic: pn(w)+ps(w) = dn(v)+ds(v)")
		assert(add(w.dn, next.ds) == add(v.pn, th.ps), "atomic: dn(w)+ds(w) = pn(v)+ps(v)")
	}
	return w, next
}

// best returns the index of the child with the least cx, and of a second
// one with the least cx among the rest (-1 if there is none). Ties go to the
// first in order, or with a seed to a random one of them.
func (s *DFPN[P]) best(kids []*dnode[P], cx func(*dnode[P]) uint64) (int, int) {
	w, second := 0, -1
	ties := 1
	for i := 1; i < len(kids); i++ {
		x := cx(kids[i])
		switch {
		case x < cx(kids[w]):
			w, second, ties = i, w, 1
		case x == cx(kids[w]):
			ties++
			if s.rng != nil && s.rng.IntN(ties) == 0 {
				w, second = i, w
			} else if second < 0 || cx(kids[second]) > x {
				second = i
			}
		case second < 0 || x < cx(kids[second]):
			second = i
		}
	}
	return w, second
}
