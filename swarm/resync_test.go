package swarm

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestResync: a group's request lists the jobs it runs. The master takes
// back a job it sent that the group does not run (its reply was lost),
// and, once it has taken the group's jobs back at the end of its lease,
// tells the group that comes back to drop the jobs it still runs; each is
// an event, with the group's join and expiry.
func TestResync(t *testing.T) {
	m, _, now := clockedMaster(t)
	var logged []string
	m.Log = func(format string, a ...any) { logged = append(logged, fmt.Sprintf(format, a...)) }
	exchange := func(running ...string) ExchangeReply {
		t.Helper()
		reply, err := m.Exchange(ExchangeRequest{Group: "g", Slots: 2, Running: append([]string{}, running...), Resync: true})
		if err != nil {
			t.Fatal(err)
		}
		return reply
	}
	first := exchange()
	if len(first.Jobs) != 2 {
		t.Fatalf("%d jobs for 2 solvers", len(first.Jobs))
	}
	a, b := first.Jobs[0].ID, first.Jobs[1].ID

	// The group runs a only: b is taken back and its solver gets another.
	second := exchange(a)
	if len(second.Jobs) != 1 || second.Jobs[0].ID == b || len(second.Drop) != 0 {
		t.Fatalf("after a lost job: jobs %+v, drop %v", second.Jobs, second.Drop)
	}
	c := second.Jobs[0].ID
	if st := m.Stats(); st.Open != 2 || st.Expired != 1 {
		t.Errorf("after a lost job: %d jobs open, %d taken back", st.Open, st.Expired)
	}

	// The group stops past its lease: its jobs are taken back. When it
	// comes back running a and c, it is told to drop them, and gets two
	// new jobs.
	*now = now.Add(2 * time.Minute)
	if n := m.expire(); n != 2 {
		t.Fatalf("%d jobs expired, want 2", n)
	}
	third := exchange(a, c)
	slices.Sort(third.Drop)
	want := []string{a, c}
	slices.Sort(want)
	if !slices.Equal(third.Drop, want) || len(third.Jobs) != 2 {
		t.Errorf("back after its lease: drop %v, want %v; %d jobs", third.Drop, want, len(third.Jobs))
	}
	var kinds []string
	for _, e := range m.eventsNow() {
		kinds = append(kinds, string(e.Kind))
	}
	if want := []string{"join", "resync", "expire", "join", "resync"}; !slices.Equal(kinds, want) {
		t.Errorf("events %v, want %v", kinds, want)
	}
	if len(logged) != len(kinds) || !strings.Contains(logged[2], "g expired: silent for 2m0s") {
		t.Errorf("logged %q", logged)
	}
	if st := m.Stats(); st.Events["resync"] != 2 || st.Events["join"] != 2 || st.Events["expire"] != 1 {
		t.Errorf("event counts %v", st.Events)
	}
}
