package sprouts

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestParseAccepts(t *testing.T) {
	// input → canonical form. From the reference's worked examples and the
	// notation's rules.
	tests := []struct{ in, want string }{
		{"0*1", "0"},
		{"0", "0"},
		{"0*2", "0*2"},
		{"0.0", "0*2"},
		{"0.0*2", "0*3"},
		{"0*12", "0*12"},
		{"0*105", "0*105"},
		{"!", "!"},
		{"0*0", "!"},
		{"0*3!", "0*3"},
		{"0*18.1a1a", "0*18.1a1a"},
		{"0*18|1a1a", "0*18+1a1a"}, // two regions with nothing between them are two lands
		{"1.2", "12"},              // two or three lives: one boundary
		{"2a2a", "222"},
		{"2.AB|AB", "2AB|AB"},
		{"AB.2|AB.0", "0.AB|2AB"},
		{"BA|BA", "AB|AB"},
		{"1b1b", "1a1a"},
		{"a1a1", "1a1a"},
		{"1A1A", "1a1a"}, // an uppercase letter seen twice on one boundary is a pair
		{"1a1a.0", "0.1a1a"},
		{"0.0|0", "0+0*2"},
		{"12|AB.0|AB", "0.AB|AB+12"},
		{"CD|CD+AB|AB", "AB|AB+AB|AB"},
		{"1a1a+0*3", "0*3+1a1a"},
		{"2", "!"},
		{"3", "!"},
		{"aa", "!"},
		{"m(13)m(13)", "!"},
		{"22", "22"},
		{"n(30)B|n(30)B", "AB|AB"},
		{"1m(13)1m(13).1a1a", "1a1a.1a1a"},
		{"0.A.3|12aAa", "0.A|12aAa"},
		{"0*3+33", "0*3"},
		{"1aa", "12"},
	}
	for _, tt := range tests {
		p, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if p.String() != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, p, tt.want)
		}
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		reason string // a part of the message
	}{
		{"", 0, "empty text"},
		{"0 0", 1, "white space"},
		{"0*3 1", 3, "must be followed by a separator"},
		{"xyz", 0, "unknown character 'x'"},
		{"1Z2", 1, "unknown character 'Z'"},
		{"0*", 2, "needs a count"},
		{"*3", 0, "'*' may only follow a 0"},
		{"0*-1", 2, "needs a count"},
		{"0*3*2", 3, "must be followed by a separator"},
		{"0*0.1", 0, "0*0 is the empty position"},
		{"0*99999999999999999999", 2, "more than a position may hold"},
		{"m(", 0, "m(k) needs a number"},
		{"m()", 0, "m(k) needs a number"},
		{"m(x)", 0, "m(k) needs a number"},
		{"m1", 0, "m must be followed by (k)"},
		{"n(0)n(0)", 2, "letter numbers start at 1"},
		{"m(201)m(201)", 2, "larger than 200"},
		{"4", 0, "4 is not a spot"},
		{"0||0", 2, "two separators in a row ('|' then '|')"},
		{"+1a1a", 0, "starts with a separator"},
		{"1a1a.", 5, "ends with a separator"},
		{"++", 0, "starts with a separator"},
		{"!0*3", 0, "'!' may only end a position"},
		{"0*3!0*2", 3, "must be followed by a separator"},
		{"01", 0, "must be alone in its boundary"},
		{"10", 1, "must be alone in its boundary"},
		{"a", 0, "lowercase letter a occurs 1 time"},
		{"1a1a1a", 1, "lowercase letter a occurs 3 time"},
		{"1ab1ab", 5, "letters a and b interleave"},
		{"1AB1AB", 5, "letters A and B interleave"},
		{"aLLaGdGd", 7, "letters G and d interleave"},
		{"0.A|0", 2, "uppercase letter A occurs once in its land"},
		{"A|0+A", 4, "occurs once in each of two lands"},
		{"AB|AB|AB", 6, "occurs 3 times"},
		{"A.A|0", 2, "two boundaries of one region"},
		{"#", 0, "mark the reference uses"},
		{"0-0", 1, "mark the reference uses"},
		{"é0", 0, "unknown character 'é'"},
		{"\xff", 0, "byte 0xff"},
		{strings.Repeat("0.", MaxInput), MaxInput, "longer than"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%.20q): error %v, want a *ParseError", tt.in, err)
			continue
		}
		if pe.Offset != tt.offset || !strings.Contains(pe.Reason, tt.reason) {
			t.Errorf("Parse(%.20q): at %d %q; want at %d %q", tt.in, pe.Offset, pe.Reason, tt.offset, tt.reason)
		}
	}
}

func TestFromKeyRejectsOtherBytes(t *testing.T) {
	for _, key := range []string{"\x01", "\x04\x01", "\x04\x04", "\x07", "\x7f\x80", "\x81\x80", "\x80\x80\x02\x80\x80"} {
		if p, err := FromKey(key); err == nil {
			t.Errorf("FromKey(%q) = %s, want an error", key, p)
		}
	}
}

