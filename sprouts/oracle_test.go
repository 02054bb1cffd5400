package sprouts

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This file checks that the reductions and the canonical form keep the game:
// Grundy values computed with Children (reduced, canonical, split into lands)
// must equal those of a slow drawing model that applies no reduction and
// never merges positions by canonical form. The model is written here from
// the rules of the game alone, sharing no code with the package.

// drawing is a position as plain geometry: every spot with its lives, every
// region as its boundaries, every boundary as the spots met walking along it.
// Nothing is ever simplified: dead spots and dead regions stay.
type drawing struct {
	lives   []int
	regions [][][]int
}

// readDrawing reads a position written by Position.String.
func readDrawing(t testing.TB, s string) *drawing {
	d := &drawing{}
	if s == "!" {
		return d
	}
	for _, land := range strings.Split(s, "+") {
		upper := map[string]int{}
		for _, region := range strings.Split(land, "|") {
			var r [][]int
			for _, item := range strings.Split(region, ".") {
				if n, ok := strings.CutPrefix(item, "0*"); ok {
					k, err := strconv.Atoi(n)
					if err != nil {
						t.Fatalf("read %q: bad run %q", s, item)
					}
					for range k {
						r = append(r, []int{d.spot(3)})
					}
					continue
				}
				lower := map[string]int{}
				var b []int
				for i := 0; i < len(item); i++ {
					c := item[i]
					name := string(c)
					if c == 'm' || c == 'n' {
						j := strings.IndexByte(item[i:], ')')
						name = item[i : i+j+1]
						i += j
					}
					switch {
					case c == '0':
						b = append(b, d.spot(3))
					case c == '1':
						b = append(b, d.spot(2))
					case c == '2':
						b = append(b, d.spot(1))
					case c >= 'a' && c <= 'm':
						if _, ok := lower[name]; !ok {
							lower[name] = d.spot(1)
						}
						b = append(b, lower[name])
					case c >= 'A' && c <= 'Y' || c == 'n':
						if _, ok := upper[name]; !ok {
							upper[name] = d.spot(1)
						}
						b = append(b, upper[name])
					default:
						t.Fatalf("read %q: unexpected %q", s, c)
					}
				}
				r = append(r, b)
			}
			d.regions = append(d.regions, r)
		}
	}
	return d
}

func (d *drawing) spot(lives int) int {
	d.lives = append(d.lives, lives)
	return len(d.lives) - 1
}

// key writes the drawing so that reordering its regions and boundaries,
// rotating a boundary, or renaming spots mostly gives the same key (that only
// saves work), while equal keys always mean the same drawing: spots with one
// corner and dead spots are written by their lives alone, and the others are
// numbered in order of appearance.
func (d *drawing) key() string {
	count := make([]int, len(d.lives))
	for _, r := range d.regions {
		for _, b := range r {
			for _, v := range b {
				count[v]++
			}
		}
	}
	const multi = 9 // a live spot with several corners: numbered below
	tok := func(v int) byte {
		if count[v] == 1 || d.lives[v] == 0 {
			return byte(d.lives[v])
		}
		return multi
	}
	type boundary struct {
		shape []byte
		spots []int
	}
	type region struct {
		shape []byte
		bs    []boundary
	}
	regs := make([]region, 0, len(d.regions))
	for _, r := range d.regions {
		var reg region
		for _, b := range r {
			shape := make([]byte, len(b))
			for i, v := range b {
				shape[i] = tok(v)
			}
			best := 0
			for k := 1; k < len(b); k++ {
				if slices.Compare(append(shape[k:len(b):len(b)], shape[:k]...), append(shape[best:len(b):len(b)], shape[:best]...)) < 0 {
					best = k
				}
			}
			reg.bs = append(reg.bs, boundary{append(shape[best:len(b):len(b)], shape[:best]...), rotated(b, best)})
		}
		slices.SortStableFunc(reg.bs, func(x, y boundary) int { return slices.Compare(x.shape, y.shape) })
		for _, b := range reg.bs {
			reg.shape = append(append(reg.shape, b.shape...), '.')
		}
		regs = append(regs, reg)
	}
	slices.SortStableFunc(regs, func(x, y region) int { return slices.Compare(x.shape, y.shape) })
	var out []byte
	num := make(map[int]int)
	for _, r := range regs {
		for _, b := range r.bs {
			for _, v := range b.spots {
				t := tok(v)
				out = append(out, '0'+t)
				if t == multi {
					n, ok := num[v]
					if !ok {
						n = len(num)
						num[v] = n
					}
					out = strconv.AppendInt(append(out, ':'), int64(n), 10)
					out = append(out, ':', '0'+byte(d.lives[v]))
				}
			}
			out = append(out, '.')
		}
		out = append(out, '|')
	}
	return string(out)
}

