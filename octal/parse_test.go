package octal

import (
	"errors"
	"strings"
	"testing"
)

func TestParseCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"!", "!"},
		{"0.77:5", "0.77:5"},
		{"0.77:7+3+5", "0.77:3+5+7"},
		{"0.77:3+0.77:5", "0.77:3+5"},
		{"0.770:3", "0.77:3"},
		{"0.77:0", "!"},
		{"0.77:0+4", "0.77:4"},
		{"0.07:1", "!"},              // a heap of one token has no move in Dawson's Kayles
		{"0.07:2+1+1+3", "0.07:2+3"}, // nor do its heaps of one
		{"0.77:1+1", "0.77:1+1"},     // Kayles may take a heap of one
		{"0.77:3+0.07:4", "0.07:4+0.77:3"},
		{"0.77:3+0.07:4+0.77:1", "0.07:4+0.77:1+3"},
		{"0.0:5", "!"},
		{"0.000:5+0.7:2", "0.7:2"},
		{"0.4:2", "!"}, // 0.4 takes one token and must leave two heaps
		{"0.4:3", "0.4:3"},
		{"0.77:10+9", "0.77:9+10"}, // sizes sort as numbers
		{"0.137:65536", "0.137:65536"},
	} {
		p, err := Parse(tc.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.in, err)
			continue
		}
		if got := p.String(); got != tc.want {
			t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
		}
		q, err := Parse(p.String())
		if err != nil || q.String() != p.String() || q.Tokens() != p.Tokens() {
			t.Errorf("Parse(%q) = %v, %v: does not round-trip", p, q, err)
		}
		if k, err := FromKey(p.Key()); err != nil || k.Key() != p.Key() {
			t.Errorf("FromKey(%q) = %v, %v", p.Key(), k, err)
		}
	}
}

// TestParseErrors: every bad text is a *ParseError of the right kind, at
// the right byte, and its message names the input and the offending part.
func TestParseErrors(t *testing.T) {
	long := strings.Repeat("0.77:1+", MaxInput/7) + "0.77:1"
	for _, tc := range []struct {
		in     string
		kind   error
		offset int
		says   string // a part of the message
	}{
		{"", ErrSyntax, 0, "empty text"},
		{"5", ErrSyntax, 0, `heap "5" has no code`},
		{"3+0.77:5", ErrSyntax, 0, `heap "3" has no code`},
		{".77:5", ErrSyntax, 0, `"0.77"`},
		{"1.77:5", ErrSyntax, 0, `"1.77" is not an octal code`},
		{"4.07:5", ErrSyntax, 0, `"4.07" is not an octal code`},
		{"0.:5", ErrSyntax, 2, "no digits"},
		{"0.78:5", ErrSyntax, 3, `'8' in octal code "0.78"`},
		{"0.7a:5", ErrSyntax, 3, `'a'`},
		{"0.77:", ErrSyntax, 5, `heap size ""`},
		{"0.77:05", ErrSyntax, 5, `heap size "05"`},
		{"0.77:-1", ErrSyntax, 5, `heap size "-1"`},
		{"0.77:+5", ErrSyntax, 5, `heap size ""`},
		{"0.77:5+", ErrSyntax, 7, `heap size ""`},
		{"0.77:5++6", ErrSyntax, 7, `heap size ""`},
		{"0.77:5 ", ErrSyntax, 5, `heap size "5 "`},
		{" 0.77:5", ErrSyntax, 0, `" 0.77" is not an octal code`},
		{"0.77:5:6", ErrSyntax, 5, `heap size "5:6"`},
		{"0.77:x", ErrSyntax, 5, `heap size "x"`},
		{"!+0.77:5", ErrSyntax, 0, `"!" is not a heap`},
		{"!!", ErrSyntax, 0, `"!!" is not a heap`},
		{"kayles", ErrSyntax, 0, `"kayles" is not a heap: want CODE:SIZE`},
		{"0.77:5+!", ErrSyntax, 7, `heap size "!"`},
		{"0.77:1234567890", ErrSyntax, 5, `heap size "1234567890"`},
		{"0.77:65537", ErrTooLarge, 5, "65537 tokens"},
		{"0.77:3+0.07:99999", ErrTooLarge, 12, "99999 tokens"},
		{"0." + strings.Repeat("7", MaxDigits+1) + ":5", ErrTooLarge, 2 + MaxDigits, "more than 64 digits"},
		{strings.Repeat("0.77:65536+", 16) + "0.77:1", ErrTooLarge, 16 * 11, "more than 1048576 tokens"},
		{long + "+1", ErrTooLarge, MaxInput, "longer than"},
		{strings.Repeat("x", MaxInput), ErrSyntax, 0, `"xxxx`},
		{"0.77:" + strings.Repeat("9", MaxInput-5), ErrSyntax, 5, `heap size "9999`},
		{"0." + strings.Repeat("8", MaxInput-4) + ":5", ErrTooLarge, 2 + MaxDigits, "more than 64 digits"},
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
		case !strings.Contains(err.Error(), pe.Input) || !strings.HasPrefix(tc.in, strings.TrimSuffix(pe.Input, "…")):
			t.Errorf("Parse(%.20q): the error %q does not name the input", tc.in, err)
		case !strings.Contains(err.Error(), tc.says):
			t.Errorf("Parse(%.20q): the error %q does not say %q", tc.in, err, tc.says)
		case len(err.Error()) > 400:
			t.Errorf("Parse(%.20q): an error of %d bytes; long input is cut short", tc.in, len(err.Error()))
		}
	}
}

func TestParseCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0.77", "0.77"}, {"0.070", "0.07"}, {"0.0", "0.0"}, {"0.000", "0.0"}, {"0.1370", "0.137"},
	} {
		c, err := ParseCode(tc.in)
		if err != nil || c.String() != tc.want {
			t.Errorf("ParseCode(%q) = %v, %v; want %s", tc.in, c, err, tc.want)
		}
	}
	for _, in := range []string{"", "0", "0.", ".77", "0.8", "0.77:5", "00.7", "0.7 "} {
		_, err := ParseCode(in)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), pe.Input) {
			t.Errorf("ParseCode(%q) = %v, want a *ParseError naming the input", in, err)
		}
	}
	if (Code{}).String() != "0.0" {
		t.Errorf("the zero Code is %s, want 0.0", Code{})
	}
}

func TestFromKeyRejectsNonCanonical(t *testing.T) {
	for _, in := range []string{"0.77:5+3", "0.770:3", "0.77:3+0.77:5", "0.77:0", "0.07:1", "0.77:x"} {
		if p, err := FromKey(in); err == nil {
			t.Errorf("FromKey(%q) = %s, want an error (not a key)", in, p)
		} else if !strings.Contains(err.Error(), in) {
			t.Errorf("FromKey(%q): the error %q does not name the input", in, err)
		}
	}
}

func TestHeapsRejects(t *testing.T) {
	c := MustParseCode("0.77")
	for _, sizes := range [][]int{{-1}, {MaxHeap + 1}, {3, -2}, {MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap,
		MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap, MaxHeap, 1}} {
		if p, err := c.Heaps(sizes...); err == nil {
			t.Errorf("Heaps(%v) = %s, want an error", sizes, p)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"!", "0.77:5", "0.77:3+5+7", "0.07:4+0.77:3+5", "0.07:1", "0.770:3", "0.:1", ".77:5", "0.77:05", "0.4:3+0.137:9", "5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !(errors.Is(err, ErrSyntax) || errors.Is(err, ErrTooLarge)) {
				t.Fatalf("Parse(%q): %v is not a *ParseError", s, err)
			}
			if pe.Offset < 0 || pe.Offset > len(s) {
				t.Fatalf("Parse(%q): offset %d outside the input", s, pe.Offset)
			}
			return
		}
		q, err := FromKey(p.Key())
		if err != nil {
			t.Fatalf("Parse(%q) = %s, whose key does not read back: %v", s, p, err)
		}
		if q.String() != p.String() || q.Tokens() != p.Tokens() || q.NumHeaps() != p.NumHeaps() {
			t.Fatalf("Parse(%q) = %s, which reads back as %s", s, p, q)
		}
		if p.Tokens() > MaxTokens {
			t.Fatalf("Parse(%q) = %s has %d tokens, over MaxTokens", s, p, p.Tokens())
		}
		sum := 0
		for _, h := range p.Heaps() {
			c, n, ok := h.Heap()
			if !ok || n < 1 || n > MaxHeap || !c.alive(n) {
				t.Fatalf("Parse(%q) = %s has a heap %s (%v %d %v)", s, p, h, c, n, ok)
			}
			sum += n
		}
		if sum != p.Tokens() || Sum(p.Heaps()...).Key() != p.Key() {
			t.Fatalf("Parse(%q) = %s: heaps have %d tokens, the position %d", s, p, sum, p.Tokens())
		}
	})
}
