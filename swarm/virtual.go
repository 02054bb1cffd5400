package swarm

import "github.com/spots-dev/spots/solve"

// The master hands out many leaves at once. The lock-aware proof numbers
// (dag.recompute) only keep it from handing out the same leaf twice: once
// every leaf below a couple's best move is locked, the next selection goes
// to the couple's next move, an alternative the proof may never need. On
// 0*21 at 1,024 cores two thirds of all the work went below the root's
// moves the proof did not take (BENCHMARKS.md, "Where the work goes").
//
// So the DAG also keeps virtual numbers: the proof and disproof numbers it
// would have if every running job proved what the selection that handed
// it out hoped for. The selection descends to the child with the least
// disproof number, the move that most likely wins, so the hope is that
// the leaf is lost for its player to move. A sum whose unsolved components
// are all settled so, or locked, counts as such a leaf. Selection first
// descends by the virtual numbers, skipping the children they settle: the
// leaves it finds are those of one proof, the one the running jobs are
// assumed to be building. Only once they are all handed out (the root is
// settled virtually) does it hand out alternatives, by the lock-aware
// numbers.

// vsettled reports whether v's virtual numbers settle it.
func vsettled(v *node) bool { return v.vpn == 0 || v.vdn == 0 }

// recomputeVirtual brings v's virtual numbers up to date with its children
// and its lock.
func (d *dag) recomputeVirtual(v *node) {
	switch {
	case solved(v) || len(v.kids) == 0:
		v.vpn, v.vdn = v.pn, v.dn
		if v.locked && !solved(v) {
			v.vpn, v.vdn = solve.Inf, 0
		}
	case v.sum:
		v.vpn, v.vdn = v.pn, v.dn
		for _, c := range v.kids {
			if !solved(c) && !vsettled(c) && !c.locked {
				return
			}
		}
		v.vpn, v.vdn = solve.Inf, 0
	default:
		vpn, vdn := uint64(solve.Inf), uint64(0)
		for _, c := range v.kids {
			vpn = min(vpn, c.vdn)
			vdn = saturatingAdd(vdn, c.vpn)
		}
		v.vpn, v.vdn = vpn, vdn
	}
}

func saturatingAdd(a, b uint64) uint64 {
	if a >= solve.Inf-b {
		return solve.Inf
	}
	return a + b
}

// descendVirtual goes from v down to the most-proving leaf by the virtual
// numbers, skipping locked, solved and virtually settled children. It
// returns nil if it meets a couple with no such child.
func (d *dag) descendVirtual(v *node) *node {
	for v.expanded {
		var best *node
		var bestCx uint64
		for _, c := range v.kids {
			if c.locked || solved(c) || vsettled(c) {
				continue
			}
			cx := c.vdn
			if v.sum {
				cx = min(c.vpn, c.vdn)
			}
			if best == nil || cx < bestCx {
				best, bestCx = c, cx
			}
		}
		if best == nil {
			return nil
		}
		v = best
	}
	return v
}

// planning reports whether selection goes by the virtual numbers now: they
// are kept, and the root is not settled by them.
func (d *dag) planning() bool { return d.virtual && !vsettled(d.root) }
