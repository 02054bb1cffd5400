package swarmlab

import (
	"context"
	"slices"
	"testing"

	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// TestProofWorkSplit checks the split on a history made by hand: a won
// root whose proof takes one of two winning moves (the one with more work
// below), a lost couple under it whose moves are all on the proof, and
// the root's other moves counted by what became of them.
func TestProofWorkSplit(t *testing.T) {
	h := newHistory(sprouts.MustParse("0*4"))
	key := h.root.Key
	type out int
	const (
		open out = iota
		won
		lost
	)
	mk := func(n uint32, o out, work uint64) swarm.Couple {
		c := swarm.Couple{Key: key, N: n}
		v := h.node(c)
		v.won, v.lost, v.work = o == won, o == lost, work
		return c
	}
	root := mk(0, won, 1)
	win := mk(1, lost, 10)     // a winning move, lost for its mover: all its moves are on the proof
	win2 := mk(2, lost, 3)     // another winning move, with less work below: off the proof
	bad := mk(3, won, 100)     // a losing move
	other := mk(4, open, 1000) // never solved
	a1 := mk(5, won, 20)       // the winning move's moves
	a2 := mk(6, won, 40)       //
	deep := mk(7, open, 10000) // below the losing move
	for _, e := range [][2]swarm.Couple{{root, win}, {root, win2}, {root, bad}, {root, other}, {win, a1}, {win, a2}, {bad, deep}} {
		h.Linked(e[0], e[1])
	}
	got, ok := h.split()
	if !ok {
		t.Fatal("a solved root: no split")
	}
	want := ProofWork{OnProof: 1 + 10 + 20 + 40, Winning: 3, Refuted: 100 + 10000, Open: 1000, ByDepth: []uint64{3 + 100 + 10000 + 1000}}
	if got.OnProof != want.OnProof || got.Winning != want.Winning || got.Refuted != want.Refuted || got.Open != want.Open || !slices.Equal(got.ByDepth, want.ByDepth) {
		t.Errorf("split %+v, want %+v", got, want)
	}
	h.nodes[root].won = false
	if _, ok := h.split(); ok {
		t.Error("an unsolved root was split")
	}
}

// TestSimProofWork checks, on simulations that end, that the split
// accounts for every iteration the master was reported, once.
func TestSimProofWork(t *testing.T) {
	for _, workers := range []int{1, 8} {
		p := swarm.DefaultParams()
		p.Capacity, p.Iterations, p.Updates = 1024, 300, 100
		r, err := Simulate(context.Background(), sprouts.MustParse("0*9"), p, SimConfig{Workers: workers, Costs: MasterCosts{Exchange: 1, Report: 0.1}, Iteration: 1})
		if err != nil {
			t.Fatal(err)
		}
		pw := r.ProofWork
		t.Logf("%d workers: %d iterations reported, %+v", workers, r.Master.Iterations, pw)
		if pw.Total() != r.Master.Iterations || pw.OnProof == 0 {
			t.Errorf("%d workers: split %+v totals %d, want the %d reported, some on the proof", workers, pw, pw.Total(), r.Master.Iterations)
		}
		var byDepth uint64
		for _, w := range pw.ByDepth {
			byDepth += w
		}
		if byDepth != pw.Total()-pw.OnProof {
			t.Errorf("%d workers: %d off the proof by depth, %d in all", workers, byDepth, pw.Total()-pw.OnProof)
		}
	}
}
