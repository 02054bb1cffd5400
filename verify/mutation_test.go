package verify

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/sprouts"
)

// The corpus mutation campaign (TestCorpusMutationCampaign) takes good
// certificates of corpus/certs, makes mutants of them and checks each as a
// file:
//
//   - byte mutants: a byte flipped, inserted or deleted, or the file cut
//     short. A byte mutant may only be accepted if it reads back as the
//     same logical content (the byte was padding, the producer, the
//     creation time…): same address, same claim.
//   - logical mutants: well-formed certificates, written with the writer
//     of package format so that their content address is right and only
//     the logic is wrong: a value changed, a row dropped, duplicated or
//     moved, a hint pointed at a child or reply that does not prove what it
//     must, a hint dropped or added, the claim made false. None may be
//     accepted. (A hint is only pointed at a witness that does not hold by
//     the original values, so that a mutant is never another valid proof.)
//
// Every original must pass; no mutant may panic (a panic is recovered and
// counted as a crash) or be refused by a limit. The counts are logged.
//
// How many certificates: under -short (make test) the 3 smallest; without
// -short the 8 smallest; with SPOTS_MUTATION=all every certificate of the
// corpus, with the number of mutants per certificate scaled down for the
// largest (see mutantsPer). SPOTS_MUTATION=all takes several minutes;
// RELIABILITY.md records a run.

// campaignCounts are the totals of a campaign.
type campaignCounts struct {
	originals, tried, rejected, unchanged, wronglyAccepted, crashes, skipped int
}

func (c campaignCounts) String() string {
	return fmt.Sprintf("%d originals; %d mutants tried: %d rejected, %d read back as the same content and accepted, %d wrongly accepted, %d crashes (%d mutations not applicable)",
		c.originals, c.tried, c.rejected, c.unchanged, c.wronglyAccepted, c.crashes, c.skipped)
}

