package cramgame

import (
	"testing"

	"github.com/spots-dev/spots/game/gametest"
)

// TestConformance runs the conformance suite on Cram, from its example
// and from boards with holes and sums.
func TestConformance(t *testing.T) {
	gametest.Run(t, Game, ".#./.../..#", "2x2+1x3", "#../..#", "1x9")
}

// TestTable: the corpus lists empty rectangles first, by rows then
// columns, and holds every claim about one to the symmetry strategies.
func TestTable(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"1x20", "2x2", -1},
		{"2x3", "2x2", 1},
		{"5x5", "#../..#", -1},
		{"#../..#", "1x2+1x2", -1},
		{"3x3", "3x3", 0},
	} {
		if got := order(tt.a, tt.b); got != tt.want {
			t.Errorf("order(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	for board, want := range map[string]string{"2x2": "L", "4x6": "L", "2x3": "W", "3x4": "W", "3x3": "", "5x7": "", ".#./...": "", "1x2+1x2": ""} {
		if got := symmetry(board); got != want {
			t.Errorf("symmetry(%s) = %q, want %q", board, got, want)
		}
	}
}
