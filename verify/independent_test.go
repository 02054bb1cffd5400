package verify

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
)

// independentOpt returns o with the independent check on.
func independentOpt(o Options) Options {
	o.Independent = true
	return o
}

// TestIndependentCorpus: the corpus's Sprouts certificates pass the
// independent check with the claim, address and entries the default check
// finds (the smallest under -short; TestIndependentAllCorpus, through
// spots-corpus check --independent, takes them all).
func TestIndependentCorpus(t *testing.T) {
	files := campaignFiles(t, 12, 24)
	for _, path := range files {
		if c, err := format.ReadCertificate(path); err != nil || c.Game != "sprouts" {
			continue
		}
		want, err := File(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got, err := File(path, independentOpt(Options{}))
		if err != nil || got != want {
			t.Errorf("%s: independent check %+v, %v; the default check %+v", filepath.Base(path), got, err, want)
		}
	}
}

// TestIndependentDatabases: on the reference solver's databases the
// independent check proves the claims the default check proves and
// rejects the others.
func TestIndependentDatabases(t *testing.T) {
	for n := 4; n <= 12; n++ {
		entries := spprEntries(t, n)
		db, err := NewDatabase(entries)
		if err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{"W", "L"} {
			c := claim(t, fmt.Sprintf("0*%d=%s", n, kind))
			_, want := db.Check(c, Options{})
			res, got := CheckIndependent(entries, c, Options{})
			if (got == nil) != (want == nil) || got != nil && !IsInvalid(got) {
				t.Errorf("%s: independent %v, default %v", c, got, want)
			}
			if res.Entries != db.Len() || res.Valid == 0 || res.Valid > res.Entries {
				t.Errorf("%s: %+v, the database has %d entries", c, res, db.Len())
			}
		}
	}
}

// spprEntries reads the reference database of 0*n from ../testdata/spots-databases.
func spprEntries(t *testing.T, n int) []format.SPREntry {
	t.Helper()
	path := filepath.Join("..", "testdata", "spots-databases", fmt.Sprintf("pns_0x%d.spr", n))
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("reference database (part of the repository): %v", err)
	}
	defer f.Close()
	entries, err := format.ReadSPR(f, format.SPROptions{})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestIndependentDatabaseEntries: an invalid entry the claim does not need
// does not make the claim fail; one it needs does, and is named; two lines
// for one position with different values are an inconsistency; a line
// that is not a position is a line error; a sum of lands is skipped.
func TestIndependentDatabaseEntries(t *testing.T) {
	entries := spprEntries(t, 6)
	c := claim(t, "0*6=L")
	extra := append(slices.Clone(entries), format.SPREntry{Position: "1a1a.1a1a.1a1a", Grundy: 7, Line: 900},
		format.SPREntry{Position: "0+0", Grundy: 0, Line: 901})
	res, err := CheckIndependent(extra, c, Options{})
	if err != nil || res.Valid != res.Entries-1 || len(res.Notes) != 1 {
		t.Errorf("an unneeded wrong entry: %+v, %v", res, err)
	}
	bad := slices.Clone(entries)
	i := slices.IndexFunc(bad, func(e format.SPREntry) bool { return e.Position == "0*6" })
	bad[i].Grundy = 1
	_, err = CheckIndependent(bad, c, Options{})
	if !IsInvalid(err) || !strings.Contains(err.Error(), "first invalid entry") {
		t.Errorf("the root's entry wrong: %v", err)
	}
	_, err = CheckIndependent([]format.SPREntry{{Position: "0*2", Grundy: 0, Line: 2}, {Position: "0.0", Grundy: 1, Line: 3}}, claim(t, "0*2=L"), Options{})
	var inc *Inconsistency
	if !errors.As(err, &inc) || inc.Second.Line != 3 || !IsInvalid(err) {
		t.Errorf("two values for one position: %v", err)
	}
	if _, err := CheckIndependent([]format.SPREntry{{Position: "0*2x", Grundy: 0, Line: 7}}, claim(t, "0*2=L"), Options{}); !format.IsLineError(err) {
		t.Errorf("unparsable position: %v", err)
	}
}

// TestIndependentLimits: the hostile certificates and claims that the
// default check refuses, the independent check refuses too, by the same
// limit, before expanding them.
func TestIndependentLimits(t *testing.T) {
	for _, tt := range []struct {
		cert  *format.Certificate
		opt   Options
		limit string
		row   int
	}{
		{hostileCert(t, "0*100000=W"), Options{}, "lives", 0},
		{hostileCert(t, strings.Repeat("0*5+", 399)+"0*5=W"), Options{}, "lives", 0},
		{hostileCert(t, "0=L", "0*100000"), Options{}, "lives", 1},
		{hostileCert(t, "0=L", eighteen), Options{}, "moves", 1},
		{hostileCert(t, eighteen+"=W"), Options{}, "moves", 0},
		{hostileCert(t, "0=L", "0*2000"), Options{Limits: Limits{Lives: 6000}}, "boundaries", 1},
		{hostileCert(t, "0=L", "0*1500"), Options{Limits: Limits{Lives: -1, Boundaries: -1, Work: 1 << 20}}, "work", 1},
		{hostileCert(t, "0=L", "0*200.1a1a"), Options{Limits: Limits{Letters: 1}}, "letters", 1},
	} {
		_, err := CertificateWith(tt.cert, independentOpt(tt.opt))
		var le *LimitError
		if !errors.As(err, &le) || IsInvalid(err) || le.Limit != tt.limit || le.Row != tt.row {
			t.Errorf("%s: %v, want the limit %s at row %d", cutText(tt.cert.Claim.String()), err, tt.limit, tt.row)
		}
	}
	// A limit met by the search, past the root: a land a reply is looked
	// for in is refused, naming the entry.
	path := filepath.Join("..", "corpus", "certs", "0c524bb16d920e631ceeb80b752e98713223c12d24bf6c1a25d9f62dbd7ab20c.arrow") // 0*12=L
	_, err := File(path, independentOpt(Options{Limits: Limits{Moves: 60}}))
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != "moves" || le.Row == 0 || IsInvalid(err) {
		t.Errorf("0*12=L with at most 60 moves: %v", err)
	}
	if _, err := CheckIndependent(spprEntries(t, 8), claim(t, "0*8=L"), Options{Limits: Limits{Moves: 10}}); !IsLimit(err) {
		t.Errorf("a database whose entries are over the limits: %v, want a refusal", err)
	}
}

// TestIndependentMutants: mutants of the corpus's smallest certificates
// that change a value, the order of the rows or the claim are rejected by
// the independent check as by the default one; with any number of
// workers, the same row is named. (Hint mutants do not matter to it, and
// a dropped row may leave a proof that needs no hints.)
func TestIndependentMutants(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 2))
	kinds := []string{"value+1", "value-1", "value xor random", "duplicate row", "move row", "reverse rows", "opposite claim"}
	tried := 0
	for _, path := range campaignFiles(t, 6, 12) {
		orig, err := format.ReadCertificate(path)
		if err != nil || orig.Game != "sprouts" {
			continue
		}
		values := map[string]uint32{}
		for _, m := range logicalMutations {
			if !slices.Contains(kinds, m.name) {
				continue
			}
			for range 4 {
				c := clone(orig)
				if !m.apply(rng, c, values) {
					continue
				}
				tried++
				_, err := CertificateWith(c, independentOpt(Options{Workers: 1}))
				if !IsInvalid(err) || IsLimit(err) {
					t.Errorf("%s: %s: %v, want invalid", filepath.Base(path)[:12], m.name, err)
					continue
				}
				for _, w := range []int{2, 5} {
					if _, err2 := CertificateWith(c, independentOpt(Options{Workers: w})); err2 == nil || err2.Error() != err.Error() {
						t.Errorf("%s: %s: with %d workers %v, with one %v", filepath.Base(path)[:12], m.name, w, err2, err)
					}
				}
			}
		}
	}
	if tried == 0 {
		t.Error("no mutant tried")
	}
	// A hostile value is rejected, not used to size anything.
	c := hostileCert(t, "0*2=L", "0", "0*2")
	c.Entries[1].Grundy = 1 << 31
	if _, err := CertificateWith(c, independentOpt(Options{})); !IsInvalid(err) {
		t.Errorf("a row of value 2^31: %v, want invalid", err)
	}
}

// TestIndependentOtherGames: a Cram certificate is not for the
// independent check: neither valid nor invalid.
func TestIndependentOtherGames(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "corpus", "cram", "*.arrow"))
	if len(files) == 0 {
		t.Fatal("no Cram certificates in the corpus")
	}
	_, err := File(files[0], independentOpt(Options{}))
	if !errors.Is(err, ErrUnsupported) || IsInvalid(err) || IsLimit(err) {
		t.Errorf("%s: %v, want ErrUnsupported", files[0], err)
	}
}

// TestIndependentConcurrent: the independent check of a certificate on
// several workers (make test runs it under the race detector) finds what
// it finds on one.
func TestIndependentConcurrent(t *testing.T) {
	path := filepath.Join("..", "corpus", "certs", "0c524bb16d920e631ceeb80b752e98713223c12d24bf6c1a25d9f62dbd7ab20c.arrow") // 0*12=L
	one, err := File(path, independentOpt(Options{Workers: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if many, err := File(path, independentOpt(Options{Workers: 4})); err != nil || many != one {
		t.Errorf("with 4 workers: %+v, %v; with one: %+v", many, err, one)
	}
}
