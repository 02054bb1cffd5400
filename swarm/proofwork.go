package swarm

import "slices"

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

// proofWork splits the work recorded in d's nodes (dag.history must have
// been on since the DAG began, so that solved couples still list the
// children they had). It returns false if the root is not solved.
func (d *dag) proofWork() (ProofWork, bool) {
	var p ProofWork
	if d.root == nil || !solved(d.root) {
		return p, false
	}
	below := d.workBelow()
	onProof := map[*node]bool{}
	// Couples of the proof, breadth first, each with its depth.
	type step struct {
		v     *node
		depth int
	}
	queue := []step{{d.root, 0}}
	onProof[d.root] = true
	var won []step
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		p.OnProof += s.v.work
		next := s.v.ever
		if s.v.pn == 0 && !s.v.sum {
			won = append(won, s)
			next = nil
			for _, c := range s.v.ever {
				if c.dn == 0 && (next == nil || below(c) > below(next[0])) {
					next = []*node{c}
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
	counted := map[*node]bool{}
	var off func(v *node) uint64
	off = func(v *node) uint64 {
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
			case c.dn == 0:
				p.Winning += w
			case c.pn == 0:
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
func (d *dag) workBelow() func(*node) uint64 {
	below := map[*node]uint64{}
	var sum func(v *node) uint64
	sum = func(v *node) uint64 {
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

// remember adds child to the children parent ever had, when the DAG keeps
// its history.
func (d *dag) remember(parent, child *node) {
	if d.history && !slices.Contains(parent.ever, child) {
		parent.ever = append(parent.ever, child)
	}
}
