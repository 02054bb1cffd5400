package solve

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"
	"unsafe"
)

// PNS is proof-number search with Grundy numbers on a DAG: every couple met
// is one node, shared by all its parents (transpositions merged), and kept
// until the search ends, so memory grows with the nodes. Solved nodes drop
// their children but keep their values. A PNS keeps its DAG and nimber
// database between calls. It is not safe for concurrent use.
type PNS[P any] struct {
	base[P]
	opt   Options
	rng   *rand.Rand
	nodes map[ckey]*pnode[P]
	byPos map[string][]*pnode[P] // nodes of each atomic position, for new Grundy values
	queue RankQueue[*pnode[P]]
	ctx   context.Context
	stop  bool
	check uint64
	// budgetEnd is the iteration count at which this call stops.
	budgetEnd uint64
	start     time.Time
	last      time.Time
	root      *pnode[P]
}

type ckey struct {
	key string
	n   uint32
}

type pnode[P any] struct {
	c        couple[P]
	pn, dn   uint64
	expanded bool
	queued   bool
	merged   uint32
	kids     []*pnode[P]
	parents  []*pnode[P]
}

// NewPNS returns a PNS search of game using the nimber database db (a new
// one if nil). Options.Capacity does not apply.
func NewPNS[P any](game Game[P], db *NimberDB, opt Options) *PNS[P] {
	if db == nil {
		db = NewNimberDB()
	}
	if opt.ChildrenCache == 0 {
		opt.ChildrenCache = DefaultChildrenCache
	}
	// (P, 0), (P, 1), … are nodes of their own, and each is expanded with
	// the children of P.
	kids := newChildCache(opt.ChildrenCache, func(p P) int { return int(unsafe.Sizeof(p)) + len(game.Key(p)) })
	s := &PNS[P]{base: base[P]{game: game, db: db, kids: kids}, opt: opt,
		nodes: make(map[ckey]*pnode[P]), byPos: make(map[string][]*pnode[P])}
	if opt.Seed != 0 {
		s.rng = rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x5DEECE66D))
	}
	return s
}

// DB returns the nimber database the search fills.
func (s *PNS[P]) DB() *NimberDB { return s.db }

// Stats returns the counters of all calls so far.
func (s *PNS[P]) Stats() Stats {
	st := s.stats
	st.NimberDB = s.db.Len()
	st.Nodes = len(s.nodes)
	return st
}

// Solve returns the outcome of pos + *n for the player to move, or Unknown
// if ctx ends or the iteration budget runs out first.
func (s *PNS[P]) Solve(ctx context.Context, pos P, n uint32) Outcome {
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
	root := s.node(c)
	s.root = root
	for !solved(root.pn, root.dn) && !s.stopped() {
		v := root
		for v.expanded {
			v = s.selectChild(v)
		}
		s.stats.Iterations++
		s.expand(v)
		s.propagate(v)
	}
	return outcome(root.pn, root.dn)
}

// Grundy returns the Grundy value of pos; ok is false if the search stopped
// first.
func (s *PNS[P]) Grundy(ctx context.Context, pos P) (g uint32, ok bool) {
	for n := uint32(0); ; n++ {
		switch s.Solve(ctx, pos, n) {
		case Loss:
			return n, true
		case Unknown:
			return 0, false
		}
	}
}

func (s *PNS[P]) stopped() bool {
	if s.stop {
		return true
	}
	if s.opt.MaxIterations > 0 && s.stats.Iterations >= s.budgetEnd {
		s.stop = true
		return true
	}
	if s.stats.Iterations >= s.check {
		s.check = s.stats.Iterations + 16
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
				s.opt.Progress(Progress{Elapsed: now.Sub(s.start), Iterations: s.stats.Iterations,
					RootPN: s.root.pn, RootDN: s.root.dn, Nimbers: s.db.Len()})
			}
		}
	}
	return false
}

// node returns the node of couple c, creating it with the values the nimber
// database knows or the estimator's.
func (s *PNS[P]) node(c couple[P]) *pnode[P] {
	k := ckey{c.key, c.n}
	if v, ok := s.nodes[k]; ok {
		return v
	}
	v := &pnode[P]{c: c}
	v.pn, v.dn = s.leaf(s.opt.Estimator, &v.c)
	switch s.known(&v.c) {
	case Win:
		v.pn, v.dn = 0, Inf
	case Loss:
		v.pn, v.dn = Inf, 0
	}
	s.nodes[k] = v
	if !c.decomp {
		s.byPos[c.key] = append(s.byPos[c.key], v)
	}
	return v
}

func (s *PNS[P]) link(parent, child *pnode[P]) *pnode[P] {
	child.parents = append(child.parents, parent)
	return child
}

