package sprouts2

import (
	"errors"
	"slices"
)

// computeInvariants returns the hash of a land and a label for each of its
// regions, numbers that no relabelling of the land changes, and where the
// corners of each letter lie. Each corner gets a token: its kind; for a
// letter with both corners on its boundary, the distance between them
// along the boundary (the shorter way round); for a letter seen in two
// regions, the label of its other region in the previous round. A
// boundary hashes the multiset of its corners' tokens, each with those of
// its two neighbours (symmetrically, so that neither the place where the
// boundary is cut open nor its direction counts); a region sums its
// boundaries' hashes and folds in its previous label; the land sums its
// regions' labels. Two rounds (one for a land of one region, which has no
// letter seen in two regions).
func computeInvariants(l *Land) (uint64, []uint64, [][2]corner) {
	where := l.corners()
	n := len(l.regions)
	both := make([]uint64, 2*n)
	labels, next := both[:n:n], both[n:]
	var space [64]uint64
	rounds := 2
	if n == 1 {
		rounds = 1
	}
	for range rounds {
		for ri, r := range l.regions {
			sum := uint64(len(r))
			for bi, b := range r {
				n := len(b)
				tokens := space[:0]
				if n > len(space) {
					tokens = make([]uint64, 0, n)
				}
				for i, s := range b {
					if s < letter0 {
						tokens = append(tokens, uint64(s)+1)
						continue
					}
					c := where[s-letter0]
					other := c[0]
					if other.region == int32(ri) && other.boundary == int32(bi) && other.index == int32(i) {
						other = c[1]
					}
					if other.region == int32(ri) {
						d := (int(other.index) - i + n) % n
						tokens = append(tokens, 16+uint64(min(d, n-d)))
					} else {
						tokens = append(tokens, mix(1<<40+labels[other.region]))
					}
				}
				h := uint64(n) * 0x9e3779b97f4a7c15
				for k := range n {
					h += mix(tokens[k]*0xc2b2ae3d27d4eb4f + 0x9e3779b97f4a7c15*(tokens[(k+1)%n]+tokens[(k+n-1)%n]))
				}
				sum += mix(h)
			}
			next[ri] = mix(labels[ri] ^ sum)
		}
		copy(labels, next)
	}
	h := uint64(n)
	for _, x := range labels {
		h += mix(x)
	}
	return mix(h ^ uint64(l.lives)<<32), labels, where
}

// mix is a 64-bit finaliser (splitmix64's): every input bit changes
// about half the output bits.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// ErrBudget says that Same gave up: deciding would have taken more steps
// than its budget. It says nothing about whether the lands are the same.
var ErrBudget = errors.New("sprouts2: the lands are too symmetric to compare within the budget")

// Same reports whether a and b are the same position: whether some
// bijection of their regions, of the boundaries of each pair of regions
// matched, of their spots, a rotation of each boundary and a reading
// direction for each region map every corner of a to a corner of b
// holding the same kind of spot. It searches for one, region by region
// and corner by corner, and abandons a choice at the first corner that
// does not match. At most budget choices of a boundary and rotation are
// tried (0: no bound); beyond it Same returns ErrBudget.
func Same(a, b *Land, budget int64) (bool, error) {
	if a.lives != b.lives || a.letters != b.letters || len(a.regions) != len(b.regions) || a.Hash() != b.Hash() {
		return false, nil
	}
	b.Hash() // b's labels too
	// The bijection of letters both ways (index letter-letter0; -1: not
	// yet) and the regions of b matched, in one allocation.
	space := make([]int32, 2*a.letters+len(b.regions))
	for i := range space[:2*a.letters] {
		space[i] = -1
	}
	m := matcher{a: a, b: b, budget: budget, toB: space[:a.letters], toA: space[a.letters : 2*a.letters],
		usedB: space[2*a.letters:], order: regionOrder(a)}
	ok := m.region(0)
	if m.exhausted {
		return false, ErrBudget
	}
	return ok, nil
}

