package swarm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/spots-dev/spots/sprouts"
)

// TestConcurrentConcerns runs honest groups and a lying one against a
// master, under its supervision (checks and audits that drop values and
// start epochs), while readers take its counters, status, events and
// couples' outcomes and a departed group is dropped again and again: each
// of the master's concerns is locked beside the others, in every order
// the master takes them (make test runs it under the race detector). The
// solve ends, with the right outcome proved, and the liar is banned if it
// was caught.
func TestConcurrentConcerns(t *testing.T) {
	const n = 9
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	m, p, failed := supervisedMaster(ctx, t, n, &wg)
	hook, _ := liar(2, func(g uint32) uint32 { return g + 1 })
	errs := make([]error, 4)
	var groups sync.WaitGroup
	for i := range errs {
		g, err := NewGroup(fmt.Sprintf("g%d", i), p)
		if err != nil {
			t.Fatal(err)
		}
		var link Link = localLink{m}
		if i == 0 {
			link = lyingLink{link, hook}
		}
		groups.Add(1)
		go func() {
			defer groups.Done()
			errs[i] = g.Run(ctx, link)
		}()
	}
	readers, stop := sync.WaitGroup{}, make(chan struct{})
	root := Couple{Key: sprouts.MustParse(fmt.Sprintf("0*%d", n)).Key()}
	read := []func(){
		func() { m.Stats() },
		func() { m.statusView() },
		func() { m.eventsNow() },
		func() { m.CoupleOutcome(root) },
		func() { m.DB().Len() },
		func() { m.DropGroup("departed") },
		func() {
			if unpark, ok := m.Park("g1", func([]JobSpec) {}); ok {
				unpark()
			}
		},
	}
	for _, f := range read {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
					f()
				}
			}
		}()
	}
	groups.Wait()
	close(stop)
	readers.Wait()
	wg.Wait()
	provesRoot(t, m, n, fmt.Sprintf("groups ended with %v; %d audits failed", errs, len(*failed)))
	st := m.Stats()
	t.Logf("%d checks and audits found faults; %d groups banned, %d values dropped", len(*failed), st.Banned, st.Dropped)
	if st.Banned > 0 && !errors.Is(errs[0], ErrBanned) {
		t.Errorf("banned %d groups; the liar ended with %v", st.Banned, errs[0])
	}
	for i, err := range errs[1:] {
		if err != nil {
			t.Errorf("honest group g%d: %v", i+1, err)
		}
	}
}
