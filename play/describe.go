package play

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/sprouts"
)

// A Describer names moves for people: a move in the Nim heap in any game;
// in Sprouts, which spots the line joins and in which region, in the
// position as it was written (before it was made canonical) in the
// notation of package sprouts. The moves of the other games are not
// named: their positions say what they are (the board or the heaps left).
//
// It has its own small model of the written drawing: it parses the text
// (spots, boundaries, regions), draws every line the rules allow there,
// writes each result in the notation and has package sprouts read it
// (which reduces it and makes it canonical). A description is given only
// for a move whose drawn result sprouts reads as exactly the move's
// result, so a description is never wrong about where the move leads;
// when the model does not find the move (a text it does not read, or too
// many ways to share a region's boundaries), Describe says nothing.
type Describer struct {
	input string
	done  bool
	byKey map[string]string // description by the key of the result
}

// NewDescriber returns a Describer for moves from the position written as
// input (a Game's text, as ParseGame reads it).
func NewDescriber(input string) *Describer { return &Describer{input: input} }

// maxDrawn bounds the lines a Describer draws for one position.
const maxDrawn = 1 << 14

// Describe returns a description of m, a move of the game written as the
// Describer's input, or "" when it cannot name it.
func (d *Describer) Describe(m Move) string {
	if m.Land < 0 {
		return fmt.Sprintf("take from the heap %s, leaving *%d", m.From, m.To.Heap)
	}
	p, ok := game.Unwrap[sprouts.Position](m.To.Position)
	if !ok || m.To.Rules.Info().Name != sprouts.Game {
		return "" // a drawing is what Sprouts has alone
	}
	if !d.done {
		d.done = true
		text := d.input
		if i := strings.LastIndex(text, heapMark); i >= 0 {
			text = text[:i]
		}
		if dr, ok := readDrawing(text); ok && len(text) <= 4096 {
			d.byKey = dr.moves()
		}
	}
	return d.byKey[p.Key()]
}

// corner is a place on a boundary where a spot is met.
type corner struct {
	spot int
}

// spot is a spot of the drawing: its lives and how it was written.
type spot struct {
	lives int
	sym   string // its symbol, e.g. "1" or "a"
	name  string // its symbol and where it is in the text, e.g. "1 (char 3)", "a 0 of 0*9 (char 1)"
}

// drawing is a position as written: regions of boundaries of corners.
type drawing struct {
	regions [][][]corner
	texts   []string // each region's text as written
	spots   []spot
}

// readDrawing reads the notation of package sprouts (without GLOP's form),
// reporting false for anything it does not model.
func readDrawing(s string) (*drawing, bool) {
	d := &drawing{}
	if s == "!" || s == "" {
		return d, true
	}
	upper := map[string]int{}
	at := 0 // byte offset in s of the boundary being read
	for _, land := range strings.Split(s, "+") {
		clear(upper)
		for _, region := range strings.Split(land, "|") {
			var bs [][]corner
			for _, b := range strings.Split(region, ".") {
				start := at
				at += len(b) + 1 // and its separator
				lower := map[string]int{}
				var cs []corner
				if k, ok := strings.CutPrefix(b, "0*"); ok {
					n, err := strconv.Atoi(k)
					if err != nil || n < 0 || n > 64 {
						return nil, false
					}
					for range n {
						d.spots = append(d.spots, spot{lives: 3, sym: "0", name: fmt.Sprintf("a 0 of %s (char %d)", b, start+1)})
						bs = append(bs, []corner{{spot: len(d.spots) - 1}})
					}
					continue
				}
				for i := 0; i < len(b); i++ {
					c := b[i]
					sym := string(c)
					first := i
					if (c == 'm' || c == 'n') && i+1 < len(b) && b[i+1] == '(' {
						j := strings.IndexByte(b[i:], ')')
						if j < 0 {
							return nil, false
						}
						sym = b[i : i+j+1]
						i += j
					}
					name := fmt.Sprintf("%s (char %d)", sym, start+first+1)
					switch {
					case c >= '0' && c <= '3':
						d.spots = append(d.spots, spot{lives: int(3 - (c - '0')), sym: sym, name: name})
						cs = append(cs, corner{spot: len(d.spots) - 1})
					case c >= 'a' && c <= 'z':
						k, ok := lower[sym]
						if !ok {
							d.spots = append(d.spots, spot{lives: 1, sym: sym, name: name})
							k = len(d.spots) - 1
							lower[sym] = k
						}
						cs = append(cs, corner{spot: k})
					case c >= 'A' && c <= 'Z':
						k, ok := upper[sym]
						if !ok {
							d.spots = append(d.spots, spot{lives: 1, sym: sym, name: name})
							k = len(d.spots) - 1
							upper[sym] = k
						}
						cs = append(cs, corner{spot: k})
					default:
						return nil, false
					}
				}
				if len(cs) == 0 {
					return nil, false
				}
				bs = append(bs, cs)
			}
			d.regions = append(d.regions, bs)
			d.texts = append(d.texts, region)
		}
	}
	return d, true
}

