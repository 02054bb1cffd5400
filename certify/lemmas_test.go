package certify

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// stopped runs DFPN on pos for at most its iterations and returns it
// unsolved.
func stopped(t *testing.T, pos string, its uint64) *solve.DFPN[sprouts.Position] {
	t.Helper()
	s := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{MaxIterations: its})
	if out := s.Solve(context.Background(), sprouts.MustParse(pos), 0); out.Known() {
		t.Fatalf("%s solved within %d iterations: stop it sooner", pos, its)
	}
	return s
}

// TestLemmasOfAStoppedSearch keeps what a search of 0*13 stopped half way
// proved, every value of it, as a certificate both checkers find valid,
// and a search that draws on it finishes the job. (How many iterations
// that saves is a measurement, in BENCHMARKS.md: on a position this
// small, DFPN drawing on half its values takes about as long as from
// nothing.)
func TestLemmasOfAStoppedSearch(t *testing.T) {
	root := sprouts.MustParse("0*13")
	whole := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{})
	if out := whole.Solve(context.Background(), root, 0); !out.Known() {
		t.Fatal("0*13 unsolved")
	}
	full := whole.Stats().Iterations
	half := stopped(t, "0*13", full/2)
	cert, st, err := BuildLemmas(half.DB(), nil, root, 0, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cert.Claim.String() != "lemmas(0*13)" || st.Targets == 0 || st.Invalid != 0 || len(cert.Entries) != half.DB().Len() {
		t.Fatalf("claim %s, %d entries of %d values, %+v", cert.Claim, len(cert.Entries), half.DB().Len(), st)
	}
	dir := t.TempDir()
	path, res, err := WriteCertificate(dir, cert, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verify.File(path, verify.Options{Independent: true}); err != nil {
		t.Fatalf("independent check: %v", err)
	}
	db := solve.NewNimberDB()
	for _, e := range cert.Entries {
		p := sprouts.MustParse(e.Position)
		db.Put(p.Key(), e.Grundy)
	}
	again := solve.NewDFPN(sprouts.Rules{}, db, solve.Options{})
	if out := again.Solve(context.Background(), root, 0); !out.Known() {
		t.Fatal("0*13 unsolved from the lemmas")
	}
	t.Logf("0*13: %d iterations whole; %d, then %d drawing on %d lemmas (%s), %+v", full, full/2, again.Stats().Iterations, res.Entries, res.Address[:12], st)
}

// TestLemmasLeaveOutFalseValues: a value the rules refute (a forged
// checkpoint's) is counted and left out, never certified; a bound on
// entries is kept to within the last value's witnesses.
func TestLemmasLeaveOutFalseValues(t *testing.T) {
	root := sprouts.MustParse("0*11")
	s := stopped(t, "0*11", 3000)
	var forged string
	s.DB().Range(func(key string, g uint32) bool {
		forged = key
		return false
	})
	db := solve.NewNimberDB()
	s.DB().Range(func(key string, v uint32) bool {
		if key == forged {
			v++
		}
		db.Put(key, v)
		return true
	})
	cert, st, err := BuildLemmas(db, nil, root, 0, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Invalid == 0 {
		t.Errorf("the forged value was not found out: %+v", st)
	}
	p, _ := sprouts.FromKey(forged)
	for _, e := range cert.Entries {
		if e.Position == p.String() {
			t.Errorf("the forged value of %s was certified as %d", e.Position, e.Grundy)
		}
	}
	if _, _, err := WriteCertificate(t.TempDir(), cert, verify.Options{}); err != nil {
		t.Fatal(err)
	}
	small, st, err := BuildLemmas(s.DB(), nil, root, 5, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Left == 0 || len(small.Entries) >= len(cert.Entries) {
		t.Errorf("bounded to 5 entries: %d entries, %+v", len(small.Entries), st)
	}
	if _, _, err := BuildLemmas(solve.NewNimberDB(), nil, root, 0, verify.Options{}); !errors.Is(err, ErrNoLemmas) {
		t.Errorf("no values: %v", err)
	}
}

// TestLemmasClaim: the claim's text reads back, and a database is not
// checked against it.
func TestLemmasClaim(t *testing.T) {
	c, err := format.ParseClaim("lemmas(0*13)")
	if err != nil || c.Kind != format.ClaimLemmas || c.Root != "0*13" || c.String() != "lemmas(0*13)" {
		t.Fatalf("%+v %v", c, err)
	}
	d, err := verify.FromValuesOf(sprouts.Game, func(yield func(string, uint32) bool) {})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Check(c, verify.Options{}); err == nil || !strings.Contains(err.Error(), "lemmas") {
		t.Errorf("a database checked against lemmas(0*13): %v", err)
	}
}
