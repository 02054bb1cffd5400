package swarm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/spots-dev/spots/sprouts"
)

// TestMalformedReportsAreLogged: a report the master cannot use is counted
// and logged with its group, and its leaf is handed out again.
func TestMalformedReportsAreLogged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		report func(id, pos string) Report
		want   string
	}{
		{"folded", func(id, pos string) Report { return Report{ID: id, PN: 1, DN: 1, Folded: "0*3x"} }, "folded position"},
		{"child", func(id, pos string) Report {
			return Report{ID: id, PN: 1, DN: 1, Folded: pos, Children: []childReport{{Position: "Z!", PN: 1, DN: 1}}}
		}, "child"},
		{"no children", func(id, pos string) Report { return Report{ID: id, PN: 1, DN: 1, Folded: pos} }, "without children"},
	} {
		p := DefaultParams()
		p.Iterations = p.Updates // one cycle: every report is final
		m, err := NewMaster(sprouts.MustParse("0*8"), p, nil)
		if err != nil {
			t.Fatal(err)
		}
		reply, err := m.Exchange(ExchangeRequest{Group: "g", Slots: 1})
		if err != nil || len(reply.Jobs) != 1 {
			t.Fatalf("%s: %d jobs, %v", tc.name, len(reply.Jobs), err)
		}
		var logged []string // after the group's join
		m.Log = func(format string, a ...any) { logged = append(logged, fmt.Sprintf(format, a...)) }
		job := reply.Jobs[0]
		reply, err = m.Exchange(ExchangeRequest{Group: "g", Slots: 1, Completed: []Report{tc.report(job.ID, job.Position)}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := m.Stats().Malformed; got != 1 {
			t.Errorf("%s: %d malformed reports counted, want 1", tc.name, got)
		}
		if len(logged) != 1 || !strings.Contains(logged[0], "group g") || !strings.Contains(logged[0], tc.want) {
			t.Errorf("%s: logged %q, want one line naming the group and %q", tc.name, logged, tc.want)
		}
		if len(reply.Jobs) != 1 || reply.Jobs[0].Position != job.Position {
			t.Errorf("%s: next jobs %+v, want %s again", tc.name, reply.Jobs, job.Position)
		}
	}
}
