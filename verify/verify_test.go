package verify

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
)

// The databases in ../testdata/spots-databases were written by the
// reference solver SPOTS, each solving 0*N with PNS; their keys are in its
// own, non-canonical form.
func spotsDatabase(t *testing.T, n int) *Database {
	t.Helper()
	db, err := NewDatabase(spprEntries(t, n))
	if err != nil {
		t.Fatalf("pns_0x%d.spr: %v", n, err)
	}
	return db
}

// outcome is the known outcome of the n-spot game (the Sprouts conjecture,
// checked by the literature for these n).
func outcome(n int) (string, string) {
	if n%6 >= 3 {
		return "W", "L"
	}
	return "L", "W"
}

func claim(t *testing.T, s string) format.Claim {
	c, err := format.ParseClaim(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestThirdPartyDatabases checks every reference database unhinted: its
// root claim holds, the opposite claim does not, and the proof converts to
// a hinted certificate that verifies, in memory and as a file.
func TestThirdPartyDatabases(t *testing.T) {
	dir := t.TempDir()
	for n := 4; n <= 12; n++ {
		db := spotsDatabase(t, n)
		want, opposite := outcome(n)
		proof, err := db.Check(claim(t, fmt.Sprintf("0*%d=%s", n, want)), Options{})
		if err != nil {
			t.Errorf("0*%d=%s: %v", n, want, err)
			continue
		}
		if _, err := db.Check(claim(t, fmt.Sprintf("0*%d=%s", n, opposite)), Options{}); !IsInvalid(err) {
			t.Errorf("0*%d=%s: accepted (%v)", n, opposite, err)
		}
		cert := proof.Certificate("test", "1")
		if _, err := Certificate(cert); err != nil {
			t.Errorf("0*%d: converted certificate: %v", n, err)
		}
		path, err := format.WriteCertificate(dir, cert, format.WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := File(path, Options{})
		if err != nil {
			t.Fatalf("0*%d: certificate %s: %v", n, path, err)
		}
		if res.Entries != len(cert.Entries) || res.Entries > db.Len() {
			t.Errorf("0*%d: %d entries verified, certificate %d, database %d", n, res.Entries, len(cert.Entries), db.Len())
		}
	}
}

func TestInconsistentDatabase(t *testing.T) {
	_, err := NewDatabase([]format.SPREntry{{Position: "0*2", Grundy: 0, Line: 2}, {Position: "0.0", Grundy: 1, Line: 3}})
	var inc *Inconsistency
	if !errors.As(err, &inc) || inc.Second.Line != 3 || !IsInvalid(err) {
		t.Errorf("got %v", err)
	}
	if _, err := NewDatabase([]format.SPREntry{{Position: "0*2x", Grundy: 0, Line: 7}}); !format.IsLineError(err) {
		t.Errorf("unparsable position: %v", err)
	}
}

// TestWrongValuesNeverProveFalseClaims gives one entry of a reference
// database a wrong value at a time: the false claim must never be proved
// (the true one may still be, through other entries).
func TestWrongValuesNeverProveFalseClaims(t *testing.T) {
	stillTrue, tried := 0, 0
	for n := 4; n <= 7; n++ {
		entries := spprEntries(t, n)
		want, opposite := outcome(n)
		for i := range entries {
			bad := slices.Clone(entries)
			bad[i].Grundy ^= 1
			db, err := NewDatabase(bad)
			if err != nil {
				continue // the wrong value contradicts another line: caught already
			}
			tried++
			if _, err := db.Check(claim(t, fmt.Sprintf("0*%d=%s", n, opposite)), Options{}); !IsInvalid(err) {
				t.Errorf("0*%d with %s = %d: false claim accepted (%v)", n, bad[i].Position, bad[i].Grundy, err)
			}
			if _, err := db.Check(claim(t, fmt.Sprintf("0*%d=%s", n, want)), Options{}); err == nil {
				stillTrue++
			}
		}
	}
	t.Logf("%d databases with one wrong value: no false claim proved; the true claim still proved by %d", tried, stillTrue)
}

// mutation changes a certificate in one place. hintOnly mutations may turn
// a proof into another valid proof (another witness that also works);
// every other kind must be rejected.
type mutation struct {
	name     string
	hintOnly bool
	apply    func(rng *rand.Rand, c *format.Certificate) bool // false: not applicable
}

var mutations = []mutation{
	{"value+1", false, func(rng *rand.Rand, c *format.Certificate) bool {
		e := &c.Entries[rng.IntN(len(c.Entries))]
		e.Grundy++
		e.Reach = append(e.Reach, 0)
		return true
	}},
	{"value-1", false, func(rng *rand.Rand, c *format.Certificate) bool {
		e := &c.Entries[rng.IntN(len(c.Entries))]
		if e.Grundy == 0 {
			return false
		}
		e.Grundy--
		e.Reach = e.Reach[:len(e.Reach)-1]
		return true
	}},
	{"drop entry", false, func(rng *rand.Rand, c *format.Certificate) bool {
		i := rng.IntN(len(c.Entries))
		c.Entries = slices.Delete(c.Entries, i, i+1)
		return true
	}},
	{"swap rows", false, func(rng *rand.Rand, c *format.Certificate) bool {
		i, j := rng.IntN(len(c.Entries)), rng.IntN(len(c.Entries))
		if i == j {
			return false
		}
		c.Entries[i], c.Entries[j] = c.Entries[j], c.Entries[i]
		return true
	}},
	{"opposite claim", false, func(rng *rand.Rand, c *format.Certificate) bool {
		switch c.Claim.Kind {
		case format.ClaimWin:
			c.Claim.Kind = format.ClaimLoss
		case format.ClaimLoss:
			c.Claim.Kind = format.ClaimWin
		default:
			c.Claim.N++
		}
		return true
	}},
	{"reach hint", true, func(rng *rand.Rand, c *format.Certificate) bool {
		e := &c.Entries[rng.IntN(len(c.Entries))]
		if len(e.Reach) == 0 {
			return false
		}
		e.Reach[rng.IntN(len(e.Reach))] += uint32(1 + rng.IntN(3))
		return true
	}},
	{"win hint", true, func(rng *rand.Rand, c *format.Certificate) bool {
		e := &c.Entries[rng.IntN(len(c.Entries))]
		if len(e.Win) == 0 {
			return false
		}
		i := rng.IntN(len(e.Win))
		if e.Win[i] < 0 {
			e.Win[i] = int32(rng.IntN(3))
		} else if rng.IntN(2) == 0 {
			e.Win[i] = -1
		} else {
			e.Win[i] += int32(1 + rng.IntN(3))
		}
		return true
	}},
	{"drop win hint", false, func(rng *rand.Rand, c *format.Certificate) bool {
		e := &c.Entries[rng.IntN(len(c.Entries))]
		if len(e.Win) == 0 {
			return false
		}
		e.Win = e.Win[:len(e.Win)-1]
		return true
	}},
}

func clone(c *format.Certificate) *format.Certificate {
	d := *c
	d.Entries = make([]format.Entry, len(c.Entries))
	for i, e := range c.Entries {
		d.Entries[i] = format.Entry{Position: e.Position, Grundy: e.Grundy, Reach: slices.Clone(e.Reach), Win: slices.Clone(e.Win)}
	}
	return &d
}

// TestMutationCampaign mutates certificates hundreds of times, one change
// at a time: every mutation is rejected, except hint changes that pick
// another witness that works, which are counted and must still prove a
// true claim. Short mode (make test) tries each mutation 15 times per
// certificate instead of 60.
func TestMutationCampaign(t *testing.T) {
	tries := 60
	if testing.Short() {
		tries = 15
	}
	rng := rand.New(rand.NewPCG(11, 12))
	total := map[string][2]int{} // mutation → rejected, accepted
	for _, n := range []int{5, 7, 9, 12} {
		want, _ := outcome(n)
		proof, err := spotsDatabase(t, n).Check(claim(t, fmt.Sprintf("0*%d=%s", n, want)), Options{})
		if err != nil {
			t.Fatal(err)
		}
		base := proof.Certificate("test", "1")
		for _, m := range mutations {
			for range tries {
				c := clone(base)
				if !m.apply(rng, c) {
					continue
				}
				_, err := Certificate(c)
				counts := total[m.name]
				switch {
				case err == nil && !m.hintOnly:
					t.Errorf("0*%d: %s accepted", n, m.name)
				case err == nil:
					counts[1]++ // another witness that works: the claim is true
				case !IsInvalid(err):
					t.Errorf("0*%d: %s: error %v does not mark an invalid certificate", n, m.name, err)
				default:
					counts[0]++
				}
				total[m.name] = counts
			}
		}
	}
	for _, m := range mutations {
		t.Logf("%-15s rejected %3d, accepted as another valid proof %3d", m.name, total[m.name][0], total[m.name][1])
	}
}

// TestFileCorruption flips bytes of and truncates a certificate file: every
// damaged file is rejected as invalid, never read as valid, never a panic.
func TestFileCorruption(t *testing.T) {
	proof, err := spotsDatabase(t, 8).Check(claim(t, "0*8=L"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, err := format.WriteCertificate(dir, proof.Certificate("test", "1"), format.WriteOptions{BatchRows: 50})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	rng := rand.New(rand.NewPCG(3, 4))
	bad := filepath.Join(dir, "bad.arrow")
	flips, truncs, harmless := 0, 0, 0
	for range 300 {
		d := slices.Clone(data)
		if rng.IntN(4) == 0 {
			d = d[:rng.IntN(len(d))]
			truncs++
		} else {
			d[rng.IntN(len(d))] ^= byte(1 + rng.IntN(255))
			flips++
		}
		os.WriteFile(bad, d, 0o644)
		res, err := File(bad, Options{})
		switch {
		case err == nil && res.Address == proof.Certificate("test", "1").Address():
			// The flip hit bytes outside the logical content (padding, the
			// creation time): the same proof, verified again.
			harmless++
		case err == nil:
			t.Fatalf("damaged file (%d bytes) verifies as a different proof %s", len(d), res.Address)
		case !IsInvalid(err):
			t.Fatalf("damaged file (%d bytes): %v", len(d), err)
		}
	}
	t.Logf("%d byte flips and %d truncations: all rejected but %d flips outside the logical content", flips, truncs, harmless)
	// A valid certificate renamed to another address is rejected too.
	other := filepath.Join(dir, "0000000000000000000000000000000000000000000000000000000000000000.arrow")
	os.WriteFile(other, data, 0o644)
	if _, err := File(other, Options{}); !IsInvalid(err) {
		t.Errorf("renamed certificate: %v", err)
	}
}

func TestClaimRootMustBeCanonical(t *testing.T) {
	db := spotsDatabase(t, 4)
	if _, err := db.Check(claim(t, "0.0.0.0=W"), Options{}); !IsInvalid(err) {
		t.Errorf("non-canonical root: %v", err)
	}
	if _, err := db.Check(claim(t, "0*4=W"), Options{}); err != nil {
		t.Errorf("0*4=W: %v", err)
	}
	_ = sprouts.MustParse
}
