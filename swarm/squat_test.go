package swarm

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestSquattingLiars: a master of 0*12 with the defaults of
// spots-solve (jobs of 100,000 iterations, values checked every lease)
// but a lease of two minutes, longer than the test, and one honest group,
// as --workers-local 1 runs it. In the attacks a new holder of the key
// joins every 0.25 s from the start, takes the job it is handed and holds
// it: it says no more, or says every 0.25 s that it still runs it, or
// sends a wrong value with its next exchange and says no more. The solve
// ends with the right outcome, proved by the values, within the test's
// minute, attack or not. Before, the newcomers held the leaves the proof
// needed, each for a lease, and the next took them as soon as a lease
// ran out: the root was never solved. Now a group that has not reported
// a job is on probation (probation.go): its jobs are taken back after
// Params.Probation (5 s) whatever it says, they are no more than the
// honest groups' (4 while those hold fewer), and its values are not
// heard.
func TestSquattingLiars(t *testing.T) {
	if testing.Short() {
		t.Skip("a solve of 0*12 under attack: make hostile runs it")
	}
	tests := []struct {
		name      string
		attack    bool
		lie, keep bool
	}{
		{name: "honest group alone"},
		{name: "newcomers taking a job and falling silent", attack: true},
		{name: "newcomers taking a job and keeping it alive", attack: true, keep: true},
		{name: "newcomers taking a job, lying and falling silent", attack: true, lie: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const n = 12
			p := DefaultParams()
			p.Capacity, p.Lease = 1<<16, 2*time.Minute
			m, err := NewMaster(sprouts.MustParse(fmt.Sprintf("0*%d", n)), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			// When the audit proved the outcome: Supervise then gives the
			// groups up to 5 s to hear that the solve is over, which
			// newcomers that fell silent never do.
			var proved atomic.Int64
			m.Log = func(format string, args ...any) {
				if strings.HasPrefix(format, "the values prove it") {
					proved.Store(int64(time.Now().UnixNano()))
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var wg sync.WaitGroup
			start := time.Now()
			// spots-solve starts its local worker once its master is up,
			// and it joins a second or two later: newcomers come first.
			ahead := make(chan struct{})
			squatters := 0
			if tt.attack {
				wg.Add(1)
				go func() {
					defer wg.Done()
					squatters = squat(ctx, m, 250*time.Millisecond, tt.lie, tt.keep, ahead)
				}()
			} else {
				close(ahead)
			}
			select {
			case <-ahead:
			case <-ctx.Done():
			}
			runGroups(t, ctx, &wg, m, p, "honest", 1)
			out, err := m.Supervise(ctx, SuperviseOptions{})
			took := time.Since(start)
			cancel()
			wg.Wait()
			if err != nil {
				t.Fatalf("0*%d unsolved after %.0f s: %v (%d squatters; master %+v)", n, took.Seconds(), err, squatters, m.Stats())
			}
			provesRoot(t, m, n, fmt.Sprintf("%d squatters", squatters))
			if out.String() != outcomeOf(n) {
				t.Errorf("Supervise says %v, want %s", out, outcomeOf(n))
			}
			st := m.Stats()
			t.Logf("0*%d proved in %.1f s beside %d squatters (Supervise returned after %.1f s); %d jobs taken back, %d groups banned",
				n, time.Unix(0, proved.Load()).Sub(start).Seconds(), squatters, took.Seconds(), st.Expired, st.Banned)
		})
	}
}

// squatAhead is how many newcomers join before the honest group: 2 s of
// them.
const squatAhead = 8

// squat joins m under a new name every pace until ctx ends, closing
// ahead once squatAhead have; each newcomer takes the job it is handed,
// if any, and lists it as running in one more exchange, which with lie
// carries a wrong value. Then it says no more, or, with keep, it
// exchanges again at every pace, listing the jobs it holds and taking
// every job it is handed. It returns the number of newcomers that got a
// job.
func squat(ctx context.Context, m *Master, pace time.Duration, lie, keep bool, ahead chan<- struct{}) int {
	tick := time.NewTicker(pace)
	defer tick.Stop()
	type squatter struct {
		name  string
		epoch int
		jobs  []string
	}
	var live []*squatter
	got := 0
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return got
		case <-tick.C:
		}
		for _, s := range live {
			reply, err := m.Exchange(ExchangeRequest{Group: s.name, Slots: 1, Epoch: s.epoch, Running: s.jobs, Resync: true})
			if err != nil {
				continue
			}
			s.jobs = slices.DeleteFunc(s.jobs, func(id string) bool { return slices.Contains(reply.Drop, id) })
			for _, j := range reply.Jobs {
				s.jobs = append(s.jobs, j.ID)
			}
			s.epoch = reply.Epoch
		}
		if i == squatAhead {
			close(ahead)
		}
		s := &squatter{name: fmt.Sprintf("squatter%d", i)}
		reply, err := m.Exchange(ExchangeRequest{Group: s.name, Slots: 1})
		if err != nil {
			continue
		}
		if len(reply.Jobs) > 0 {
			got++
		}
		for _, j := range reply.Jobs {
			s.jobs = append(s.jobs, j.ID)
		}
		s.epoch = reply.Epoch
		req := ExchangeRequest{Group: s.name, Slots: 1, Epoch: s.epoch, Running: s.jobs, Resync: true}
		if lie {
			var keys []string
			m.DB().Range(func(k string, _ uint32) bool { keys = append(keys, k); return true })
			sort.Strings(keys)
			if e, ok := unknownLand(m.DB(), keys, i); ok {
				req.Nimbers = []solve.NimberEntry{e}
			}
		}
		m.Exchange(req)
		if keep {
			live = append(live, s)
		}
	}
}
