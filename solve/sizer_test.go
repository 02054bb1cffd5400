package solve

import (
	"testing"
	"unsafe"

	"github.com/spots-dev/spots/solve/internal/octal"
)

// sized is the octal test game with PositionBytes: every position counts
// 1000 bytes.
type sized struct{ octal.Game }

func (sized) PositionBytes(string) int { return 1000 }

// TestPositionBytes: the cache of children counts a position as the game
// says when it offers PositionBytes (an erased position, held through a
// pointer, holds more than its own size), else as its size plus its key.
func TestPositionBytes(t *testing.T) {
	g, err := octal.New("0.77")
	if err != nil {
		t.Fatal(err)
	}
	p := octal.Heaps(5, 3)
	for _, tt := range []struct {
		name string
		game Game[string]
		want int
	}{
		{"without PositionBytes", g, int(unsafe.Sizeof(p)) + len(g.Key(p))},
		{"with PositionBytes", sized{g}, 1000},
	} {
		if got := positionBytes(tt.game)(p); got != tt.want {
			t.Errorf("%s: %d bytes, want %d", tt.name, got, tt.want)
		}
	}
}
