// Package cramtest holds what the tests of several packages need of Cram:
// Grundy values computed from package cram's rules alone, with no solver,
// so that a test can make a database of values, or check one, without
// trusting the search it tests. It lives apart from package cram so that
// the rules export nothing that only tests use.
package cramtest

import "github.com/spots-dev/spots/cram"

// Values computes Grundy values by a memoised mex over package cram's
// rules: a region's value is the mex of its children's values, a sum's
// the xor of its regions'. It maps the key (cram.Position.Key) of every
// region it has valued to that value, so a test may read it as a database.
// Its cost grows exponentially with a region's size: it is for the small
// boards of tests. Make one with Values{}; a Values is not safe for
// concurrent use.
type Values map[string]uint32

// Grundy returns the Grundy value of p, a sum of regions or one region,
// and records the value of every region it meets on the way.
func (m Values) Grundy(p cram.Position) uint32 {
	x := uint32(0)
	for _, r := range p.Regions() {
		g, ok := m[r.Key()]
		if !ok {
			seen := map[uint32]bool{}
			for _, c := range r.Children() {
				seen[m.Grundy(c)] = true
			}
			for seen[g] {
				g++
			}
			m[r.Key()] = g
		}
		x ^= g
	}
	return x
}
