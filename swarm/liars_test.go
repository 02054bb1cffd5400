package swarm

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestLiarUnderNewNames (N36): while honest groups solve, a holder of the
// key posts a lie under a new group name every 0.7 s (the pace of the
// campaign's attack): it joins (and is sent the values the master holds),
// then sends, in the epoch it learned, a value of its own, wrong, of a
// position the master holds no value of, so that each must be found wrong
// by solving. The solve ends with the right outcome, proved by the values
// left, within 80 s; each audit bans every liar it names, and the groups
// that never read a lie keep their work. On 0*12, as in the campaign.
func TestLiarUnderNewNames(t *testing.T) {
	if testing.Short() {
		t.Skip("a solve of 0*12 under attack, 15 s and more: make hostile runs it")
	}
	const n = 12
	ctx, cancel := context.WithTimeout(context.Background(), 80*time.Second) // under make hostile's 90 s
	defer cancel()
	var wg sync.WaitGroup
	m, p, failed := supervisedMaster(ctx, t, n, &wg)
	for i := range 3 {
		g, err := NewGroup(fmt.Sprintf("g%d", i), p)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.Run(ctx, localLink{m})
		}()
	}
	liars := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(700 * time.Millisecond) // the campaign's pace
		defer tick.Stop()
		for m.Outcome() == solve.Unknown {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			var keys []string
			m.DB().Range(func(k string, g uint32) bool { keys = append(keys, k); return true })
			if len(keys) == 0 {
				continue
			}
			sort.Strings(keys)
			lie, ok := unknownLand(m.DB(), keys, liars)
			if !ok {
				continue
			}
			name := fmt.Sprintf("liar%d", liars)
			liars++
			// It joins, learns the epoch, and lies in it: a lie sent with
			// an old epoch would be ignored.
			joined, err := m.Exchange(ExchangeRequest{Group: name, Slots: 1})
			if err != nil {
				continue
			}
			m.Exchange(ExchangeRequest{Group: name, Slots: 1, Epoch: joined.Epoch, Nimbers: []solve.NimberEntry{lie}})
		}
	}()
	wg.Wait()
	provesRoot(t, m, n, fmt.Sprintf("after %d liars; %d audits found something", liars, len(*failed)))
	banned, kept := 0, 0
	for _, f := range *failed {
		banned, kept = banned+len(f.Banned), kept+len(f.Kept)
	}
	t.Logf("%d liars, %d banned in %d audits and checks, after which groups kept their work %d times; master %+v", liars, banned, len(*failed), kept, m.Stats())
}

// unknownLand returns a lie about a position the search has met but not
// solved: a land of a child of one of the positions of keys (the i-th, or
// the next with such a land), whose value the master does not hold, said
// to be 7, a Grundy value no land of these positions has.
func unknownLand(db *solve.NimberDB, keys []string, i int) (solve.NimberEntry, bool) {
	for j := range keys {
		p, err := sprouts.FromKey(keys[(i*7919+j)%len(keys)])
		if err != nil {
			continue
		}
		for _, c := range p.Children() {
			for _, l := range c.Lands() {
				if _, ok := db.Get(l.Key()); !ok && l.Lives() > 3 {
					return solve.NimberEntry{Key: l.Key(), G: 7}, true
				}
			}
		}
	}
	return solve.NimberEntry{}, false
}
