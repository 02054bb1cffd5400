package sprouts2

// reduce rewrites a land as a move (or the text) left it, whose letters
// are numbered below letter0+letters and of which the letters in died are
// dead, into the reduced lands it falls apart into (none if nothing is
// left). The rewritings are those the package documentation lists, in
// this order, each applied once: after them none applies again.
func reduce(regions [][][]int32, letters int, died []int32) []*Land {
	// Tables by letter (index s-letter0), in one allocation.
	tables := make([]int32, 5*letters+2*len(regions))
	isDead, stamp, count, here := tables[:letters], tables[letters:2*letters], tables[2*letters:3*letters], tables[3*letters:4*letters]
	for _, s := range died {
		isDead[s-letter0] = 1
	}
	live := dropDeadCorners(regions, isDead)
	live = dropStuckRegions(live, stamp)
	loneLettersToTwos(live, count)
	mergeFewLives(live, stamp, here)
	return split(live, letters, tables[4*letters:])
}

// dropDeadCorners returns the regions without their dead corners (a 1 set
// to dead, or a letter marked in isDead) and without the boundaries left
// empty; a letter whose two corners are then neighbours keeps one of them
// (it becomes a 2 below, with one corner). The corners of the result are
// copied into one array, a region's boundaries one after the other, and
// the capacity of each boundary runs on over the rest of its region (and
// beyond), which mergeFewLives relies on.
func dropDeadCorners(regions [][][]int32, isDead []int32) [][][]int32 {
	total, bounds := 0, 0
	for _, r := range regions {
		bounds += len(r)
		for _, b := range r {
			total += len(b)
		}
	}
	buf := make([]int32, 0, total)
	heads := make([][]int32, 0, bounds)
	live := make([][][]int32, 0, len(regions))
	for _, r := range regions {
		first := len(heads)
		for _, b := range r {
			start := len(buf)
			for _, s := range b {
				if s != dead && (s < letter0 || isDead[s-letter0] == 0) {
					buf = append(buf, s)
				}
			}
			nb := joinNeighbourCorners(buf[start:])
			buf = buf[:start+len(nb)]
			if len(nb) > 0 {
				heads = append(heads, nb) // its capacity runs on over the rest of its region: see asOneBoundary
			}
		}
		live = append(live, heads[first:len(heads):len(heads)])
	}
	return live
}

// joinNeighbourCorners rewrites, in place, a cyclic boundary nb from which
// dead corners went: a letter whose two corners are neighbours (next to
// each other, or the two corners of a boundary of two) keeps one of them.
// It returns the boundary, a prefix of nb.
func joinNeighbourCorners(nb []int32) []int32 {
	if n := len(nb); n == 2 && nb[0] >= letter0 && nb[0] == nb[1] {
		nb = nb[:1]
	} else if n > 2 {
		kept := nb[:0]
		for i, s := range nb {
			if s < letter0 || s != nb[(i+1)%n] {
				kept = append(kept, s)
			}
		}
		nb = kept
	}
	return nb
}

// dropStuckRegions returns the regions of live in which a move is
// possible, in place: a move needs a spot with two lives (a 0 or a 1) or
// two distinct spots with a life. stamp (by letter, all below 1 on entry)
// marks the letters met in region ri with ri+1.
func dropStuckRegions(live [][][]int32, stamp []int32) [][][]int32 {
	kept := live[:0]
	for ri, r := range live {
		distinct, alive := 0, false
		for _, b := range r {
			for _, s := range b {
				switch {
				case s == zero || s == one:
					alive = true
				case s == two:
					distinct++
				case stamp[s-letter0] != int32(ri+1):
					stamp[s-letter0] = int32(ri + 1)
					distinct++
				}
			}
		}
		if alive || distinct >= 2 {
			kept = append(kept, r)
		}
	}
	return kept
}

// loneLettersToTwos writes a 2 for every letter left with one corner in
// live; count (by letter, zeros on entry) counts each letter's corners.
func loneLettersToTwos(live [][][]int32, count []int32) {
	for _, r := range live {
		for _, b := range r {
			for _, s := range b {
				if s >= letter0 {
					count[s-letter0]++
				}
			}
		}
	}
	for _, r := range live {
		for _, b := range r {
			for i, s := range b {
				if s >= letter0 && count[s-letter0] == 1 {
					b[i] = two
				}
			}
		}
	}
}

// mergeFewLives rewrites, in place, each region of live with two or three
// lives as one boundary: its 0s, 1s and shared letters in the order met,
// then a 2 for each other spot. stamp (by letter, no value below 0 on
// entry) and here are the tables regionLives uses.
func mergeFewLives(live [][][]int32, stamp, here []int32) {
	for ri, r := range live {
		if lives := regionLives(r, ri, stamp, here); lives != 2 && lives != 3 {
			continue
		}
		nb := asOneBoundary(r, here)
		live[ri] = r[:1]
		live[ri][0] = nb
	}
}

