package cramgame

import (
	"testing"

	"github.com/spots-dev/spots/cram"
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

// TestPublished: the published table gives the values of the empty boards
// it lists, under their canonical text only, and nothing for any other
// position; and what it says agrees with the symmetry strategies (a
// transcription error would likely break that).
func TestPublished(t *testing.T) {
	for _, tt := range []struct {
		text  string
		want  uint32
		known bool
	}{
		{"4x11", 1, true},
		{"4x15", 4, true},
		{"6x7", 5, true},
		{"7x9", 1, true},
		{"5x11", 0, true},
		{"11x4", 0, false}, // not canonical
		{"3x3", 0, false},
		{"7x10", 0, false},
		{"4x11+1x2", 0, false},
		{".#./...", 0, false},
		{"!", 0, false},
	} {
		g, known := published(tt.text)
		if known != tt.known || g != tt.want {
			t.Errorf("published(%s) = %d, %v; want %d, %v", tt.text, g, known, tt.want, tt.known)
		}
	}
	for board, g := range publishedBoards {
		if p, err := cram.Parse(board); err != nil || p.String() != board {
			t.Errorf("%s is not a board in canonical text (%v)", board, err)
		}
		switch symmetry(board) {
		case "L":
			if g != 0 {
				t.Errorf("%s: published %d, but the symmetry strategy proves L", board, g)
			}
		case "W":
			if g == 0 {
				t.Errorf("%s: published 0, but the symmetry strategy proves W", board)
			}
		}
	}
	if Info.Table.Published == nil || Info.Table.PublishedName != publishedName {
		t.Errorf("Info does not name the published table")
	}
}
