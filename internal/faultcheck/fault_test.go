//go:build spotsfault

package faultcheck

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// outcomes reads the published outcomes of 0*n (testdata/outcomes.csv):
// "W" or "L" by n.
func outcomes(t *testing.T) map[int]string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "outcomes.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]string{}
	for _, r := range rows[1:] {
		if n, err := strconv.Atoi(r[0]); err == nil {
			out[n] = r[1]
		}
	}
	return out
}

// TestPlantedFaults: with each fault planted in package sprouts, the solver
// (sequential DFPN) solves 0*n and certify turns its database into a
// certificate, checked on the way by the default checker, which shares the
// faulty rules. The independent check rejects every one of these
// certificates. The table says, for each fault, whether the default check
// accepts the certificate (it does for all: a checker that shares the
// rules cannot see a bug in them) and whether the claim proved is false
// (the published outcome of 0*n says otherwise).
func TestPlantedFaults(t *testing.T) {
	known := outcomes(t)
	for _, tt := range []struct {
		fault          string
		n              int
		defaultAccepts bool
		falseClaim     bool
	}{
		{"merge", 6, true, true},        // proves 0*6=W
		{"drop-splits", 6, true, false}, // at 0*8 it proves 0*8=W (a minute)
		{"dead-22", 5, true, true},      // proves 0*5=L
		{"swap-letters", 6, true, false},
		{"merge-four", 6, true, false},
	} {
		t.Run(tt.fault, func(t *testing.T) {
			sprouts.SetFault(tt.fault)
			defer sprouts.SetFault("")
			root := sprouts.MustParse(fmt.Sprintf("0*%d", tt.n))
			s := solve.NewDFPN(sprouts.Rules{}, solve.NewNimberDB(), solve.Options{Capacity: 1 << 14})
			out := s.Solve(t.Context(), root, 0)
			claim, err := certify.Claim(root, 0, out, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := claim.Kind.Outcome().Mark() != known[tt.n]; got != tt.falseClaim {
				t.Errorf("the faulty solver proves %s (published: %s); false claim %v, want %v", claim, known[tt.n], got, tt.falseClaim)
			}
			path, _, err := certify.Write(t.TempDir(), s.DB(), claim, verify.Options{})
			if err != nil {
				t.Fatalf("no certificate (the default check rejects the faulty solver's values): %v", err)
			}
			_, err = verify.File(path, verify.Options{})
			if accepted := err == nil; accepted != tt.defaultAccepts {
				t.Errorf("default check of %s: %v; accepted %v, want %v", claim, err, accepted, tt.defaultAccepts)
			}
			_, err = verify.File(path, verify.Options{Independent: true})
			if !verify.IsInvalid(err) {
				t.Fatalf("independent check of %s: %v, want invalid", claim, err)
			}
			t.Logf("%s: the faulty solver proves %s (published: 0*%d is %s); default check: accepted %v; independent: %v",
				tt.fault, claim, tt.n, known[tt.n], tt.defaultAccepts, err)
		})
	}
	// With the fault off, the same pipeline makes certificates both checks
	// accept: what the independent check rejects above is the fault.
	root := sprouts.MustParse("0*6")
	s := solve.NewDFPN(sprouts.Rules{}, solve.NewNimberDB(), solve.Options{Capacity: 1 << 14})
	claim, _ := certify.Claim(root, 0, s.Solve(t.Context(), root, 0), nil)
	path, _, err := certify.Write(t.TempDir(), s.DB(), claim, verify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verify.File(path, verify.Options{Independent: true}); err != nil {
		t.Errorf("without a fault, independent check of %s: %v", claim, err)
	}
}