// selectChild picks the child to descend into: the least disproof number
// under a couple, the first component under a sum.
func (s *PNS[P]) selectChild(v *pnode[P]) *pnode[P] {
	if v.c.decomp {
		return v.kids[0]
	}
	w, ties := 0, 1
	for i := 1; i < len(v.kids); i++ {
		switch d, b := v.kids[i].dn, v.kids[w].dn; {
		case d < b:
			w, ties = i, 1
		case d == b && s.rng != nil:
			ties++
			if s.rng.IntN(ties) == 0 {
				w = i
			}
		}
	}
	return v.kids[w]
}

// expand gives v its children.
func (s *PNS[P]) expand(v *pnode[P]) {
	v.expanded = true
	if solved(v.pn, v.dn) {
		return
	}
	s.stats.Expansions++
	if v.c.decomp {
		v.merged = v.c.n
		for _, q := range s.game.Components(v.c.pos) {
			v.kids = append(v.kids, s.link(v, s.node(s.makeCouple(q, 0, 1))))
		}
		slices.SortFunc(v.kids, func(x, y *pnode[P]) int { return s.componentOrder(&x.c, &y.c) })
		return
	}
	var kids []couple[P]
	for m := range v.c.n {
		kids = append(kids, s.makeCouple(v.c.pos, m, 1))
	}
	// A lost child wins v: generation stops at the first one.
	made := 0
	stop := func(q P) bool {
		if made++; made%32 == 0 && s.ctx.Err() != nil {
			s.stop = true // generating a large position's children takes long
			return true
		}
		return s.lost(q, v.c.n)
	}
	children, complete := s.children(&v.c, stop)
	if !complete {
		if s.stop {
			v.expanded = false // expanded again if the search goes on
			return
		}
		v.pn, v.dn = 0, Inf
		return
	}
	for _, q := range children {
		c, empty := s.fold(q, v.c.n)
		if empty {
			if c.n == 0 {
				v.pn, v.dn = 0, Inf
				return
			}
			continue
		}
		kids = append(kids, c)
	}
	for i := range kids {
		s.estimate(&kids[i]) // once: the comparisons below see copies
	}
	slices.SortFunc(kids, func(x, y couple[P]) int { return s.order(&x, &y) })
	kids = slices.CompactFunc(kids, func(x, y couple[P]) bool { return x.n == y.n && x.key == y.key })
	for _, c := range kids {
		v.kids = append(v.kids, s.link(v, s.node(c)))
	}
	if len(v.kids) == 0 {
		v.pn, v.dn = Inf, 0
	}
}

// recompute brings v's numbers up to date with its children, as
// DFPN.recompute does, creating replacement components as nodes.
func (s *PNS[P]) recompute(v *pnode[P]) {
	if solved(v.pn, v.dn) || !v.expanded {
		if solved(v.pn, v.dn) {
			v.kids = nil
		}
		return
	}
	if v.c.decomp {
		s.recomputeSum(v)
		return
	}
	v.kids, v.pn, v.dn = SettleAtomic(v.kids, func(c *pnode[P]) (uint64, uint64) { return c.pn, c.dn })
}

// recomputeSum keeps the books of a sum (see SettleSum); replacement
// components are nodes of the DAG.
func (s *PNS[P]) recomputeSum(v *pnode[P]) {
	look := func(c *pnode[P]) SumChild { return SumChild{c.c.key, c.c.n, c.pn, c.dn} }
	next := func(c *pnode[P], n uint32) *pnode[P] {
		q := c.c
		q.n = n
		return s.link(v, s.node(q))
	}
	v.kids, v.pn, v.dn = SettleSum(v.kids, &v.merged, s.db, look, next)
}

// propagate recomputes v and, in order of rank, every ancestor whose numbers
// may change. A child always has a smaller rank (size, heap) than its
// parents, so each node is recomputed after all its changed children.
func (s *PNS[P]) propagate(v *pnode[P]) {
	s.push(v)
	for s.queue.Len() > 0 {
		u := s.queue.Pop()
		u.queued = false
		pn, dn := u.pn, u.dn
		s.recompute(u)
		if u.dn == 0 && !u.c.decomp {
			s.learn(u)
		}
		if u == v || u.pn != pn || u.dn != dn {
			for _, p := range u.parents {
				s.push(p)
			}
		}
	}
}

func (s *PNS[P]) push(v *pnode[P]) {
	if !v.queued {
		v.queued = true
		s.queue.Push(v, v.c.size, v.c.n)
	}
}

// learn records gn(P) = n for the lost atomic couple u = (P, n) and settles
// every other node of P: (P, m) is won for m ≠ n.
func (s *PNS[P]) learn(u *pnode[P]) {
	if !s.db.Put(u.c.key, u.c.n) {
		return
	}
	s.stats.GrundyNumbers++
	for _, w := range s.byPos[u.c.key] {
		if w != u && !solved(w.pn, w.dn) {
			w.pn, w.dn, w.kids = 0, Inf, nil
			for _, p := range w.parents {
				s.push(p)
			}
		}
	}
}
