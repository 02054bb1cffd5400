package solve

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// DFPN is depth-first proof-number search with Grundy numbers: PNS with GN
// in the memory-bounded form of the paper (thresholds pt, dt, mt and shifts
// ps, ds), a transposition table of fixed capacity and a nimber database
// that is never evicted.
//
// With Options.Threads ≥ 2 it is PDFPN (Kaneko 2010 as adapted in the
// paper): that many threads run DFPN from the root at once, sharing the
// table and the database. A thread counts the threads working below each
// child and adds that number to the child's complexity when it chooses
// where to go (and takes it off its switching threshold), so threads spread
// over the tree; a thread that solves a couple tells the others inside it to
// back out. With one thread it is plain DFPN, move for move.
//
// A DFPN keeps its table and database between calls, so the couples of a
// Grundy computation reuse each other's work. Its methods must not be
// called concurrently.
type DFPN[P any] struct {
	game    Game[P]
	db      *NimberDB
	opt     Options
	tt      *tt
	workers []*worker[P]

	// per call
	ctx   context.Context
	halt  atomic.Bool // a thread has returned from the root: all stop
	turns *turns      // Options.Lockstep: whose iteration it is
	start time.Time
	total Stats // counters of finished calls

	saved time.Time // when Options.Checkpoint was last called (or the search made)
}

// worker is one thread of the search, with its own path, counters, random
// ties and mailbox.
type worker[P any] struct {
	base[P]
	s         *DFPN[P]
	id        int
	parallel  bool // more than one thread: register, re-read, notify
	switching bool // a sum's search may move between components
	rng       *rand.Rand
	stop      bool
	check     uint64 // iteration count at which to look at the context and clock next
	budgetEnd uint64 // iteration count at which this call stops
	last      time.Time
	root      *dnode[P]
	iters     atomic.Uint64 // Iterations, readable by the progress report

	path   []*dnode[P] // open nodes, root first
	unwind int         // index in path to back out to, -1 if none
	box    mailbox
	below  []RootChild[P] // the iterations below each child of the root, this call

	// expand's question to each child as it is made (lostChild)
	stopAtLost func(P) bool
	made       int    // children made so far
	heap       uint32 // the heap of the couple expanded

	freeNodes []*dnode[P]   // nodes let go of, for alloc
	freeKids  [][]*dnode[P] // children slices let go of, for kidsOf
}

// mailbox holds the couples other threads solved while this thread may be
// inside them.
// Its owner looks at it after every child it searched, so an empty box
// is seen from a count that only posts write, without taking the lock.
type mailbox struct {
	n    atomic.Int32 // len(keys)
	mu   sync.Mutex
	keys []ckey
}

func (m *mailbox) post(k ckey) {
	m.mu.Lock()
	m.keys = append(m.keys, k)
	m.n.Store(int32(len(m.keys)))
	m.mu.Unlock()
}

func (m *mailbox) take(into []ckey) []ckey {
	if m.n.Load() == 0 {
		return into[:0]
	}
	m.mu.Lock()
	into = append(into[:0], m.keys...)
	m.keys = m.keys[:0]
	m.n.Store(0)
	m.mu.Unlock()
	return into
}

// dnode is a couple on a thread's current path, with its children while it
// is open.
type dnode[P any] struct {
	c      couple[P]
	pn, dn uint64
	work   uint64 // work below this couple, as stored in the table
	th     int    // threads working below this couple (PDFPN)
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

// MaxThreads is the most threads a DFPN may run: the table marks the
// threads inside a couple with one bit each.
const MaxThreads = 64

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
	if opt.Spread == 0 {
		opt.Spread = DefaultSpread
	}
	opt.Threads = min(max(opt.Threads, 1), MaxThreads)
	s := &DFPN[P]{game: game, db: db, opt: opt, saved: time.Now()}
	s.tt = newTT(opt.Capacity, opt.Replacement, opt.Threads > 1)
	kids := newChildCache(opt.ChildrenCache, positionBytes(game))
	for i := range opt.Threads {
		w := &worker[P]{base: base[P]{game: game, db: db, kids: kids}, s: s, id: i, unwind: -1}
		w.parallel = opt.Threads > 1
		w.switching = w.parallel
		switch {
		case opt.Seed != 0:
			seed := opt.Seed + uint64(i)
			w.rng = rand.New(rand.NewPCG(seed, seed^0x5DEECE66D))
		case w.parallel:
			// Threads that broke ties alike would crowd the same subtree.
			w.rng = rand.New(rand.NewPCG(uint64(i)+1, 0x5DEECE66D))
		}
		s.workers = append(s.workers, w)
	}
	return s
}

// DB returns the nimber database the search fills.
func (s *DFPN[P]) DB() *NimberDB { return s.db }

