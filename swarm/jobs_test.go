package swarm

import (
	"context"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestSelectBelowSkipsSolvedParts: once a node above a leaf is solved by a
// value from elsewhere, the leaf no longer bears on the root, and a job
// that follows it is not taken below the solved node; a leaf elsewhere
// still bears on the root.
func TestSelectBelowSkipsSolvedParts(t *testing.T) {
	p := DefaultParams()
	p.InitNodes, p.Probation = 40, 0
	m, err := NewMaster(sprouts.MustParse("0*6"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Not every leaf: selectBelow never hands out a locked one.
	reply, err := m.Exchange(ExchangeRequest{Group: "g", Slots: 12})
	if err != nil {
		t.Fatal(err)
	}
	if m.work.dag.root.locked {
		t.Fatal("every leaf is busy")
	}
	// A job two levels down, below a child of the root that is no sum, and
	// one elsewhere.
	var deep, other *job
	for _, spec := range reply.Jobs {
		j := m.work.jobs[spec.ID]
		if deep == nil && len(j.leaf.parents) == 1 && j.leaf.parents[0] != m.work.dag.root &&
			len(j.leaf.parents[0].parents) == 1 && j.leaf.parents[0].parents[0] == m.work.dag.root && !j.leaf.parents[0].sum {
			deep = j
		}
	}
	if deep == nil {
		t.Fatal("no job two levels below the root")
	}
	parent := deep.leaf.parents[0]
	for _, spec := range reply.Jobs {
		if j := m.work.jobs[spec.ID]; other == nil && !below(j.leaf, parent) {
			other = j
		}
	}
	if other == nil {
		t.Fatal("every job is below the parent")
	}
	if !m.work.dag.matters(deep.leaf) || !m.work.dag.matters(other.leaf) {
		t.Fatal("a leaf of an unsolved DAG does not bear on the root")
	}
	g, ok := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 4096}).Grundy(context.Background(), parent.pos)
	if !ok {
		t.Fatalf("no Grundy value for %v", parent.pos)
	}
	if _, err := m.Exchange(ExchangeRequest{Group: "g", Slots: 12,
		Nimbers: []solve.NimberEntry{{Key: parent.key, G: g}}}); err != nil {
		t.Fatal(err)
	}
	if solved(m.work.dag.root) {
		t.Fatalf("the value of %v solved the root", parent.pos)
	}
	if !solved(parent) {
		t.Fatalf("its value did not solve %v", parent.pos)
	}
	if m.work.dag.matters(deep.leaf) {
		t.Errorf("%v, below the solved %v, still bears on the root", deep.leaf.pos, parent.pos)
	}
	if !m.work.dag.matters(other.leaf) {
		t.Errorf("%v no longer bears on the root", other.leaf.pos)
	}
	if v := m.work.dag.selectBelow(deep.leaf); v != nil && below(v, parent) {
		t.Errorf("a job following %v was taken below the solved %v", deep.leaf.pos, parent.pos)
	}
}

// below reports whether v is u or lies below it.
func below(v, u *node) bool {
	if v == u {
		return true
	}
	for _, p := range v.parents {
		if below(p, u) {
			return true
		}
	}
	return false
}

// TestFollow: in a large swarm, a group whose job ended gets its next job
// below that job's leaf, marked to go to the same solver; the group puts it
// there.
func TestFollow(t *testing.T) {
	p := DefaultParams()
	p.Iterations, p.Updates, p.Capacity, p.LargeSwarm, p.LargeIterations = 50, 50, 4096, 2, 50
	m, err := NewMaster(sprouts.MustParse("0*9"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	gp := p
	gp.Grouping = 2
	g, err := NewGroup("g", gp)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := m.Exchange(ExchangeRequest{Group: "g", Slots: 2})
	if err != nil || len(reply.Jobs) != 2 {
		t.Fatalf("%d jobs, %v", len(reply.Jobs), err)
	}
	first := reply.Jobs[1]
	leaf := m.work.jobs[first.ID].leaf
	s := g.Place(first)
	r := g.Cycle(context.Background(), s, first)
	if r.Outcome != solve.Unknown {
		t.Fatalf("%s solved in %d iterations", first.Position, r.Iterations)
	}
	g.Release(first.ID)
	reply, err = m.Exchange(ExchangeRequest{Group: "g", Slots: 2, Completed: []Report{r}})
	if err != nil || len(reply.Jobs) != 1 {
		t.Fatalf("%d jobs, %v", len(reply.Jobs), err)
	}
	next := reply.Jobs[0]
	if next.After != first.ID {
		t.Errorf("the new job follows %q, want %q", next.After, first.ID)
	}
	if j := m.work.jobs[next.ID]; j == nil || j.leaf == leaf || !below(j.leaf, leaf) {
		t.Errorf("the new job's %s is not below %s", next.Position, first.Position)
	}
	if got := g.Place(next); got != s {
		t.Error("the new job went to another solver than the one it follows")
	}
}

// TestLargeSwarm checks Params.LargeSwarm: from that many cores (solvers
// times threads, as groups join and leave) jobs are shorter and follow.
func TestLargeSwarm(t *testing.T) {
	p := DefaultParams()
	p.LargeSwarm, p.LargeIterations = 8, 2000
	m, err := NewMaster(sprouts.MustParse("0*7"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		group          string
		slots, threads int
		forget         bool
		cores          int
		large          bool
	}{
		{"a", 2, 2, false, 4, false},
		{"b", 3, 0, false, 7, false},
		{"c", 1, 1, false, 8, true},
		{"a", 2, 4, false, 12, true}, // a group's threads may change
		{"a", 0, 0, true, 4, false},
	}
	for _, s := range steps {
		if s.forget {
			unlock := m.lockAll()
			m.forget(s.group)
			unlock()
		} else if _, err := m.Exchange(ExchangeRequest{Group: s.group, Slots: s.slots, Threads: s.threads}); err != nil {
			t.Fatal(err)
		}
		st := m.Stats()
		wantIt := uint64(100_000)
		if s.large {
			wantIt = 2000
		}
		if st.Cores != s.cores || st.JobIterations != wantIt || st.Follow != s.large {
			t.Errorf("after %s: %d cores, jobs of %d, follow %v; want %d, %d, %v", s.group, st.Cores, st.JobIterations, st.Follow, s.cores, wantIt, s.large)
		}
	}
	if _, err := m.Exchange(ExchangeRequest{Group: "d", Slots: 1, Threads: solve.MaxThreads + 1}); err == nil {
		t.Error("a group claiming too many threads was accepted")
	}

}
