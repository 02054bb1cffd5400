package swarm

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// node is a couple of the master DAG.
type node struct {
	pos      sprouts.Position
	key      string
	n        uint32
	sum      bool // pos has two or more lands
	size     int  // lives
	est      int  // estimated children (sprouts.Position.EstimateChildren), -1 until needed
	pn, dn   uint64
	expanded bool
	merged   uint32
	kids     []*node
	parents  []*node
	held
	marks
	planned
}

// held is whether a node is held by a job.
type held struct {
	locked bool // a leaf handed out as a job, or an inner node all of whose children are locked
	job    *job // the job working on this leaf, while locked
}

// marks are what the DAG's walks leave on a node.
type marks struct {
	queued bool
	visit  uint64 // the walk of dag.matters that last reached it
}

// planned is a node's part of the plan (swarm/plan.go).
type planned struct {
	ppn, pdn uint64 // the plain numbers, as if no job ran
	// anchor is the couple whose outcome v's plan works towards: the
	// root, or v itself for a component of a sum; odd, whether an odd
	// number of moves leads there from it (along the path v was first
	// linked by); covered, whether running jobs cover v's part of the
	// plan.
	anchor  *node
	odd     bool
	covered bool
}

type ckey struct {
	key string
	n   uint32
}

// dag is the master's proof-number DAG: PNS with Grundy numbers on couples,
// with the lock-aware proof numbers of the paper.
type dag struct {
	db    *solve.NimberDB
	nodes map[ckey]*node
	byPos map[string][]*node // the nodes of each atomic position
	root  *node
	queue solve.RankQueue[*node]
	rng   *rand.Rand
	// learned collects the Grundy values the DAG derived itself, for the
	// groups' pending buffers.
	learned []solve.NimberEntry
	walks   uint64 // walks of matters so far, which mark the nodes they reach
	path    []*node
	// watch, if set, is told of every link (Observer).
	watch Observer
	// used holds the readHash of every value the DAG looked up or that
	// settled a node of it: a value it never used can be dropped without
	// rebuilding it (Master.quiet).
	used map[uint64]bool
	// lands is the cache of canonical codes the DAG's children are made
	// through: the same lands come back under many of its positions.
	lands *sprouts.Cache
}

func newDAG(db *solve.NimberDB, seed uint64) *dag {
	d := &dag{db: db, nodes: map[ckey]*node{}, byPos: map[string][]*node{}, used: map[uint64]bool{},
		lands: sprouts.NewCache(sprouts.DefaultCacheBytes)}
	if seed != 0 {
		d.rng = rand.New(rand.NewPCG(seed, seed^0x5DEECE66D))
	}
	return d
}

func solved(v *node) bool { return v.pn == 0 || v.dn == 0 }

// value returns the Grundy value of an atomic position from the database,
// noting that the DAG used it.
func (d *dag) value(key string) (uint32, bool) {
	g, ok := d.db.Get(key)
	if ok {
		d.used[readHash(solve.NimberEntry{Key: key, G: g})] = true
	}
	return g, ok
}