// components splits the drawing into groups of regions that share a spot
// with lives; no move in one group changes another.
func (d *drawing) components() []*drawing {
	n := len(d.regions)
	group := make([]int, n)
	for i := range group {
		group[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if group[i] != i {
			group[i] = find(group[i])
		}
		return group[i]
	}
	owner := map[int]int{}
	for ri, r := range d.regions {
		for _, b := range r {
			for _, v := range b {
				if d.lives[v] == 0 {
					continue
				}
				if o, ok := owner[v]; ok {
					group[find(o)] = find(ri)
				} else {
					owner[v] = ri
				}
			}
		}
	}
	var out []*drawing
	index := map[int]int{}
	for ri, r := range d.regions {
		g := find(ri)
		k, ok := index[g]
		if !ok {
			k = len(out)
			index[g] = k
			out = append(out, &drawing{lives: d.lives})
		}
		out[k].regions = append(out[k].regions, r)
	}
	return out
}

func rotated(b []int, i int) []int { return append(slices.Clone(b[i:]), b[:i]...) }

// moves returns every drawing one line away.
func (d *drawing) moves() []*drawing {
	var out []*drawing
	for ri, r := range d.regions {
		for bi, b := range r {
			rest := slices.Delete(slices.Clone(r), bi, bi+1)
			// A line from corner i to corner j of boundary b, or a loop (i == j).
			for i := range b {
				for j := i; j < len(b); j++ {
					u, v := b[i], b[j]
					if (u == v && d.lives[u] < 2) || d.lives[u] == 0 || d.lives[v] == 0 {
						continue
					}
					for mask := 0; mask < 1<<len(rest); mask++ {
						c := d.clone()
						w := c.spot(1)
						c.lives[u]--
						c.lives[v]--
						var x, y []int
						switch {
						case i == j && d.lives[u] == 3: // loop at a spot without lines
							x, y = []int{u, w}, []int{u, w}
						case i == j: // the corner splits in three
							x = []int{u, w}
							y = append(append(append([]int{u}, b[i+1:]...), b[:i]...), u, w)
						default:
							x = append(append([]int{u}, b[i+1:j]...), v, w)
							y = append(append(append([]int{v}, b[j+1:]...), b[:i]...), u, w)
						}
						rx, ry := [][]int{x}, [][]int{y}
						for k, o := range rest {
							if mask&(1<<k) != 0 {
								rx = append(rx, o)
							} else {
								ry = append(ry, o)
							}
						}
						c.regions = slices.Delete(c.regions, ri, ri+1)
						c.regions = append(c.regions, rx, ry)
						out = append(out, c)
					}
				}
			}
			// A line from boundary b to a later boundary of the region.
			for bj := bi + 1; bj < len(r); bj++ {
				o := r[bj]
				for i, u := range b {
					for j, v := range o {
						if d.lives[u] == 0 || d.lives[v] == 0 {
							continue
						}
						c := d.clone()
						w := c.spot(1)
						walk := func(bd []int, k int) []int {
							if c.lives[bd[k]] == 3 { // no line yet: one corner
								return []int{bd[k]}
							}
							return append(rotated(bd, k), bd[k])
						}
						joined := append(append(append(walk(b, i), w), walk(o, j)...), w)
						c.lives[u]--
						c.lives[v]--
						var nr [][]int
						for k, x := range r {
							if k != bi && k != bj {
								nr = append(nr, x)
							}
						}
						c.regions[ri] = append(nr, joined)
						out = append(out, c)
					}
				}
			}
		}
	}
	return out
}

func (d *drawing) clone() *drawing {
	return &drawing{lives: slices.Clone(d.lives), regions: slices.Clone(d.regions)}
}

// withoutDeadSpots drops the corners of spots without lives, which no line
// can reach and which separate nothing, and regions left without corners.
func (d *drawing) withoutDeadSpots() *drawing {
	c := &drawing{lives: d.lives}
	for _, r := range d.regions {
		var nr [][]int
		for _, b := range r {
			var nb []int
			for _, v := range b {
				if d.lives[v] > 0 {
					nb = append(nb, v)
				}
			}
			if len(nb) > 0 {
				nr = append(nr, nb)
			}
		}
		if len(nr) > 0 {
			c.regions = append(c.regions, nr)
		}
	}
	return c
}

// slowGrundy computes the Grundy value of a drawing by mex over its moves,
// adding the values of independent components.
type slowGrundy map[string]int

func (m slowGrundy) of(d *drawing) int {
	g := 0
	for _, c := range d.components() {
		g ^= m.component(c)
	}
	return g
}

func (m slowGrundy) component(d *drawing) int {
	d = d.withoutDeadSpots()
	k := d.key()
	if g, ok := m[k]; ok {
		return g
	}
	seen := map[int]bool{}
	for _, c := range d.moves() {
		seen[m.of(c)] = true
	}
	g := 0
	for seen[g] {
		g++
	}
	m[k] = g
	return g
}

// fastGrundy computes Grundy values with Children and Lands.
type fastGrundy map[Position]int

func (m fastGrundy) of(p Position) int {
	g := 0
	for _, land := range p.Lands() {
		g ^= m.land(land)
	}
	return g
}

func (m fastGrundy) land(p Position) int {
	if g, ok := m[p]; ok {
		return g
	}
	seen := map[int]bool{}
	for _, c := range p.Children() {
		seen[m.of(c)] = true
	}
	g := 0
	for seen[g] {
		g++
	}
	m[p] = g
	return g
}

// reachable returns every position reachable from the roots, roots included.
func reachable(roots ...Position) []Position {
	seen := map[Position]bool{}
	var out []Position
	queue := roots
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
		queue = append(queue, p.Children()...)
	}
	return out
}

