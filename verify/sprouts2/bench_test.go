package sprouts2

import (
	"bufio"
	"os"
	"testing"
)

// BenchmarkChildren generates the children of the 2,000 positions of
// testdata/bench_positions.txt (positions met in searches of 0*n) and
// looks each child's lands up in a table holding the positions.
func BenchmarkChildren(b *testing.B) {
	f, err := os.Open("../../testdata/bench_positions.txt")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var lands []*Land
	var table Table
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ls, err := Parse(sc.Text())
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range ls {
			lands = append(lands, l)
			table.Add(l)
		}
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		for _, c := range lands[i%len(lands)].Children() {
			for _, l := range c {
				table.Find(l)
			}
		}
	}
}
