package play

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/sprouts/sproutsgame"
)

func TestParseGame(t *testing.T) {
	tests := []struct {
		in, want string // want "" means an error containing err
		err      string
	}{
		{in: "0*9", want: "0*9"},
		{in: "0*3+*1", want: "0*3+*1"},
		{in: "BA|BA.0", want: "0.AB|AB"},
		{in: "1a1a+0*3+*12", want: "0*3+1a1a+*12"},
		{in: "!+*2", want: "!+*2"},
		{in: "0*2+*0", want: "0*2"},
		{in: "!", want: "!"},
		{in: "+*2", err: "no position"},
		{in: "0*3+*", err: "heap size after \"+*\" is missing"},
		{in: "0*3+*01", err: "leading zero"},
		{in: "0*3+*-1", err: "not a decimal number"},
		{in: "0*3+*65537", err: "larger than 65536"},
		{in: "0*3+*99999999999999999999", err: "larger than 65536"},
		{in: "xx", err: "unknown character"},
		{in: "", err: "no position"},
	}
	for _, tt := range tests {
		g, err := ParseGame(sp, tt.in)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ParseGame(%q) = %v, %v; want an error containing %q", tt.in, g, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("ParseGame(%q): %v", tt.in, err)
		case tt.err == "" && g.String() != tt.want:
			t.Errorf("ParseGame(%q) = %s, want %s", tt.in, g, tt.want)
		}
	}
}

// FuzzParseGame checks that ParseGame never panics, that what it accepts
// it writes canonically and reads back as itself, and that its errors are
// valid UTF-8 of bounded length.
func FuzzParseGame(f *testing.F) {
	for _, s := range []string{"0*9", "0*3+*1", "!+*2", "0.AB|AB+1a1a+*7", "+*", "0*3+*+*1", "2AB.}AB.}]!", "0*3+*01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGame(sp, s)
		if err != nil {
			if len(err.Error()) > 2000 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		if g.Heap > MaxHeap {
			t.Fatalf("heap %d", g.Heap)
		}
		back, err := ParseGame(sp, g.String())
		if err != nil || back.String() != g.String() || back.Heap != g.Heap {
			t.Fatalf("%q → %s → %v, %v", s, g, back, err)
		}
		if utf8.ValidString(s) && !utf8.ValidString(cut(s)) {
			t.Fatalf("cut(%q) is not UTF-8", s)
		}
	})
}

// sp is Sprouts, the game most tests here play.
var sp = sproutsgame.Game

// typed returns the Sprouts position of g.
func typed(t testing.TB, g Game) sprouts.Position {
	t.Helper()
	p, ok := game.Unwrap[sprouts.Position](g.Position)
	if !ok {
		t.Fatalf("%s is not a Sprouts position", g)
	}
	return p
}
