package verify

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
)

// corpusBySize returns the corpus certificates, smallest first, with their
// sizes.
func corpusBySize(t testing.TB) ([]string, map[string]int64) {
	files := selfContained(t)
	if len(files) == 0 {
		t.Skip("no corpus certificates")
	}
	size := map[string]int64{}
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size[f] = info.Size()
	}
	slices.SortFunc(files, func(a, b string) int { return cmp.Compare(size[a], size[b]) })
	return files, size
}

// selfContained returns the corpus certificates that cite no other: the
// tests that check corpus files one by one, by size, take those, as a
// small file that cites others is checked with all it relies on (the
// frontier's cite hundreds of thousands of entries; TestCitations in
// package certify and spots-corpus check cover citing files).
func selfContained(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join("..", "corpus", "certs", "*.arrow"))
	var out []string
	for _, f := range files {
		r, err := format.OpenCertificate(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Header().Cites) == 0 {
			out = append(out, f)
		}
		r.Close()
	}
	return out
}

// sameOutcome fails the test unless the parallel check gave what the
// sequential one did: the same result and the same error, field by field.
func sameOutcome(t *testing.T, what string, seqRes, parRes Result, seqErr, parErr error) {
	t.Helper()
	if seqRes != parRes {
		t.Errorf("%s: results differ: sequential %+v, parallel %+v", what, seqRes, parRes)
	}
	switch {
	case (seqErr == nil) != (parErr == nil):
		t.Errorf("%s: sequential %v, parallel %v", what, seqErr, parErr)
	case seqErr == nil:
	case reflect.TypeOf(seqErr) != reflect.TypeOf(parErr) || !reflect.DeepEqual(seqErr, parErr) || seqErr.Error() != parErr.Error():
		t.Errorf("%s: errors differ:\n  sequential %#v: %v\n  parallel   %#v: %v", what, seqErr, seqErr, parErr, parErr)
	case IsInvalid(seqErr) != IsInvalid(parErr) || IsLimit(seqErr) != IsLimit(parErr):
		t.Errorf("%s: kinds of error differ: %v, %v", what, seqErr, parErr)
	}
}

// TestPipelineSameFirstFailure checks corrupted certificates (logical
// mutants, several mutations at once, tight limits, byte mutants read
// from a file) with the sequential checker and with the pipeline at
// several numbers of workers: the first failure reported (its row, rule,
// detail, or limit) and the result must be the same.
func TestPipelineSameFirstFailure(t *testing.T) {
	files, size := corpusBySize(t)
	budget, reps := int64(400<<10), 3
	if testing.Short() {
		budget, reps = 40<<10, 1
	}
	rng := rand.New(rand.NewPCG(7, 2026))
	dir := t.TempDir()
	total := int64(0)
	checked, failing, refused, late := 0, 0, 0, 0
	for _, path := range files {
		if total += size[path]; total > budget {
			break
		}
		orig, err := format.ReadCertificate(path)
		if err != nil {
			t.Fatal(err)
		}
		values := map[string]uint32{}
		maxWork := int64(0)
		for _, e := range orig.Entries {
			values[e.Position] = e.Grundy
		}
		if len(orig.Entries) > 0 {
			// A per-entry work limit that some late entry breaks.
			for _, e := range orig.Entries[len(orig.Entries)/2:] {
				maxWork = max(maxWork, Measure(mustParse(t, e.Position)).Work)
			}
		}
		compare := func(name string, c *format.Certificate, l Limits) {
			t.Helper()
			seqRes, seqErr := CertificateWith(c, Options{Limits: l, Workers: 1})
			for _, w := range []int{2, 3} {
				parRes, parErr := CertificateWith(c, Options{Limits: l, Workers: w})
				sameOutcome(t, fmt.Sprintf("%s: %s, %d workers", filepath.Base(path)[:12], name, w), seqRes, parRes, seqErr, parErr)
			}
			checked++
			var le *LimitError
			var f *Failure
			switch {
			case errors.As(seqErr, &le):
				refused++
				if le.Row > pipelineChunk {
					late++
				}
			case errors.As(seqErr, &f):
				failing++
				if f.Row > pipelineChunk {
					late++
				}
			}
		}
		compare("original", orig, Limits{})
		compare("tight work limit", orig, Limits{Work: max(maxWork/2, 1)})
		compare("tight moves limit", orig, Limits{Moves: 40})
		for _, m := range logicalMutations {
			for range reps {
				c := clone(orig)
				if m.apply(rng, c, values) {
					compare(m.name, c, Limits{})
				}
			}
		}
		// Several mutations: the first bad row must win.
		for range 2 * reps {
			c := clone(orig)
			names := ""
			for range 3 {
				m := logicalMutations[rng.IntN(len(logicalMutations))]
				if m.apply(rng, c, values) {
					names += m.name + " "
				}
			}
			compare("mutations "+names, c, Limits{})
		}
		// From a file, through Stream: byte mutants.
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bad := filepath.Join(dir, "mutant.arrow")
		for _, m := range byteMutations {
			for range reps {
				if err := os.WriteFile(bad, m.apply(rng, data), 0o644); err != nil {
					t.Fatal(err)
				}
				seqRes, seqErr := File(bad, Options{Workers: 1})
				parRes, parErr := File(bad, Options{Workers: 2})
				sameOutcome(t, filepath.Base(path)[:12]+": file, "+m.name, seqRes, parRes, seqErr, parErr)
			}
		}
	}
	if failing == 0 || refused == 0 || late == 0 {
		t.Fatalf("%d failing, %d refused, %d after the first chunk: the comparison does not cover the pipeline", failing, refused, late)
	}
	t.Logf("%d checks compared: %d failing rows, %d refusals, %d of them after row %d", checked, failing, refused, late, pipelineChunk)
}

