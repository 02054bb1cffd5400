package solve

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"
)

// PNS is proof-number search with Grundy numbers on a DAG: every couple met
// is one node, shared by all its parents (transpositions merged), and kept
// until the search ends, so memory grows with the nodes. Solved nodes drop
// their children but keep their values. A PNS keeps its DAG and nimber
// database between calls. It is not safe for concurrent use.
//
// Most nodes of the DAG are leaves that are never expanded (seven in eight
// on 0*12), so a node is kept small: its position, numbers, heap and size,
// its first parent and, only for nodes with several, a slice of the others.
// Nodes are allocated in blocks and found through an open-addressing table
// of pointers, not a map keyed by strings; the node of (P, m) for another
// heap m is found by looking each heap up, not through an index of its own.
type PNS[P any] struct {
	base[P]
	opt     Options
	rng     *rand.Rand
	nodes   nodeTable[P]
	block   []pnode[P] // where the next nodes are allocated
	maxHeap uint32     // the largest heap of a node
	queue   RankQueue[*pnode[P]]
	couples []couple[P] // scratch for expand
	ctx     context.Context
	stop    bool
	check   uint64
	// budgetEnd is the iteration count at which this call stops.
	budgetEnd uint64
	start     time.Time
	last      time.Time
	root      *pnode[P]
	lostFn    func(P) bool // expand's question to each child (lostChild)
	made      int
	heap      uint32
}

type ckey struct {
	key string
	n   uint32
}

type pnode[P any] struct {
	pos    P
	kids   []*pnode[P]
	parent *pnode[P]    // the first parent, nil for the root
	more   *[]*pnode[P] // the other parents
	pn, dn uint64
	n      uint32
	merged uint32 // sums: the heap with every resolved component folded in
	size   int32
	flags  uint8
}

const (
	pExpanded = 1 << iota
	pQueued
	pDecomp // the position has two or more components
)

func (v *pnode[P]) has(f uint8) bool { return v.flags&f != 0 }

func (v *pnode[P]) set(f uint8, on bool) {
	if on {
		v.flags |= f
	} else {
		v.flags &^= f
	}
}

// nodeBlock is how many nodes are allocated at once.
const nodeBlock = 256

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
	kids := newChildCache(opt.ChildrenCache, positionBytes(game))
	s := &PNS[P]{base: base[P]{game: game, db: db, kids: kids}, opt: opt}
	s.nodes.key = func(v *pnode[P]) string { return game.Key(v.pos) }
	if opt.Seed != 0 {
		s.rng = rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x5DEECE66D))
	}
	s.lostFn = s.lostChild
	return s
}

// DB returns the nimber database the search fills.
func (s *PNS[P]) DB() *NimberDB { return s.db }

