package sprouts2

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A corner holds one of these, or a letter: a spot with one life and two
// corners, numbered from letter0 within its land.
const (
	zero    = 0 // a spot without lines: three lives, alone in its boundary
	one     = 1 // a spot with one line end: two lives, one corner
	two     = 2 // a spot with one life and one usable corner
	dead    = 3 // a spot without lives (only while a child is being built)
	letter0 = 4
)

// Limits on what Parse reads, so that hostile text cannot exhaust memory.
const (
	MaxInput   = 1 << 20 // bytes of text
	MaxCorners = 1 << 20 // corners once 0*k is expanded
)

// Land is one land of a position, reduced (see the package documentation).
// A Land is immutable and safe to share between goroutines.
type Land struct {
	regions [][][]int32 // region → boundary → corners
	letters int         // the letters are letter0 … letter0+letters-1
	lives   int
	// The invariants (see computeInvariants), computed when first needed: most
	// lands a check meets are found by their writing and never need them.
	once   sync.Once
	hash   uint64      // unchanged by relabelling
	labels []uint64    // the same, for each region
	where  [][2]corner // where each letter's corners lie
}

// invariants returns the land's hash and region labels, computing them
// the first time.
func (l *Land) invariants() (uint64, []uint64) {
	l.once.Do(func() { l.hash, l.labels, l.where = computeInvariants(l) })
	return l.hash, l.labels
}

// Lives returns the lives of the land: 3 for each 0, 2 for each 1, 1 for
// each 2 and each letter (a spot, not a corner). Every move takes one life
// and reduction only removes lives no move can use, so every child of a
// land has fewer lives.
func (l *Land) Lives() int { return l.lives }

// Hash returns a number that relabelling, rotating boundaries, mirroring
// regions and reordering boundaries and regions cannot change: two lands
// that are the same position have the same Hash (the converse need not
// hold; see Same).
func (l *Land) Hash() uint64 {
	h, _ := l.invariants()
	return h
}

// Boundaries returns the number of boundaries of the land.
func (l *Land) Boundaries() int {
	n := 0
	for _, r := range l.regions {
		n += len(r)
	}
	return n
}

// Letters returns the number of corners of the land that hold letters.
func (l *Land) Letters() int { return 2 * l.letters }

// String writes the land in the notation Parse reads: regions joined by
// '|', boundaries by '.', runs of single 0s as 0*k, lowercase letters
// named in order of appearance on their boundary and uppercase letters in
// order of appearance in the land (m(k) and n(k) once the alphabet runs
// out). It is one writing of the land among many; see Same.
func (l *Land) String() string {
	where := l.corners()
	upper := make(map[int32]int)
	long := func(n int, short string) bool { return n > len(short) }
	// Decide the spelling once for the whole land, as the notation does.
	lowerMax, upperCount := 0, 0
	for _, r := range l.regions {
		for _, b := range r {
			seen := 0
			local := map[int32]bool{}
			for _, s := range b {
				if s < letter0 {
					continue
				}
				if c := where[s-letter0]; c[0].region == c[1].region {
					if !local[s] {
						local[s] = true
						seen++
					}
					continue
				}
				if _, ok := upper[s]; !ok {
					upper[s] = upperCount
					upperCount++
				}
			}
			lowerMax = max(lowerMax, seen)
		}
	}
	const lowers, uppers = "abcdefghijkl", "ABCDEFGHIJKLMNOPQRSTUVWXY"
	var sb strings.Builder
	for ri, r := range l.regions {
		if ri > 0 {
			sb.WriteByte('|')
		}
		for bi := 0; bi < len(r); bi++ {
			if bi > 0 {
				sb.WriteByte('.')
			}
			b := r[bi]
			if b[0] == zero {
				run := 1
				for bi+run < len(r) && r[bi+run][0] == zero {
					run++
				}
				if run > 1 {
					fmt.Fprintf(&sb, "0*%d", run)
					bi += run - 1
					continue
				}
			}
			local := map[int32]int{}
			for _, s := range b {
				switch {
				case s < letter0:
					sb.WriteByte(byte('0' + s))
				case where[s-letter0][0].region != where[s-letter0][1].region:
					n := upper[s]
					if long(upperCount, uppers) {
						fmt.Fprintf(&sb, "n(%d)", n+1)
					} else {
						sb.WriteByte(uppers[n])
					}
				default:
					n, ok := local[s]
					if !ok {
						n = len(local)
						local[s] = n
					}
					if long(lowerMax, lowers) {
						fmt.Fprintf(&sb, "m(%d)", n+1)
					} else {
						sb.WriteByte(lowers[n])
					}
				}
			}
		}
	}
	return sb.String()
}

