package verify

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
)

// citationChain writes n valid certificates of 0*4=W into a temporary
// directory, each (but the first) citing the one before it, and returns
// their paths in order: a chain n deep, every link a certificate that
// proves its claim with its own rows too.
func citationChain(t *testing.T, n int) []string {
	t.Helper()
	proof, err := spotsDatabase(t, 4).Check(claim(t, "0*4=W"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	base := proof.Certificate("test", "1")
	dir := t.TempDir()
	paths := make([]string, n)
	prev := ""
	for i := range n {
		cert := *base
		if prev != "" {
			cert.Cites = []string{prev}
		}
		if paths[i], err = format.WriteCertificate(dir, &cert, format.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		prev = cert.Address()
	}
	return paths
}

// TestCitationLimit: the certificates one relies on, directly or
// through others, are held to Limits.Cites, in both checkers: one over
// it is refused with a *LimitError naming the limit (spots-verify: exit
// 2 and --max-cites), before the chain's deepest certificate is checked;
// at it, the chain is valid and counted.
func TestCitationLimit(t *testing.T) {
	paths := citationChain(t, 31) // the last relies on 30
	top := paths[len(paths)-1]
	for _, independent := range []bool{false, true} {
		for _, tt := range []struct {
			max     int
			refused bool
		}{{10, true}, {29, true}, {30, false}, {-1, false}, {0, false}} {
			t.Run(fmt.Sprintf("independent=%v/max=%d", independent, tt.max), func(t *testing.T) {
				opt := Options{Limits: Limits{Cites: tt.max}, Independent: independent, Library: NewLibrary()}
				res, err := File(top, opt)
				var le *LimitError
				switch {
				case tt.refused && (!errors.As(err, &le) || le.Limit != "cites" || le.Max != int64(tt.max)):
					t.Fatalf("got %v, want a refusal by the limit of %d on cites", err, tt.max)
				case tt.refused && IsInvalid(err):
					t.Fatalf("a refusal said the proof is invalid: %v", err)
				case tt.refused && len(opt.Library.valid) > 0:
					t.Fatalf("refused, yet %d certificates were checked", len(opt.Library.valid))
				case !tt.refused && err != nil:
					t.Fatal(err)
				case !tt.refused && (res.Cites != 1 || res.Cited != 30 || len(opt.Library.Closure(res.Address)) != 30):
					t.Fatalf("cites %d, relies on %d (closure %d), want 1 and 30", res.Cites, res.Cited, len(opt.Library.Closure(res.Address)))
				}
			})
		}
	}
}

// TestCitationChainMemory: what a library keeps of a chain of citations
// grows with its depth, not with its square: each certificate checked
// keeps its own rows and citations, and the set of all it relies on is
// walked when asked for, never stored (kept for each certificate, those
// sets run a chain of 10,000 out of memory at 2 GB). The heap a library
// holds is measured after checking chains of n, 2n and 4n; the growth
// from 2n to 4n is twice that from n to 2n for memory linear in the
// depth, four times for quadratic.
func TestCitationChainMemory(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 100
	}
	paths := citationChain(t, 4*n)
	held := func(depth int) uint64 {
		lib := NewLibrary()
		before := liveHeap()
		if _, err := File(paths[depth-1], Options{Limits: Limits{Cites: -1}, Library: lib, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		after := liveHeap()
		runtime.KeepAlive(lib)
		return after - min(before, after)
	}
	held(n) // the checker's first use of the decoders and tables
	m1, m2, m4 := held(n), held(2*n), held(4*n)
	t.Logf("held %d, %d, %d bytes at depths %d, %d, %d", m1, m2, m4, n, 2*n, 4*n)
	if m2 <= m1 || m4 <= m2 {
		t.Fatalf("a library holding a deeper chain holds no more: %d, %d, %d bytes at depths %d, %d, %d", m1, m2, m4, n, 2*n, 4*n)
	}
	if growth := float64(m4-m2) / float64(m2-m1); growth > 3 {
		t.Errorf("held %d, %d, %d bytes at depths %d, %d, %d: doubling the depth adds %.1f times as much memory, not 2 (linear)", m1, m2, m4, n, 2*n, 4*n, growth)
	}
}

// liveHeap returns the bytes of live objects, after collecting the rest.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestIncomplete: a cited certificate that is not found leaves the proof
// neither valid nor invalid but incomplete (an *IncompleteError wrapping
// ErrIncomplete), in both checkers, and the error names every missing
// certificate the check met: several cited by one file, and one cited
// through a certificate that was found.
func TestIncomplete(t *testing.T) {
	paths := citationChain(t, 3) // 2 cites 1 cites 0
	addr := func(p string) string { return strings.TrimSuffix(filepath.Base(p), ".arrow") }
	proof, err := spotsDatabase(t, 4).Check(claim(t, "0*4=W"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	two := proof.Certificate("test", "1")
	missingA, missingB := strings.Repeat("a", 64), strings.Repeat("b", 64)
	two.Cites = slices.Sorted(slices.Values([]string{missingB, addr(paths[2]), missingA}))
	twoPath, err := format.WriteCertificate(filepath.Dir(paths[0]), two, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(paths[0]); err != nil {
		t.Fatal(err)
	}
	for _, independent := range []bool{false, true} {
		for _, tc := range []struct {
			path    string
			missing []string
		}{
			{paths[2], []string{addr(paths[0])}},
			{twoPath, []string{addr(paths[0]), missingA, missingB}},
		} {
			_, err := File(tc.path, Options{Independent: independent, Library: NewLibrary()})
			var ie *IncompleteError
			switch {
			case !errors.As(err, &ie) || !errors.Is(err, ErrIncomplete):
				t.Fatalf("independent=%v %s: got %v, want an *IncompleteError", independent, filepath.Base(tc.path), err)
			case IsInvalid(err):
				t.Fatalf("an incomplete check said the proof is invalid: %v", err)
			}
			want := slices.Sorted(slices.Values(tc.missing))
			if !slices.Equal(ie.Missing, want) {
				t.Errorf("independent=%v: missing %v, want %v", independent, ie.Missing, want)
			}
		}
	}
}

// TestCitedProgress: a check that relies on other certificates says, as
// it reads or checks each, which it is of how many, then that they are
// done; a second check in the same library has none left to check.
func TestCitedProgress(t *testing.T) {
	paths := citationChain(t, 4) // the last relies on 3
	for _, used := range []bool{false, true} {
		var calls []string
		lib := NewLibrary()
		opt := Options{Used: used, Library: lib, CitedProgress: func(k, n int, addr string) {
			calls = append(calls, fmt.Sprintf("%d/%d %v", k, n, addr != ""))
		}}
		if _, err := File(paths[3], opt); err != nil {
			t.Fatal(err)
		}
		want := []string{"1/3 true", "2/3 true", "3/3 true", "0/3 false"}
		if !slices.Equal(calls, want) {
			t.Errorf("used %v: progress %q, want %q", used, calls, want)
		}
	}
}