// FuzzParse checks that Parse never panics and that what it accepts prints
// as text it reads back to the same position.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0*12", "0.AB|AB", "1a1a.1a1a", "0*2.A|BCD|AB|CD", "n(30)B|n(30)B", "0*3+33!", "m(13)m(13)", "12|AB.0|AB", "1ab1ba"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Offset < 0 || pe.Offset > len(s) {
				t.Fatalf("Parse(%q): bad error %v", s, err)
			}
			return
		}
		q, err := Parse(p.String())
		if err != nil || q != p {
			t.Fatalf("Parse(%q) = %s, which reads back as %s, %v", s, p, q, err)
		}
	})
}

// FuzzFromKey checks that no key makes FromKey or what follows panic.
func FuzzFromKey(f *testing.F) {
	f.Add(MustParse("0*2.A|BCD|AB|CD+1a1a").Key())
	f.Add("\x04\x01\x04")
	f.Fuzz(func(t *testing.T, key string) {
		p, err := FromKey(key)
		if err != nil {
			return
		}
		if p.Key() != key {
			t.Fatalf("FromKey(%q).Key() = %q", key, p.Key())
		}
		p.Children()
	})
}

func TestEstimateChildren(t *testing.T) {
	// Σ over boundary pairs of |Bi|·|Bj| + Σ ⌊|B|²·2^(b−1)/2⌋, per region.
	tests := []struct {
		pos  string
		want int
	}{
		{"0", 0},           // one boundary of 1: ⌊1·1/2⌋
		{"0*2", 1 + 1 + 1}, // 1·1 + 2·⌊1·2/2⌋
		{"1a1a", 8},        // ⌊16/2⌋
		{"0.AB|AB", 2 + 1 + 4 + 2},
		{"0+1a1a", 8},
	}
	for _, tt := range tests {
		if got := MustParse(tt.pos).EstimateChildren(); got != tt.want {
			t.Errorf("EstimateChildren(%s) = %d, want %d", tt.pos, got, tt.want)
		}
	}
}

func TestAppendLands(t *testing.T) {
	for _, s := range []string{"!", "0*3", "0*3+0.1a1a", "0+0+0.AB|0.AB", "0*2.ABCD|0.2.ABCD+1a1a+1a1a"} {
		p := MustParse(s)
		buf := []Position{MustParse("0")}
		got := p.AppendLands(buf)
		if !slices.Equal(got[1:], p.Lands()) || got[0] != buf[0] {
			t.Errorf("%s: AppendLands gave %v, Lands %v", s, got[1:], p.Lands())
		}
	}
}

// TestLongLettersLivesAndEstimate checks Lives and EstimateChildren, which
// read one byte a symbol, on codes with letters too many for one byte.
func TestLongLettersLivesAndEstimate(t *testing.T) {
	var up, upRev, low strings.Builder
	for k := range 130 {
		up.WriteString(letterName(k, 'A', 'n'))
	}
	for k := 129; k >= 0; k-- {
		upRev.WriteString(letterName(k, 'A', 'n'))
	}
	for k := range 125 {
		name := letterName(k, 'a', 'm')
		low.WriteString(name + "1" + name)
	}
	for _, tt := range []struct {
		pos          string
		lives, moves int // as counted by hand: lives, then the estimate's formula
	}{
		// 0 + 130 letters each side: one region of 2 boundaries (1 and 130)
		// on each side: 1·130 + ⌊1/2·2⌋ + ⌊130²·2/2⌋ = 130 + 1 + 16900.
		{"0." + up.String() + "|0." + upRev.String(), 3*2 + 130, 2 * (130 + 1 + 16900)},
		// one boundary of 375 symbols: 125 pairs of a one-life spot and a
		// spot 1 (two lives) between: ⌊375²/2⌋.
		{low.String(), 125 + 125*2, 375 * 375 / 2},
	} {
		p := MustParse(tt.pos)
		if strings.IndexByte(p.Key(), cLowerLong) < 0 && strings.IndexByte(p.Key(), cUpperLong) < 0 {
			t.Fatalf("%s: its key has no long letter; the test needs one", tt.pos)
		}
		if got := p.Lives(); got != tt.lives {
			t.Errorf("Lives(%s…) = %d, want %d", tt.pos[:20], got, tt.lives)
		}
		if got := p.EstimateChildren(); got != tt.moves {
			t.Errorf("EstimateChildren(%s…) = %d, want %d", tt.pos[:20], got, tt.moves)
		}
	}
}

// TestStringLongNames checks that lands with more lowercase letters than
// a…l or more uppercase ones than A…Y are written with m(k) and n(k)
// throughout, and read back as themselves.
func TestStringLongNames(t *testing.T) {
	for _, tt := range []struct{ pos, want string }{
		{"a1ab1bc1cd1de1ef1fg1gh1hi1ij1jk1kl1lm(13)1m(13)+0*3", "m(13)"},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYn(26)|n(26)YXWVUTSRQPONMLKJIHGFEDCBA+1a1a", "n(26)"},
		{"a1ab1bc1cd1de1ef1fg1gh1hi1ij1jk1kl1l+0*2.AB|0.AB", ""},
	} {
		p := MustParse(tt.pos)
		s := p.String()
		if tt.want != "" && !strings.Contains(s, tt.want) || tt.want == "" && strings.ContainsAny(s, "()") {
			t.Errorf("%s is written %s", tt.pos, s)
		}
		if q, err := Parse(s); err != nil || q != p {
			t.Errorf("%s is written %s, which reads back as %v (%v)", tt.pos, s, q, err)
		}
	}
}
