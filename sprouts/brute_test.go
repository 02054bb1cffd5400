package sprouts

import (
	"slices"
	"strings"
	"testing"
)

// bruteCanon is a slow canonical form for lands with few uppercase letters,
// written independently of the canonizer: the least text over every renaming
// of the uppercase letters, every reading direction of every region, every
// rotation and order of boundaries. Lowercase letters are renamed in order of
// appearance. Only for positions whose lands have at most 7 uppercase letters
// and no long letter forms.
func bruteCanon(t testing.TB, s string) string {
	if s == "!" {
		return s
	}
	var lands []string
	for _, land := range strings.Split(s, "+") {
		lands = append(lands, bruteLand(t, land))
	}
	slices.Sort(lands)
	return strings.Join(lands, "+")
}

func bruteLand(t testing.TB, land string) string {
	var letters []byte
	for i := 0; i < len(land); i++ {
		if c := land[i]; c >= 'A' && c <= 'Y' && !slices.Contains(letters, c) {
			letters = append(letters, c)
		}
	}
	if len(letters) > 7 {
		t.Fatalf("bruteLand(%q): too many letters", land)
	}
	best := ""
	perm := make([]byte, len(letters))
	for i := range perm {
		perm[i] = 'A' + byte(i)
	}
	for {
		rename := map[byte]byte{}
		for i, c := range letters {
			rename[c] = perm[i]
		}
		var regions []string
		for _, r := range strings.Split(land, "|") {
			regions = append(regions, bruteRegion(r, rename))
		}
		slices.Sort(regions)
		if s := strings.Join(regions, "|"); best == "" || s < best {
			best = s
		}
		if !nextPermutation(perm) {
			return best
		}
	}
}

func nextPermutation(p []byte) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// bruteRegion returns the least text of a region over both reading
// directions, all rotations of each boundary, and the order of boundaries.
func bruteRegion(r string, rename map[byte]byte) string {
	bounds := strings.Split(expandRuns(r), ".")
	best := ""
	for _, back := range []bool{false, true} {
		var bs []string
		for _, b := range bounds {
			sym := []byte(b)
			for i, c := range sym {
				if n, ok := rename[c]; ok {
					sym[i] = n
				}
			}
			if back {
				slices.Reverse(sym)
			}
			least := ""
			for k := range sym {
				rot := append(slices.Clone(sym[k:]), sym[:k]...)
				// Lowercase letters renamed in order of appearance.
				m := map[byte]byte{}
				for i, c := range rot {
					if c >= 'a' && c <= 'l' {
						if _, ok := m[c]; !ok {
							m[c] = 'a' + byte(len(m))
						}
						rot[i] = m[c]
					}
				}
				if s := string(rot); least == "" || s < least {
					least = s
				}
			}
			bs = append(bs, least)
		}
		slices.Sort(bs)
		if s := strings.Join(bs, "."); best == "" || s < best {
			best = s
		}
	}
	return best
}

func expandRuns(r string) string {
	var parts []string
	for _, item := range strings.Split(r, ".") {
		if n, ok := strings.CutPrefix(item, "0*"); ok {
			k := 0
			for _, d := range n {
				k = 10*k + int(d-'0')
			}
			for range k {
				parts = append(parts, "0")
			}
			continue
		}
		parts = append(parts, item)
	}
	return strings.Join(parts, ".")
}