// Text writes a position, the sum of lands, as String writes each land,
// joined by '+'; the empty position is "!".
func Text(lands []*Land) string {
	if len(lands) == 0 {
		return "!"
	}
	parts := make([]string, len(lands))
	for i, l := range lands {
		parts[i] = l.String()
	}
	return strings.Join(parts, "+")
}

// corner is where a corner lies.
type corner struct{ region, boundary, index int32 }

// corners returns where the two corners of each letter lie.
func (l *Land) corners() [][2]corner {
	where := make([][2]corner, l.letters)
	for i := range where {
		where[i][0].region = -1
	}
	for ri, r := range l.regions {
		for bi, b := range r {
			for i, s := range b {
				if s < letter0 {
					continue
				}
				k := 0
				if where[s-letter0][0].region >= 0 {
					k = 1
				}
				where[s-letter0][k] = corner{int32(ri), int32(bi), int32(i)}
			}
		}
	}
	return where
}

// ParseError says why a text is not a position and where.
type ParseError struct {
	Offset int // byte offset of the problem in the text
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("sprouts2: byte %d: %s", e.Offset, e.Reason)
}

// Parse reads a position and returns its lands, reduced, in the order the
// text gives them (none for the empty position "!"). It is strict: every
// character must belong to the notation, a 0 must be alone in its
// boundary, a lowercase letter must occur exactly twice in its boundary
// and an uppercase letter exactly twice in its land, in two different
// regions; a 3 (a spot without lives) is accepted and dropped. Letters
// whose corners the text places next to each other, dead regions and small
// regions are reduced as moves reduce them, so a text that is not reduced
// still gives the position it describes.
func Parse(s string) ([]*Land, error) {
	if len(s) > MaxInput {
		return nil, &ParseError{0, fmt.Sprintf("%d bytes, more than the %d this reader accepts", len(s), MaxInput)}
	}
	text := strings.TrimSuffix(s, "!")
	if text == "" || text == "0*0" {
		return nil, nil
	}
	p := parser{text: text, budget: MaxCorners}
	var lands []*Land
	for _, part := range splitAt(text, '+', 0) {
		regions, letters, err := p.land(part.text, part.at)
		if err != nil {
			return nil, err
		}
		lands = append(lands, reduce(regions, letters, nil)...)
	}
	return lands, nil
}

// piece is a part of the text and its offset.
type piece struct {
	text string
	at   int
}

func splitAt(s string, sep byte, at int) []piece {
	var out []piece
	for {
		i := strings.IndexByte(s, sep)
		if i < 0 {
			return append(out, piece{s, at})
		}
		out = append(out, piece{s[:i], at})
		s, at = s[i+1:], at+i+1
	}
}

type parser struct {
	text   string
	budget int // corners still allowed
}