// IterationsSoFar returns the iterations of every thread as the threads
// last published them. It may be called while a search runs, from any
// goroutine: it never decreases, and it is below Stats().Iterations by at
// most IterationsPublishedEvery a thread (a simulated swarm reads it to
// know how far a running job has surely got).
func (s *DFPN[P]) IterationsSoFar() uint64 {
	var n uint64
	for _, w := range s.workers {
		n += w.iters.Load()
	}
	return n
}

// IterationsPublishedEvery is how often, in iterations, a thread publishes
// its count for IterationsSoFar.
const IterationsPublishedEvery = 16

// Stats returns the counters of all calls so far, summed over threads.
func (s *DFPN[P]) Stats() Stats {
	st := s.total
	for _, w := range s.workers {
		st.Iterations += w.stats.Iterations
		st.Expansions += w.stats.Expansions
		st.GrundyNumbers += w.stats.GrundyNumbers
		st.TTLookups += w.stats.TTLookups
		st.TTHits += w.stats.TTHits
		st.Notifications += w.stats.Notifications
		st.PerThread = append(st.PerThread, w.stats.Iterations)
	}
	if len(s.workers) == 1 {
		st.PerThread = nil
	}
	st.NimberDB = s.db.Len()
	st.TTEntries = s.tt.entries.Load()
	st.TTCapacity = s.tt.capacity()
	st.TTEvictions = s.tt.evictions.Load()
	st.LockWaits = s.tt.waits.Load()
	st.LockWaitSeconds = time.Duration(s.tt.waitNanos.Load()).Seconds()
	return st
}

// Solve returns the outcome of pos + *n for the player to move, or Unknown
// if ctx ends or the iteration budget (per thread) runs out first.
func (s *DFPN[P]) Solve(ctx context.Context, pos P, n uint32) Outcome {
	s.ctx = ctx
	s.start = time.Now()
	s.halt.Store(false)
	defer func() { s.total.Seconds += time.Since(s.start).Seconds() }()
	for _, w := range s.workers {
		w.below = w.below[:0]
	}
	w0 := s.workers[0]
	c, empty := w0.fold(pos, n)
	if empty {
		if c.n == 0 {
			return Loss
		}
		return Win
	}
	if len(s.workers) == 1 {
		return w0.run(c)
	}
	var wg sync.WaitGroup
	outs := make([]Outcome, len(s.workers))
	s.turns = nil
	if s.opt.Lockstep {
		s.turns = newTurns(len(s.workers))
	}
	for i, w := range s.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.turns != nil {
				s.turns.wait(i)
				defer s.turns.leave(i)
			}
			outs[i] = w.run(c)
			s.halt.Store(true) // the first thread back from the root stops the rest
		}()
	}
	wg.Wait()
	// The root's value as the table holds it: any thread's proof counts.
	if pn, dn, _, _, ok := s.tt.get(c.key, c.n); ok && solved(pn, dn) {
		return outcome(pn, dn)
	}
	if out := w0.known(&c); out != Unknown {
		return out
	}
	for _, o := range outs {
		if o != Unknown {
			return o
		}
	}
	return Unknown
}

