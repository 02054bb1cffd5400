package swarm

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/spots-dev/spots/solve"
)

// TestReportOutcomeWire checks that a report's outcome travels as the
// strings "W", "L" and "unknown" (unsolved), and that "", what workers of
// earlier versions send for unsolved, still reads as unsolved.
func TestReportOutcomeWire(t *testing.T) {
	for _, tt := range []struct {
		out  solve.Outcome
		wire string
	}{{solve.Win, `"outcome":"W"`}, {solve.Loss, `"outcome":"L"`}, {solve.Unknown, `"outcome":"unknown"`}} {
		js, err := json.Marshal(Report{ID: "j", Outcome: tt.out, PN: 1, DN: 1})
		if err != nil || !strings.Contains(string(js), tt.wire) {
			t.Errorf("%v: %s, %v; want %s", tt.out, js, err, tt.wire)
			continue
		}
		var back Report
		if err := json.Unmarshal(js, &back); err != nil || back.Outcome != tt.out {
			t.Errorf("%s reads back as %v, %v", js, back.Outcome, err)
		}
	}
	var old Report
	if err := json.Unmarshal([]byte(`{"id":"j","outcome":""}`), &old); err != nil || old.Outcome != solve.Unknown {
		t.Errorf(`an earlier version's "outcome":"" reads back as %v, %v`, old.Outcome, err)
	}
	var r Report
	if err := json.Unmarshal([]byte(`{"id":"j","outcome":"X"}`), &r); err == nil {
		t.Error(`outcome "X" was accepted`)
	}
}
