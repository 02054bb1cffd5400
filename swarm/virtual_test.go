package swarm

import (
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestVirtualSelection checks the order in which leaves are handed out on
// a DAG made by hand: the root's best move A, whose best reply a1 is
// running, and another move B. Assuming a1 proves what it was handed out
// for (that the reply a1 refutes A), the plan goes on with B, where the
// lock-aware numbers alone take A's other reply a2; once B runs too, the
// root is settled virtually and the alternatives come by the lock-aware
// numbers.
func TestVirtualSelection(t *testing.T) {
	for _, virtual := range []bool{false, true} {
		d := newDAG(solve.NewNimberDB(), 0)
		d.virtual = virtual
		pos := sprouts.MustParse("0*4")
		leaf := func(n uint32, pn, dn uint64) *node { return d.node(pos, n, pn, dn) }
		root, a, b := leaf(0, 1, 1), leaf(1, 1, 1), leaf(2, 4, 9)
		a1, a2 := leaf(3, 2, 1), leaf(4, 3, 2)
		d.root = root
		root.expanded, a.expanded = true, true
		root.kids = []*node{d.link(root, a), d.link(root, b)}
		a.kids = []*node{d.link(a, a1), d.link(a, a2)}
		d.propagate(a)
		name := map[*node]string{a1: "a1", a2: "a2", b: "B"}
		take := func(want string) {
			t.Helper()
			v := d.selectLeaf()
			if name[v] != want {
				t.Fatalf("virtual %v: selected %s, want %s", virtual, name[v], want)
			}
			v.locked = true
			d.propagate(v)
		}
		take("a1")
		if virtual {
			take("B")
			take("a2")
		} else {
			take("a2")
			take("B")
		}
		if v := d.selectLeaf(); v != nil {
			t.Errorf("virtual %v: every leaf locked, selected %s", virtual, name[v])
		}
	}
}
