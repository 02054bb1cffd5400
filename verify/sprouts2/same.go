package sprouts2

import (
	"errors"
	"slices"
)

// invariants returns the hash of a land and a label for each of its
// regions, numbers that no relabelling of the land changes: they are
// computed from the kinds of the corners, the cyclic order of each
// boundary (as multisets of consecutive triples, read both ways), and,
// for a letter seen in two regions, from the label of the other region in
// the previous round (three rounds, each region's label folding in its
// previous one). Sums make the order of boundaries and regions irrelevant;
// a region's two reading directions are combined symmetrically.
func invariants(l *Land) (uint64, []uint64) {
	where := l.corners()
	n := len(l.regions)
	both := make([]uint64, 2*n)
	labels, next := both[:n:n], both[n:]
	var space [64]uint64
	for range 2 {
		for ri, r := range l.regions {
			var sum [2]uint64
			for bi, b := range r {
				n := len(b)
				tokens := space[:0]
				if n > len(space) {
					tokens = make([]uint64, 0, n)
				}
				for dir := range 2 {
					tokens = tokens[:0]
					for k := range n {
						i := k
						if dir == 1 {
							i = n - 1 - k
						}
						s := b[i]
						if s < letter0 {
							tokens = append(tokens, uint64(s)+1)
							continue
						}
						c := where[s-letter0]
						other := c[0]
						if other.region == int32(ri) && other.boundary == int32(bi) && other.index == int32(i) {
							other = c[1]
						}
						if other.region == int32(ri) { // lowercase: the distance to its other corner
							d := (int(other.index) - i + n) % n
							if dir == 1 {
								d = n - d
							}
							tokens = append(tokens, 16+uint64(d))
						} else {
							tokens = append(tokens, mix(1<<40+labels[other.region]))
						}
					}
					h := uint64(n) * 0x9e3779b97f4a7c15
					for k := range n {
						h += mix(tokens[k] ^ mix(tokens[(k+1)%n]^mix(tokens[(k+2)%n])))
					}
					sum[dir] += mix(h)
				}
			}
			lo, hi := min(sum[0], sum[1]), max(sum[0], sum[1])
			next[ri] = mix(labels[ri] ^ mix(lo^mix(hi+uint64(len(r)))))
		}
		copy(labels, next)
	}
	h := uint64(n)
	for _, x := range labels {
		h += mix(x)
	}
	return mix(h ^ uint64(l.lives)<<32), labels
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
	if a.hash != b.hash || a.lives != b.lives || a.letters != b.letters || len(a.regions) != len(b.regions) {
		return false, nil
	}
	la, lb := slices.Clone(a.labels), slices.Clone(b.labels)
	slices.Sort(la)
	slices.Sort(lb)
	if !slices.Equal(la, lb) {
		return false, nil
	}
	m := matcher{a: a, b: b, budget: budget, usedB: make([]bool, len(b.regions)),
		toB: make([]int32, a.letters), toA: make([]int32, b.letters)}
	for i := range m.toB {
		m.toB[i] = -1
	}
	for i := range m.toA {
		m.toA[i] = -1
	}
	m.order = regionOrder(a)
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
	count := map[uint64]int{}
	for _, x := range a.labels {
		count[x]++
	}
	start := 0
	for ri := range a.regions {
		if count[a.labels[ri]] < count[a.labels[start]] {
			start = ri
		}
	}
	where := a.corners()
	order := []int{start}
	in := make([]bool, len(a.regions))
	in[start] = true
	for k := 0; k < len(order); k++ {
		for _, b := range a.regions[order[k]] {
			for _, s := range b {
				if s < letter0 {
					continue
				}
				for _, c := range where[s-letter0] {
					if !in[c.region] {
						in[c.region] = true
						order = append(order, int(c.region))
					}
				}
			}
		}
	}
	for ri := range a.regions { // a land is connected; this only guards
		if !in[ri] {
			order = append(order, ri)
		}
	}
	return order
}

type matcher struct {
	a, b      *Land
	order     []int
	usedB     []bool  // regions of b matched
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
	xs, plainA := lettered(m.a.regions[ra])
	for rb := range m.b.regions {
		if m.usedB[rb] || m.b.labels[rb] != m.a.labels[ra] || len(m.b.regions[rb]) != len(m.a.regions[ra]) {
			continue
		}
		ys, plainB := lettered(m.b.regions[rb])
		if len(xs) != len(ys) {
			continue
		}
		m.usedB[rb] = true
		for dir := range 2 {
			// Boundaries without letters bind nothing: they match as a
			// multiset, each at its least rotation.
			if !slices.Equal(plainKeys(plainA, 0), plainKeys(plainB, dir)) {
				continue
			}
			used := make([]bool, len(ys))
			if m.boundaries(xs, ys, dir, 0, used, func() bool { return m.region(k + 1) }) {
				return true
			}
			if m.exhausted {
				return false
			}
		}
		m.usedB[rb] = false
	}
	return false
}

// lettered splits the boundaries of a region into those holding a letter
// and the others.
func lettered(r [][]int32) (letters, plain [][]int32) {
	for _, b := range r {
		if slices.ContainsFunc(b, func(s int32) bool { return s >= letter0 }) {
			letters = append(letters, b)
		} else {
			plain = append(plain, b)
		}
	}
	return letters, plain
}

// plainKeys returns the boundaries without letters read in direction dir,
// each written at its least rotation, sorted.
func plainKeys(bs [][]int32, dir int) []string {
	keys := make([]string, len(bs))
	for i, b := range bs {
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
		keys[i] = best
	}
	slices.Sort(keys)
	return keys
}

// boundaries matches the boundaries xs of a region of a, from the q-th on,
// to unused ones of ys, of a region of b read in direction dir, then calls
// then. All of them hold letters.
func (m *matcher) boundaries(xs, ys [][]int32, dir, q int, used []bool, then func() bool) bool {
	if q == len(xs) {
		return then()
	}
	x := xs[q]
	for p, y := range ys {
		if used[p] || len(y) != len(x) {
			continue
		}
		for rot := range len(y) {
			if m.spent++; m.budget > 0 && m.spent > m.budget {
				m.exhausted = true
				return false
			}
			mark := len(m.trail)
			if !m.corners(x, y, dir, rot) {
				m.undo(mark)
				continue
			}
			used[p] = true
			if m.boundaries(xs, ys, dir, q+1, used, then) {
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
	for _, i := range t.buckets[l.hash] {
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

// Add adds l unless the table holds the same land, and returns the index
// of the land held and whether it was already there.
func (t *Table) Add(l *Land) (int, bool, error) {
	i, err := t.Find(l)
	if err != nil || i >= 0 {
		return i, i >= 0, err
	}
	if t.buckets == nil {
		t.buckets = map[uint64][]int{}
	}
	t.lands = append(t.lands, l)
	t.buckets[l.hash] = append(t.buckets[l.hash], len(t.lands)-1)
	return len(t.lands) - 1, false, nil
}
