package solve

import "context"

// Expansion is what a budgeted search learned about a couple: its proof
// and disproof numbers and, unless it is solved, its children as they stand
// in the transposition table. It is the unit of work of a distributed
// search: a master expands its leaf with the children a worker reports.
type Expansion[P any] struct {
	Pos     P
	N       uint32
	PN, DN  uint64
	Outcome Outcome // Win, Loss, or Unknown while unsolved
	// The couple actually expanded: Pos + *N with the components whose
	// Grundy values the worker knows folded into the heap. Children are
	// those of this couple.
	Folded     P
	FoldedN    uint32
	Sum        bool   // Folded has two or more components
	Merged     uint32 // sums: the heap with every resolved component folded in
	Children   []ChildValue[P]
	Iterations uint64 // spent on this job, over all threads
}

// ChildValue is a child couple of an Expansion with its numbers.
type ChildValue[P any] struct {
	Pos    P
	N      uint32
	PN, DN uint64
}

// Job searches pos + *n for at most maxIterations iterations per thread
// (0: until solved or ctx ends), then expands the couple once more from the
// table and reports it with its children: the job interface of the swarm.
// The table and database carry over to the next job, so continuing the same
// couple resumes where this one stopped.
func (s *DFPN[P]) Job(ctx context.Context, pos P, n uint32, maxIterations uint64) Expansion[P] {
	before := s.Stats().Iterations
	saved := s.opt.MaxIterations
	s.opt.MaxIterations = maxIterations
	out := s.Solve(ctx, pos, n)
	s.opt.MaxIterations = saved
	e := Expansion[P]{Pos: pos, N: n, Outcome: out}
	e.Iterations = s.Stats().Iterations - before
	w := s.workers[0]
	c, empty := w.fold(pos, n)
	switch {
	case empty && c.n == 0, out == Loss:
		e.PN, e.DN, e.Outcome = Inf, 0, Loss
		return e
	case empty, out == Win:
		e.PN, e.DN, e.Outcome = 0, Inf, Win
		return e
	}
	v := w.newNode(c)
	w.expand(v)
	if v.kids == nil && !solved(v.pn, v.dn) {
		// ctx ended while the children were made: nothing to report.
		e.PN, e.DN, e.Outcome = v.pn, v.dn, Unknown
		return e
	}
	w.recompute(v)
	e.PN, e.DN, e.Outcome = v.pn, v.dn, outcome(v.pn, v.dn)
	e.Folded, e.FoldedN, e.Sum, e.Merged = c.pos, c.n, c.decomp, v.merged
	if e.Outcome != Unknown {
		return e
	}
	for _, k := range v.kids {
		e.Children = append(e.Children, ChildValue[P]{Pos: k.c.pos, N: k.c.n, PN: k.pn, DN: k.dn})
	}
	return e
}

// ClearTable empties the transposition table and the cache of children: a
// distributed search's "state level 1" when a solver moves to another job.
func (s *DFPN[P]) ClearTable() {
	s.tt.clear()
	s.workers[0].kids.clear()
}
