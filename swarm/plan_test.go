package swarm

import (
	"slices"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestPlanSelection checks the order in which leaves are handed out on
// DAGs made by hand.
// Each DAG is given as its couples' children; a leaf's numbers are (pn,
// dn), and every couple's position is a distinct heap on one land.
//
// In "won", the root looks won: its best move A has two replies, a1 and
// a2, our best answer to a1 is a1x (a1y the other), and B is the root's
// other move. A proof by A needs a1x and a2: the lock-aware numbers alone
// would take the alternative a1y before a2, the plan takes a2 first. In
// "lost", the root looks lost: refuting it needs a reply to each of its
// moves A and B, the best ones a1 and b1, which the plan takes before the
// other replies.
func TestPlanSelection(t *testing.T) {
	type leaf struct{ pn, dn uint64 }
	for _, tc := range []struct {
		name   string
		kids   map[string][]string
		leaves map[string]leaf
		want   []string
	}{
		{
			name:   "won",
			kids:   map[string][]string{"root": {"A", "B"}, "A": {"a1", "a2"}, "a1": {"a1x", "a1y"}},
			leaves: map[string]leaf{"a1x": {2, 1}, "a1y": {3, 2}, "a2": {2, 6}, "B": {4, 20}},
			want:   []string{"a1x", "a2", "a1y", "B"},
		},
		{
			name:   "lost",
			kids:   map[string][]string{"root": {"A", "B"}, "A": {"a1", "a2"}, "B": {"b1", "b2"}},
			leaves: map[string]leaf{"a1": {3, 1}, "a2": {3, 2}, "b1": {3, 1}, "b2": {3, 3}},
			want:   []string{"a1", "b1", "a2", "b2"},
		},
	} {
		{
			d := newDAG(solve.NewNimberDB(), 0)
			pos := sprouts.MustParse("0*4")
			nodes, names := map[string]*node{}, map[*node]string{}
			var build func(parent *node, name string) *node
			build = func(parent *node, name string) *node {
				l := tc.leaves[name]
				v := d.node(pos, uint32(len(nodes)), max(l.pn, 1), max(l.dn, 1))
				nodes[name], names[v] = v, name
				if parent == nil {
					d.root, v.anchor = v, v
				} else {
					parent.expanded = true
					parent.kids = append(parent.kids, d.link(parent, v))
				}
				for _, k := range tc.kids[name] {
					build(v, k)
				}
				return v
			}
			build(nil, "root")
			// Children before parents (the queue's ranks are not sizes here).
			for _, name := range []string{"a1", "A", "B", "root"} {
				if v := nodes[name]; v != nil && v.expanded {
					d.propagate(v)
				}
			}
			var got []string
			for v := d.selectLeaf(); v != nil; v = d.selectLeaf() {
				got = append(got, names[v])
				v.locked = true
				d.propagate(v)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s: leaves handed out in the order %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}
