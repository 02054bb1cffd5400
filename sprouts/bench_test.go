package sprouts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchPositions reads ../testdata/bench_positions.txt: 2,000
// positions met on random games from 0*2 … 0*20, in the reference's
// notation. The reference generates all their children in about 1.0 s on
// this machine class (REFERENCE-SPEED.md of the shared test data).
func benchPositions(b *testing.B) []Position {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "bench_positions.txt"))
	if err != nil {
		b.Fatalf("bench positions (part of the repository): %v", err)
	}
	var ps []Position
	for _, line := range strings.Fields(string(data)) {
		p, err := Parse(line)
		if err != nil {
			b.Fatalf("%s: %v", line, err)
		}
		ps = append(ps, p)
	}
	return ps
}

// BenchmarkChildren measures Children on the benchmark positions, grouped by
// size (lives). One op is the children of one position. "warm" is the
// steady state of a search, in which the land cache holds what was met
// before; "cold" turns the cache off, so every child is canonicalised.
func BenchmarkChildren(b *testing.B) {
	all := benchPositions(b)
	groups := []struct {
		name     string
		min, max int
	}{
		{"lives<=15", 0, 15},
		{"lives16-30", 16, 30},
		{"lives31-60", 31, 60},
		{"all", 0, 1 << 30},
	}
	for _, cache := range []bool{true, false} {
		for _, g := range groups {
			var ps []Position
			for _, p := range all {
				if l := p.Lives(); l >= g.min && l <= g.max {
					ps = append(ps, p)
				}
			}
			name := "warm/" + g.name
			if !cache {
				name = "cold/" + g.name
			}
			b.Run(name, func(b *testing.B) {
				var lands *Cache
				if cache {
					lands = NewCache(DefaultCacheBytes)
					for _, p := range ps {
						p.appendChildren(nil, nil, lands)
					}
				}
				var buf []Position
				kids := 0
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					buf, _ = ps[i%len(ps)].appendChildren(buf[:0], nil, lands)
					kids += len(buf)
				}
				b.ReportMetric(float64(kids)/float64(b.N), "children/op")
			})
		}
	}
}
