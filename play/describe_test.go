package play

import (
	"strings"
	"testing"

	"github.com/spots-dev/spots/verify"
)

// TestDescribe checks that the Describer names every move of small
// written positions (its descriptions are right by construction: each is
// kept only for the result sprouts reads from the drawn line), and a few
// descriptions word for word.
func TestDescribe(t *testing.T) {
	for _, s := range []string{"0*3", "0*4", "0.1a1a", "0*2.AB|AB", "1a1a+0*2", "0.AB|0.AB+*2", "BA|BA.0", "2AB|AB"} {
		g, err := ParseGame(sp, s)
		if err != nil {
			t.Fatal(err)
		}
		ms, err := Moves(g, verify.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		d := NewDescriber(s)
		for _, m := range ms {
			if d.Describe(m) == "" {
				t.Errorf("%s: the move to %s has no description", s, m.To)
			}
		}
	}
	for _, tt := range []struct{ in, to, want string }{
		{"0*3", "0.AB|0.AB", "a loop at a 0 of 0*3 (char 1) in region 1 (0*3), enclosing 0"},
		{"0*3", "0.1a1a", "a line from a 0 of 0*3 (char 1) to another in region 1 (0*3), joining their boundaries"},
		{"0.1a1a", "0.1a2a", "a loop at 1 (char 3) in region 1 (0.1a1a), enclosing nothing"},
		{"1a1a+0*2", "0*2+ABCD|ABCD", "a line from 1 (char 1) to 1 (char 3) in region 1 (1a1a), cutting it in two; on the side of the part between them: nothing"},
		{"0*3+*2", "0*3", "take from the heap *2, leaving *0"},
	} {
		g, _ := ParseGame(sp, tt.in)
		ms, _ := Moves(g, verify.Limits{})
		d := NewDescriber(tt.in)
		found := false
		for _, m := range ms {
			if m.To.String() == tt.to {
				found = true
				if got := d.Describe(m); got != tt.want {
					t.Errorf("%s → %s: %q, want %q", tt.in, tt.to, got, tt.want)
				}
			}
		}
		if !found {
			t.Errorf("%s has no move to %s", tt.in, tt.to)
		}
	}
	// Text the model does not read gives no description, never a panic.
	for _, s := range []string{"2AB.}AB.}]!", "0*99999999999", "0.(", strings.Repeat("0.", 5000) + "0"} {
		g, err := ParseGame(sp, "0*2")
		if err != nil {
			t.Fatal(err)
		}
		ms, _ := Moves(g, verify.Limits{})
		if got := NewDescriber(s).Describe(ms[0]); got != "" {
			t.Errorf("%q: %q", s, got)
		}
	}
}

// FuzzDescribe checks that the Describer's reader of written positions
// never panics, and that the Describer gives for a move either nothing or
// a description of a line.
func FuzzDescribe(f *testing.F) {
	for _, s := range []string{"0*3", "0.1a1a", "0*2.AB|AB+*1", "m(13)1m(13)", "n(3)|n(3).0", "0.3.1", "!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 200 {
			return
		}
		readDrawing(s) // must not panic
		g, err := ParseGame(sp, s)
		if err != nil || typed(t, g).Lives() > 20 {
			return
		}
		ms, err := Moves(g, verify.Limits{})
		if err != nil {
			return
		}
		d := NewDescriber(s)
		for _, m := range ms {
			if got := d.Describe(m); got != "" && !strings.HasPrefix(got, "a l") && !strings.HasPrefix(got, "take") {
				t.Fatalf("%s → %s: %q", s, m.To, got)
			}
		}
	})
}
