package swarm

import (
	"context"
	"slices"
	"testing"

	"github.com/spots-dev/spots/solve"
)

// TestKeptGroups follows groups that report their reads through a check
// that bans a liar. The group that was sent the lie but never read it
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
	exchange(ExchangeRequest{Group: "bystander", TracksReads: true, Read: []uint64{readHash(honest[0].Key)}})
	exchange(ExchangeRequest{Group: "reader", TracksReads: true})
	exchange(ExchangeRequest{Group: "late", TracksReads: true})
	exchange(ExchangeRequest{Group: "reader", TracksReads: true, Read: []uint64{readHash(lie.Key)}})

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
	if !r.Kept || !slices.Equal(r.Forget, []uint64{readHash(lie.Key)}) || len(r.Delta) != 0 || r.Epoch != 1 {
		t.Errorf("the bystander's reply: kept %v, forget %v, %d values sent, epoch %d; want kept, the lie's hash, none, 1", r.Kept, r.Forget, len(r.Delta), r.Epoch)
	}
	for _, c := range []struct {
		name string
		req  ExchangeRequest
	}{
		{"the reader", ExchangeRequest{Group: "reader", TracksReads: true}},
		{"the late reader", ExchangeRequest{Group: "late", TracksReads: true, Read: []uint64{readHash(lie.Key)}}},
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
			carried, afresh := g.startEpoch(ExchangeReply{Epoch: 1, Kept: c.kept, Forget: []uint64{readHash("lie")}})
			if g.db.Len() != c.wantLen || afresh != c.wantAfresh {
				t.Fatalf("%d values held, afresh %v; want %d, %v", g.db.Len(), afresh, c.wantLen, c.wantAfresh)
			}
			if _, ok := g.db.Get("lie"); ok {
				t.Error("the dropped value is still held")
			}
			if c.kept && !c.read && !slices.Equal(carried, []uint64{readHash("a")}) {
				t.Errorf("carried reads %v, want a's", carried)
			}
		})
	}
}