// moves draws every line of the drawing and returns a description of
// each result that package sprouts reads, by the key of the result (the
// first found for each).
func (d *drawing) moves() map[string]string {
	out := map[string]string{}
	drawn := 0
	add := func(regions [][][]corner, lives []int, what string) {
		drawn++
		p, err := sprouts.Parse(write(regions, lives))
		if err != nil {
			return
		}
		if _, ok := out[p.Key()]; !ok {
			out[p.Key()] = what
		}
	}
	for r, bs := range d.regions {
		where := fmt.Sprintf("in region %d (%s)", r+1, d.texts[r])
		for b, bd := range bs {
			for i := range bd {
				for j := i; j < len(bd); j++ {
					u, v := bd[i].spot, bd[j].spot
					if d.spots[u].lives == 0 || d.spots[v].lives == 0 || i == j && d.spots[u].lives < 2 || i < j && u == v {
						continue
					}
					others := append(append([][]corner{}, bs[:b]...), bs[b+1:]...)
					if len(others) > 12 || drawn+1<<len(others) > maxDrawn {
						return out
					}
					for set := 0; set < 1<<len(others); set++ {
						lives := d.life(u, v)
						w := len(lives)
						lives = append(lives, 1)
						side1 := []corner{{u}}
						if i < j {
							side1 = append(append(side1, bd[i+1:j]...), corner{v})
						}
						side1 = append(side1, corner{w})
						var side2 []corner
						if i == j && d.spots[u].lives == 3 {
							side2 = []corner{{u}, {w}}
						} else {
							side2 = append(append(append([]corner{{v}}, bd[j+1:]...), bd[:i]...), corner{u}, corner{w})
						}
						r1, r2 := [][]corner{side1}, [][]corner{side2}
						var inside []string
						for k, o := range others {
							if set>>k&1 == 1 {
								r1 = append(r1, o)
								inside = append(inside, d.boundaryText(o))
							} else {
								r2 = append(r2, o)
							}
						}
						regions := d.replace(r, r1, r2)
						var what string
						if i == j {
							what = fmt.Sprintf("a loop at %s %s, enclosing %s", d.spots[u].name, where, list(inside))
						} else {
							what = fmt.Sprintf("a line from %s to %s %s, cutting it in two; on the side of the part between them: %s", d.spots[u].name, d.spots[v].name, where, list(inside))
						}
						add(regions, lives, what)
					}
				}
			}
			for c := b + 1; c < len(bs); c++ {
				for i := range bd {
					for j := range bs[c] {
						u, v := bd[i].spot, bs[c][j].spot
						if d.spots[u].lives == 0 || d.spots[v].lives == 0 {
							continue
						}
						if drawn++; drawn > maxDrawn {
							return out
						}
						lives := d.life(u, v)
						w := len(lives)
						lives = append(lives, 1)
						joined := append(d.walk(bd, i), corner{w})
						joined = append(append(joined, d.walk(bs[c], j)...), corner{w})
						r1 := [][]corner{joined}
						for k, o := range bs {
							if k != b && k != c {
								r1 = append(r1, o)
							}
						}
						to := d.spots[v].name
						if to == d.spots[u].name {
							to = "another" // two 0s of one 0*k
						}
						add(d.replace(r, r1, nil), lives, fmt.Sprintf("a line from %s to %s %s, joining their boundaries", d.spots[u].name, to, where))
					}
				}
			}
		}
	}
	return out
}

