package sprouts

import "slices"

// A sketch is a drawing under construction: the corners of every boundary as
// vertex ids, boundaries grouped into regions, and the lives of every vertex.
// Parsing and move generation build sketches; reduce simplifies one and
// canonical turns it into a code. Lands are not recorded: they are the groups
// of regions that share vertices, found when the sketch is split.
type sketch struct {
	occ   []int32 // vertex id of each corner, boundary after boundary
	bEnd  []int32 // bEnd[b] is the end of boundary b in occ; it starts at bEnd[b-1]
	rEnd  []int32 // rEnd[r] is the end of region r in bEnd; it starts at rEnd[r-1]
	lives []int8  // lives of each vertex id
}

func (s *sketch) reset() {
	s.occ = s.occ[:0]
	s.bEnd = s.bEnd[:0]
	s.rEnd = s.rEnd[:0]
	s.lives = s.lives[:0]
}

// boundary returns the corners of boundary b.
func (s *sketch) boundary(b int) []int32 {
	start := int32(0)
	if b > 0 {
		start = s.bEnd[b-1]
	}
	return s.occ[start:s.bEnd[b]]
}

// regionBounds returns the first boundary of region r and one past its last.
func (s *sketch) regionBounds(r int) (int, int) {
	start := int32(0)
	if r > 0 {
		start = s.rEnd[r-1]
	}
	return int(start), int(s.rEnd[r])
}

func (s *sketch) endBoundary() { s.bEnd = append(s.bEnd, int32(len(s.occ))) }
func (s *sketch) endRegion()   { s.rEnd = append(s.rEnd, int32(len(s.bEnd))) }

func (s *sketch) newVertex(lives int8) int32 {
	s.lives = append(s.lives, lives)
	return int32(len(s.lives) - 1)
}

// vertex kinds after reduction; they decide how a vertex is written.
const (
	vDead  = iota
	vSpot0 // three lives, no lines: alone in its boundary
	vSpot1 // two lives, one corner
	vSpot2 // one life, one live corner
	vLower // one life, two corners on one boundary
	vUpper // one life, corners in two regions of one land
)

// reducer holds the scratch space of reduce so that move generation
// allocates nothing.
type reducer struct {
	count []int32 // corners per vertex
	stamp []int32 // last region (plus one) that counted a vertex
	first []int32 // boundary of a vertex's last corner; -2 once two were on one boundary
	kind  []int8
	lives []int32 // lives of each region kept by rule 4
	vreg  []int32 // region of a vertex's first corner
	land  []int32 // union-find of the regions joined by uppercase letters
}

// landOf returns the representative of the land of region reg.
func (r *reducer) landOf(reg int32) int32 {
	uf := r.land
	for uf[reg] != reg {
		uf[reg] = uf[uf[reg]]
		reg = uf[reg]
	}
	return reg
}

