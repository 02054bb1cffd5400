package sprouts

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"
)

// MaxInput is the longest text Parse accepts, in bytes, and MaxSpots the
// largest number of symbols (spots and corners) a position may hold once
// 0*k runs are expanded. Both keep hostile input from exhausting memory.
// MaxLetterNumber is the largest k of m(k) and n(k), as in the reference.
const (
	MaxInput        = 1 << 20
	MaxSpots        = 1 << 20
	MaxLetterNumber = 200
)

// ParseError says why a text is not a position and where.
type ParseError struct {
	Input  string // the text given to Parse (cut short if very long)
	Offset int    // byte offset of the problem in Input
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("parse %q: at byte %d: %s", e.Input, e.Offset, e.Reason)
}

// Parse reads a position in the reference's notation and returns it in
// canonical form. The notation: lands separated by '+', regions by '|',
// boundaries by '.'; within a boundary the spots and corners met when walking
// along it: 0 (a spot without lines, alone in its boundary), 1 (a spot with
// one line), 2 (a spot with one life used in this region only), a lowercase
// letter for a spot with one life seen twice on this boundary, an uppercase
// letter for a spot with one life seen once in each of two regions of the
// land; 3 for a spot without lives (it is simply dropped); 0*k for k spots
// without lines; m(k) and n(k) for lowercase and uppercase letter number k;
// "!" alone for the empty position (also 0*0). A final '!' ends a position.
// Lowercase names are local to a boundary, uppercase names to a land.
//
// Unlike the reference, Parse is strict: anything that is not a position in
// this notation is an error naming the byte offset and the problem.
func Parse(s string) (Position, error) {
	g := generators.Get().(*generator)
	defer generators.Put(g)
	var p parser
	if err := p.parse(s, &g.child); err != nil {
		return Position{}, err
	}
	if len(g.child.rEnd) == 0 {
		return Empty, nil
	}
	return Position{g.finish(&g.child, nil)}, nil
}