// campaignFiles returns the corpus certificates the campaign mutates,
// smallest first: all with SPOTS_MUTATION=all, else the short smallest
// under -short and the normal smallest without.
func campaignFiles(t *testing.T, short, normal int) []string {
	files := selfContained(t)
	if len(files) == 0 {
		t.Skip("no corpus certificates")
	}
	size := func(p string) int64 {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	slices.SortFunc(files, func(a, b string) int { return cmp.Compare(size(a), size(b)) })
	switch {
	case os.Getenv("SPOTS_MUTATION") == "all":
		return files
	case testing.Short():
		return files[:min(short, len(files))]
	}
	return files[:min(normal, len(files))]
}

// mutantsPer returns how many mutants of each kind to make of a
// certificate of n entries: 24 for small ones, fewer for large ones (one of
// each kind from 15,000 entries on), whose every check takes seconds.
func mutantsPer(n int) int {
	return max(1, min(24, 15000/max(n, 1)))
}

func TestCorpusMutationCampaign(t *testing.T) {
	runCampaign(t, campaignFiles(t, 3, 8))
}

// runCampaign runs the mutation campaign on the certificate files, of any
// game.
func runCampaign(t *testing.T, files []string) {
	rng := rand.New(rand.NewPCG(2026, 11))
	dir := t.TempDir()
	var total campaignCounts
	for _, path := range files {
		orig, err := format.ReadCertificate(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		res, err := File(path, Options{})
		if err != nil {
			t.Fatalf("%s: the original does not verify: %v", path, err)
		}
		total.originals++
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		per := mutantsPer(len(orig.Entries))
		counts := campaignCounts{originals: 1}

		// Byte mutants.
		bad := filepath.Join(dir, "mutant.arrow")
		for _, m := range byteMutations {
			for range per {
				d := m.apply(rng, data)
				if err := os.WriteFile(bad, d, 0o644); err != nil {
					t.Fatal(err)
				}
				counts.tried++
				got, err, crashed := checkGuarded(bad)
				switch {
				case crashed:
					counts.crashes++
					t.Errorf("%s: %s: panic: %v", path, m.name, err)
				case err == nil && got.Address == res.Address && got.Claim == res.Claim:
					counts.unchanged++
				case err == nil:
					counts.wronglyAccepted++
					t.Errorf("%s: %s: a different certificate %s accepted", path, m.name, got.Address)
				case IsLimit(err) || !IsInvalid(err):
					counts.crashes++
					t.Errorf("%s: %s: not rejected as invalid: %v", path, m.name, err)
				default:
					counts.rejected++
				}
			}
		}

		// Logical mutants.
		values := map[string]uint32{}
		for _, e := range orig.Entries {
			values[e.Position] = e.Grundy
		}
		for _, m := range logicalMutations {
			for range per {
				c := clone(orig)
				if !m.apply(rng, c, values) {
					counts.skipped++
					continue
				}
				if c.Address() == orig.Address() {
					t.Fatalf("%s: %s: the mutant has the original's content", path, m.name)
				}
				mpath, err := format.WriteCertificate(dir, c, format.WriteOptions{})
				if err != nil {
					t.Fatalf("%s: %s: writing the mutant: %v", path, m.name, err)
				}
				counts.tried++
				_, err, crashed := checkGuarded(mpath)
				os.Remove(mpath)
				switch {
				case crashed:
					counts.crashes++
					t.Errorf("%s: %s: panic: %v", path, m.name, err)
				case err == nil:
					counts.wronglyAccepted++
					t.Errorf("%s: %s: accepted", path, m.name)
				case IsLimit(err) || !IsInvalid(err):
					counts.crashes++
					t.Errorf("%s: %s: not rejected as invalid: %v", path, m.name, err)
				default:
					counts.rejected++
				}
			}
		}
		t.Logf("%s (%s, %d entries): %s", filepath.Base(path)[:12], orig.Claim, len(orig.Entries), counts)
		total.tried += counts.tried
		total.rejected += counts.rejected
		total.unchanged += counts.unchanged
		total.wronglyAccepted += counts.wronglyAccepted
		total.crashes += counts.crashes
		total.skipped += counts.skipped
	}
	t.Logf("total: %s", total)
	if total.wronglyAccepted != 0 || total.crashes != 0 || total.originals != len(files) {
		t.Errorf("campaign failed: %s", total)
	}
}

// checkGuarded verifies the file at path, recovering a panic.
func checkGuarded(path string) (res Result, err error, crashed bool) {
	defer func() {
		if p := recover(); p != nil {
			err, crashed = fmt.Errorf("%v", p), true
		}
	}()
	res, err = File(path, Options{})
	return res, err, false
}

type byteMutation struct {
	name  string
	apply func(rng *rand.Rand, data []byte) []byte
}

var byteMutations = []byteMutation{
	{"flip", func(rng *rand.Rand, data []byte) []byte {
		d := slices.Clone(data)
		d[rng.IntN(len(d))] ^= byte(1 + rng.IntN(255))
		return d
	}},
	{"insert", func(rng *rand.Rand, data []byte) []byte {
		i := rng.IntN(len(data) + 1)
		return slices.Insert(slices.Clone(data), i, byte(rng.IntN(256)))
	}},
	{"delete", func(rng *rand.Rand, data []byte) []byte {
		i := rng.IntN(len(data))
		n := 1 + rng.IntN(min(16, len(data)-i))
		return slices.Delete(slices.Clone(data), i, i+n)
	}},
	{"truncate", func(rng *rand.Rand, data []byte) []byte {
		return slices.Clone(data[:rng.IntN(len(data))])
	}},
}

// logicalMutation changes a certificate's logic in one place; false: not
// applicable to this certificate. values are the original's Grundy values
// by position, to tell a wrong hint from another witness that works.
type logicalMutation struct {
	name  string
	apply func(rng *rand.Rand, c *format.Certificate, values map[string]uint32) bool
}

// randomEntry returns an entry of c chosen at random, or nil if c has none.
func randomEntry(rng *rand.Rand, c *format.Certificate) *format.Entry {
	if len(c.Entries) == 0 {
		return nil
	}
	return &c.Entries[rng.IntN(len(c.Entries))]
}

// testGame gives the mutations the rules of a certificate's game, on
// positions as text.
type testGame struct {
	children   func(pos string) []string // of an atomic position, in the game's order
	components func(pos string) []string
}

func texts[P fmt.Stringer](ps []P) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// gameOf returns the rules of c's game.
func gameOf(c *format.Certificate) testGame {
	if c.Game == cram.Game {
		return testGame{
			children:   func(s string) []string { return texts(cram.MustParse(s).Children()) },
			components: func(s string) []string { return texts(cram.MustParse(s).Regions()) },
		}
	}
	return testGame{
		children:   func(s string) []string { return texts(sprouts.MustParse(s).Children()) },
		components: func(s string) []string { return texts(sprouts.MustParse(s).Lands()) },
	}
}

// xorOf returns the xor of the original values of the components of the
// position p (canonical text), and whether they all have one.
func xorOf(g testGame, p string, values map[string]uint32) (uint32, bool) {
	return xorAll(g.components(p), values)
}

// xorAll returns the xor of the original values of lands, and whether they
// all have one.
func xorAll(lands []string, values map[string]uint32) (uint32, bool) {
	x := uint32(0)
	for _, land := range lands {
		g, ok := values[land]
		if !ok {
			return 0, false
		}
		x ^= g
	}
	return x, true
}

var logicalMutations = []logicalMutation{
	{"value+1", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		if len(c.Entries) == 0 {
			return false
		}
		e := randomEntry(rng, c)
		e.Grundy++
		e.Reach = append(e.Reach, uint32(rng.IntN(max(len(e.Win), 1))))
		return true
	}},
	{"value-1", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		if len(c.Entries) == 0 {
			return false
		}
		e := randomEntry(rng, c)
		if e.Grundy == 0 {
			return false
		}
		e.Grundy--
		e.Reach = e.Reach[:len(e.Reach)-1]
		return true
	}},
	{"value xor random", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		if len(c.Entries) == 0 {
			return false
		}
		e := randomEntry(rng, c)
		g := e.Grundy ^ uint32(1+rng.IntN(7))
		for len(e.Reach) < int(g) {
			e.Reach = append(e.Reach, 0)
		}
		e.Grundy, e.Reach = g, e.Reach[:g]
		return true
	}},
	{"drop row", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		if len(c.Entries) == 0 {
			return false
		}
		i := rng.IntN(len(c.Entries))
		c.Entries = slices.Delete(c.Entries, i, i+1)
		return true
	}},
	{"duplicate row", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		if len(c.Entries) == 0 {
			return false
		}
		i := rng.IntN(len(c.Entries))
		c.Entries = slices.Insert(c.Entries, i, c.Entries[i])
		return true
	}},
	{"move row", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		if len(c.Entries) < 2 {
			return false
		}
		i, j := rng.IntN(len(c.Entries)), rng.IntN(len(c.Entries)-1)
		e := c.Entries[i]
		c.Entries = slices.Delete(c.Entries, i, i+1)
		if j >= i {
			j++
		}
		c.Entries = slices.Insert(c.Entries, min(j, len(c.Entries)), e)
		return true
	}},
	{"reverse rows", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		if len(c.Entries) < 2 {
			return false
		}
		slices.Reverse(c.Entries)
		return true
	}},
	{"reach hint elsewhere", func(rng *rand.Rand, c *format.Certificate, values map[string]uint32) bool {
		e := randomEntry(rng, c)
		if e == nil {
			return false
		}
		if len(e.Reach) == 0 {
			return false
		}
		g := gameOf(c)
		kids := g.children(e.Position)
		m := rng.IntN(len(e.Reach))
		for _, i := range rng.Perm(len(kids) + 2) {
			if uint32(i) == e.Reach[m] {
				continue
			}
			if i < len(kids) {
				if x, ok := xorOf(g, kids[i], values); ok && x == uint32(m) {
					continue // another child of value m: still a proof
				}
			}
			e.Reach[m] = uint32(i)
			return true
		}
		return false
	}},
	{"win hint elsewhere", func(rng *rand.Rand, c *format.Certificate, values map[string]uint32) bool {
		e := randomEntry(rng, c)
		if e == nil {
			return false
		}
		if len(e.Win) == 0 {
			return false
		}
		i := rng.IntN(len(e.Win))
		g := gameOf(c)
		child := g.children(e.Position)[i]
		lands := g.components(child)
		var candidates []int32
		if x, ok := xorOf(g, child, values); !ok || x == e.Grundy {
			candidates = append(candidates, -1)
		}
		for comp, land := range lands {
			others := slices.Delete(slices.Clone(lands), comp, comp+1)
			rest, restOK := xorAll(others, values)
			replies := g.children(land)
			for j := range len(replies) + 1 {
				if j < len(replies) {
					if x, ok := xorOf(g, replies[j], values); ok && restOK && x^rest == e.Grundy {
						continue // another winning reply
					}
				}
				if w, ok := format.WinReply(comp, j); ok {
					candidates = append(candidates, w)
				}
			}
		}
		candidates = slices.DeleteFunc(candidates, func(w int32) bool { return w == e.Win[i] })
		if len(candidates) == 0 {
			return false
		}
		e.Win[i] = candidates[rng.IntN(len(candidates))]
		return true
	}},
	{"drop win hint", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		e := randomEntry(rng, c)
		if e == nil {
			return false
		}
		if len(e.Win) == 0 {
			return false
		}
		i := rng.IntN(len(e.Win))
		e.Win = slices.Delete(e.Win, i, i+1)
		return true
	}},
	{"add win hint", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		e := randomEntry(rng, c)
		if e == nil {
			return false
		}
		e.Win = append(e.Win, -1)
		return true
	}},
	{"opposite claim", func(rng *rand.Rand, c *format.Certificate, _ map[string]uint32) bool {
		switch c.Claim.Kind {
		case format.ClaimWin:
			c.Claim.Kind = format.ClaimLoss
		case format.ClaimLoss:
			c.Claim.Kind = format.ClaimWin
		default:
			c.Claim.N ^= uint32(1 + rng.IntN(3))
		}
		return true
	}},
}
