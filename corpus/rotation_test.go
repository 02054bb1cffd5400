package corpus

import (
	"maps"
	"slices"
	"testing"
)

// TestRotation: the certificates taken in turn fit the budget with all
// they cite, the fixed part paid first; over the seeds every certificate
// whose closure fits has its turn, and one whose closure does not never.
func TestRotation(t *testing.T) {
	rec := func(addr string, secs float64, cites ...string) Record {
		return Record{Address: addr, VerifySeconds: secs, Committed: true, Cites: cites}
	}
	records := []Record{
		rec("a", 1), rec("b", 2), rec("c", 3, "a"), rec("d", 4, "b", "c"),
		rec("big", 50), rec("e", 1, "big"), {Address: "gone", VerifySeconds: 1},
	}
	fixed := func(r Record) bool { return r.Address == "a" }
	for _, tc := range []struct {
		seed   uint64
		budget float64
		want   []string
	}{
		{0, 1, nil},                      // the fixed part takes it all
		{1, 4, []string{"b"}},            // b (2); then c (3) does not fit in what is left
		{2, 4, []string{"c"}},            // c with a already paid: 3
		{3, 20, []string{"d"}},           // d with b and c: 9 (b and c verified with it)
		{4, 20, []string{"b", "c", "d"}}, // big (50) and e (51) never fit
	} {
		got := slices.Sorted(maps.Keys(Rotation(records, fixed, tc.seed, tc.budget)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("seed %d, budget %.0f: %v, want %v", tc.seed, tc.budget, got, tc.want)
		}
	}
	turns := map[string]bool{}
	for seed := range uint64(7) {
		maps.Copy(turns, Rotation(records, fixed, seed, 10))
	}
	if want := []string{"b", "c", "d"}; !slices.Equal(slices.Sorted(maps.Keys(turns)), want) {
		t.Errorf("over the seeds: %v, want %v", slices.Sorted(maps.Keys(turns)), want)
	}
}