// MustParse is Parse for texts known to be valid, such as constants in
// programs and tests. It panics on error.
func MustParse(s string) Position {
	p, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

type parser struct {
	in  string
	pos int
	// Where each uppercase letter was seen, land by land.
	lands []map[int][]corner
	upper map[int][]corner // the current land's
	// Pairs of corners of one spot on one boundary, boundary by boundary.
	pairs    map[int][]pair
	region   int // region index in the sketch
	boundary int // boundary index in the sketch
	symbols  int
}

type pair struct {
	a, b   int    // positions in the sketch's occ
	offset int    // byte offset of the second corner
	name   string // the letter as written
}

type corner struct {
	offset   int
	region   int
	boundary int
	index    int // position in the sketch's occ
}

func (p *parser) fail(offset int, format string, args ...any) error {
	in := p.in
	if len(in) > 200 {
		in = in[:200] + "…"
	}
	return &ParseError{Input: in, Offset: offset, Reason: fmt.Sprintf(format, args...)}
}

func (p *parser) parse(s string, sk *sketch) error {
	p.in = s
	sk.reset()
	switch {
	case len(s) > MaxInput:
		return p.fail(MaxInput, "the text is longer than %d bytes", MaxInput)
	case s == "":
		return p.fail(0, "empty text; the empty position is written !")
	case s == "!" || s == "0*0":
		return nil
	case s[len(s)-1] == '!':
		// GLOP and SPOTS may end a position with '!'.
		s = s[:len(s)-1]
		p.in = s
	}
	for {
		if err := p.parseLand(sk); err != nil {
			return err
		}
		if p.pos == len(s) {
			break
		}
		p.pos++ // '+'
	}
	for i := range p.lands {
		if err := p.checkUpper(sk, i); err != nil {
			return err
		}
	}
	for _, b := range slices.Sorted(maps.Keys(p.pairs)) {
		if err := p.checkNesting(p.pairs[b]); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) parseLand(sk *sketch) error {
	p.upper = map[int][]corner{}
	p.lands = append(p.lands, p.upper)
	for {
		if err := p.parseRegion(sk); err != nil {
			return err
		}
		if p.pos < len(p.in) && p.in[p.pos] == '|' {
			p.pos++
			continue
		}
		break
	}
	return nil
}

func (p *parser) parseRegion(sk *sketch) error {
	for {
		if err := p.parseItem(sk); err != nil {
			return err
		}
		if p.pos < len(p.in) && p.in[p.pos] == '.' {
			p.pos++
			continue
		}
		break
	}
	if p.pos < len(p.in) && p.in[p.pos] != '|' && p.in[p.pos] != '+' {
		return p.unexpected(p.pos)
	}
	sk.endRegion()
	p.region++
	return nil
}

// parseItem reads one boundary, or a run 0*k of boundaries.
func (p *parser) parseItem(sk *sketch) error {
	s := p.in
	start := p.pos
	switch {
	case start == len(s):
		return p.fail(start, "the text ends with a separator; a boundary must follow it")
	case start == 0 && isSeparator(s[0]):
		return p.fail(0, "the text starts with a separator; a boundary must come first")
	case isSeparator(s[start]):
		return p.fail(start, "two separators in a row (%q then %q); a boundary must stand between them", s[start-1], s[start])
	}
	if s[start] == '0' && start+1 < len(s) && s[start+1] == '*' {
		i := start + 2
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start+2 {
			return p.fail(i, "0* needs a count of spots, as in 0*5")
		}
		k, err := strconv.Atoi(s[start+2 : i])
		if err != nil || k > MaxSpots-p.symbols {
			return p.fail(start+2, "%s spots are more than a position may hold (%d)", s[start+2:i], MaxSpots)
		}
		if k == 0 {
			return p.fail(start, "0*0 is the empty position and must be the whole text")
		}
		if i < len(s) && !isSeparator(s[i]) {
			return p.fail(i, "0*%d must be followed by a separator ('.', '|' or '+'), not %s", k, describe(s, i))
		}
		p.symbols += k
		for range k {
			sk.occ = append(sk.occ, sk.newVertex(3))
			sk.endBoundary()
			p.boundary++
		}
		p.pos = i
		return nil
	}
	return p.parseBoundary(sk)
}

func isSeparator(b byte) bool { return b == '.' || b == '|' || b == '+' }

// parseBoundary reads the symbols of one boundary and checks its letters.
func (p *parser) parseBoundary(sk *sketch) error {
	s := p.in
	start := p.pos
	lower := map[int][]corner{}
	var zeroAt = -1
	for p.pos < len(s) && !isSeparator(s[p.pos]) {
		at := p.pos
		c := s[at]
		p.symbols++
		if p.symbols > MaxSpots {
			return p.fail(at, "more than %d symbols: too large a position", MaxSpots)
		}
		switch {
		case c == '0':
			zeroAt = at
			sk.occ = append(sk.occ, sk.newVertex(3))
			p.pos++
		case c == '1':
			sk.occ = append(sk.occ, sk.newVertex(2))
			p.pos++
		case c == '2':
			sk.occ = append(sk.occ, sk.newVertex(1))
			p.pos++
		case c == '3':
			// A spot without lives; reduction deletes it.
			sk.occ = append(sk.occ, sk.newVertex(0))
			p.pos++
		case c >= 'a' && c <= 'l', c == 'm':
			k, err := p.letter(c, 'a', 'm')
			if err != nil {
				return err
			}
			lower[k] = append(lower[k], corner{offset: at, boundary: p.boundary, index: len(sk.occ)})
			sk.occ = append(sk.occ, -1) // the vertex is known once the boundary ends
		case c >= 'A' && c <= 'Y', c == 'n':
			k, err := p.letter(c, 'A', 'n')
			if err != nil {
				return err
			}
			p.upper[k] = append(p.upper[k], corner{offset: at, region: p.region, boundary: p.boundary, index: len(sk.occ)})
			sk.occ = append(sk.occ, -1)
		default:
			return p.unexpected(at)
		}
	}
	if zeroAt >= 0 && p.pos-start > 1 {
		return p.fail(zeroAt, "a spot 0 has no lines, so it must be alone in its boundary")
	}
	for _, k := range slices.Sorted(maps.Keys(lower)) {
		cs := lower[k]
		if len(cs) != 2 {
			return p.fail(cs[0].offset, "lowercase letter %s occurs %d time(s) in its boundary; a lowercase letter marks a spot seen exactly twice on one boundary", letterName(k, 'a', 'm'), len(cs))
		}
		v := sk.newVertex(1)
		sk.occ[cs[0].index], sk.occ[cs[1].index] = v, v
		p.addPair(cs, letterName(k, 'a', 'm'))
	}
	sk.endBoundary()
	p.boundary++
	return nil
}

func (p *parser) addPair(cs []corner, name string) {
	if p.pairs == nil {
		p.pairs = map[int][]pair{}
	}
	b := cs[0].boundary
	p.pairs[b] = append(p.pairs[b], pair{cs[0].index, cs[1].index, cs[1].offset, name})
}

// checkNesting rejects a boundary on which two pairs of corners interleave
// (a…b…a…b): walking around one side of a drawing, once the walk leaves a
// spot it sees everything hanging off that spot before coming back to it.
func (p *parser) checkNesting(pairs []pair) error {
	slices.SortFunc(pairs, func(x, y pair) int { return x.a - y.a })
	for i, x := range pairs {
		for _, y := range pairs[i+1:] {
			if y.a < x.b && x.b < y.b {
				return p.fail(y.offset, "letters %s and %s interleave on their boundary; corners of one boundary never cross", x.name, y.name)
			}
		}
	}
	return nil
}

// checkUpper gives every uppercase letter of land i its vertex, after
// checking it is seen exactly twice: on one boundary (then it is a lowercase
// pair under another name) or in two regions.
func (p *parser) checkUpper(sk *sketch, i int) error {
	for _, k := range slices.Sorted(maps.Keys(p.lands[i])) {
		cs := p.lands[i][k]
		name := letterName(k, 'A', 'n')
		switch {
		case len(cs) == 1:
			for j, other := range p.lands {
				if j != i && len(other[k]) == 1 {
					return p.fail(max(cs[0].offset, other[k][0].offset), "uppercase letter %s occurs once in each of two lands; a spot belongs to one land, so join the regions with '|' or rename a letter", name)
				}
			}
			return p.fail(cs[0].offset, "uppercase letter %s occurs once in its land; an uppercase letter marks a spot seen in exactly two regions", name)
		case len(cs) > 2:
			return p.fail(cs[2].offset, "uppercase letter %s occurs %d times in its land; an uppercase letter marks a spot seen exactly twice", name, len(cs))
		case cs[0].region == cs[1].region && cs[0].boundary != cs[1].boundary:
			return p.fail(cs[1].offset, "uppercase letter %s occurs in two boundaries of one region; the corners of a spot in one region lie on one boundary", name)
		}
		v := sk.newVertex(1)
		sk.occ[cs[0].index], sk.occ[cs[1].index] = v, v
		if cs[0].boundary == cs[1].boundary {
			// A pair on one boundary, like a lowercase letter.
			p.addPair(cs, name)
		}
	}
	return nil
}

// letter reads a letter at p.pos: a single character from first on, or the
// long form long(k).
func (p *parser) letter(c, first, long byte) (int, error) {
	s := p.in
	at := p.pos
	if c != long {
		p.pos++
		return int(c - first), nil
	}
	i := at + 1
	if i >= len(s) || s[i] != '(' {
		return 0, p.fail(at, "%c must be followed by (k), as in %c(13)", long, long)
	}
	i++
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j >= len(s) || s[j] != ')' {
		return 0, p.fail(at, "%c(k) needs a number k ≥ 1 and a closing parenthesis, as in %c(13)", long, long)
	}
	k, err := strconv.Atoi(s[i:j])
	if err != nil || k > MaxLetterNumber {
		return 0, p.fail(i, "letter number %s is larger than %d, the most the notation allows", s[i:j], MaxLetterNumber)
	}
	if k < 1 {
		return 0, p.fail(i, "letter numbers start at 1, so %c(%s) is not a letter", long, s[i:j])
	}
	p.pos = j + 1
	return k - 1, nil
}

func letterName(k int, first, long byte) string {
	if k < 26 && !(first == 'a' && k >= 12) && !(first == 'A' && k >= 25) {
		return string(rune(first) + rune(k))
	}
	return fmt.Sprintf("%c(%d)", long, k+1)
}

// unexpected explains a character that may not stand at offset i.
func (p *parser) unexpected(i int) error {
	s := p.in
	switch c := s[i]; {
	case c == '!':
		return p.fail(i, "'!' may only end a position (or stand alone for the empty one)")
	case c == '-' || c == '=' || c == '#':
		return p.fail(i, "%q is a mark the reference uses while building a move, not part of a position", c)
	case c == '*' && i > 0 && (s[i-1] == 'O' || s[i-1] == 'o'):
		return p.fail(i, "'*' follows the letter %c: the n-spot start is written with the digit zero, as in 0*5", s[i-1])
	case c == '*':
		return p.fail(i, "'*' may only follow a 0 that starts a boundary, as in 0*5")
	case c == 'o' && i+1 < len(s) && s[i+1] == '*':
		return p.fail(i, "unknown character 'o': the n-spot start is written with the digit zero, as in 0*5")
	case c == 'x' || c == 'X':
		return p.fail(i, "unknown character %s: the n-spot start is written 0*N (as in 0*12), and a board such as 5x5 is Cram (--game cram)", describe(s, i))
	case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		return p.fail(i, "unexpected white space")
	case c >= '4' && c <= '9':
		return p.fail(i, "%c is not a spot: spots are written 0, 1 or 2", c)
	default:
		return p.fail(i, "unknown character %s", describe(s, i))
	}
}

func describe(s string, i int) string {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x", s[i])
	}
	return fmt.Sprintf("%q", r)
}