// Grundy returns the Grundy value of pos: the first n for which pos + *n is
// a Loss. ok is false if the search stopped first.
func (s *DFPN[P]) Grundy(ctx context.Context, pos P) (g uint32, ok bool) {
	return grundyBySolving(ctx, pos, s.Solve)
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

// run searches from the root couple c until it is solved or the thread must
// stop.
func (w *worker[P]) run(c couple[P]) Outcome {
	w.stop, w.check = false, 0
	w.budgetEnd = w.stats.Iterations + w.s.opt.MaxIterations
	w.last = w.s.start
	w.path, w.unwind = w.path[:0], -1
	w.box.take(nil)
	root := w.newNode(c)
	w.root = root
	for !solved(root.pn, root.dn) && !w.stopped() {
		w.dfpn(root, rootThresholds)
		w.unwind = -1
	}
	return outcome(root.pn, root.dn)
}

// reread refreshes v's children from the database and the table, where
// other threads may have made progress.
func (w *worker[P]) reread(v *dnode[P]) {
	for _, c := range v.kids {
		if solved(c.pn, c.dn) {
			continue
		}
		switch w.known(&c.c) {
		case Win:
			c.pn, c.dn = 0, Inf
			continue
		case Loss:
			c.pn, c.dn = Inf, 0
			continue
		}
		if pn, dn, work, threads, ok := w.s.tt.get(c.c.key, c.c.n); ok {
			c.pn, c.dn, c.work, c.th = pn, dn, work, bits.OnesCount64(threads)
		} else {
			c.th = 0
		}
	}
}

// dfpn searches below v while the thresholds hold and returns the number of
// iterations it spent.
func (w *worker[P]) dfpn(v *dnode[P], th thresholds) uint64 {
	if w.s.turns != nil {
		w.s.turns.pass(w.id)
	}
	w.stats.Iterations++
	work := uint64(1)
	w.expand(v)
	if w.stop && v.kids == nil && !solved(v.pn, v.dn) {
		return work // stopped while making v's children: v keeps its numbers
	}
	w.recompute(v)
	if w.parallel {
		w.s.tt.put(v.c.key, v.c.n, v.pn, v.dn, v.work)
		w.s.tt.register(v.c.key, v.c.n, w.id, true)
		w.path = append(w.path, v)
	}
	for w.holds(v, th) && !w.stopped() {
		c, next := w.choose(v, th)
		below := w.dfpn(c, next)
		work += below
		if v == w.root {
			w.countBelow(c, below)
		}
		if w.parallel {
			if w.unwind >= 0 && w.unwind < len(w.path) {
				break // another thread solved a couple on this path
			}
			w.reread(v)
		}
		w.recompute(v)
		if w.parallel {
			w.publish(v)
			w.readMail()
		}
	}
	v.work += work
	threads, wasUnsolved := w.s.tt.put(v.c.key, v.c.n, v.pn, v.dn, v.work)
	if v.dn == 0 {
		w.record(&v.c)
	}
	if w.parallel {
		if wasUnsolved && solved(v.pn, v.dn) {
			w.notify(v, threads)
		}
		w.s.tt.register(v.c.key, v.c.n, w.id, false)
		w.path = w.path[:len(w.path)-1]
		if w.unwind == len(w.path) {
			w.unwind = -1 // v was the shallowest solved couple: its parent goes on
		}
	}
	w.release(v)
	return work
}

// publish stores v's new values and tells the threads inside v when v has
// just been solved.
func (w *worker[P]) publish(v *dnode[P]) {
	threads, wasUnsolved := w.s.tt.put(v.c.key, v.c.n, v.pn, v.dn, v.work)
	if wasUnsolved && solved(v.pn, v.dn) {
		w.notify(v, threads)
	}
}

func (w *worker[P]) notify(v *dnode[P], threads uint64) {
	threads &^= 1 << w.id
	for threads != 0 {
		i := bits.TrailingZeros64(threads)
		threads &^= 1 << i
		w.s.workers[i].box.post(ckey{v.c.key, v.c.n})
		w.stats.Notifications++
	}
}

// readMail looks for couples other threads solved on this thread's path,
// and marks the shallowest for backing out to.
func (w *worker[P]) readMail() {
	keys := w.box.take(nil)
	for _, k := range keys {
		for i, u := range w.path {
			if u.c.n == k.n && u.c.key == k.key {
				if w.unwind < 0 || i < w.unwind {
					w.unwind = i
				}
				break
			}
		}
	}
}

func (w *worker[P]) holds(v *dnode[P], th thresholds) bool {
	return v.pn < th.pt && v.dn < th.dt && min(add(v.pn, th.ps), add(v.dn, th.ds)) < th.mt
}

// expand gives v its children.
func (w *worker[P]) expand(v *dnode[P]) {
	if solved(v.pn, v.dn) {
		return
	}
	w.stats.Expansions++
	if v.c.decomp {
		v.merged = v.c.n
		comps := w.game.Components(v.c.pos)
		v.kids = w.kidsOf(len(comps))
		for _, q := range comps {
			v.kids = append(v.kids, w.newNode(w.makeCouple(q, 0, 1)))
		}
		slices.SortFunc(v.kids, func(x, y *dnode[P]) int { return w.componentOrder(&x.c, &y.c) })
		return
	}
	// A child that is lost (every component's value known, xor equal to
	// the heap) wins v: generation stops at the first one.
	// Generating the children of a large position takes long: the context
	// is looked at every few children, and an ended one stops it too.
	if w.stopAtLost == nil {
		w.stopAtLost = w.lostChild // once: a method value is an allocation
	}
	w.made, w.heap = 0, v.c.n
	children, complete := w.children(&v.c, w.stopAtLost)
	if !complete {
		if !w.stop {
			v.pn, v.dn = 0, Inf
		}
		return
	}
	v.kids = w.kidsOf(int(v.c.n) + len(children))
	for m := range v.c.n {
		v.kids = append(v.kids, w.newNode(w.makeCouple(v.c.pos, m, 1)))
	}
	for _, q := range children {
		c, empty := w.fold(q, v.c.n)
		if empty {
			if c.n == 0 {
				// A move to a lost position: v is won.
				v.kids = v.kids[:0]
				v.pn, v.dn = 0, Inf
				return
			}
			continue // a move to a won position is no use
		}
		v.kids = append(v.kids, w.newUnknownNode(c))
	}
	slices.SortFunc(v.kids, func(x, y *dnode[P]) int { return w.order(&x.c, &y.c) })
	v.kids = slices.CompactFunc(v.kids, func(x, y *dnode[P]) bool { return x.c.n == y.c.n && x.c.key == y.c.key })
}

// lostChild is what expand asks of each child q as it is made: whether q
// is lost against the heap w.heap, or the search must stop.
func (w *worker[P]) lostChild(q P) bool {
	if w.made++; w.made%32 == 0 && w.s.ctx.Err() != nil {
		w.stop = true
		return true
	}
	return w.lost(q, w.heap)
}

// recompute brings v's proof and disproof numbers up to date with its
// children.
func (w *worker[P]) recompute(v *dnode[P]) {
	if solved(v.pn, v.dn) {
		v.kids = nil
		return
	}
	if v.c.decomp {
		w.recomputeSum(v)
		return
	}
	v.kids, v.pn, v.dn = SettleAtomic(v.kids, func(c *dnode[P]) (uint64, uint64) { return c.pn, c.dn })
}

// recomputeSum keeps the books of a sum (see SettleSum).
func (w *worker[P]) recomputeSum(v *dnode[P]) {
	look := func(c *dnode[P]) SumChild { return SumChild{c.c.key, c.c.n, c.pn, c.dn} }
	next := func(c *dnode[P], n uint32) *dnode[P] {
		q := c.c
		q.n = n
		return w.newNode(q)
	}
	v.kids, v.pn, v.dn = SettleSum(v.kids, &v.merged, w.db, look, next)
}

// choose selects the child to search next and its thresholds. In parallel
// search a child's complexity is raised by Options.Spread for each thread
// below it (vcx), which steers this thread elsewhere; the switching threshold S
// counts the second child virtually and takes the chosen child's threads
// off, so it never falls below the chosen child's own complexity.
func (w *worker[P]) choose(v *dnode[P], th thresholds) (*dnode[P], thresholds) {
	if v.c.decomp {
		if len(v.kids) == 1 {
			return v.kids[0], th
		}
		c, second := v.kids[0], -1
		if w.switching {
			var ci int
			ci, second = w.best(v.kids, func(c *dnode[P]) uint64 { return add(min(c.pn, c.dn), w.busy(c.th)) })
			c = v.kids[ci]
		}
		t := min(th.pt, th.dt, sub(th.mt, min(th.ps, th.ds)))
		assert(t > v.pn, "sum: t(v) > pn(v)")
		next := thresholds{pt: Inf, dt: Inf, mt: add(sub(t, v.pn), min(c.pn, c.dn))}
		if second >= 0 {
			d := v.kids[second]
			next.mt = min(next.mt, sub(add(add(min(d.pn, d.dn), w.busy(d.th)), 1), w.busy(c.th)))
		}
		return c, next
	}
	ci, second := w.best(v.kids, func(c *dnode[P]) uint64 { return add(c.dn, w.busy(c.th)) })
	c := v.kids[ci]
	sTh := uint64(Inf)
	if second >= 0 {
		d := v.kids[second]
		sTh = sub(add(add(d.dn, w.busy(d.th)), 1), w.busy(c.th))
	}
	next := thresholds{
		pt: add(sub(th.dt, v.dn), c.pn),
		dt: min(th.pt, sTh),
		mt: th.mt,
		ps: sub(add(th.ds, v.dn), c.pn),
		ds: th.ps,
	}
	if debugChecks && !w.parallel {
		assert(add(c.pn, next.ps) == add(v.dn, th.ds), "atomic: pn(w)+ps(w) = dn(v)+ds(v)")
		assert(add(c.dn, next.ds) == add(v.pn, th.ps), "atomic: dn(w)+ds(w) = pn(v)+ps(v)")
	}
	return c, next
}

// busy is what th threads working below a child add to its complexity
// when this thread chooses (Options.Spread each).
func (w *worker[P]) busy(th int) uint64 { return uint64(th) * w.s.opt.Spread }

// best returns the index of the child with the least cx, and of a second
// one with the least cx among the rest (-1 if there is none). Ties go to the
// first in order, or with a random source to a random one of them.
func (w *worker[P]) best(kids []*dnode[P], cx func(*dnode[P]) uint64) (int, int) {
	b, second := 0, -1
	ties := 1
	for i := 1; i < len(kids); i++ {
		x := cx(kids[i])
		switch {
		case x < cx(kids[b]):
			b, second, ties = i, b, 1
		case x == cx(kids[b]):
			ties++
			if w.rng != nil && w.rng.IntN(ties) == 0 {
				b, second = i, b
			} else if second < 0 || cx(kids[second]) > x {
				second = i
			}
		case second < 0 || x < cx(kids[second]):
			second = i
		}
	}
	return b, second
}
