package swarm

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// TestJudge: what true values say of claimed outcomes.
func TestJudge(t *testing.T) {
	vals := map[string]uint32{}
	var small sprouts.Position // the known position of fewest lives
	for _, e := range trueValues(t, "0*6") {
		vals[e.Key] = e.G
		if p := mustPos(e.Key); small.Key() == "" || p.Lives() < small.Lives() {
			small = p
		}
	}
	valueOf := func(p sprouts.Position) (uint32, bool) {
		x := uint32(0)
		for _, l := range p.Lands() {
			v, ok := vals[l.Key()]
			if !ok {
				return 0, false
			}
			x ^= v
		}
		return x, true
	}
	// big is the known position of most lives with a child whose value
	// is known too, reach that value: a heap a move of big reaches.
	var big sprouts.Position
	var reach uint32
	for k := range vals {
		p := mustPos(k)
		if big.Key() != "" && p.Lives() <= big.Lives() {
			continue
		}
		for _, c := range p.Children() {
			if x, ok := valueOf(c); ok {
				big, reach = p, x
				break
			}
		}
	}
	if big.Key() == "" {
		t.Fatal("no known position with a known child")
	}
	without := func(ps ...sprouts.Position) map[string]uint32 {
		out := maps.Clone(vals)
		for _, p := range ps {
			delete(out, p.Key())
		}
		return out
	}
	g, h := vals[big.Key()], vals[small.Key()]
	sum := sprouts.Sum(big, small)
	tests := []struct {
		name string
		pos  sprouts.Position
		n    uint32
		out  solve.Outcome
		vals map[string]uint32
		want verdict
	}{
		{"its value", big, g, solve.Loss, vals, backed},
		{"its value, won", big, g, solve.Win, vals, contradicted},
		{"another heap", big, g + 1, solve.Win, vals, backed},
		{"another heap, lost", big, g + 1, solve.Loss, vals, contradicted},
		{"no values, lost", big, g, solve.Loss, nil, undecided},
		{"no values, won", big, g + 1, solve.Win, nil, undecided},
		// Without its own value a win is backed by a move to a position
		// whose value is the heap, never a loss.
		{"a move to the heap's value", big, reach, solve.Win, without(big), backed},
		{"no move to the heap's value", big, g, solve.Win, without(big), undecided},
		{"a loss without its value", big, g, solve.Loss, without(big), undecided},
		// A sum: the lands with values are folded into the heap.
		{"a sum", sum, g ^ h, solve.Loss, vals, backed},
		{"a sum, won", sum, g ^ h ^ 1, solve.Win, vals, backed},
		{"a sum, one land unknown", sum, reach ^ h, solve.Win, without(big), backed},
		{"a sum, two lands unknown", sum, g ^ h ^ 1, solve.Win, without(big, small), undecided},
	}
	for _, tt := range tests {
		if got := judge(tt.pos, tt.n, tt.out, lookup(tt.vals)); got != tt.want {
			t.Errorf("%s: %s+*%d=%s: %d, want %d", tt.name, tt.pos, tt.n, tt.out, got, tt.want)
		}
	}
}

// outcomeLiar is the client of issue 43, F7: it holds the swarm's key,
// reports every job it gets as a win and sends no values. It keeps up
// with the master's epochs, as a group must to be heard.
func outcomeLiar(ctx context.Context, link Link, name string) error {
	var completed []Report
	epoch := 0
	for ctx.Err() == nil {
		reply, err := link.Exchange(ctx, ExchangeRequest{Group: name, Slots: 1, Epoch: epoch, Completed: completed})
		if err != nil {
			return err
		}
		if reply.Done {
			return nil
		}
		epoch, completed = reply.Epoch, nil
		for _, j := range reply.Jobs {
			completed = append(completed, Report{ID: j.ID, Outcome: solve.Win, DN: solve.Inf, Iterations: j.MaxIterations})
		}
	}
	return ctx.Err()
}

// TestOutcomeLiar (issue 43, F7): a keyed client reports every job it
// gets as a win and sends no values, beside two honest groups. The master
// names it, bans it and drops what rests on its claims, and the solve ends
// with the right outcome, proved by the values. Before, every audit found
// the outcome unproved and no group to blame.
func TestOutcomeLiar(t *testing.T) {
	const root = "0*9"
	p := DefaultParams()
	p.Capacity, p.Iterations, p.Updates = 4096, 500, 500
	m, err := NewMaster(sprouts.MustParse(root), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	defer wg.Wait()
	liar := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		liar <- outcomeLiar(ctx, localLink{m}, "liar")
	}()
	runGroups(t, ctx, &wg, m, p, "honest", 2)
	var reports []AuditResult
	out, err := m.Supervise(ctx, SuperviseOptions{CheckEvery: 200 * time.Millisecond, Report: func(r AuditResult) { reports = append(reports, r) }})
	if err != nil || out.String() != outcomeOf(9) {
		t.Fatalf("%s: %v, %v, want %s (audits and checks that found faults: %+v)", root, out, err, outcomeOf(9), reports)
	}
	if err := proves(m); err != nil {
		t.Errorf("the values do not prove the outcome: %v", err)
	}
	if err := <-liar; !errors.Is(err, ErrBanned) {
		t.Errorf("the liar: %v, want banned", err)
	}
	named := slices.ContainsFunc(reports, func(r AuditResult) bool {
		return slices.Contains(r.Banned, "liar") && len(r.Claims) == 1 && strings.HasSuffix(r.Claims[0], "=W from liar")
	})
	if !named {
		t.Errorf("no check or audit named the liar's claims: %+v", reports)
	}
	for _, r := range reports {
		for _, g := range r.Banned {
			if g != "liar" {
				t.Errorf("an honest group was banned: %+v", r)
			}
		}
	}
	bans := 0
	for _, e := range m.eventsNow() {
		if e.Kind == eventBan {
			bans++
			if e.Group != "liar" {
				t.Errorf("event %s", e.text())
			}
		}
	}
	if st := m.Stats(); bans != 1 || st.Events[string(eventBan)] != 1 || st.Unbacked != 1 || st.Claims == 0 {
		t.Errorf("%d ban events, stats %+v", bans, st)
	}
}
