package swarm

import (
	"context"
	"slices"
	"testing"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestKeptGroups follows groups that report their reads through a check
// that bans a liar and starts a new epoch. The group that was sent the lie
// but never read it
// keeps what it holds: told so at its next exchange, with the lie to
// forget, and sent nothing again. The group that read the lie, the one
// that does not report its reads, and the one told it could keep its work
// but that read the lie after the check, start afresh: each is sent every
// value again.
func TestKeptGroups(t *testing.T) {
	const root = "0*6"
	values := trueValues(t, root)
	all := valueMap(values)
	lie := sortedLies(liesOfMoreLives(t, all, 1))[0]
	var honest []solve.NimberEntry
	for _, e := range values {
		if e.Key != lie.Key {
			honest = append(honest, e)
		}
	}
	m := smallMaster(t, root)
	exchange := func(req ExchangeRequest) ExchangeReply {
		t.Helper()
		req.Slots = 1
		reply, err := m.Exchange(req)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	exchange(ExchangeRequest{Group: "untracked", Nimbers: honest})
	for _, g := range []string{"bystander", "reader", "late"} {
		exchange(ExchangeRequest{Group: g, TracksReads: true})
	}
	exchange(ExchangeRequest{Group: "liar"})
	exchange(ExchangeRequest{Group: "liar", Nimbers: []solve.NimberEntry{lie}})
	// Each is sent the lie; the bystander reads an honest value.
	exchange(ExchangeRequest{Group: "bystander", TracksReads: true, Read: []uint64{readHash(honest[0])}})
	exchange(ExchangeRequest{Group: "reader", TracksReads: true})
	exchange(ExchangeRequest{Group: "late", TracksReads: true})
	exchange(ExchangeRequest{Group: "reader", TracksReads: true, Read: []uint64{readHash(lie)}})
	// As if the reader had reported an outcome after it read the lie: the
	// DAG may rest on it, so the check starts a new epoch for all.
	m.trail.firstClaim["reader"] = m.members.seq

	res, err := m.check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Banned, []string{"liar"}) || !slices.Equal(res.Kept, []string{"bystander", "late"}) {
		t.Fatalf("banned %v, kept %v; want [liar], [bystander late] (wrong %v)", res.Banned, res.Kept, res.Wrong)
	}
	held := m.DB().Len()
	if held != len(honest) {
		t.Fatalf("the master holds %d values after the check, want the %d honest ones", held, len(honest))
	}

	r := exchange(ExchangeRequest{Group: "bystander", TracksReads: true})
	if !r.Kept || !slices.Equal(r.Forget, []uint64{readHash(lie)}) || len(r.Delta) != 0 || r.Epoch != 1 {
		t.Errorf("the bystander's reply: kept %v, forget %v, %d values sent, epoch %d; want kept, the lie's hash, none, 1", r.Kept, r.Forget, len(r.Delta), r.Epoch)
	}
	for _, c := range []struct {
		name string
		req  ExchangeRequest
	}{
		{"the reader", ExchangeRequest{Group: "reader", TracksReads: true}},
		{"the late reader", ExchangeRequest{Group: "late", TracksReads: true, Read: []uint64{readHash(lie)}}},
		{"the untracked group", ExchangeRequest{Group: "untracked"}},
		{"the bystander starting afresh", ExchangeRequest{Group: "bystander", TracksReads: true, Afresh: true, Epoch: 1}},
	} {
		r := exchange(c.req)
		if r.Kept || len(r.Delta) != held {
			t.Errorf("%s: kept %v, %d values sent; want afresh, all %d", c.name, r.Kept, len(r.Delta), held)
		}
	}
}

// TestGroupStartEpoch brings a group into a new epoch: told it may keep
// what it holds, it forgets only the values named, and reports the reads
// the check took; having read a value named, it starts afresh and says so;
// not told, it starts afresh.
func TestGroupStartEpoch(t *testing.T) {
	for _, c := range []struct {
		name       string
		kept, read bool
		wantLen    int
		wantAfresh bool
	}{
		{"kept", true, false, 2, false},
		{"kept but read a dropped value", true, true, 0, true},
		{"not kept", false, false, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := NewGroup("g", DefaultParams())
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"a", "b", "lie"} {
				g.db.Learn(k, 1)
			}
			g.db.Get("a")
			if c.read {
				g.db.Get("lie")
			}
			carried, afresh := g.startEpoch(ExchangeReply{Epoch: 1, Kept: c.kept, Forget: []uint64{readHash(solve.NimberEntry{Key: "lie", G: 1})}})
			if g.db.Len() != c.wantLen || afresh != c.wantAfresh {
				t.Fatalf("%d values held, afresh %v; want %d, %v", g.db.Len(), afresh, c.wantLen, c.wantAfresh)
			}
			if _, ok := g.db.Get("lie"); ok {
				t.Error("the dropped value is still held")
			}
			if c.kept && !c.read && !slices.Equal(carried, []uint64{readHash(solve.NimberEntry{Key: "a", G: 1})}) {
				t.Errorf("carried reads %v, want a's", carried)
			}
		})
	}
}

