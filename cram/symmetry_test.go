package cram

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// images returns the 8 images of a board written as rows, under the
// symmetries of the square, as rows (written independently of
// canonicalText: by rotating and mirroring the text).
func images(rows []string) [][]string {
	rotate := func(rs []string) []string { // a quarter turn clockwise
		h, w := len(rs), len(rs[0])
		out := make([]string, w)
		for c := range w {
			var b strings.Builder
			for r := h - 1; r >= 0; r-- {
				b.WriteByte(rs[r][c])
			}
			out[c] = b.String()
		}
		return out
	}
	mirror := func(rs []string) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			b := []byte(r)
			for x, y := 0, len(b)-1; x < y; x, y = x+1, y-1 {
				b[x], b[y] = b[y], b[x]
			}
			out[i] = string(b)
		}
		return out
	}
	var out [][]string
	cur := rows
	for range 4 {
		out = append(out, cur, mirror(cur))
		cur = rotate(cur)
	}
	return out
}

// bruteCanonical is the canonical text of a board holding one region,
// computed the slow way: the least image, by height, width and text, of
// the board cropped to its bounding box.
func bruteCanonical(text string) string {
	rows := strings.Split(text, "/")
	// Crop.
	top, bottom, left, right := len(rows), -1, len(rows[0]), -1
	for r, row := range rows {
		for c := range len(row) {
			if row[c] == '.' {
				top, bottom = min(top, r), max(bottom, r)
				left, right = min(left, c), max(right, c)
			}
		}
	}
	var crop []string
	for r := top; r <= bottom; r++ {
		crop = append(crop, rows[r][left:right+1])
	}
	best := ""
	bh, bw := 0, 0
	for _, im := range images(crop) {
		h, w := len(im), len(im[0])
		s := strings.Join(im, "/")
		if best == "" || h < bh || h == bh && w < bw || h == bh && w == bw && s < best {
			best, bh, bw = s, h, w
		}
	}
	if !strings.Contains(best, "#") {
		return strings.Repeat("", 0) + itoa(bh) + "x" + itoa(bw)
	}
	return best
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestSymmetries rewrites random boards under each of the 8 symmetries
// and checks that every image has the same canonical form, and that a
// board of one region has the brute-force canonical form.
func TestSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	n := 3000
	if testing.Short() {
		n = 500
	}
	for range n {
		h, w := 1+rng.IntN(6), 1+rng.IntN(6)
		rows := make([]string, h)
		for r := range h {
			b := make([]byte, w)
			for c := range b {
				b[c] = "..#"[rng.IntN(3)]
			}
			rows[r] = string(b)
		}
		text := strings.Join(rows, "/")
		p := MustParse(text)
		for _, im := range images(rows) {
			if q := MustParse(strings.Join(im, "/")); q.String() != p.String() {
				t.Fatalf("%s is %s, but its image %s is %s", text, p, strings.Join(im, "/"), q)
			}
		}
		if p.NumRegions() == 1 {
			// Blank out the isolated cells, which are not part of the region.
			only := strings.Join(keepRegion(rows), "/")
			if want := bruteCanonical(only); p.String() != want {
				t.Fatalf("%s is %s, the brute-force form is %s", text, p, want)
			}
		}
	}
}

// keepRegion turns into holes every empty cell without an empty
// neighbour.
func keepRegion(rows []string) []string {
	h, w := len(rows), len(rows[0])
	out := make([]string, h)
	for r := range h {
		b := []byte(rows[r])
		for c := range w {
			if b[c] != '.' {
				continue
			}
			alone := true
			for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				rr, cc := r+d[0], c+d[1]
				if rr >= 0 && rr < h && cc >= 0 && cc < w && rows[rr][cc] == '.' {
					alone = false
				}
			}
			if alone {
				b[c] = '#'
			}
		}
		out[r] = string(b)
	}
	return out
}
