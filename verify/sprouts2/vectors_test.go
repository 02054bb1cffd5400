package sprouts2

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// vector is a line of testdata/notation_vectors.jsonl, made by the
// reference solver (SPOTS).
type vector struct {
	Kind     string   `json:"kind"`
	Pos      string   `json:"pos"`
	Children []string `json:"children"`
	Grundy   *int     `json:"grundy"`
	Status   string   `json:"grundy_status"`
	Lives    int      `json:"lives"`
	Input    string   `json:"input"`
	Base     string   `json:"base"`
	Same     bool     `json:"same_canonical_as_base"`
}

func readVectors(t *testing.T) []vector {
	t.Helper()
	f, err := os.Open("../../testdata/notation_vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustParse(t testing.TB, s string) []*Land {
	t.Helper()
	lands, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return lands
}

// distinct returns the positions of ps, each once.
func distinct(t testing.TB, ps [][]*Land) [][]*Land {
	var out [][]*Land
next:
	for _, p := range ps {
		for _, q := range out {
			if same, err := SamePosition(p, q, 0); err != nil {
				t.Fatal(err)
			} else if same {
				continue next
			}
		}
		out = append(out, p)
	}
	return out
}

// TestVectorChildren: the children of every position of the reference's
// vectors are, up to Same, the reference's children.
func TestVectorChildren(t *testing.T) {
	n := 0
	for _, v := range readVectors(t) {
		if v.Kind != "position" || v.Children == nil {
			continue
		}
		lands := mustParse(t, v.Pos)
		var mine [][]*Land
		for i, l := range lands {
			for _, c := range l.Children() {
				p := append(append(append([]*Land{}, lands[:i]...), lands[i+1:]...), c...)
				mine = append(mine, p)
			}
		}
		mine = distinct(t, mine)
		var ref [][]*Land
		for _, c := range v.Children {
			ref = append(ref, mustParse(t, c))
		}
		ref = distinct(t, ref)
		if len(mine) != len(ref) {
			t.Errorf("%s: %d distinct children, the reference %d (%d strings)", v.Pos, len(mine), len(ref), len(v.Children))
			continue
		}
		for _, c := range ref {
			found := false
			for _, m := range mine {
				if same, _ := SamePosition(c, m, 0); same {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: the reference's child %s is not among ours", v.Pos, Text(c))
			}
		}
		n++
	}
	t.Logf("%d positions", n)
}

// grundy computes Grundy values from this package's rules alone: a land's
// is the mex of its children's, a sum's the xor of its lands'.
type grundy struct {
	table  Table
	values []int
}

func (g *grundy) of(t testing.TB, lands []*Land) int {
	x := 0
	for _, l := range lands {
		i, err := g.table.Find(l)
		if err != nil {
			t.Fatal(err)
		}
		if i < 0 {
			seen := map[int]bool{}
			for _, c := range l.Children() {
				seen[g.of(t, c)] = true
			}
			v := 0
			for seen[v] {
				v++
			}
			i, _, _ = g.table.Add(l)
			g.values = append(g.values, v)
		}
		x ^= g.values[i]
	}
	return x
}

// TestVectorGrundy: the Grundy value of every position of the reference's
// vectors (those it computed), from this package's rules, is the
// reference's.
func TestVectorGrundy(t *testing.T) {
	g := &grundy{}
	n := 0
	for _, v := range readVectors(t) {
		if v.Kind != "position" || v.Grundy == nil || v.Status != "" {
			continue
		}
		lands := mustParse(t, v.Pos)
		if testing.Short() && lives(lands) > 12 {
			continue // the rest take minutes
		}
		if got := g.of(t, lands); got != *v.Grundy {
			t.Errorf("gn(%s) = %d, the reference says %d", v.Pos, got, *v.Grundy)
		}
		n++
	}
	t.Logf("%d positions, %d lands valued", n, g.table.Len())
}

func lives(lands []*Land) int {
	n := 0
	for _, l := range lands {
		n += l.Lives()
	}
	return n
}
