package verify

import (
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/cram/cramtest"
	"github.com/spots-dev/spots/format"
)

// TestInvalidNamesUnderivedEntries: with one value of a complete table
// left out, the claim fails, and Invalid names the entries that the check
// met and could not derive (each true, lacking the value left out); the
// failure names the first by its position. (Grundy claims: a win needs
// one move, and most tables hold several.) With the table complete, Check
// succeeds and Invalid is empty.
func TestInvalidNamesUnderivedEntries(t *testing.T) {
	for _, root := range []string{"2x5", "3x4", "2x6"} {
		p := cram.MustParse(root)
		vals := cramtest.Values{}
		g := vals.Grundy(p)
		c := format.Claim{Root: p.String(), Kind: format.ClaimGrundy, N: g}
		without := func(skip string) *Database {
			db, err := FromValuesOf(cram.Game, func(yield func(string, uint32) bool) {
				for k, v := range vals {
					if k != skip && !yield(k, v) {
						return
					}
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			return db
		}
		full := without("")
		if _, err := full.Check(c, Options{}); err != nil {
			t.Fatalf("%s: the complete table: %v", root, err)
		}
		if bad := full.Invalid(); len(bad) > 0 {
			t.Errorf("%s: the complete table has invalid entries %v", root, bad)
		}
		keys := make([]string, 0, len(vals))
		for k := range vals {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		failed := 0
		for _, skip := range keys {
			db := without(skip)
			_, err := db.Check(c, Options{})
			if err == nil {
				continue
			}
			failed++
			bad := db.Invalid()
			if skip == p.Key() {
				if len(bad) > 0 {
					t.Errorf("%s without its own value: invalid entries %v", root, bad)
				}
				continue
			}
			if len(bad) == 0 {
				t.Errorf("%s without %s: %v, and no entry invalid", root, skip, err)
			}
			if slices.Contains(bad, skip) {
				t.Errorf("%s without %s: the missing entry is named invalid", root, skip)
			}
			if len(bad) > 0 && !strings.Contains(err.Error(), "first invalid entry met: gn(") {
				t.Errorf("%s without %s: the failure does not name the entry: %v", root, skip, err)
			}
		}
		if failed < 2 {
			t.Errorf("%s: no value is needed but the root's", root)
		}
	}
}