// reduce applies the rules that simplify a drawing without changing its game:
//
//  1. corners of dead vertices (no lives) are deleted;
//  2. corners of one vertex that are neighbours on a boundary (cyclically)
//     become one corner: only dead lines lay between them;
//  3. empty boundaries are deleted;
//  4. a region whose distinct vertices have fewer than two lives in all is
//     deleted: no move can be drawn in it;
//  5. a region with two or three lives becomes one boundary holding its
//     vertices once each: with so few lives the order and grouping of its
//     corners cannot change the game (each of its at most three symbols
//     carries a life, and every cyclic order of three symbols is a rotation
//     or mirror image of every other).
//
// It then records each vertex's kind in r.kind, and in r.land which
// regions uppercase letters join into lands. Everything is done in place,
// in three passes over the corners.
func (s *sketch) reduce(r *reducer) {
	lives := s.lives
	nv := len(lives)
	r.stamp = resize(r.stamp, nv)
	r.count = resize(r.count, nv)
	r.first = resize(r.first, nv)
	r.vreg = resize(r.vreg, nv)
	stamp, count, first, vreg := r.stamp, r.count, r.first, r.vreg
	clear(stamp)
	clear(count)
	occ, bEnd, rEnd := s.occ, s.bEnd, s.rEnd
	r.lives = resize(r.lives, len(rEnd))
	regLives := r.lives
	// Rules 1-4, compacting occ, bEnd and rEnd in place; the lives of each
	// region are those of its distinct vertices.
	w, bw, rw := 0, 0, 0
	bStart, rStart := 0, 0
	for reg, rEndB := range rEnd {
		rFirstOcc, rFirstB := w, bw
		mark := int32(reg + 1)
		n := 0
		for b := rStart; b < int(rEndB); b++ {
			start := w
			e := int(bEnd[b])
			for _, v := range occ[bStart:e] {
				if lives[v] <= 0 || w > start && occ[w-1] == v {
					continue
				}
				occ[w] = v
				w++
				if stamp[v] != mark {
					stamp[v] = mark
					n += int(lives[v])
				}
			}
			for w-start >= 2 && occ[w-1] == occ[start] {
				w--
			}
			bStart = e
			if w > start {
				bEnd[bw] = int32(w)
				bw++
			}
		}
		rStart = int(rEndB)
		if n < 2 {
			w, bw = rFirstOcc, rFirstB
			continue
		}
		rEnd[rw] = int32(bw)
		regLives[rw] = int32(n)
		rw++
	}
	occ, bEnd, rEnd = occ[:w], bEnd[:bw], rEnd[:rw]
	s.occ, s.bEnd, s.rEnd = occ, bEnd, rEnd

	// Corners per vertex, and whether a vertex's two corners lie on one
	// boundary (a lowercase letter) or two, in two regions of one land (an
	// uppercase one).
	r.land = resize(r.land, rw)
	for i := range r.land {
		r.land[i] = int32(i)
	}
	start, b := 0, 0
	for reg, rEndB := range rEnd {
		for ; b < int(rEndB); b++ {
			e := bEnd[b]
			for _, v := range occ[start:e] {
				switch {
				case count[v] == 0:
					first[v], vreg[v] = int32(b), int32(reg)
				case first[v] == int32(b):
					first[v] = -2
				case lives[v] == 1:
					if x, y := r.landOf(vreg[v]), r.landOf(int32(reg)); x != y {
						r.land[x] = y
					}
				}
				count[v]++
			}
			start = int(e)
		}
	}
	if cap(r.kind) < nv {
		r.kind = make([]int8, nv, nv+nv/2)
	}
	kind := r.kind[:nv]
	r.kind = kind
	for v := range nv {
		switch {
		case count[v] == 0:
			kind[v] = vDead
		case lives[v] == 3:
			kind[v] = vSpot0
		case lives[v] == 2:
			kind[v] = vSpot1
		case count[v] == 1:
			kind[v] = vSpot2
		case first[v] == -2:
			kind[v] = vLower
		default:
			kind[v] = vUpper
		}
	}
	s.mergeSmallRegions(r)
}

// mergeSmallRegions applies rule 5 of reduce, in place. A merged region
// keeps each of its vertices once; lowercase pairs become spots 2.
func (s *sketch) mergeSmallRegions(r *reducer) {
	small := func(lives int32) bool { return lives == 2 || lives == 3 }
	regLives := r.lives[:len(s.rEnd)]
	if !slices.ContainsFunc(regLives, small) {
		return
	}
	kind := r.kind
	occ, bEnd, rEnd := s.occ, s.bEnd, s.rEnd
	// Writing never overtakes reading: a merged region is no longer than
	// it was.
	w, bw := 0, 0
	bStart, rStart := 0, 0
	for reg, rEndB := range rEnd {
		if !small(regLives[reg]) {
			for b := rStart; b < int(rEndB); b++ {
				e := int(bEnd[b])
				w += copy(occ[w:], occ[bStart:e])
				bStart = e
				bEnd[bw] = int32(w)
				bw++
			}
		} else {
			start := w
			for b := rStart; b < int(rEndB); b++ {
				e := int(bEnd[b])
				for _, v := range occ[bStart:e] {
					if kind[v] == vLower {
						kind[v] = vSpot2
					} else if kind[v] == vSpot2 && slices.Contains(occ[start:w], v) {
						continue // second corner of a former pair
					}
					occ[w] = v
					w++
				}
				bStart = e
			}
			bEnd[bw] = int32(w)
			bw++
		}
		rStart = int(rEndB)
		rEnd[reg] = int32(bw)
	}
	s.occ, s.bEnd = occ[:w], bEnd[:bw]
}
