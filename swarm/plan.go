package swarm

import "github.com/spots-dev/spots/solve"

// The master hands out many leaves at once. The lock-aware proof numbers
// (dag.recomputeLocked) only keep it from handing out the same leaf
// twice: once every leaf below a couple's best move is locked, the next selection goes
// to the couple's next move, an alternative the proof may never need.
//
// So the master keeps a plan: the one proof of the outcome the root looks
// like having that the plain numbers (PNS's, as if no job ran) make the
// most likely. A couple an even number of moves below its anchor (the
// root, or a component of a sum, whose value is a question of its own) is
// needed won for its player to move when the anchor looks won, one an odd
// number below needed lost, and the other way round when the anchor looks
// lost; an anchor looks won while its plain proof number is at most its
// plain disproof number. A couple needed won takes one move, its best by
// the plain numbers (the least disproof number), as DFPN would go on with
// it; a couple needed lost takes every move, and a sum every component.
// Selection first hands out the leaves of the plan that no running job
// covers; once jobs cover them all, alternatives, by the lock-aware
// numbers. As reports come in the plain numbers change, and with them the
// move the plan takes, as DFPN changes its mind.

// planKid is the move the plan takes at v, a couple needed won: its child
// of least plain disproof number, the first in order among equals.
func planKid(v *node) *node {
	var best *node
	for _, c := range v.kids {
		if best == nil || c.pdn < best.pdn {
			best = c
		}
	}
	return best
}

// hope reports whether the plan needs v won for its player to move: v's
// anchor looks won and v is an even number of moves below it, or the
// anchor looks lost and v is an odd number below.
func hope(v *node) bool {
	a := v.anchor
	if a == nil {
		a = v
	}
	return (a.ppn <= a.pdn) != v.odd
}

// recomputePlain brings v's plain numbers up to date with its children.
// (The lock-aware proof number of a couple whose best moves are busy is
// that of its best free move, and so the anchor of a busy plan would look
// less won than it is.)
func (d *dag) recomputePlain(v *node) {
	switch {
	case solved(v) || len(v.kids) == 0:
		v.ppn, v.pdn = v.pn, v.dn
	case v.sum && len(v.kids) == 1:
		v.ppn, v.pdn = v.kids[0].ppn, v.kids[0].pdn
	case v.sum:
		n := uint64(0)
		for _, c := range v.kids {
			n = solve.AddNumbers(n, min(c.ppn, c.pdn))
		}
		v.ppn, v.pdn = n, n
	default:
		pn, dn := uint64(solve.Inf), uint64(0)
		for _, c := range v.kids {
			pn = min(pn, c.pdn)
			dn = solve.AddNumbers(dn, c.ppn)
		}
		v.ppn, v.pdn = pn, dn
	}
}

// recomputeCovered brings v.covered up to date with v's children and lock.
// A solved couple needs no job; a leaf is covered while a job runs on it.
func (d *dag) recomputeCovered(v *node) {
	switch {
	case solved(v):
		v.covered = true
	case !v.expanded || len(v.kids) == 0:
		v.covered = v.locked
	case !v.sum && hope(v):
		k := planKid(v)
		v.covered = k.covered || k.locked
	default:
		v.covered = true
		for _, c := range v.kids {
			v.covered = v.covered && (c.covered || c.locked)
		}
	}
}

// descendPlan goes from v down to a leaf of the plan that no job covers:
// the planned move of a couple needed won, and elsewhere the uncovered
// child of least plain disproof number (least of both numbers under a
// sum). It returns nil if there is none.
func (d *dag) descendPlan(v *node) *node {
	for v.expanded {
		var next *node
		if !v.sum && hope(v) {
			if k := planKid(v); !k.covered && !k.locked {
				next = k
			}
		} else {
			var bestCx uint64
			for _, c := range v.kids {
				if c.covered || c.locked {
					continue
				}
				cx := c.pdn
				if v.sum {
					cx = min(c.ppn, c.pdn)
				}
				if next == nil || cx < bestCx {
					next, bestCx = c, cx
				}
			}
		}
		if next == nil {
			return nil
		}
		v = next
	}
	return v
}

// planning reports whether selection goes by the plan now: while running
// jobs do not cover it.
func (d *dag) planning() bool { return !d.root.covered }
