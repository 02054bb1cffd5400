//go:build spotsfault

package sprouts

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
)

// Planted faults, for the tests that show that the independent check
// (spots-verify --independent) rejects what a solver built on a wrong
// package sprouts proves, and which of those the default check, which
// shares this package with the solver, accepts. They exist only in builds
// with the tag spotsfault; SetFault chooses one. Each is a bug of a kind
// that could hide in the rules: it changes what Children returns (and so
// what ChildrenUntil, the solver and the default check see) or what
// String writes.
const faulty = true

var fault atomic.Pointer[string]

// Faults names the planted faults, for SetFault:
//
//   - merge: two different lands, 12 and AB|AB, get one code (that of
//     AB|AB, which has fewer lives, so that moves still take lives);
//   - drop-splits: the moves that cut a land in two are left out;
//   - dead-22: the land 22 is reduced away as if it had no move;
//   - swap-letters: in a region with two boundaries holding uppercase
//     letters, the first letters of the two are exchanged;
//   - merge-four: the reduction that rewrites a region of two or three
//     lives as one boundary rewrites regions of four lives too.
var Faults = []string{"merge", "drop-splits", "dead-22", "swap-letters", "merge-four"}

// SetFault turns the named fault on ("" turns faults off); it panics on an
// unknown name.
func SetFault(name string) {
	if name != "" && !slices.Contains(Faults, name) {
		panic(fmt.Sprintf("sprouts: unknown fault %q", name))
	}
	fault.Store(&name)
}

func active() string {
	if f := fault.Load(); f != nil {
		return *f
	}
	return ""
}

// faultChildren is appendChildren with the active fault applied to each
// child before stop sees it.
func faultChildren(p Position, dst []Position, stop func(Position) bool, lands *Cache) ([]Position, bool) {
	f := active()
	if f == "" {
		return p.generateChildren(dst, stop, lands)
	}
	kids, _ := p.generateChildren(nil, nil, lands)
	var out []Position
	for _, k := range kids {
		if k, ok := faultChild(f, p, k); ok {
			out = append(out, k)
		}
	}
	slices.SortFunc(out, func(a, b Position) int { return strings.Compare(a.code, b.code) })
	out = slices.Compact(out)
	for _, k := range out {
		if stop != nil && stop(k) {
			return dst, false
		}
	}
	return append(dst, out...), true
}

// faultChild is what the fault f makes of the child k of p, and whether
// the child is kept at all.
func faultChild(f string, p, k Position) (Position, bool) {
	switch f {
	case "drop-splits":
		return k, k.NumLands() <= p.NumLands()
	case "merge", "dead-22":
		from, to := MustParse("12"), MustParse("AB|AB")
		if f == "dead-22" {
			from, to = MustParse("22"), Empty
		}
		var lands []Position
		for _, l := range k.Lands() {
			if l == from {
				l = to
			}
			lands = append(lands, l)
		}
		return Sum(lands...), true
	case "swap-letters", "merge-four":
		var lands []Position
		for _, l := range k.Lands() {
			if f == "swap-letters" {
				l = swapLetters(l)
			} else {
				l = mergeFour(l)
			}
			lands = append(lands, l)
		}
		return Sum(lands...), true
	}
	return k, true
}

// swapLetters exchanges, in the first region of l with two boundaries
// holding uppercase letters, the first uppercase letter of each.
func swapLetters(l Position) Position {
	text := l.String()
	if strings.ContainsAny(text, "()") {
		return l
	}
	regions := strings.Split(text, "|")
	for ri, r := range regions {
		bs := strings.Split(r, ".")
		first := -1
		for bi, b := range bs {
			i := strings.IndexFunc(b, func(c rune) bool { return 'A' <= c && c <= 'Y' })
			if i < 0 {
				continue
			}
			if first < 0 {
				first = bi
				continue
			}
			j := strings.IndexFunc(bs[first], func(c rune) bool { return 'A' <= c && c <= 'Y' })
			x, y := bs[first][j], b[i]
			if x == y {
				return l
			}
			bs[first] = bs[first][:j] + string(y) + bs[first][j+1:]
			bs[bi] = b[:i] + string(x) + b[i+1:]
			regions[ri] = strings.Join(bs, ".")
			if q, err := Parse(strings.Join(regions, "|")); err == nil {
				return q
			}
			return l
		}
	}
	return l
}

// mergeFour rewrites each region of l with exactly four lives as one
// boundary: its 1s and uppercase letters in order, then a 2 for each 2 and
// each lowercase letter (two corners), as regions of two or three lives
// are rewritten.
func mergeFour(l Position) Position {
	text := l.String()
	if strings.ContainsAny(text, "()*0") {
		return l
	}
	regions := strings.Split(text, "|")
	changed := false
	for ri, r := range regions {
		halves, twos := 0, 0
		var kept []byte
		for _, c := range []byte(r) {
			switch {
			case c == '1':
				halves += 4
				kept = append(kept, c)
			case c == '2':
				halves += 2
				twos += 2
			case 'a' <= c && c <= 'l':
				halves++
				twos++
			case 'A' <= c && c <= 'Y':
				halves += 2
				kept = append(kept, c)
			}
		}
		if halves != 8 || !strings.ContainsAny(r, ".abcdefghijkl") {
			continue
		}
		regions[ri] = string(kept) + strings.Repeat("2", twos/2)
		changed = true
	}
	if !changed {
		return l
	}
	if q, err := Parse(strings.Join(regions, "|")); err == nil {
		return q
	}
	return l
}