// TestQuietDrop: a liar's value that no group read and the DAG never used
// is dropped without a new epoch. The liar is banned, the epoch and the
// honest groups' jobs stay, each group is told at its next exchange to
// forget the lie, and a group that reports reading it after all (it read
// it before it forgot it) starts afresh alone, in an epoch of its own,
// what it sent with the read ignored; so does, at once, a group that
// does not report its reads.
func TestQuietDrop(t *testing.T) {
	const root = "0*6"
	values := trueValues(t, root)
	lie := sortedLies(liesOfMoreLives(t, valueMap(values), 1))[0]
	var honest []solve.NimberEntry // all but the lie and the root's, so that jobs go on
	for _, e := range values {
		if e.Key != lie.Key && e.Key != sprouts.MustParse(root).Key() {
			honest = append(honest, e)
		}
	}
	m := smallMaster(t, root)
	exchange := func(req ExchangeRequest) ExchangeReply {
		t.Helper()
		req.Slots, req.TracksReads = 1, true
		reply, err := m.Exchange(req)
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	exchange(ExchangeRequest{Group: "source", Nimbers: honest})
	exchange(ExchangeRequest{Group: "other"})
	exchange(ExchangeRequest{Group: "liar"})
	exchange(ExchangeRequest{Group: "liar", Nimbers: []solve.NimberEntry{lie}})
	exchange(ExchangeRequest{Group: "other"}) // sent the lie
	// A group that does not report its reads, sent the lie: it may rest
	// on it.
	for range 2 {
		if _, err := m.Exchange(ExchangeRequest{Group: "untracked", Slots: 1}); err != nil {
			t.Fatal(err)
		}
	}
	jobs := len(m.work.jobs)

	res, err := m.check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Banned, []string{"liar"}) || !slices.Equal(res.Kept, []string{"other", "source"}) {
		t.Fatalf("banned %v, kept %v; want [liar], [other source] (wrong %v)", res.Banned, res.Kept, res.Wrong)
	}
	if e := m.members.members["source"].epoch + m.members.members["other"].epoch; e != 0 || len(m.work.jobs) != jobs-2 {
		t.Fatalf("the honest groups' epochs add up to %d, %d jobs after the check (%d before); want 0, and every job but the liar's and the untracked group's", e, len(m.work.jobs), jobs)
	}
	if _, ok := m.DB().Get(lie.Key); ok {
		t.Fatal("the lie is kept")
	}
	r := exchange(ExchangeRequest{Group: "source"})
	if r.Epoch != 0 || r.Kept || !slices.Equal(r.Forget, []uint64{readHash(lie)}) {
		t.Errorf("the source's reply: epoch %d, kept %v, forget %v; want only the lie to forget", r.Epoch, r.Kept, r.Forget)
	}
	// The other group read the lie before it forgot it, and sends a value
	// that may rest on it.
	held := m.DB().Len()
	r = exchange(ExchangeRequest{Group: "other", Read: []uint64{readHash(lie)}, Nimbers: []solve.NimberEntry{{Key: lie.Key, G: lie.G + 1}}})
	if r.Epoch == 0 || r.Kept || len(r.Delta) != held || m.DB().Len() != held {
		t.Errorf("the reader's reply: epoch %d, kept %v, %d values sent; master holds %d; want an epoch of its own, all %d sent, its value ignored", r.Epoch, r.Kept, len(r.Delta), m.DB().Len(), held)
	}
	if r := exchange(ExchangeRequest{Group: "source"}); r.Epoch != 0 {
		t.Errorf("the source is told of epoch %d, want 0 still", r.Epoch)
	}
	r, err = m.Exchange(ExchangeRequest{Group: "untracked", Slots: 1})
	if err != nil || r.Epoch == 0 || len(r.Delta) != held {
		t.Errorf("the untracked group's reply: epoch %d, %d values sent (%v); want an epoch of its own, all %d", r.Epoch, len(r.Delta), err, held)
	}
}
