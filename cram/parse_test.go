package cram

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"!", "!"},
		{"5x5", "5x5"},
		{"5x4", "4x5"},
		{"1x1", "!"},
		{"12x1", "1x12"},
		{"1x2", "1x2"},
		{"2x2+1x2", "1x2+2x2"},
		{"1x2+2x2", "1x2+2x2"},
		{"..", "1x2"},
		{"./.", "1x2"},
		{"#", "!"},
		{".#./#.#", "!"},
		{"..#/#..", "#../..#"},
		{"..##/##..", "1x2+1x2"},
		{"...../...../...../...../.....", "5x5"},
		{"##.../##.../.....", "..#/..#/.../..."}, // hmm: see TestParseCanonical's own check below
		{".../.#./...", ".../.#./..."},
		{"1x1+1x1+1x1", "!"},
		{"3x3+1x1", "3x3"},
		{"##/..", "1x2"},
	} {
		p, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if tc.in == "##.../##.../....." {
			// A 3x5 board with a 2x2 hole in a corner: its canonical
			// image is the least of its 8 images; check it against them
			// rather than a hand-written guess.
			if p.String() != bruteCanonical(tc.in) {
				t.Errorf("Parse(%q) = %s, want %s", tc.in, p, bruteCanonical(tc.in))
			}
			continue
		}
		if got := p.String(); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
		q, err := Parse(p.String())
		if err != nil || q.String() != p.String() {
			t.Errorf("Parse(%q) = %v, %v: does not round-trip", p, q, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		in     string
		kind   error
		offset int
	}{
		{"", ErrSyntax, 0},
		{"0x5", ErrSyntax, 0},
		{"05x5", ErrSyntax, 0},
		{"5x0", ErrSyntax, 2},
		{"5x", ErrSyntax, 2},
		{"x5", ErrSyntax, 0},
		{"5X5", ErrSyntax, 3},
		{"5", ErrSyntax, 1},
		{"5x5x5", ErrSyntax, 2},
		{"-1x5", ErrSyntax, 0},
		{" 5x5", ErrSyntax, 0},
		{"5x5 ", ErrSyntax, 2},
		{"5x5+", ErrSyntax, 4},
		{"+5x5", ErrSyntax, 0},
		{"5x5++2x2", ErrSyntax, 4},
		{"!+5x5", ErrSyntax, 0},
		{"!!", ErrSyntax, 0},
		{"..#/.", ErrSyntax, 4},
		{"../", ErrSyntax, 3},
		{"/..", ErrSyntax, 0},
		{"..//..", ErrSyntax, 3},
		{"..o", ErrSyntax, 2},
		{"2x2+..a", ErrSyntax, 6},
		{"4097x1", ErrSyntax, 0},
		{"65x64", ErrTooLarge, 0},
		{"64x64+64x64+64x64+64x64+1x2", ErrTooLarge, 24},
		{strings.Repeat(".", MaxArea+1), ErrTooLarge, 0},
		{strings.Repeat("1x2+", MaxInput/4) + "1x2", ErrTooLarge, MaxInput},
	} {
		_, err := Parse(tc.in)
		var pe *ParseError
		switch {
		case err == nil:
			t.Errorf("Parse(%.20q) accepted", tc.in)
		case !errors.As(err, &pe) || !errors.Is(err, tc.kind):
			t.Errorf("Parse(%.20q) = %v, want a *ParseError wrapping %v", tc.in, err, tc.kind)
		case pe.Offset != tc.offset:
			t.Errorf("Parse(%.20q): error at byte %d, want %d (%v)", tc.in, pe.Offset, tc.offset, err)
		case !strings.Contains(err.Error(), pe.Input):
			t.Errorf("Parse(%.20q): the error %q does not name the input", tc.in, err)
		}
	}
}

func TestRegionsAndSum(t *testing.T) {
	p := MustParse("..#../..#../#####/...#.")
	if got, want := p.String(), "1x3+2x2+2x2"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if p.Cells() != 11 || p.NumRegions() != 3 {
		t.Errorf("cells %d, regions %d; want 11, 3", p.Cells(), p.NumRegions())
	}
	rs := p.Regions()
	if Sum(rs...).String() != p.String() {
		t.Errorf("Sum(Regions) = %s, want %s", Sum(rs...), p)
	}
	if Sum().String() != EmptyText || !Empty.IsTerminal() || Empty.Cells() != 0 {
		t.Errorf("the empty sum is %s", Sum())
	}
}

func TestChildren(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"!", nil},
		{"1x2", []string{"!"}},
		{"1x3", []string{"!"}},
		{"1x4", []string{"!", "1x2"}},
		{"1x5", []string{"1x2", "1x3"}},
		{"1x6", []string{"1x2+1x2", "1x3", "1x4"}},
		{"2x2", []string{"1x2"}},
		{"2x3", []string{"##./...", "1x2+1x2", "2x2"}},
		{"1x2+1x3", []string{"1x2", "1x3"}},
	} {
		var got []string
		for _, c := range MustParse(tc.in).Children() {
			got = append(got, c.String())
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("children of %s = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestChildrenUntil (N25): ChildrenUntil makes the children Children
// makes, and stops at the first child for which stop says so, making no
// more: a search told to stop does not first make the thousands of
// children of a large board (64x64 has 8,064, a second or more).
func TestChildrenUntil(t *testing.T) {
	p := MustParse("6x6")
	all := p.Children()
	kids, complete := p.ChildrenUntil(func(Position) bool { return false })
	if !complete || len(kids) != len(all) {
		t.Fatalf("never stopped: %d children, complete %v; want the %d of Children", len(kids), complete, len(all))
	}
	for i := range kids {
		if kids[i].Key() != all[i].Key() {
			t.Fatalf("child %d: %s, Children says %s", i, kids[i], all[i])
		}
	}
	calls := 0
	kids, complete = p.ChildrenUntil(func(Position) bool { calls++; return calls == 3 })
	if complete || kids != nil || calls != 3 {
		t.Errorf("stop at the third: %d calls, complete %v, %d children; want 3 calls and nothing", calls, complete, len(kids))
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"!", "5x5", "4x5", ".#./.../..#", "2x2+1x3", "..#/#..", "0x1", "5x", "../.", "#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !(errors.Is(err, ErrSyntax) || errors.Is(err, ErrTooLarge)) {
				t.Fatalf("Parse(%q): %v is not a *ParseError", s, err)
			}
			return
		}
		q, err := Parse(p.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %s, which does not parse: %v", s, p, err)
		}
		if q.String() != p.String() || q.Cells() != p.Cells() {
			t.Fatalf("Parse(%q) = %s, which reads back as %s", s, p, q)
		}
		sum := 0
		for _, r := range p.Regions() {
			if r.Cells() < 2 {
				t.Fatalf("Parse(%q) = %s has a region %s of %d cells", s, p, r, r.Cells())
			}
			sum += r.Cells()
		}
		if sum != p.Cells() {
			t.Fatalf("Parse(%q) = %s: regions have %d cells, the position %d", s, p, sum, p.Cells())
		}
	})
}
