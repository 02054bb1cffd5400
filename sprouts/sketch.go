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

// reducer holds the scratch space of reduce and canonical so that move
// generation allocates little.
type reducer struct {
	count []int32 // corners per vertex
	stamp []int32 // last region (plus one) that counted a vertex
	first []int32 // region of a vertex's first corner, -1 if none
	kind  []int8
	lives []int32 // lives of each region kept by rule 4

	// spare arrays that mergeSmallRegions swaps with the sketch's
	occ, bEnd, rEnd []int32
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
// It then records each vertex's kind in r.kind.
func (s *sketch) reduce(r *reducer) {
	nv := len(s.lives)
	r.stamp = resize(r.stamp, nv)
	r.count = resize(r.count, nv)
	for i := range r.stamp {
		r.stamp[i] = 0
		r.count[i] = 0
	}
	r.lives = resize(r.lives, len(s.rEnd))
	// Rules 1-4, compacting occ, bEnd and rEnd in place.
	w, bw, rw := 0, 0, 0
	bStart := int32(0)
	rStart := 0
	for reg := range s.rEnd {
		rFirstOcc, rFirstB := w, bw
		for b := rStart; b < int(s.rEnd[reg]); b++ {
			start := w
			for _, v := range s.occ[bStart:s.bEnd[b]] {
				if s.lives[v] <= 0 {
					continue
				}
				if w > start && s.occ[w-1] == v {
					continue
				}
				s.occ[w] = v
				w++
			}
			for w-start >= 2 && s.occ[w-1] == s.occ[start] {
				w--
			}
			bStart = s.bEnd[b]
			if w > start {
				s.bEnd[bw] = int32(w)
				bw++
			}
		}
		rStart = int(s.rEnd[reg])
		// Rule 4: count lives of distinct vertices.
		lives := 0
		mark := int32(reg + 1)
		for _, v := range s.occ[rFirstOcc:w] {
			if r.stamp[v] != mark {
				r.stamp[v] = mark
				lives += int(s.lives[v])
			}
		}
		if lives < 2 {
			w, bw = rFirstOcc, rFirstB
			continue
		}
		s.rEnd[rw] = int32(bw)
		r.lives[rw] = int32(lives)
		rw++
	}
	s.occ, s.bEnd, s.rEnd = s.occ[:w], s.bEnd[:bw], s.rEnd[:rw]

	// Kinds from the corners that are left.
	for _, v := range s.occ {
		r.count[v]++
	}
	if cap(r.kind) < nv {
		r.kind = make([]int8, nv, nv+nv/2)
	}
	r.kind = r.kind[:nv]
	r.first = resize(r.first, nv)
	for v := range nv {
		r.first[v] = -1
		switch {
		case r.count[v] == 0:
			r.kind[v] = vDead
		case s.lives[v] == 3:
			r.kind[v] = vSpot0
		case s.lives[v] == 2:
			r.kind[v] = vSpot1
		case r.count[v] == 1:
			r.kind[v] = vSpot2
		default:
			r.kind[v] = vUpper // refined to vLower below
		}
	}
	for b := range s.bEnd {
		for _, v := range s.boundary(b) {
			if r.kind[v] != vUpper {
				continue
			}
			if r.first[v] == int32(b) {
				r.kind[v] = vLower
			}
			r.first[v] = int32(b)
		}
	}
	s.mergeSmallRegions(r)
}

// mergeSmallRegions applies rule 5 of reduce. A merged region keeps each of
// its vertices once; lowercase pairs become spots 2.
func (s *sketch) mergeSmallRegions(r *reducer) {
	small := func(reg int) bool { return r.lives[reg] == 2 || r.lives[reg] == 3 }
	need := false
	for reg := range s.rEnd {
		if small(reg) {
			need = true
			break
		}
	}
	if !need {
		return
	}
	out, bEnd, rEnd := r.occ[:0], r.bEnd[:0], r.rEnd[:0]
	for reg := range s.rEnd {
		b0, b1 := s.regionBounds(reg)
		if !small(reg) {
			for b := b0; b < b1; b++ {
				out = append(out, s.boundary(b)...)
				bEnd = append(bEnd, int32(len(out)))
			}
			rEnd = append(rEnd, int32(len(bEnd)))
			continue
		}
		start := len(out)
		for b := b0; b < b1; b++ {
			for _, v := range s.boundary(b) {
				if r.kind[v] == vLower {
					r.kind[v] = vSpot2
				} else if r.kind[v] == vSpot2 && slices.Contains(out[start:], v) {
					continue // second corner of a former pair
				}
				out = append(out, v)
			}
		}
		bEnd = append(bEnd, int32(len(out)))
		rEnd = append(rEnd, int32(len(bEnd)))
	}
	r.occ, r.bEnd, r.rEnd = s.occ[:0], s.bEnd[:0], s.rEnd[:0]
	s.occ, s.bEnd, s.rEnd = out, bEnd, rEnd
}