// Stats returns the counters of all calls so far.
func (s *PNS[P]) Stats() Stats {
	st := s.stats
	st.NimberDB = s.db.Len()
	st.Nodes = s.nodes.n
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
	root := s.node(&c)
	s.root = root
	for !solved(root.pn, root.dn) && !s.stopped() {
		v := root
		for v.has(pExpanded) {
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
	return grundyBySolving(ctx, pos, s.Solve)
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

// couple returns the couple of node v.
func (s *PNS[P]) couple(v *pnode[P]) couple[P] {
	comps := 1
	if v.has(pDecomp) {
		comps = 2 // only whether it is more than one matters here
	}
	return couple[P]{pos: v.pos, key: s.game.Key(v.pos), n: v.n, decomp: v.has(pDecomp), size: int(v.size), est: -1, comps: comps}
}

// node returns the node of couple c, creating it with the values the nimber
// database knows or the estimator's.
func (s *PNS[P]) node(c *couple[P]) *pnode[P] {
	i, v := s.nodes.find(c.key, c.n)
	if v != nil {
		return v
	}
	if len(s.block) == 0 {
		s.block = make([]pnode[P], nodeBlock)
	}
	v = &s.block[0]
	s.block = s.block[1:]
	*v = pnode[P]{pos: c.pos, n: c.n, size: int32(c.size)}
	v.set(pDecomp, c.decomp)
	v.pn, v.dn = s.leaf(s.opt.Estimator, c)
	switch s.known(c) {
	case Win:
		v.pn, v.dn = 0, Inf
	case Loss:
		v.pn, v.dn = Inf, 0
	}
	s.nodes.insert(i, c.key, c.n, v)
	s.maxHeap = max(s.maxHeap, c.n)
	return v
}

// link records parent as a parent of child and returns child. A solved
// child never changes again, so it needs no parents.
func (s *PNS[P]) link(parent, child *pnode[P]) *pnode[P] {
	switch {
	case solved(child.pn, child.dn):
	case child.parent == nil:
		child.parent = parent
	case child.more == nil:
		child.more = &[]*pnode[P]{parent}
	default:
		*child.more = append(*child.more, parent)
	}
	return child
}

// selectChild picks the child to descend into: the least disproof number
// under a couple, the first component under a sum.
func (s *PNS[P]) selectChild(v *pnode[P]) *pnode[P] {
	if v.has(pDecomp) {
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

// lostChild is what expand asks of each child q as it is made: whether q
// + *s.heap is lost, or the search must stop.
func (s *PNS[P]) lostChild(q P) bool {
	if s.made++; s.made%32 == 0 && s.ctx.Err() != nil {
		s.stop = true // generating a large position's children takes long
		return true
	}
	return s.lost(q, s.heap)
}

// expand gives v its children.
func (s *PNS[P]) expand(v *pnode[P]) {
	v.set(pExpanded, true)
	if solved(v.pn, v.dn) {
		return
	}
	s.stats.Expansions++
	kids := s.couples[:0]
	defer func() { clear(kids[:cap(kids)]); s.couples = kids[:0] }()
	if v.has(pDecomp) {
		v.merged = v.n
		for _, q := range s.game.Components(v.pos) {
			kids = append(kids, s.makeCouple(q, 0, 1))
		}
		slices.SortFunc(kids, func(x, y couple[P]) int { return s.componentOrder(&x, &y) })
		v.kids = make([]*pnode[P], 0, len(kids))
		for i := range kids {
			v.kids = append(v.kids, s.link(v, s.node(&kids[i])))
		}
		return
	}
	for m := range v.n {
		kids = append(kids, s.makeCouple(v.pos, m, 1))
	}
	// A lost child wins v: generation stops at the first one.
	c := s.couple(v)
	s.made, s.heap = 0, v.n
	children, complete := s.children(&c, s.lostFn)
	if !complete {
		if s.stop {
			v.set(pExpanded, false) // expanded again if the search goes on
			return
		}
		v.pn, v.dn = 0, Inf
		return
	}
	for _, q := range children {
		c, empty := s.fold(q, v.n)
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
	v.kids = make([]*pnode[P], 0, len(kids))
	for i := range kids {
		v.kids = append(v.kids, s.link(v, s.node(&kids[i])))
	}
	if len(v.kids) == 0 {
		v.pn, v.dn = Inf, 0
	}
}

// recompute brings v's numbers up to date with its children, as
// DFPN.recompute does, creating replacement components as nodes.
func (s *PNS[P]) recompute(v *pnode[P]) {
	if solved(v.pn, v.dn) || !v.has(pExpanded) {
		if solved(v.pn, v.dn) {
			v.kids = nil
		}
		return
	}
	if v.has(pDecomp) {
		s.recomputeSum(v)
		return
	}
	v.kids, v.pn, v.dn = SettleAtomic(v.kids, func(c *pnode[P]) (uint64, uint64) { return c.pn, c.dn })
}

// recomputeSum keeps the books of a sum (see SettleSum); replacement
// components are nodes of the DAG.
func (s *PNS[P]) recomputeSum(v *pnode[P]) {
	look := func(c *pnode[P]) SumChild { return SumChild{s.game.Key(c.pos), c.n, c.pn, c.dn} }
	next := func(c *pnode[P], n uint32) *pnode[P] {
		q := s.couple(c)
		q.n = n
		return s.link(v, s.node(&q))
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
		u.set(pQueued, false)
		pn, dn := u.pn, u.dn
		s.recompute(u)
		if u.dn == 0 && !u.has(pDecomp) {
			s.learn(u)
		}
		if u == v || u.pn != pn || u.dn != dn {
			s.pushParents(u)
		}
	}
}

// pushParents queues the parents of u; once u is solved they are told for
// the last time, and u forgets them.
func (s *PNS[P]) pushParents(u *pnode[P]) {
	if u.parent != nil {
		s.push(u.parent)
	}
	if u.more != nil {
		for _, p := range *u.more {
			s.push(p)
		}
	}
	if solved(u.pn, u.dn) {
		u.parent, u.more = nil, nil
	}
}

func (s *PNS[P]) push(v *pnode[P]) {
	if !v.has(pQueued) {
		v.set(pQueued, true)
		s.queue.Push(v, int(v.size), v.n)
	}
}

// learn records gn(P) = n for the lost atomic couple u = (P, n) and settles
// every other node of P: (P, m) is won for m ≠ n.
func (s *PNS[P]) learn(u *pnode[P]) {
	key := s.game.Key(u.pos)
	if !s.db.Put(key, u.n) {
		return
	}
	s.stats.GrundyNumbers++
	for m := uint32(0); m <= s.maxHeap; m++ {
		if m == u.n {
			continue
		}
		if _, w := s.nodes.find(key, m); w != nil && !solved(w.pn, w.dn) {
			w.pn, w.dn, w.kids = 0, Inf, nil
			s.pushParents(w)
		}
	}
}

// nodeTable finds the node of a couple: open addressing with linear
// probing over pointers to the nodes, whose keys it asks of key. It is
// kept at most three quarters full.
type nodeTable[P any] struct {
	slots []*pnode[P]
	n     int
	key   func(*pnode[P]) string
}

// find returns the node of (key, n), or nil and the slot where it belongs.
func (t *nodeTable[P]) find(key string, n uint32) (int, *pnode[P]) {
	if len(t.slots) == 0 {
		return -1, nil
	}
	mask := len(t.slots) - 1
	for i := int(hashKey(key, n)) & mask; ; i = (i + 1) & mask {
		v := t.slots[i]
		if v == nil {
			return i, nil
		}
		if v.n == n && t.key(v) == key {
			return i, v
		}
	}
}

// insert puts v, the node of (key, n), in slot i, which find returned.
func (t *nodeTable[P]) insert(i int, key string, n uint32, v *pnode[P]) {
	if i < 0 || 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
		i, _ = t.find(key, n)
	}
	t.slots[i] = v
	t.n++
}

func (t *nodeTable[P]) grow() {
	old := t.slots
	t.slots = make([]*pnode[P], max(1024, 2*len(old)))
	mask := len(t.slots) - 1
	for _, v := range old {
		if v == nil {
			continue
		}
		i := int(hashKey(t.key(v), v.n)) & mask
		for t.slots[i] != nil {
			i = (i + 1) & mask
		}
		t.slots[i] = v
	}
}
