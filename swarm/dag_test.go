package swarm

import (
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestDAGOrdersChildrenAsTheSolver checks the child-ordering heuristic in
// the master's DAG: children tied on lives plus four per heap unit and on
// lands come in order of fewer estimated children, as in package solve.
func TestDAGOrdersChildrenAsTheSolver(t *testing.T) {
	d := newDAG(solve.NewNimberDB(), 0)
	root := sprouts.MustParse("0*6")
	d.setRoot(root, 0)
	d.expand(d.root)
	if len(d.root.kids) < 2 {
		t.Fatalf("0*6 has %d children in the DAG", len(d.root.kids))
	}
	for i := 1; i < len(d.root.kids); i++ {
		x, y := d.root.kids[i-1], d.root.kids[i]
		kx, ky := x.size+4*int(x.n), y.size+4*int(y.n)
		switch {
		case kx > ky:
			t.Errorf("child %d before %d: lives+4n %d > %d", i-1, i, kx, ky)
		case kx == ky && x.pos.NumLands() < y.pos.NumLands():
			t.Errorf("child %d before %d: fewer lands", i-1, i)
		case kx == ky && x.pos.NumLands() == y.pos.NumLands() && x.pos.EstimateChildren() > y.pos.EstimateChildren():
			t.Errorf("child %d before %d: estimated children %d > %d", i-1, i, x.pos.EstimateChildren(), y.pos.EstimateChildren())
		}
	}
}

// TestSharedLog checks the master's sharing of values through its log:
// a value one group sends reaches every other group once, never its
// sender, and a group that joins late is sent everything known.
func TestSharedLog(t *testing.T) {
	p := DefaultParams()
	p.Probation = 0 // groups that send values without jobs are heard
	m, err := NewMaster(sprouts.MustParse("0*9"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ex := func(group string, nimbers []solve.NimberEntry) ExchangeReply {
		t.Helper()
		r, err := m.Exchange(ExchangeRequest{Group: group, Slots: 1, Nimbers: nimbers})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	has := func(delta []solve.NimberEntry, key string) int {
		n := 0
		for _, e := range delta {
			if e.Key == key {
				n++
			}
		}
		return n
	}
	ex("a", nil)
	ex("b", nil)
	v := solve.NimberEntry{Key: sprouts.MustParse("0*2").Key(), G: 0}
	if r := ex("a", []solve.NimberEntry{v}); has(r.Delta, v.Key) != 0 {
		t.Error("the sender was sent its own value back")
	}
	if r := ex("b", nil); has(r.Delta, v.Key) != 1 {
		t.Errorf("b was sent the value %d times, want once", has(r.Delta, v.Key))
	}
	if r := ex("b", nil); has(r.Delta, v.Key) != 0 {
		t.Error("b was sent the value again")
	}
	if r := ex("c", nil); has(r.Delta, v.Key) != 1 {
		t.Errorf("a late group was sent the value %d times, want once", has(r.Delta, v.Key))
	}
	if st := m.Stats(); st.Slots != 3 || st.Groups != 3 {
		t.Errorf("slots %d, groups %d: want 3 and 3", st.Slots, st.Groups)
	}
	if n := m.DropGroup("c"); n != 1 || m.Stats().Slots != 2 {
		t.Errorf("dropping c took %d jobs and left %d slots, want 1 and 2", n, m.Stats().Slots)
	}
}
