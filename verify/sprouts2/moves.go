package sprouts2

// Children returns the position each move of the land reaches, as its
// reduced lands (none for the empty position). A position is listed once
// for every move that reaches it in the way Moves counts them, so the
// same position may be listed several times; the list holds every move.
//
// A move draws a line inside one region from a corner of a spot with a
// life to a corner of another such spot, or from a corner of a spot with
// two lives back to itself, and puts a new spot on it (one life, a corner
// on each side of the line). Each end uses one life of its spot: a 0
// becomes a spot with one line, a 1 a spot with one life and two corners
// (one each side of the line), and a spot with one life dies.
//
//   - A line between two corners of one boundary cuts the region in two:
//     one side is bounded by the boundary's corners from one end to the
//     other and the line, the other by the rest of the boundary and the
//     line; each other boundary of the region lies on one side or the
//     other, in every way.
//   - A line between corners of two boundaries of the region joins them
//     into one boundary: the first walked all round from its corner, the
//     line, the second walked all round from its corner, the line back.
//
// Boundaries that are lone 0s are alike, so the moves of only one of them
// (or of two, for a line joining two) are made; those of the others would
// give the same positions.
func (l *Land) Children() [][]*Land {
	var out [][]*Land
	l.EachChild(func(child []*Land) bool {
		out = append(out, child)
		return true
	})
	return out
}

// EachChild calls f with each child Children would return, in the same
// order, until f returns false; it reports whether f was called for all.
func (l *Land) EachChild(f func(child []*Land) bool) bool {
	return l.moves(func(regions [][][]int32, letters int, died []int32) bool {
		return f(reduce(regions, letters, died))
	})
}

// Moves returns a bound on the number of moves Children makes (each builds
// and reduces one child), without making them: it counts every pair of
// corners of a boundary and every pair of corners of two boundaries,
// times the ways to share the other boundaries, including the pairs no
// line may join (two corners of one spot, a loop at a spot with one
// life). It saturates at 1<<62.
func (l *Land) Moves() int64 {
	const most = int64(1) << 62
	total := int64(0)
	add := func(n int64) {
		if total += n; total > most || total < 0 {
			total = most
		}
	}
	times := func(a, b int64) int64 {
		if a != 0 && b > most/a {
			return most
		}
		return a * b
	}
	for _, r := range l.regions {
		zeros, other := int64(0), []int64{}
		for _, b := range r {
			if b[0] == zero {
				zeros++
			} else {
				other = append(other, int64(len(b)))
			}
		}
		sides := int64(1) << min(len(other), 62) // ways to share the other boundaries
		if zeros > 0 {
			add(times(zeros, sides)) // a loop at one lone 0; the others share in zeros ways
			if zeros > 1 {
				add(1) // two lone 0s joined
			}
		}
		sum := int64(0)
		for _, n := range other {
			add(times(times(n*(n+1)/2, zeros+1), sides/2)) // lines within the boundary
			add(times(n, min(zeros, 1)))                   // joined to a lone 0
			add(times(n, sum))                             // joined to an earlier boundary
			sum += n
		}
	}
	return total
}

