package corpus

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/outcome"
)

// publishedCram holds the Grundy values of empty Cram boards that
// beling/impartial-games publishes in its README (computed with igsolve,
// the smaller ones first by Glop and by Schneider; 5x11 = 0 also by
// Uiterwijk), keyed by the board as this corpus writes it: rows x
// columns, rows ≤ columns. No one here wrote them.
var publishedCram = map[string]uint32{
	"4x4": 0, "4x5": 2, "4x6": 0, "4x7": 3, "4x8": 0, "4x9": 1, "4x10": 0, "4x11": 1,
	"4x12": 0, "4x13": 3, "4x14": 0, "4x15": 4,
	"5x5": 0, "5x6": 2, "5x7": 1, "5x8": 1, "5x9": 1, "5x10": 2, "5x11": 0, "5x12": 3,
	"6x6": 0, "6x7": 5, "6x8": 0, "6x9": 1, "6x10": 0, "6x12": 0, "6x14": 0,
	"7x7": 1, "7x8": 3, "7x9": 1,
}

// TestCramPublished: every claim of the committed Cram table about a board
// whose value beling/impartial-games publishes agrees with it: a Grundy
// value equal, an outcome W exactly when the value is not 0.
func TestCramPublished(t *testing.T) {
	f, err := os.Open(filepath.Join(".", CramIndexFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadCramIndex(f)
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, r := range recs {
		want, ok := publishedCram[r.Board]
		if !ok {
			continue
		}
		compared++
		if msg := disagreement(r.Claim, want); msg != "" {
			t.Errorf("%s line %d: %s: %s", CramIndexFile, r.Line, r.Claim, msg)
		}
	}
	if compared == 0 {
		t.Fatalf("no row of %s has a published value", CramIndexFile)
	}
}

// disagreement says how claim contradicts the published Grundy value
// want of its root, or returns "".
func disagreement(claim format.Claim, want uint32) string {
	out, g := claim.RootOutcome()
	switch {
	case g != nil && *g != want:
		return "beling/impartial-games publishes Grundy value " + strconv.FormatUint(uint64(want), 10)
	case g == nil && out != outcome.OfGrundy(want):
		return "beling/impartial-games publishes Grundy value " + strconv.FormatUint(uint64(want), 10) + ", so " + outcome.OfGrundy(want).String()
	}
	return ""
}

// TestCramPublishedDisagreement: a claim against a published value is
// named, and one that agrees is not.
func TestCramPublishedDisagreement(t *testing.T) {
	for _, tc := range []struct {
		claim string
		want  uint32
		bad   bool
	}{
		{"gn(4x9)=1", 1, false},
		{"gn(4x9)=2", 1, true},
		{"4x11=W", 1, false},
		{"4x11=L", 1, true},
		{"4x10=L", 0, false},
		{"4x10=W", 0, true},
		{"gn(5x11)=0", 0, false},
	} {
		c, err := format.ParseClaim(tc.claim)
		if err != nil {
			t.Fatal(err)
		}
		if got := disagreement(c, tc.want) != ""; got != tc.bad {
			t.Errorf("%s against %d: disagreement %v, want %v", tc.claim, tc.want, got, tc.bad)
		}
	}
}