// regionOrder returns a's regions in the order the search matches them:
// first the one whose label is rarest, then each region sharing a letter
// with one already in the order, so that its letters are mostly bound
// before it is matched.
func regionOrder(a *Land) []int {
	count := func(ri int) int {
		n := 0
		for _, x := range a.labels {
			if x == a.labels[ri] {
				n++
			}
		}
		return n
	}
	start, least := 0, len(a.regions)+1
	for ri := range a.regions {
		if n := count(ri); n < least {
			start, least = ri, n
		}
	}
	order := make([]int, 1, len(a.regions))
	order[0] = start
	in := func(r int32) bool { return slices.Contains(order, int(r)) }
	for k := 0; k < len(order); k++ {
		for _, b := range a.regions[order[k]] {
			for _, s := range b {
				if s < letter0 {
					continue
				}
				for _, c := range a.where[s-letter0] {
					if !in(c.region) {
						order = append(order, int(c.region))
					}
				}
			}
		}
	}
	for ri := range a.regions { // a land is connected; this only guards
		if !in(int32(ri)) {
			order = append(order, ri)
		}
	}
	return order
}

type matcher struct {
	a, b      *Land
	order     []int
	usedB     []int32 // regions of b matched (1)
	toB, toA  []int32 // the bijection of letters (index letter-letter0; -1: not yet)
	trail     []int32 // letters of a bound, to undo
	budget    int64
	spent     int64
	exhausted bool
}

// region matches a's region order[k], and then the rest, to an unmatched
// region of b with the same label, in either direction.
func (m *matcher) region(k int) bool {
	if k == len(m.order) {
		return true
	}
	ra := m.order[k]
	x := m.a.regions[ra]
	zeros, plain := kinds(x)
	for rb := range m.b.regions {
		y := m.b.regions[rb]
		if m.usedB[rb] != 0 || m.b.labels[rb] != m.a.labels[ra] || len(y) != len(x) {
			continue
		}
		if z, p := kinds(y); z != zeros || p != plain {
			continue
		}
		m.usedB[rb] = 1
		for dir := range 2 {
			// Boundaries without letters bind nothing: lone 0s match by
			// number, the others as a multiset of least rotations.
			if plain > 0 && !slices.Equal(plainKeys(x, 0), plainKeys(y, dir)) {
				continue
			}
			var used [64]bool
			usedY := used[:]
			if len(y) > len(used) {
				usedY = make([]bool, len(y))
			}
			if m.boundaries(x, y, dir, 0, usedY, func() bool { return m.region(k + 1) }) {
				return true
			}
			if m.exhausted {
				return false
			}
		}
		m.usedB[rb] = 0
	}
	return false
}

// kinds counts the boundaries of a region that are lone 0s and those
// that hold no letter and are not lone 0s.
func kinds(r [][]int32) (zeros, plain int) {
	for _, b := range r {
		switch {
		case b[0] == zero:
			zeros++
		case !hasLetter(b):
			plain++
		}
	}
	return zeros, plain
}

func hasLetter(b []int32) bool {
	return slices.ContainsFunc(b, func(s int32) bool { return s >= letter0 })
}

// plainKeys returns the boundaries of r that hold no letter and are not
// lone 0s, read in direction dir, each written at its least rotation,
// sorted.
func plainKeys(r [][]int32, dir int) []string {
	var keys []string
	for _, b := range r {
		if b[0] == zero || hasLetter(b) {
			continue
		}
		n := len(b)
		best := ""
		for rot := range n {
			k := make([]byte, n)
			for j := range n {
				if dir == 0 {
					k[j] = byte(b[(rot+j)%n])
				} else {
					k[j] = byte(b[(rot-j+n)%n])
				}
			}
			if rot == 0 || string(k) < best {
				best = string(k)
			}
		}
		keys = append(keys, best)
	}
	slices.Sort(keys)
	return keys
}

