package solve_test

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/solve/internal/octal"
	"github.com/spots-dev/spots/sprouts"
)

// searcher is what the tests need of both searches.
type searcher[P any] interface {
	Solve(context.Context, P, uint32) solve.Outcome
	Grundy(context.Context, P) (uint32, bool)
	Stats() solve.Stats
}

// makers builds every configuration the tests compare.
func makers[P any](g solve.Game[P]) map[string]func() searcher[P] {
	return map[string]func() searcher[P]{
		"pns":       func() searcher[P] { return solve.NewPNS(g, nil, solve.Options{}) },
		"pns-seed":  func() searcher[P] { return solve.NewPNS(g, nil, solve.Options{Seed: 3}) },
		"dfpn":      func() searcher[P] { return solve.NewDFPN(g, nil, solve.Options{}) },
		"dfpn-tt64": func() searcher[P] { return solve.NewDFPN(g, nil, solve.Options{Capacity: 64, ChildrenCache: -1}) },
		"dfpn-tt64-keep": func() searcher[P] {
			return solve.NewDFPN(g, nil, solve.Options{Capacity: 64, Replacement: solve.KeepSolved})
		},
		"dfpn-seed":  func() searcher[P] { return solve.NewDFPN(g, nil, solve.Options{Seed: 5, Capacity: 1000}) },
		"dfpn-depth": func() searcher[P] { return solve.NewDFPN(g, nil, solve.Options{Estimator: solve.EstimateDepth}) },
		"dfpn-moves": func() searcher[P] { return solve.NewDFPN(g, nil, solve.Options{Estimator: solve.EstimateMoves}) },
		"pdfpn-2":    func() searcher[P] { return solve.NewDFPN(g, nil, solve.Options{Threads: 2}) },
		"pdfpn-3-tt64": func() searcher[P] {
			return solve.NewDFPN(g, nil, solve.Options{Threads: 3, Capacity: 64, Seed: 9})
		},
	}
}

// TestOctalGames checks the searches on a second game against plain mex:
// single heaps and sums of heaps, which exercise folding and the
// bookkeeping of sums.
func TestOctalGames(t *testing.T) {
	ctx := context.Background()
	for _, code := range []string{"0.77", "0.07", "0.137", "0.6", "0.51", "0.4"} {
		g, err := octal.New(code)
		if err != nil {
			t.Fatal(err)
		}
		want := g.Grundy(30)
		rng := rand.New(rand.NewPCG(1, 1))
		for name, mk := range makers[string](g) {
			s := mk()
			for n := 1; n <= 22; n++ {
				if got, ok := s.Grundy(ctx, octal.Heaps(n)); !ok || got != want[n] {
					t.Errorf("%s %s: gn(%d) = %d, %v; want %d", code, name, n, got, ok, want[n])
				}
			}
			for range 15 {
				a, b, c := rng.IntN(12)+1, rng.IntN(12)+1, rng.IntN(8)
				x := want[a] ^ want[b] ^ want[c]
				pos := octal.Heaps(a, b, c)
				if got, ok := s.Grundy(ctx, pos); !ok || got != x {
					t.Errorf("%s %s: gn(%s) = %d, want %d", code, name, pos, got, x)
				}
				for n := range uint32(4) {
					wantO := solve.Win
					if n == x {
						wantO = solve.Loss
					}
					if got := s.Solve(ctx, pos, n); got != wantO {
						t.Errorf("%s %s: %s + *%d is %v, want %v", code, name, pos, n, got, wantO)
					}
				}
			}
		}
	}
}

type outcomeRow struct {
	n       int
	outcome string
}

