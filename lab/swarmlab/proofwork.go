package swarmlab

import (
	"slices"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// ProofWork splits the iterations the master was reported, once its root
// is solved, by where they went: on the couples of a proof of the root the
// DAG holds, or off it. A couple's work is the iterations of the jobs that
// ran with it as their leaf.
//
// The proof is taken from the root down: a couple whose player to move
// loses needs all its children; a sum, all its components; a couple whose
// player to move wins needs one child that loses, and the one taken is the
// child with the most work below it, so that the figure is the most the
// search can claim. Everything else was off the proof: it lies below a
// move of a won couple that the proof does not take, and is counted by
// what became of that move (Open: unsolved when the root was solved;
// Refuted: a losing move; Winning: a winning move the proof did not need)
// and by the depth of the won couple it leaves the proof from.
type ProofWork struct {
	OnProof uint64   `json:"on_proof"`
	Open    uint64   `json:"off_open"`
	Refuted uint64   `json:"off_refuted"`
	Winning uint64   `json:"off_winning"`
	ByDepth []uint64 `json:"off_by_depth"` // [d]: off the proof, leaving it from a won couple at depth d (the root's is 0)
}

// Total returns the iterations ProofWork splits.
func (p ProofWork) Total() uint64 { return p.OnProof + p.Open + p.Refuted + p.Winning }

// history is an Observer of a simulation's master: every couple its DAG
// ever had, with every child it ever had (a solved couple's children are
// dropped from the DAG, not from here) and the iterations of the jobs
// that ran with it as their leaf.
type history struct {
	root  swarm.Couple
	nodes map[swarm.Couple]*hnode
}

// hnode is a couple of the history.
type hnode struct {
	c    swarm.Couple
	sum  bool // a sum of several lands
	work uint64
	ever []*hnode
	// won and lost: its outcome for its player to move, as the master's
	// DAG holds it at the end.
	won, lost bool
}

// newHistory returns the history of a master of root with an empty
// database, whose root couple is root + *0.
func newHistory(root sprouts.Position) *history {
	return &history{root: swarm.Couple{Key: root.Key(), N: 0}, nodes: map[swarm.Couple]*hnode{}}
}

func (h *history) node(c swarm.Couple) *hnode {
	v := h.nodes[c]
	if v == nil {
		p, err := sprouts.FromKey(c.Key)
		v = &hnode{c: c, sum: err == nil && p.NumLands() > 1}
		h.nodes[c] = v
	}
	return v
}

// Linked records child as a child parent had.
func (h *history) Linked(parent, child swarm.Couple) {
	p, c := h.node(parent), h.node(child)
	if !slices.Contains(p.ever, c) {
		p.ever = append(p.ever, c)
	}
}

// Worked adds a job's iterations to its leaf.
func (h *history) Worked(leaf swarm.Couple, iterations uint64) { h.node(leaf).work += iterations }

// proofWork splits the work recorded in the history of m, whose outcomes
// of couples it reads now. It returns false if the root is not solved.
func (h *history) proofWork(m *swarm.Master) (ProofWork, bool) {
	for c, v := range h.nodes {
		switch m.CoupleOutcome(c) {
		case solve.Win:
			v.won = true
		case solve.Loss:
			v.lost = true
		}
	}
	return h.split()
}

// split splits the work recorded, by the outcomes the nodes hold.
func (h *history) split() (ProofWork, bool) {
	var p ProofWork
	root := h.nodes[h.root]
	if root == nil || !root.won && !root.lost {
		return p, false
	}
	below := h.workBelow()
	onProof := map[*hnode]bool{}
	// Couples of the proof, breadth first, each with its depth.
	type step struct {
		v     *hnode
		depth int
	}
	queue := []step{{root, 0}}
	onProof[root] = true
	var won []step
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		p.OnProof += s.v.work
		next := s.v.ever
		if s.v.won && !s.v.sum {
			won = append(won, s)
			next = nil
			for _, c := range s.v.ever {
				if c.lost && (next == nil || below(c) > below(next[0])) {
					next = []*hnode{c}
				}
			}
		}
		for _, c := range next {
			if !onProof[c] {
				onProof[c] = true
				queue = append(queue, step{c, s.depth + 1})
			}
		}
	}
	// The rest, by the won couple its branch leaves from; a couple met
	// from two branches counts once, with the first.
	counted := map[*hnode]bool{}
	var off func(v *hnode) uint64
	off = func(v *hnode) uint64 {
		if onProof[v] || counted[v] {
			return 0
		}
		counted[v] = true
		w := v.work
		for _, c := range v.ever {
			w += off(c)
		}
		return w
	}
	for _, s := range won {
		for _, c := range s.v.ever {
			w := off(c)
			if w == 0 {
				continue
			}
			for len(p.ByDepth) <= s.depth {
				p.ByDepth = append(p.ByDepth, 0)
			}
			p.ByDepth[s.depth] += w
			switch {
			case c.lost:
				p.Winning += w
			case c.won:
				p.Refuted += w
			default:
				p.Open += w
			}
		}
	}
	return p, true
}

// workBelow returns a function giving a node's work and that of every node
// below it, a node reached by two paths counted on each: enough to choose
// among children, not a total. Each node's sum is computed once, when
// first asked for.
func (h *history) workBelow() func(*hnode) uint64 {
	below := map[*hnode]uint64{}
	var sum func(v *hnode) uint64
	sum = func(v *hnode) uint64 {
		if w, ok := below[v]; ok {
			return w
		}
		below[v] = v.work // a cycle, if the DAG had one, ends here
		w := v.work
		for _, c := range v.ever {
			w = min(w+sum(c), 1<<62)
		}
		below[v] = w
		return w
	}
	return sum
}
