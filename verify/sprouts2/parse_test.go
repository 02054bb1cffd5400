package sprouts2

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tt := range []struct {
		in           string
		lands, lives int
	}{
		{"!", 0, 0},
		{"", 0, 0},
		{"0*0", 0, 0},
		{"0", 1, 3},
		{"0*3", 1, 9},
		{"0.0.0!", 1, 9},
		{"1a1a", 1, 5},
		{"0*18|1a1a", 2, 59}, // two regions no letter links: two lands
		{"0*18.1a1a", 1, 59},
		{"AB|AB+AB|AB", 2, 4},
		{"2a2a", 1, 3}, // a region of three lives, written 222
		{"3", 0, 0},
		{"2", 0, 0},   // one life: no move
		{"AA3", 0, 0}, // an uppercase letter twice on one boundary: a letter, here a 2 alone
		{"AB.2|AB.0", 1, 6},
		{"1.2", 1, 3},
		{"m(13)m(13)", 0, 0}, // one spot, its corners side by side: a 2, alone
		{"n(30)B|n(30)B", 1, 2},
		{"1m(13)1m(13).1a1a", 1, 10},
		{"1B1B+2A|2A", 2, 8}, // an uppercase letter seen twice on one boundary is a lowercase one
		{"A1A.2", 1, 4},      // the A's corners are neighbours: a 2
	} {
		lands, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		n := 0
		for _, l := range lands {
			n += l.Lives()
		}
		if len(lands) != tt.lands || n != tt.lives {
			t.Errorf("Parse(%q) = %s: %d lands, %d lives; want %d, %d", tt.in, Text(lands), len(lands), n, tt.lands, tt.lives)
		}
	}
	for _, in := range []string{"0 0", "xyz", "00", "0*", "0*-1", "0*+1", "0**3", "a", "aaa", "AAA", "A.A|B",
		"AB|AB|AB", "m()", "m(x)", "m(0)", "n(0)", "m(1", "0..0", ".0", "0|", "1Z2", "#", "0#0", "ab.ab|ab", "1ab1ab1", "1abab", "0.A|0", "0.AB|A", "é0",
		strings.Repeat("1", MaxInput+1), "0*2000000"} {
		if lands, err := Parse(in); err == nil {
			t.Errorf("Parse(%.20q) = %s, want an error", in, Text(lands))
		} else if !errors.As(err, new(*ParseError)) {
			t.Errorf("Parse(%.20q): %v is not a *ParseError", in, err)
		}
	}
}

// TestTextParses: what Text writes reads back as the same position.
func TestTextParses(t *testing.T) {
	for _, v := range readVectors(t) {
		if v.Kind != "position" {
			continue
		}
		lands := mustParse(t, v.Pos)
		again := mustParse(t, Text(lands))
		if same, err := SamePosition(lands, again, 0); err != nil || !same {
			t.Errorf("%s: written %s, read back as %s (%v)", v.Pos, Text(lands), Text(again), err)
		}
	}
}

// TestNoncanonicalVectors: the reference's rewritings of a position (its
// letters renamed, boundaries turned, parts reordered) are the same
// position as the original.
func TestNoncanonicalVectors(t *testing.T) {
	n := 0
	for _, v := range readVectors(t) {
		if v.Kind != "noncanonical" || !v.Same {
			continue
		}
		same, err := SamePosition(mustParse(t, v.Input), mustParse(t, v.Base), 0)
		if err != nil || !same {
			t.Errorf("%s and %s: Same says %v (%v)", v.Input, v.Base, same, err)
		}
		n++
	}
	if n == 0 {
		t.Error("no vectors")
	}
}

// TestBudget: a comparison that needs more steps than its budget says so
// instead of answering.
func TestBudget(t *testing.T) {
	// Ten loops in one region, each with a region of its own: many ways
	// to pair the loops of two writings.
	var inner, outer []string
	for i := range 10 {
		a, b := string(rune('A'+2*i)), string(rune('A'+2*i+1))
		outer = append(outer, a+b)
		inner = append(inner, a+b)
	}
	x := mustParse(t, "0."+strings.Join(outer, ".")+"|"+strings.Join(inner, "|"))[0]
	y := mustParse(t, "0."+strings.Join(outer, ".")+"|"+strings.Join(inner, "|"))[0]
	if same, err := Same(x, y, 0); err != nil || !same {
		t.Fatalf("Same without a budget: %v, %v", same, err)
	}
	if _, err := Same(x, y, 3); !errors.Is(err, ErrBudget) {
		t.Errorf("Same with a budget of 3 steps: %v, want ErrBudget", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"0*12", "1a1a", "0.AB|AB", "0.A|1aAa", "AB.2|AB.0", "n(30)B|n(30)B", "1m(13)1m(13).1a1a", "0*3+1a1a", "!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lands, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(Text(lands))
		if err != nil {
			t.Fatalf("%q: Text %q does not parse: %v", s, Text(lands), err)
		}
		if same, err := SamePosition(lands, again, 1<<20); err == nil && !same {
			t.Fatalf("%q: Text %q reads back as another position", s, Text(lands))
		}
		for _, l := range lands {
			if l.Lives() < 2 {
				t.Fatalf("%q: land %s has %d lives: it should have been reduced away", s, l, l.Lives())
			}
			if l.Moves() > 500 || l.Corners() > 200 {
				continue
			}
			// Every move takes a life; its lands read back as written.
			for _, c := range l.Children() {
				n := 0
				for _, k := range c {
					n += k.Lives()
				}
				if n >= l.Lives() {
					t.Fatalf("%q: the child %s of %s has %d lives, not fewer than %d", s, Text(c), l, n, l.Lives())
				}
				if _, err := Parse(Text(c)); err != nil {
					t.Fatalf("%q: the child %s of %s does not parse: %v", s, Text(c), l, err)
				}
			}
		}
	})
}