// life returns the lives of the spots after a line from u to v.
func (d *drawing) life(u, v int) []int {
	lives := make([]int, len(d.spots))
	for k, s := range d.spots {
		lives[k] = s.lives
	}
	lives[u]--
	lives[v]--
	return lives
}

// walk is the boundary bd walked from its corner i round to it again, as
// a line joined there meets it (once for a spot without lines).
func (d *drawing) walk(bd []corner, i int) []corner {
	u := bd[i]
	if d.spots[u.spot].lives == 3 {
		return []corner{u}
	}
	return append(append(append([]corner{u}, bd[i+1:]...), bd[:i]...), u)
}

// replace returns the regions with region r replaced by r1 and, if not
// nil, r2.
func (d *drawing) replace(r int, r1, r2 [][]corner) [][][]corner {
	out := append([][][]corner{}, d.regions[:r]...)
	out = append(out, r1)
	if r2 != nil {
		out = append(out, r2)
	}
	return append(out, d.regions[r+1:]...)
}

func (d *drawing) boundaryText(b []corner) string {
	var sb strings.Builder
	for _, c := range b {
		sb.WriteString(d.spots[c.spot].sym)
	}
	return sb.String()
}

func list(xs []string) string {
	if len(xs) == 0 {
		return "nothing"
	}
	return strings.Join(xs, ", ")
}

// write writes regions in the notation, one land: a spot's symbol follows
// from its lives and where its corners are; dead spots are left out
// (sprouts splits lands and reduces).
func write(regions [][][]corner, lives []int) string {
	type place struct{ region, boundary, n int }
	seen := make([]place, len(lives))
	same := make([]bool, len(lives)) // two corners in one boundary
	for r, bs := range regions {
		for b, bd := range bs {
			for _, c := range bd {
				p := &seen[c.spot]
				if p.n > 0 && p.region == r && p.boundary == b {
					same[c.spot] = true
				}
				p.region, p.boundary = r, b
				p.n++
			}
		}
	}
	upper := map[int]string{}
	var sb strings.Builder
	for r, bs := range regions {
		if r > 0 {
			sb.WriteByte('|')
		}
		for b, bd := range bs {
			if b > 0 {
				sb.WriteByte('.')
			}
			lower := map[int]string{}
			for _, c := range bd {
				k := c.spot
				switch {
				case lives[k] <= 0:
					sb.WriteByte('3')
				case lives[k] == 3:
					sb.WriteByte('0')
				case lives[k] == 2:
					sb.WriteByte('1')
				case seen[k].n == 1:
					sb.WriteByte('2')
				case same[k]:
					if _, ok := lower[k]; !ok {
						lower[k] = letter(len(lower), 'a', 'm', 12)
					}
					sb.WriteString(lower[k])
				default:
					if _, ok := upper[k]; !ok {
						upper[k] = letter(len(upper), 'A', 'n', 25)
					}
					sb.WriteString(upper[k])
				}
			}
		}
	}
	if sb.Len() == 0 {
		return "!"
	}
	return sb.String()
}

// letter names letter number k: first+k for the first short ones, long(k+1)
// after.
func letter(k int, first, long byte, short int) string {
	if k < short {
		return string(rune(first) + rune(k))
	}
	return fmt.Sprintf("%c(%d)", long, k+1)
}