// regionLives returns the lives of region r, the ri-th, and counts in here
// the corners each of its letters has in it (a letter with two counts one
// life). It marks the letters met with -(ri+1) in stamp, whose values must
// differ from those of every other region's call.
func regionLives(r [][]int32, ri int, stamp, here []int32) int {
	lives := 0
	for _, b := range r {
		for _, s := range b {
			switch {
			case s == zero:
				lives += 3
			case s == one:
				lives += 2
			case s == two:
				lives++
			case stamp[s-letter0] != int32(-(ri + 1)):
				stamp[s-letter0] = int32(-(ri + 1))
				here[s-letter0] = 1
				lives++
			default:
				here[s-letter0]++
			}
		}
	}
	return lives
}

// asOneBoundary returns region r written as one boundary: its 0s, 1s and
// the letters it shares with other regions in the order met, then one 2
// for each other spot (a 2, or a letter with both corners in r, as here
// counts them). The boundaries of r lie one after the other in one array
// (see dropDeadCorners), and the new boundary is no longer than they are
// together: it is written over them, each corner no later than where it
// is read.
func asOneBoundary(r [][]int32, here []int32) []int32 {
	nb := r[0][:0:cap(r[0])]
	twos := 0
	for _, b := range r {
		for _, s := range b {
			switch {
			case s == two:
				twos += 2
			case s >= letter0 && here[s-letter0] == 2:
				twos++ // a letter with both corners here: one 2 for the two
			default:
				nb = append(nb, s)
			}
		}
	}
	for range twos / 2 {
		nb = append(nb, two)
	}
	return nb[:len(nb):len(nb)]
}

// split divides the regions into lands: regions sharing a letter are in
// one land. Each land's letters are numbered again from letter0 in order
// of appearance. It uses tables, of at least letters+2*len(regions) zeros,
// and overwrites the regions' corners.
func split(regions [][][]int32, letters int, tables []int32) []*Land {
	if len(regions) == 0 {
		return nil
	}
	// land[ri] leads, through a chain of regions sharing letters, to the
	// least region of ri's land; first[s] is 1 + the first region met
	// holding letter s.
	land, size, first := tables[:len(regions)], tables[len(regions):2*len(regions)], tables[2*len(regions):][:letters]
	for i := range land {
		land[i] = int32(i)
	}
	find := func(i int32) int32 {
		for land[i] != i {
			land[i] = land[land[i]]
			i = land[i]
		}
		return i
	}
	for ri, r := range regions {
		for _, b := range r {
			for _, s := range b {
				if s < letter0 {
					continue
				}
				if f := first[s-letter0]; f == 0 {
					first[s-letter0] = int32(ri + 1)
				} else if a, c := find(f-1), find(int32(ri)); a != c {
					land[max(a, c)] = min(a, c)
				}
			}
		}
	}
	lands := 0
	for ri := range regions {
		root := find(int32(ri))
		if size[root] == 0 {
			lands++
		}
		size[root]++
	}
	out := make([]*Land, 0, lands)
	if lands == 1 {
		return append(out, newLand(renumber(regions, first)))
	}
	// Each land's letters are numbered again from letter0, in place: the
	// letters of different lands are different, so one table serves all.
	rename := first
	clear(rename)
	for ri := range regions {
		if land[ri] != int32(ri) {
			continue // not the least region of its land
		}
		group := make([][][]int32, 0, size[ri])
		for rj := ri; rj < len(regions); rj++ {
			if find(int32(rj)) == int32(ri) {
				group = append(group, regions[rj])
			}
		}
		out = append(out, newLand(renumber(group, rename)))
	}
	return out
}

// renumber numbers the letters of one land from letter0 in order of
// appearance, in place, with rename (by letter, zero where not yet
// renamed) as scratch.
func renumber(regions [][][]int32, rename []int32) [][][]int32 {
	clear(rename)
	next := int32(letter0)
	for _, r := range regions {
		for _, b := range r {
			for i, s := range b {
				if s >= letter0 {
					if rename[s-letter0] == 0 {
						rename[s-letter0] = next
						next++
					}
					b[i] = rename[s-letter0]
				}
			}
		}
	}
	return regions
}

// newLand makes a Land of reduced regions whose letters are numbered
// from letter0 in order of appearance.
func newLand(regions [][][]int32) *Land {
	l := &Land{regions: regions}
	for _, r := range regions {
		for bi, b := range r {
			r[bi] = b[:len(b):len(b)] // reduce's buffer runs on: nothing may append over it
			for _, s := range b {
				switch {
				case s == zero:
					l.lives += 3
				case s == one:
					l.lives += 2
				case s == two:
					l.lives++
				case s >= letter0 && int(s-letter0) >= l.letters:
					l.letters = int(s-letter0) + 1
					l.lives++
				}
			}
		}
	}
	return l
}