// fold removes the lands whose Grundy values are known from pos + *n.
func (d *dag) fold(pos sprouts.Position, n uint32) (sprouts.Position, uint32, bool) {
	lands := pos.Lands()
	keep := lands[:0:0]
	for _, l := range lands {
		if g, ok := d.value(l.Key()); ok {
			n ^= g
		} else {
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		return sprouts.Empty, n, true
	}
	if len(keep) < len(lands) {
		pos = sprouts.Sum(keep...)
	}
	return pos, n, false
}

// node returns the node of pos + *n, creating it with the database's value
// or the given numbers.
func (d *dag) node(pos sprouts.Position, n uint32, pn, dn uint64) *node {
	k := ckey{pos.Key(), n}
	if v, ok := d.nodes[k]; ok {
		return v
	}
	v := &node{pos: pos, key: k.key, n: n, sum: pos.NumLands() > 1, size: pos.Lives(), est: -1, pn: pn, dn: dn}
	if !v.sum {
		if g, ok := d.value(v.key); ok {
			v.pn, v.dn = 0, solve.Inf
			if g == n {
				v.pn, v.dn = solve.Inf, 0
			}
		}
		d.byPos[v.key] = append(d.byPos[v.key], v)
	}
	v.ppn, v.pdn = v.pn, v.dn
	d.nodes[k] = v
	return v
}

func (d *dag) link(parent, child *node) *node {
	if child.anchor == nil {
		if parent.sum {
			child.anchor = child // a component: its own question
		} else {
			child.anchor, child.odd = parent.anchor, !parent.odd
		}
	}
	child.parents = append(child.parents, parent)
	if d.watch != nil {
		d.watch.Linked(Couple{parent.key, parent.n}, Couple{child.key, child.n})
	}
	return child
}

// setRoot makes pos + *n the root. A root that folds away is solved at once.
func (d *dag) setRoot(pos sprouts.Position, n uint32) {
	p, m, empty := d.fold(pos, n)
	if empty {
		d.root = &node{pos: sprouts.Empty, n: m, pn: 0, dn: solve.Inf}
		if m == 0 {
			d.root.pn, d.root.dn = solve.Inf, 0
		}
		d.root.expanded = true
		return
	}
	d.root = d.node(p, m, 1, 1)
	d.root.anchor = d.root
}

// expand gives an unexpanded node its children by the rules (the master's
// own expansions while it builds the top of the tree).
func (d *dag) expand(v *node) {
	v.expanded = true
	if solved(v) {
		return
	}
	if v.sum {
		v.merged = v.n
		for _, l := range v.pos.Lands() {
			v.kids = append(v.kids, d.link(v, d.node(l, 0, 1, 1)))
		}
		d.sortComponents(v)
		return
	}
	for m := range v.n {
		v.kids = append(v.kids, d.link(v, d.node(v.pos, m, 1, 1)))
	}
	for _, c := range (sprouts.Rules{Cache: d.lands}).Children(v.pos) {
		p, m, empty := d.fold(c, v.n)
		if empty {
			if m == 0 {
				v.pn, v.dn, v.kids = 0, solve.Inf, nil
				return
			}
			continue
		}
		v.kids = append(v.kids, d.link(v, d.node(p, m, 1, 1)))
	}
	d.sortChildren(v)
	if len(v.kids) == 0 {
		v.pn, v.dn = solve.Inf, 0
	}
}

// estimate returns the estimated number of children of v's position,
// computed once.
func (v *node) estimate() int {
	if v.est < 0 {
		v.est = v.pos.EstimateChildren()
	}
	return v.est
}

// sortChildren orders a couple's children by the child-ordering heuristic
// of Lemoine and Viennot, exactly as the solver's searches (and so the
// workers' jobs) order them: fewer lives plus four per heap unit, more
// lands, fewer estimated children, then key. Selection breaks ties in
// this order (unless Params.Seed asks for random ties), which is how the
// paper uses the heuristic.
func (d *dag) sortChildren(v *node) {
	slices.SortFunc(v.kids, func(x, y *node) int {
		if c := cmp.Compare(x.size+4*int(x.n), y.size+4*int(y.n)); c != 0 {
			return c
		}
		if c := cmp.Compare(y.pos.NumLands(), x.pos.NumLands()); c != 0 {
			return c
		}
		if c := cmp.Compare(x.estimate(), y.estimate()); c != 0 {
			return c
		}
		if c := strings.Compare(x.key, y.key); c != 0 {
			return c
		}
		return cmp.Compare(x.n, y.n)
	})
	v.kids = slices.Compact(v.kids)
}

// sortComponents orders the lands of a sum as the solver does: fewer
// lives, fewer estimated children, then key.
func (d *dag) sortComponents(v *node) {
	slices.SortFunc(v.kids, func(x, y *node) int {
		if c := cmp.Compare(x.size, y.size); c != 0 {
			return c
		}
		if c := cmp.Compare(x.estimate(), y.estimate()); c != 0 {
			return c
		}
		return strings.Compare(x.key, y.key)
	})
}

// recompute brings v's numbers, lock and plan up to date with its
// children: its lock-aware numbers (recomputeLocked), its plain ones and
// whether running jobs cover its part of the plan (plan.go).
func (d *dag) recompute(v *node) {
	d.recomputeLocked(v)
	d.recomputePlain(v)
	d.recomputeCovered(v)
}

// recomputeLocked brings v's numbers and lock up to date with its
// children, by the rules every search of package solve follows
// (solve.SettleAtomic, solve.SettleSum), with the lock-aware proof numbers
// of the paper on top: a couple takes its proof number from its unlocked
// children only, so busy branches stop attracting selection, and once all
// are locked it takes the largest; its disproof number always counts all.
// A node is locked when all its children are.
func (d *dag) recomputeLocked(v *node) {
	if solved(v) {
		v.kids, v.locked = nil, false
		return
	}
	if !v.expanded {
		return // a leaf keeps its estimate, or the latest report of its job
	}
	if v.sum {
		look := func(c *node) solve.SumChild { return solve.SumChild{Key: c.key, N: c.n, PN: c.pn, DN: c.dn} }
		next := func(c *node, n uint32) *node { return d.link(v, d.node(c.pos, n, 1, 1)) }
		v.kids, v.pn, v.dn = solve.SettleSum(v.kids, &v.merged, d.db, look, next)
		v.locked = len(v.kids) > 0
		for _, c := range v.kids {
			v.locked = v.locked && c.locked
		}
		return
	}
	v.kids, v.pn, v.dn = solve.SettleAtomic(v.kids, func(c *node) (uint64, uint64) { return c.pn, c.dn })
	if len(v.kids) == 0 {
		v.locked = false
		return
	}
	pnFree, pnAll := uint64(solve.Inf), uint64(0)
	v.locked = true
	for _, c := range v.kids {
		if !c.locked {
			v.locked = false
			pnFree = min(pnFree, c.dn)
		}
		pnAll = max(pnAll, c.dn)
	}
	v.pn = pnFree
	if v.locked {
		v.pn = pnAll
	}
}

// propagate recomputes v and every ancestor whose numbers may change, in
// order of rank (lives, heap): children before parents.
func (d *dag) propagate(v *node) {
	d.push(v)
	d.drain(v)
}

// drain recomputes the queued nodes in order of rank, queueing the parents
// of every node whose numbers or lock changed (and of start, if given).
func (d *dag) drain(start *node) {
	for d.queue.Len() > 0 {
		u := d.queue.Pop()
		u.queued = false
		pn, dn, locked, covered, ppn, pdn := u.pn, u.dn, u.locked, u.covered, u.ppn, u.pdn
		d.recompute(u)
		if u.dn == 0 && !u.sum {
			d.learn(u.key, u.n, true)
		}
		if u == start || u.pn != pn || u.dn != dn || u.locked != locked || u.covered != covered || u.ppn != ppn || u.pdn != pdn {
			for _, p := range u.parents {
				d.push(p)
			}
		}
	}
}

func (d *dag) push(v *node) {
	if !v.queued {
		v.queued = true
		d.queue.Push(v, v.size, v.n)
	}
}

// learn records gn(key) = g and settles every node of that position: the
// couple with heap g is lost, the others won. derived marks values the DAG
// proved itself, which the groups have not seen.
func (d *dag) learn(key string, g uint32, derived bool) bool {
	if !d.db.Put(key, g) {
		return false
	}
	if derived {
		d.learned = append(d.learned, solve.NimberEntry{Key: key, G: g})
	}
	if len(d.byPos[key]) > 0 {
		d.used[readHash(solve.NimberEntry{Key: key, G: g})] = true
	}
	for _, w := range d.byPos[key] {
		if solved(w) {
			continue
		}
		if w.n == g {
			w.pn, w.dn = solve.Inf, 0
		} else {
			w.pn, w.dn = 0, solve.Inf
		}
		w.kids = nil
		w.ppn, w.pdn, w.covered = w.pn, w.dn, true
		if w.job != nil {
			w.job.settled = true
		}
		for _, p := range w.parents {
			d.push(p)
		}
	}
	return true
}

// addNimbers merges Grundy values from a group and propagates what they
// settle. It returns the entries that were new to the master.
func (d *dag) addNimbers(entries []solve.NimberEntry) []solve.NimberEntry {
	var fresh []solve.NimberEntry
	for _, e := range entries {
		if d.learn(e.Key, e.G, false) {
			fresh = append(fresh, e)
		}
	}
	d.drain(nil)
	return fresh
}

// selectBelow descends from the nearest node at or above v that is
// unsolved, unlocked, below the root and still bears on it, by the rule of
// selectLeaf. It returns nil when there is none.
//
// While running jobs do not cover the plan (swarm/plan.go), a part
// they cover is climbed out of too, and the leaf is taken below by the
// plan.
func (d *dag) selectBelow(v *node) *node {
	planning := d.planning()
	for v != nil && v != d.root {
		if !solved(v) && !v.locked && d.matters(v) && !(planning && v.covered) {
			if planning {
				if leaf := d.descendPlan(v); leaf != nil {
					return leaf
				}
			}
			return d.descend(v)
		}
		var up *node
		for _, p := range v.parents {
			if !solved(p) && slices.Contains(p.kids, v) {
				up = p
				break
			}
		}
		if up == nil && len(v.parents) > 0 {
			up = v.parents[0]
		}
		v = up
	}
	return nil
}

// selectLeaf descends from the root to the most-proving unlocked leaf: by
// the least disproof number under a couple, the least min(pn, dn) under a
// sum (land switching), skipping locked children; first among the leaves
// of the plan, while running jobs do not cover it (swarm/plan.go). It
// returns nil when the root is solved or locked.
func (d *dag) selectLeaf() *node {
	v := d.root
	if solved(v) || v.locked {
		return nil
	}
	if d.planning() {
		if leaf := d.descendPlan(v); leaf != nil {
			return leaf
		}
	}
	return d.descend(v)
}

// descend goes from v, unsolved and unlocked, down to the most-proving
// unlocked leaf below it.
func (d *dag) descend(v *node) *node {
	for v.expanded {
		var best *node
		var bestCx uint64
		ties := 0
		for _, c := range v.kids {
			if c.locked || solved(c) {
				continue
			}
			cx := c.dn
			if v.sum {
				cx = min(c.pn, c.dn)
			}
			switch {
			case best == nil || cx < bestCx:
				best, bestCx, ties = c, cx, 1
			case cx == bestCx && d.rng != nil:
				ties++
				if d.rng.IntN(ties) == 0 {
					best = c
				}
			}
		}
		if best == nil {
			return nil // cannot happen for an unlocked, unsolved node
		}
		v = best
	}
	return v
}

// matters reports whether v still bears on the root: whether some path
// from the root reaches it through unsolved nodes, each a child of the
// one above. Once an ancestor is solved (a sibling proved it, a value
// from elsewhere settled it) its children are dropped, and what a job
// below learns no longer changes the root's numbers.
func (d *dag) matters(v *node) bool {
	if solved(v) {
		return false
	}
	d.walks++
	v.visit = d.walks
	d.path = append(d.path[:0], v)
	for len(d.path) > 0 {
		u := d.path[len(d.path)-1]
		d.path = d.path[:len(d.path)-1]
		if u == d.root {
			return true
		}
		for _, p := range u.parents {
			if p.visit == d.walks || solved(p) || !slices.Contains(p.kids, u) {
				continue
			}
			p.visit = d.walks
			d.path = append(d.path, p)
		}
	}
	return false
}