// TestPipelineReadErrorsAndPanics: an error or a panic of the reader is
// reported when the check reaches its row, after the rows before it, as
// in a sequential check; and no goroutine outlives the check.
func TestPipelineReadErrorsAndPanics(t *testing.T) {
	files, _ := corpusBySize(t)
	var orig *format.Certificate
	for _, path := range files {
		c, err := format.ReadCertificate(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Entries) >= 3*pipelineChunk {
			orig = c
			break
		}
	}
	if orig == nil {
		t.Skip("no certificate large enough")
	}
	before := runtime.NumGoroutine()
	errRead := errors.New("read failed")
	for _, at := range []int{1, 2, pipelineChunk, pipelineChunk + 1, 3 * pipelineChunk} {
		for _, panics := range []bool{false, true} {
			run := func(workers int) (done int, panicked any, err error) {
				defer func() { panicked = recover() }()
				c := newHinted(mustRules(sprouts.Game), Limits{})
				i := 0
				next := func() (int, format.Entry, error) {
					if i+1 == at {
						if panics {
							panic("reader panicked")
						}
						return at, format.Entry{}, errRead
					}
					if i == len(orig.Entries) {
						return i, format.Entry{}, io.EOF
					}
					i++
					return i, orig.Entries[i-1], nil
				}
				err = c.all(workers, next, func() { done++ })
				return done, nil, err
			}
			d1, p1, e1 := run(1)
			d2, p2, e2 := run(2)
			if d1 != d2 || e1 != e2 || p1 != p2 || d1 != at-1 {
				t.Errorf("failure at row %d (panic %v): sequential %d rows, %v, %v; parallel %d rows, %v, %v", at, panics, d1, e1, p1, d2, e2, p2)
			}
		}
	}
	// A failing row early in a large certificate stops the pipeline.
	c := clone(orig)
	c.Entries[1].Grundy++
	if _, err := CertificateWith(c, Options{Workers: 2}); !IsInvalid(err) {
		t.Errorf("got %v, want an invalid certificate", err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left running (%d before)", n, before)
	}
}

// BenchmarkHinted checks a corpus certificate (SPOTS_BENCH_CERT, or the
// largest of the corpus under 300 kB) sequentially and with the pipeline.
func BenchmarkHinted(b *testing.B) {
	path := os.Getenv("SPOTS_BENCH_CERT")
	if path == "" {
		files, size := corpusBySize(b)
		for _, f := range files {
			if size[f] <= 300<<10 {
				path = f
			}
		}
	}
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				if _, err := File(path, Options{Workers: workers}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func mustParse(t testing.TB, s string) sprouts.Position {
	t.Helper()
	p, err := sprouts.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
