package sprouts

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// searchLands reads testdata/dfpn-0x12-lands.txt: the 23,357 lands whose
// children a sequential DFPN of 0*12 generates, in the order it does
// (commit 0b97944; one per line, in the reference's notation).
func searchLands(tb testing.TB) []Position {
	f, err := os.Open(filepath.Join("testdata", "dfpn-0x12-lands.txt"))
	if err != nil {
		tb.Fatalf("search workload (part of the repository): %v", err)
	}
	defer f.Close()
	var ps []Position
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p, err := Parse(sc.Text())
		if err != nil {
			tb.Fatalf("%s: %v", sc.Text(), err)
		}
		ps = append(ps, p)
	}
	return ps
}

// BenchmarkChildrenSearch generates the children of the lands a DFPN of
// 0*12 expands, in its order, starting each pass with an empty land cache:
// the children work of that search (one op is one pass over all lands).
func BenchmarkChildrenSearch(b *testing.B) {
	ps := searchLands(b)
	var buf []Position
	kids := 0
	b.ReportAllocs()
	for b.Loop() {
		lands := NewCache(DefaultCacheBytes)
		for _, p := range ps {
			buf, _ = p.appendChildren(buf[:0], nil, lands)
			kids += len(buf)
		}
	}
	b.ReportMetric(float64(kids)/float64(b.N), "children/op")
}

// TestSearchWorkloadChildren checks a sample of the workload's lands,
// made through a land cache that the lands before them filled, against
// generation without symmetric pruning and without a cache.
func TestSearchWorkloadChildren(t *testing.T) {
	ps := searchLands(t)
	step := 20
	if testing.Short() {
		step = 200
	}
	r := Rules{Cache: NewCache(DefaultCacheBytes)}
	for i := 0; i < len(ps); i += step {
		p := ps[i]
		for _, q := range ps[max(i-5, 0):i] {
			r.Children(q) // the cache holds what the search met before p
		}
		want := r.Children(p)
		pruneSymmetric = false
		got := p.Children()
		pruneSymmetric = true
		if len(got) != len(want) {
			t.Fatalf("%s: %d children, %d without pruning or cache", p, len(want), len(got))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("%s: child %d is %s, without pruning or cache %s", p, k, want[k], got[k])
			}
		}
	}
}

// TestCanonicalFormIsStable pins the canonical form: the SHA-256 of every
// child key of the first 3,000 workload lands, in order (each key followed
// by 0xFF), as recorded when the form was frozen at commit 0b97944.
// Certificates name a child by its place in the order of these keys, so a
// change here invalidates every certificate ever written; a faster
// canonizer or move generator must keep it.
func TestCanonicalFormIsStable(t *testing.T) {
	const want = "60d0046b1272c9c9"
	ps := searchLands(t)[:3000]
	h := sha256.New()
	var buf []Position
	for _, p := range ps {
		buf = p.AppendChildren(buf[:0])
		for _, c := range buf {
			h.Write([]byte(c.Key()))
			h.Write([]byte{0xFF})
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); !strings.HasPrefix(got, want) {
		t.Fatalf("children keys of the workload hash to %s, want %s…: the canonical form or the move generator changed", got, want)
	}
}