func readOutcomes(t *testing.T) []outcomeRow {
	f, err := os.Open(filepath.Join("..", "testdata", "outcomes.csv"))
	if err != nil {
		t.Fatalf("outcomes table (part of the repository): %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []outcomeRow
	for _, r := range rows[1:] {
		var n int
		fmt.Sscan(r[0], &n)
		out = append(out, outcomeRow{n, r[1]})
	}
	return out
}

// TestSproutsOutcomes solves the n-spot games and compares with the
// literature.
func TestSproutsOutcomes(t *testing.T) {
	maxN := 14
	if testing.Short() {
		maxN = 11
	}
	ctx := context.Background()
	for _, row := range readOutcomes(t) {
		if row.n > maxN {
			break
		}
		for _, alg := range []string{"pns", "dfpn", "pdfpn-2"} {
			s := makers[sprouts.Position](sprouts.Rules{})[alg]()
			start := time.Now()
			got := s.Solve(ctx, sprouts.MustParse(fmt.Sprintf("0*%d", row.n)), 0)
			if got.String() != row.outcome {
				t.Errorf("0*%d %s: %v, want %s", row.n, alg, got, row.outcome)
			}
			if row.n >= 12 {
				t.Logf("0*%d %s: %v in %.1fs, %d iterations", row.n, alg, got, time.Since(start).Seconds(), s.Stats().Iterations)
			}
		}
	}
}

// TestSproutsGrundyConjecture checks the extended Sprouts conjecture on
// 0*1 … 0*11: the Grundy value is 0 when n mod 6 is 0, 1 or 2, else 1.
func TestSproutsGrundyConjecture(t *testing.T) {
	ctx := context.Background()
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
	for n := 1; n <= 11; n++ {
		want := uint32(0)
		if n%6 >= 3 {
			want = 1
		}
		if got, ok := s.Grundy(ctx, sprouts.MustParse(fmt.Sprintf("0*%d", n))); !ok || got != want {
			t.Errorf("gn(0*%d) = %d, %v; want %d", n, got, ok, want)
		}
	}
}

// TestVectorsAgree compares every search and a plain recursive solver on
// the golden vectors that carry a Grundy value computed by the reference.
// In short mode (make test) it takes the vectors of at most
// shortVectorLives lives (most of them; the larger ones take minutes);
// make test-long takes them all.
func TestVectorsAgree(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "notation_vectors.jsonl"))
	if err != nil {
		t.Fatalf("golden vectors (part of the repository): %v", err)
	}
	defer f.Close()
	var positions []sprouts.Position
	var values []uint32
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var v struct {
			Kind   string `json:"kind"`
			Pos    string `json:"pos"`
			Grundy *int   `json:"grundy"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		if v.Kind == "position" && v.Grundy != nil {
			p := sprouts.MustParse(v.Pos)
			if testing.Short() && p.Lives() > shortVectorLives {
				continue
			}
			positions = append(positions, p)
			values = append(values, uint32(*v.Grundy))
		}
	}
	ctx := context.Background()
	plain := newPlain[sprouts.Position](sprouts.Rules{})
	searches := makers[sprouts.Position](sprouts.Rules{})
	if len(positions) == 0 {
		t.Fatal("no vector with a Grundy value")
	}
	for _, name := range []string{"pns", "dfpn", "dfpn-tt64", "pdfpn-2"} {
		s := searches[name]()
		start := time.Now()
		for i, p := range positions {
			got, ok := s.Grundy(ctx, p)
			if !ok || got != values[i] {
				t.Errorf("%s: gn(%s) = %d, %v; reference %d", name, p, got, ok, values[i])
			}
		}
		t.Logf("%s: %.1fs", name, time.Since(start).Seconds())
	}
	start := time.Now()
	for i, p := range positions {
		if got := plain.grundy(p); got != values[i] {
			t.Errorf("plain: gn(%s) = %d; reference %d", p, got, values[i])
		}
	}
	t.Logf("plain: %.1fs", time.Since(start).Seconds())
	t.Logf("%d positions", len(positions))
}

// shortVectorLives bounds the vectors TestVectorsAgree takes in short mode.
const shortVectorLives = 14

func TestStops(t *testing.T) {
	pos := sprouts.MustParse("0*14")
	for name, mk := range makers[sprouts.Position](sprouts.Rules{}) {
		s := mk()
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		got := s.Solve(ctx, pos, 0)
		cancel()
		if got != solve.Unknown {
			t.Errorf("%s: %v after 50ms, want unknown", name, got)
		}
	}
	d := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{MaxIterations: 100})
	if got := d.Solve(context.Background(), pos, 0); got != solve.Unknown || d.Stats().Iterations > 100 {
		t.Errorf("dfpn with 100 iterations: %v after %d", got, d.Stats().Iterations)
	}
	p := solve.NewPNS(sprouts.Rules{}, nil, solve.Options{MaxIterations: 100})
	if got := p.Solve(context.Background(), pos, 0); got != solve.Unknown || p.Stats().Iterations > 100 {
		t.Errorf("pns with 100 iterations: %v after %d", got, p.Stats().Iterations)
	}
}

// TestConcurrentPDFPN runs parallel DFPN on small games and positions (make
// test runs it under the race detector) and checks its answers.
func TestConcurrentPDFPN(t *testing.T) {
	ctx := context.Background()
	kayles, _ := octal.New("0.77")
	want := kayles.Grundy(20)
	for _, threads := range []int{2, 4} {
		s := solve.NewDFPN(kayles, nil, solve.Options{Threads: threads, Capacity: 256})
		for n := 1; n <= 20; n++ {
			if got, ok := s.Grundy(ctx, octal.Heaps(n)); !ok || got != want[n] {
				t.Errorf("%d threads: Kayles gn(%d) = %d, want %d", threads, n, got, want[n])
			}
		}
		p := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Threads: threads})
		for n := 1; n <= 9; n++ {
			want := "L"
			if n%6 >= 3 {
				want = "W"
			}
			if got := p.Solve(ctx, sprouts.MustParse(fmt.Sprintf("0*%d", n)), 0); got.String() != want {
				t.Errorf("%d threads: 0*%d is %v, want %s", threads, n, got, want)
			}
		}
		if st := p.Stats(); len(st.PerThread) != threads {
			t.Errorf("%d threads: per-thread iterations %v", threads, st.PerThread)
		}
	}
}

// TestConcurrentLockstep checks that PDFPN threads taking turns do the same
// on every run, an iteration each in turn, and still solve.
func TestConcurrentLockstep(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		pos      string
		threads  int
		capacity int
		grundy   uint32
	}{
		{"0*6", 2, 0, 0},
		{"0*7", 5, 64, 0},
		{"0*8", 8, 0, 0},
	} {
		var runs [2]solve.Stats
		for i := range runs {
			s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Threads: tc.threads, Capacity: tc.capacity, Lockstep: true})
			if g, ok := s.Grundy(ctx, sprouts.MustParse(tc.pos)); !ok || g != tc.grundy {
				t.Fatalf("%s, %d threads: gn = %d (%v), want %d", tc.pos, tc.threads, g, ok, tc.grundy)
			}
			runs[i] = s.Stats()
		}
		a, b := runs[0], runs[1]
		if a.Iterations != b.Iterations || fmt.Sprint(a.PerThread) != fmt.Sprint(b.PerThread) {
			t.Errorf("%s, %d threads: runs differ: %d %v and %d %v", tc.pos, tc.threads, a.Iterations, a.PerThread, b.Iterations, b.PerThread)
		}
		lo, hi := slices.Min(a.PerThread), slices.Max(a.PerThread)
		// Each Solve of the Grundy computation may leave each thread one
		// iteration apart, and a thread may run one more once another has
		// solved the root.
		if hi-lo > 2*uint64(len(a.PerThread)) {
			t.Errorf("%s, %d threads: threads did not take turns: %v", tc.pos, tc.threads, a.PerThread)
		}
	}
}

// TestOneThreadIsDFPN checks that PDFPN with one thread is plain DFPN,
// iteration for iteration.
func TestOneThreadIsDFPN(t *testing.T) {
	ctx := context.Background()
	a := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
	b := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Threads: 1})
	pos := sprouts.MustParse("0*10")
	if a.Solve(ctx, pos, 0) != b.Solve(ctx, pos, 0) || a.Stats().Iterations != b.Stats().Iterations {
		t.Errorf("iterations %d and %d", a.Stats().Iterations, b.Stats().Iterations)
	}
}