// moves calls emit with the regions of the land after each move (those
// not moved in shared with the land, the others new), the number of
// letters they may hold and the letters that died, until emit returns
// false; it reports whether emit was called for every move. What emit is
// given is only valid during the call: reduce copies what it keeps, so the
// moves reuse their buffers.
func (l *Land) moves(emit func(regions [][][]int32, letters int, died []int32) bool) bool {
	var child [][][]int32
	var side [2][][]int32
	var cut [2][]int32
	var joined []int32
	for ri, r := range l.regions {
		rest := make([][][]int32, 0, len(l.regions)-1)
		rest = append(rest, l.regions[:ri]...)
		rest = append(rest, l.regions[ri+1:]...)
		firstZero, secondZero := -1, -1
		for bi, b := range r {
			if b[0] == zero {
				if firstZero < 0 {
					firstZero = bi
				} else if secondZero < 0 {
					secondZero = bi
				}
			}
		}
		var zeros, others [][]int32 // the boundaries of r but b, lone 0s apart
		for bi, b := range r {
			if b[0] == zero && bi != firstZero {
				continue
			}
			zeros, others = zeros[:0], others[:0]
			for bk, o := range r {
				switch {
				case bk == bi:
				case o[0] == zero:
					zeros = append(zeros, o)
				default:
					others = append(others, o)
				}
			}
			more := l.cuts(b, &cut, func(inside, outside []int32, died []int32) bool {
				// Every way to put the other boundaries on one side or
				// the other of the line; lone 0s are alike, so only how
				// many go in counts.
				for k := 0; k <= len(zeros); k++ {
					for mask := uint64(0); mask < 1<<len(others); mask++ {
						side[0] = append(append(side[0][:0], inside), zeros[:k]...)
						side[1] = append(append(side[1][:0], outside), zeros[k:]...)
						for i, o := range others {
							in := mask>>i&1 == 0
							if in {
								side[0] = append(side[0], o)
							} else {
								side[1] = append(side[1], o)
							}
						}
						child = append(append(child[:0], rest...), side[0], side[1])
						if !emit(child, l.letters+3, died) {
							return false
						}
					}
				}
				return true
			})
			if !more {
				return false
			}
		}
		for bi := range r {
			for bj := bi + 1; bj < len(r); bj++ {
				zi, zj := r[bi][0] == zero, r[bj][0] == zero
				if zi && bi != firstZero || zj && (zi && bj != secondZero || !zi && bj != firstZero) {
					continue
				}
				others = others[:0]
				for bk, b := range r {
					if bk != bi && bk != bj {
						others = append(others, b)
					}
				}
				for i := range r[bi] {
					for j := range r[bj] {
						var died []int32
						joined, died = l.join(joined[:0], r[bi], i, r[bj], j)
						side[0] = append(append(side[0][:0], others...), joined)
						child = append(append(child[:0], rest...), side[0])
						if !emit(child, l.letters+3, died) {
							return false
						}
					}
				}
			}
		}
	}
	return true
}

// end returns what the corner of spot s becomes when a line ends there
// (a new letter for a 1, fresh; dead for a spot that loses its last life)
// and adds s to died if it is a letter that dies.
func end(s, fresh int32, died []int32) (int32, []int32) {
	switch {
	case s == one:
		return fresh, died
	case s >= letter0:
		return dead, append(died, s)
	}
	return dead, died // a 2
}

// cuts calls f with the two new boundaries of each line drawn within the
// boundary b (inside: from the first end to the second and the line;
// outside: the rest and the line) and the letters that died, until f
// returns false; it reports whether f was called for every line. The
// boundaries are built in buf.
func (l *Land) cuts(b []int32, buf *[2][]int32, f func(inside, outside []int32, died []int32) bool) bool {
	n := len(b)
	x, y, mid := int32(letter0+l.letters), int32(letter0+l.letters+1), int32(letter0+l.letters+2)
	if n == 1 {
		switch b[0] {
		case zero: // a loop round the lone spot: it keeps one life, a corner each side
			return f([]int32{x, mid}, []int32{x, mid}, nil)
		case one: // a loop at its one corner: the spot dies
			return f([]int32{dead, mid}, []int32{dead, mid}, nil)
		}
		return true
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			u, v := b[i], b[j]
			if i == j {
				if u != one {
					continue // a loop needs two lives
				}
				// The loop encloses nothing of b; outside it the spot
				// (dead now) is met before and after the loop.
				out := append(append(append(buf[1][:0], dead), b[i+1:]...), b[:i]...)
				buf[1] = append(out, dead, mid)
				if !f([]int32{dead, mid}, buf[1], nil) {
					return false
				}
				continue
			}
			if u == v && u >= letter0 {
				continue // two corners of one spot with one life
			}
			var died []int32
			eu, died := end(u, x, died)
			ev, died := end(v, y, died)
			buf[0] = append(append(append(buf[0][:0], eu), b[i+1:j]...), ev, mid)
			out := append(append(append(buf[1][:0], ev), b[j+1:]...), b[:i]...)
			buf[1] = append(out, eu, mid)
			if !f(buf[0], buf[1], died) {
				return false
			}
		}
	}
	return true
}

// join appends to joined the boundary made by a line from corner i of a
// to corner j of c, two boundaries of one region, and returns it and the
// letters that died.
func (l *Land) join(joined, a []int32, i int, c []int32, j int) ([]int32, []int32) {
	mid := int32(letter0 + l.letters + 2)
	var died []int32
	walk := func(b []int32, i int, fresh int32) {
		s := b[i]
		if s == zero { // alone in b: it now has one line and one corner
			joined = append(joined, one)
			return
		}
		var e int32
		e, died = end(s, fresh, died)
		joined = append(append(append(append(joined, e), b[i+1:]...), b[:i]...), e)
	}
	walk(a, i, int32(letter0+l.letters))
	joined = append(joined, mid)
	walk(c, j, int32(letter0+l.letters+1))
	return append(joined, mid), died
}
