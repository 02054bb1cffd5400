package sprouts

import (
	"bufio"
	"os"
	"path/filepath"
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
		b.StopTimer()
		lands = newLandCache(DefaultCacheBytes)
		b.StartTimer()
		for _, p := range ps {
			buf = p.AppendChildren(buf[:0])
			kids += len(buf)
		}
	}
	b.ReportMetric(float64(kids)/float64(b.N), "children/op")
}

// TestSearchWorkloadChildren checks a sample of the workload's lands
// against generation without symmetric pruning and without the land cache.
func TestSearchWorkloadChildren(t *testing.T) {
	ps := searchLands(t)
	step := 20
	if testing.Short() {
		step = 200
	}
	for i := 0; i < len(ps); i += step {
		p := ps[i]
		want := p.Children()
		pruneSymmetric, cacheLands = false, false
		got := p.Children()
		pruneSymmetric, cacheLands = true, true
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