// boundaries matches the boundaries of x that hold letters, from the q-th
// boundary of x on, to unused ones of y, read in direction dir, then
// calls then.
func (m *matcher) boundaries(x, y [][]int32, dir, q int, used []bool, then func() bool) bool {
	for q < len(x) && !hasLetter(x[q]) {
		q++
	}
	if q == len(x) {
		return then()
	}
	bx := x[q]
	for p, by := range y {
		if used[p] || len(by) != len(bx) || !hasLetter(by) {
			continue
		}
		for rot := range len(by) {
			if m.spent++; m.budget > 0 && m.spent > m.budget {
				m.exhausted = true
				return false
			}
			mark := len(m.trail)
			if !m.corners(bx, by, dir, rot) {
				m.undo(mark)
				continue
			}
			used[p] = true
			if m.boundaries(x, y, dir, q+1, used, then) {
				return true
			}
			used[p] = false
			m.undo(mark)
			if m.exhausted {
				return false
			}
		}
	}
	return false
}

// corners reports whether the boundary x of a matches y read in direction
// dir from its corner rot, binding the letters it meets; the bindings
// stay on the trail either way.
func (m *matcher) corners(x, y []int32, dir, rot int) bool {
	n := len(x)
	for i, s := range x {
		j := (rot + i) % n
		if dir == 1 {
			j = (rot - i + n) % n
		}
		t := y[j]
		if s < letter0 || t < letter0 {
			if s != t {
				return false
			}
			continue
		}
		switch bs, at := m.toB[s-letter0], m.toA[t-letter0]; {
		case bs == -1 && at == -1:
			m.toB[s-letter0], m.toA[t-letter0] = t, s
			m.trail = append(m.trail, s)
		case bs != t:
			return false
		}
	}
	return true
}

func (m *matcher) undo(mark int) {
	for _, s := range m.trail[mark:] {
		m.toA[m.toB[s-letter0]-letter0] = -1
		m.toB[s-letter0] = -1
	}
	m.trail = m.trail[:mark]
}

// SamePosition reports whether the sums of lands a and b are the same
// position: whether their lands can be paired so that each pair is the
// same land (Same, with the budget of each comparison).
func SamePosition(a, b []*Land, budget int64) (bool, error) {
	if len(a) != len(b) {
		return false, nil
	}
	paired := make([]bool, len(b))
next:
	for _, x := range a {
		for j, y := range b {
			if paired[j] {
				continue
			}
			same, err := Same(x, y, budget)
			if err != nil {
				return false, err
			}
			if same {
				paired[j] = true
				continue next
			}
		}
		return false, nil
	}
	return true, nil
}

// Table holds lands, each once: a land the same (Same) as one it holds is
// found, not added again. Its lookups compare a land only with those of
// the same Hash.
type Table struct {
	// Budget bounds each comparison (see Same); 0 means none.
	Budget  int64
	lands   []*Land
	buckets map[uint64][]int
}

// Len returns the number of lands held.
func (t *Table) Len() int { return len(t.lands) }

// Land returns the i-th land added.
func (t *Table) Land(i int) *Land { return t.lands[i] }

// Find returns the index of the land held that is the same as l, or -1.
// Finds may run concurrently with each other, not with Add.
func (t *Table) Find(l *Land) (int, error) {
	for _, i := range t.buckets[l.Hash()] {
		same, err := Same(l, t.lands[i], t.Budget)
		if err != nil {
			return -1, err
		}
		if same {
			return i, nil
		}
	}
	return -1, nil
}

// MaxBucket is the most lands of one Hash a Table holds: a land is
// compared with each of them, and only input made to collide comes near
// (the 203,400 entries of the corpus's certificate of 0*47 share a hash
// with at most three others).
const MaxBucket = 64

// Add adds l unless the table holds the same land, and returns the index
// of the land held and whether it was already there. It returns ErrBudget
// for a land that would be the MaxBucket+1-th of its hash.
func (t *Table) Add(l *Land) (int, bool, error) {
	i, err := t.Find(l)
	if err != nil || i >= 0 {
		return i, i >= 0, err
	}
	if len(t.buckets[l.Hash()]) >= MaxBucket {
		return -1, false, ErrBudget
	}
	if t.buckets == nil {
		t.buckets = map[uint64][]int{}
	}
	t.lands = append(t.lands, l)
	t.buckets[l.hash] = append(t.buckets[l.hash], len(t.lands)-1)
	return len(t.lands) - 1, false, nil
}
