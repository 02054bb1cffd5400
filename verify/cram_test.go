package verify

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/cram/cramtest"
	"github.com/spots-dev/spots/format"
)

// cramClaims are the claims of the test certificates: outcomes, Grundy
// values, heaps, boards with holes, sums, and the empty position (the
// claim is completed from the values: W or L, the Grundy value).
var cramClaims = []string{"4x4", "3x5", "gn(3x4)", "gn(1x30)", "2x5+*1", "gn(.#../..../....)", "2x3+1x7", "gn(!)", "3x3+*2"}

// cramShortClaims are those of the pipeline comparison.
var cramShortClaims = []string{"gn(.#../..../....)", "2x3+1x7", "3x3+*2"}

// cramCertificates writes the certificates of cramClaims, proved from a
// database of cramtest.Values, into a temporary directory and returns their
// paths.
func cramCertificates(t *testing.T, claims ...string) []string {
	t.Helper()
	if len(claims) == 0 {
		claims = cramClaims
	}
	dir := t.TempDir()
	vals := cramtest.Values{}
	var files []string
	for _, text := range claims {
		root, n, grundy := text, uint32(0), false
		if r, ok := strings.CutPrefix(text, "gn("); ok {
			root, grundy = strings.TrimSuffix(r, ")"), true
		}
		if r, h, ok := strings.Cut(root, "+*"); ok {
			root = r
			fmt.Sscan(h, &n)
		}
		p := cram.MustParse(root)
		g := vals.Grundy(p)
		c := format.Claim{Root: p.String(), Kind: format.ClaimWin, N: n}
		switch {
		case grundy:
			c.Kind, c.N = format.ClaimGrundy, g
		case g == n:
			c.Kind = format.ClaimLoss
		}
		db, err := FromValuesOf(cram.Game, func(yield func(string, uint32) bool) {
			for k, v := range vals {
				if !yield(k, v) {
					return
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		proof, err := db.Check(c, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		path, err := format.WriteCertificate(dir, proof.Certificate("test", "1"), format.WriteOptions{BatchRows: 7})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	return files
}

// TestCramCertificates: certificates of Cram claims verify, from a file
// and in memory, sequentially and in the pipeline, with the same result;
// their header names Cram and its notation.
func TestCramCertificates(t *testing.T) {
	for _, path := range cramCertificates(t) {
		res, err := File(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		cert, err := format.ReadCertificate(path)
		if err != nil {
			t.Fatal(err)
		}
		if cert.Game != cram.Game || cert.Notation != cram.Notation || res.Claim != cert.Claim {
			t.Errorf("%s: game %q, notation %q, claim %s", path, cert.Game, cert.Notation, res.Claim)
		}
		seqRes, seqErr := CertificateWith(cert, Options{Workers: 1})
		parRes, parErr := CertificateWith(cert, Options{Workers: 3})
		sameOutcome(t, res.Claim.String(), seqRes, parRes, seqErr, parErr)
		if seqRes != res || seqErr != nil {
			t.Errorf("%s: in memory %+v, %v; from the file %+v", path, seqRes, seqErr, res)
		}
		// The same entries under the other game's name are not a proof
		// (but for the empty position, "!" in both).
		if cert.Claim.Root == "!" {
			continue
		}
		other := clone(cert)
		other.Game, other.Notation = "sprouts", "spots-canonical/1"
		if _, err := Certificate(other); !IsInvalid(err) {
			t.Errorf("%s read as Sprouts: %v", res.Claim, err)
		}
	}
}

// TestCramMutationCampaign runs the mutation campaign of the corpus on the
// Cram certificates: no mutant is accepted, none panics. Under -short it
// takes one certificate made here (a sum) and the smallest certificate of
// the corpus's Cram table that has entries; without, all of cramClaims and
// the 6 smallest of the table.
func TestCramMutationCampaign(t *testing.T) {
	corpus, _ := filepath.Glob(filepath.Join("..", "corpus", "cram", "*.arrow"))
	size := map[string]int64{}
	for _, f := range corpus {
		info, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		size[f] = info.Size()
	}
	slices.SortFunc(corpus, func(a, b string) int { return cmp.Compare(size[a], size[b]) })
	if testing.Short() {
		// Certificates without entries (claims proved by one move to the
		// empty position) are under 3,500 bytes.
		corpus = slices.DeleteFunc(corpus, func(f string) bool { return size[f] < 3500 })
		runCampaign(t, append(cramCertificates(t, "2x3+1x7"), corpus[:min(1, len(corpus))]...))
		return
	}
	runCampaign(t, append(cramCertificates(t), corpus[:min(6, len(corpus))]...))
}

// TestCramPipelineSameFirstFailure: on mutants of Cram certificates the
// pipeline reports the failure the sequential check does.
func TestCramPipelineSameFirstFailure(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 16))
	for _, path := range cramCertificates(t, cramShortClaims...) {
		orig, err := format.ReadCertificate(path)
		if err != nil {
			t.Fatal(err)
		}
		values := map[string]uint32{}
		for _, e := range orig.Entries {
			values[e.Position] = e.Grundy
		}
		for _, m := range logicalMutations {
			for range 3 {
				c := clone(orig)
				if !m.apply(rng, c, values) {
					continue
				}
				seqRes, seqErr := CertificateWith(c, Options{Workers: 1})
				parRes, parErr := CertificateWith(c, Options{Workers: 2})
				sameOutcome(t, orig.Claim.String()+": "+m.name, seqRes, parRes, seqErr, parErr)
				if seqErr == nil {
					t.Errorf("%s: %s accepted", orig.Claim, m.name)
				}
			}
		}
	}
}

func cramCert(t *testing.T, claim string, entries ...string) *format.Certificate {
	t.Helper()
	c := &format.Certificate{Claim: mustClaim(t, claim), Game: cram.Game, Notation: cram.Notation, Producer: "test", Version: "1"}
	for _, e := range entries {
		c.Entries = append(c.Entries, format.Entry{Position: e})
	}
	return c
}

// TestCramHostile: Cram positions too costly to expand are refused (by a
// limit, not as invalid proofs) before their children are made; boards
// over the parser's size limits, and texts that are not canonical, are
// invalid.
func TestCramHostile(t *testing.T) {
	refused := []struct {
		name  string
		cert  *format.Certificate
		opt   Options
		limit string
		row   int
	}{
		{"claim 64x64", cramCert(t, "64x64=W"), Options{}, "work", 0},
		{"entry 64x64", cramCert(t, "1x2=W", "64x64"), Options{}, "work", 1},
		{"claim 4x4, cells", cramCert(t, "4x4=L"), Options{Limits: Limits{Cells: 10}}, "cells", 0},
		{"entry 4x4, moves", cramCert(t, "1x2=W", "4x4"), Options{Limits: Limits{Moves: 20}}, "moves", 1},
		{"entry, work of the entry", cramCert(t, "1x2=W", "10x10"), Options{Limits: Limits{Work: 20000}}, "work", 1},
	}
	for _, tt := range refused {
		_, err := CertificateWith(tt.cert, tt.opt)
		var le *LimitError
		if !errors.As(err, &le) || IsInvalid(err) || le.Limit != tt.limit || le.Row != tt.row {
			t.Errorf("%s: %v, want the limit %s at row %d", tt.name, err, tt.limit, tt.row)
		}
	}
	invalid := []struct {
		name string
		cert *format.Certificate
	}{
		{"claim too large", cramCert(t, "4096x5=W")},
		{"claim not canonical", cramCert(t, "5x4=W")},
		{"claim not a board", cramCert(t, "0*5=W")},
		{"entry not canonical", cramCert(t, "1x2=W", "../..")},
		{"entry of two regions", cramCert(t, "1x2+1x2=L", "1x2+1x2")},
		{"entry too large", cramCert(t, "1x2=W", strings.Repeat(".", 5000))},
		{"unknown game", &format.Certificate{Claim: mustClaim(t, "1x2=W"), Game: "go", Notation: cram.Notation}},
		{"wrong notation", &format.Certificate{Claim: mustClaim(t, "1x2=W"), Game: cram.Game, Notation: "cram-canonical/0"}},
	}
	for _, tt := range invalid {
		if _, err := CertificateWith(tt.cert, Options{}); !IsInvalid(err) || IsLimit(err) {
			t.Errorf("%s: %v, want an invalid certificate", tt.name, err)
		}
	}
}
