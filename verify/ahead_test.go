package verify

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/spots-dev/spots/format"
)

// TestAheadSameResult: the unhinted check gives the same proof (the same
// certificate address) or the same error, with the same first failing
// entry, whether children are made ahead by workers or not: on the
// reference databases, with wrong values, with entries left out and with
// limits that refuse some of them.
func TestAheadSameResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 2026))
	last := 12
	if testing.Short() {
		last = 9
	}
	for n := 6; n <= last; n++ {
		entries := spprEntries(t, n)
		want, opposite := outcome(n)
		variants := map[string][]format.SPREntry{"as written": entries}
		for i := range 3 {
			bad := slices.Clone(entries)
			j := rng.IntN(len(bad))
			bad[j].Grundy ^= 1
			variants[fmt.Sprintf("wrong value %d", i)] = bad
			variants[fmt.Sprintf("entry left out %d", i)] = slices.Delete(slices.Clone(entries), j, j+1)
		}
		for name, es := range variants {
			db, err := NewDatabase(es)
			if err != nil {
				continue
			}
			for _, c := range []string{want, opposite} {
				cl := claim(t, fmt.Sprintf("0*%d=%s", n, c))
				for _, lim := range []Limits{{}, {Moves: 60}} {
					seq, seqErr := db.Check(cl, Options{Workers: 1, Limits: lim})
					for _, w := range []int{2, 4} {
						par, parErr := db.Check(cl, Options{Workers: w, Limits: lim})
						label := fmt.Sprintf("0*%d %s, claim %s, limits %+v, %d workers", n, name, c, lim, w)
						if fmt.Sprint(seqErr) != fmt.Sprint(parErr) {
							t.Errorf("%s: error %v, sequential %v", label, parErr, seqErr)
							continue
						}
						if seqErr == nil && proofAddress(t, seq) != proofAddress(t, par) {
							t.Errorf("%s: another proof than the sequential check's", label)
						}
					}
				}
			}
		}
	}
}

func proofAddress(t *testing.T, p *Proof) string {
	t.Helper()
	return p.Certificate("test", "1").Address()
}
