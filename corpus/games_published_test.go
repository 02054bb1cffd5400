package corpus

import (
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
)

// TestPublished: a claim about a position the game's published table
// gives a value of agrees with it when its Grundy value is that value, or
// its outcome a win exactly when the value is not 0; a table that gives
// no value, or no table, says nothing.
func TestPublished(t *testing.T) {
	table := func(text string) (uint32, bool) {
		switch text {
		case "p3":
			return 3, true
		case "p0":
			return 0, true
		}
		return 0, false
	}
	claim := func(s string) format.Claim {
		c, err := format.ParseClaim(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	info := game.Info{Table: game.Table{Published: table, PublishedName: "a table"}}
	for _, tc := range []struct {
		position, claim string
		info            game.Info
		known, agrees   bool
	}{
		{"p3", "gn(p3)=3", info, true, true},
		{"p3", "gn(p3)=2", info, true, false},
		{"p3", "p3=W", info, true, true},
		{"p3", "p3=L", info, true, false},
		{"p0", "p0=L", info, true, true},
		{"p0", "p0=W", info, true, false},
		{"p0", "gn(p0)=0", info, true, true},
		{"q", "gn(q)=1", info, false, false},
		{"p3", "gn(p3)=2", game.Info{}, false, false},
	} {
		_, known, agrees := Published(tc.info, GameRecord{Position: tc.position, Claim: claim(tc.claim)})
		if known != tc.known || agrees != tc.agrees {
			t.Errorf("%s: known %v, agrees %v; want %v, %v", tc.claim, known, agrees, tc.known, tc.agrees)
		}
	}
}