// land reads one land: its regions, with letters numbered from letter0,
// and the number of letters.
func (p *parser) land(text string, at int) ([][][]int32, int, error) {
	fail := func(off int, format string, a ...any) ([][][]int32, int, error) {
		return nil, 0, &ParseError{off, fmt.Sprintf(format, a...)}
	}
	type seen struct {
		region, boundary, count, at int
		id                          int32
	}
	upper := map[int]*seen{}
	next := int32(letter0)
	var regions [][][]int32
	for ri, rp := range splitAt(text, '|', at) {
		var region [][]int32
		for bi, bp := range splitAt(rp.text, '.', rp.at) {
			if bp.text == "" {
				return fail(bp.at, "an empty boundary (two separators in a row, or one at an end)")
			}
			if k, ok := strings.CutPrefix(bp.text, "0*"); ok {
				n, err := strconv.Atoi(k)
				if err != nil || n < 0 || k == "" || k[0] == '+' || k[0] == '-' {
					return fail(bp.at, "0*%s: want 0*k for a decimal k", k)
				}
				if p.budget -= n; p.budget < 0 {
					return fail(bp.at, "more than %d corners", MaxCorners)
				}
				for range n {
					region = append(region, []int32{zero})
				}
				continue
			}
			var b []int32
			lower := map[int]int32{}
			lowerCount := map[int32]int{}
			for i := 0; i < len(bp.text); i++ {
				c, off := bp.text[i], bp.at+i
				if p.budget--; p.budget < 0 {
					return fail(off, "more than %d corners", MaxCorners)
				}
				switch {
				case '0' <= c && c <= '3':
					b = append(b, int32(c-'0'))
				case 'a' <= c && c <= 'l' || 'A' <= c && c <= 'Y' || c == 'm' || c == 'n':
					index, isLower := 0, c == 'm' || 'a' <= c && c <= 'l'
					switch c {
					case 'm', 'n':
						j := strings.IndexByte(bp.text[i:], ')')
						if j < 3 || bp.text[i+1] != '(' {
							return fail(off, "%c must be followed by (k)", c)
						}
						k, err := strconv.Atoi(bp.text[i+2 : i+j])
						if err != nil || k < 1 || k > MaxCorners || bp.text[i+2] == '+' {
							return fail(off, "%s: want a letter number from 1", bp.text[i:i+j+1])
						}
						index = k - 1
						i += j
					default:
						index = int(c - 'a')
						if !isLower {
							index = int(c - 'A')
						}
					}
					if isLower {
						id, ok := lower[index]
						if !ok {
							id = next
							next++
							lower[index] = id
						}
						if lowerCount[id]++; lowerCount[id] > 2 {
							return fail(off, "lowercase letter number %d occurs more than twice in its boundary", index+1)
						}
						b = append(b, id)
						continue
					}
					u := upper[index]
					if u == nil {
						u = &seen{region: ri, boundary: bi, at: off, id: next}
						upper[index] = u
						next++
					} else if u.region == ri && u.boundary != bi {
						return fail(off, "uppercase letter number %d occurs on two boundaries of one region (the corners of a spot in one region lie on one boundary)", index+1)
					}
					if u.count++; u.count > 2 {
						return fail(off, "uppercase letter number %d occurs more than twice in its land", index+1)
					}
					b = append(b, u.id)
				default:
					return fail(off, "%q is not part of the notation", c)
				}
			}
			for _, s := range b {
				if s >= letter0 && lowerCount[s] == 1 {
					return fail(bp.at, "a lowercase letter occurs once in its boundary (a letter is a spot with two corners)")
				}
			}
			for i, s := range b {
				if s == zero && len(b) > 1 {
					return fail(bp.at+i, "a 0 (a spot without lines) must be alone in its boundary")
				}
			}
			if crossed(b) {
				return fail(bp.at, "two spots' corners interleave on this boundary (the corners of one boundary never cross)")
			}
			region = append(region, b)
		}
		regions = append(regions, region)
	}
	var once *seen
	for _, u := range upper {
		if u.count != 2 && (once == nil || u.at < once.at) {
			once = u
		}
	}
	if once != nil {
		return fail(once.at, "an uppercase letter occurs once in its land (it must be seen in two regions)")
	}
	return regions, int(next - letter0), nil
}

// AppendWriting appends to dst a byte string that says how the land is
// written: the kinds and letters of its corners, boundary by boundary,
// region by region, in the order Parse or the move that made it gave them.
// Lands with equal writings are the same land; the same land may have
// many writings (see Same). It is a cheap key for remembering lands met
// before in a particular writing.
func (l *Land) AppendWriting(dst []byte) []byte {
	for _, r := range l.regions {
		for _, b := range r {
			for _, s := range b {
				dst = binary.AppendUvarint(dst, uint64(s)+2)
			}
			dst = append(dst, 0)
		}
		dst = append(dst, 1)
	}
	return dst
}

// Corners returns the number of corners of the land, about the length of
// its text.
func (l *Land) Corners() int {
	n := 0
	for _, r := range l.regions {
		for _, b := range r {
			n += len(b)
		}
	}
	return n
}

// crossed reports whether two letters each seen twice on the boundary b
// interleave (a…b…a…b), which no drawing makes.
func crossed(b []int32) bool {
	count := map[int32]int{}
	for _, s := range b {
		count[s]++
	}
	var open []int32
	for _, s := range b {
		if s < letter0 || count[s] != 2 {
			continue
		}
		if k := len(open); k > 0 && open[k-1] == s {
			open = open[:k-1]
		} else if slices.Contains(open, s) {
			return true
		} else {
			open = append(open, s)
		}
	}
	return false
}