// TestReductionsKeepGrundyValues compares Grundy values with the drawing
// model on every position reachable from 0*1 … 0*5 and on positions of up
// to 13 lives met on 40 random games from each of 0*6 … 0*9 (minutes, and
// gigabytes). In short mode (make test) it does the same from 0*1 … 0*4 and
// on 10 random games from each start, positions of up to 12 lives (seconds);
// make test-long runs it in full.
func TestReductionsKeepGrundyValues(t *testing.T) {
	// The model keeps about a million drawings; collect garbage less often.
	defer debug.SetGCPercent(debug.SetGCPercent(1000))
	maxRoot, games, maxLives := 5, 40, 13
	if testing.Short() {
		maxRoot, games, maxLives = 4, 10, 12
	}
	var roots []Position
	for n := 1; n <= maxRoot; n++ {
		roots = append(roots, MustParse(fmt.Sprintf("0*%d", n)))
	}
	all := reachable(roots...)
	// A sample of positions met on random games from larger starts.
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 6; n <= 9; n++ {
		for range games {
			p := MustParse(fmt.Sprintf("0*%d", n))
			for !p.IsTerminal() {
				if p.Lives() <= maxLives {
					all = append(all, p)
				}
				kids := p.Children()
				p = kids[rng.IntN(len(kids))]
			}
		}
	}
	slow, fast := slowGrundy{}, fastGrundy{}
	for _, p := range all {
		want := slow.of(readDrawing(t, p.String()))
		if got := fast.of(p); got != want {
			t.Errorf("%s: Grundy value %d with reductions, %d on the drawing", p, got, want)
		}
	}
	t.Logf("%d positions checked; the drawing model met %d distinct drawings", len(all), len(slow))
}
