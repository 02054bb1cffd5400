package verify

import (
	"errors"
	"testing"

	"github.com/spots-dev/spots/format"
)

// citingAll writes a certificate of 0*4=W with the rows of its proof,
// plus extra (in row order, after them), and one of the same claim with
// no rows that cites it; it returns the citing one's path.
func citingAll(t *testing.T, spoil func(rows []format.Entry) []format.Entry) string {
	t.Helper()
	proof, err := spotsDatabase(t, 4).Check(claim(t, "0*4=W"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cited := proof.Certificate("test", "1")
	cited.Entries = spoil(cited.Entries)
	dir := t.TempDir()
	if _, err := format.WriteCertificate(dir, cited, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	citing := proof.Certificate("test", "1")
	citing.Entries, citing.Cites = nil, []string{cited.Address()}
	path, err := format.WriteCertificate(dir, citing, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestUsedEntries: with Options.Used a cited certificate is checked as
// far as the claim uses it. A forged entry the claim uses is rejected,
// by the default check and the independent one; a forged entry nothing
// uses is left unchecked and counted (Read - Used) by both, and found by a
// check of every entry.
func TestUsedEntries(t *testing.T) {
	unused := citingAll(t, func(rows []format.Entry) []format.Entry {
		// 0*5 has more lives than any land of 0*4's proof: the last row.
		return append(rows, format.Entry{Position: "0*5", Grundy: 7, Reach: make([]uint32, 7)})
	})
	for _, opt := range []Options{{Used: true}, {Used: true, Independent: true}} {
		opt.Library = NewLibrary()
		res, err := File(unused, opt)
		if err != nil || res.Read == 0 || res.Read-res.Used != 1 {
			t.Fatalf("a forged entry nothing uses (independent %v): %+v, %v; want VALID with 1 entry not checked", opt.Independent, res, err)
		}
	}
	for _, opt := range []Options{{}, {Independent: true}} {
		opt.Library = NewLibrary()
		if _, err := File(unused, opt); !IsInvalid(err) {
			t.Errorf("every entry checked (independent %v): %v, want INVALID", opt.Independent, err)
		}
	}

	// The land the claim's winning move leaves (value 0, the last row):
	// its win hints made "no reply needed", which some child refutes;
	// then its value made 1, which no child reaches. The independent
	// check ignores hints, so only the second is a forgery to it.
	hint := citingAll(t, func(rows []format.Entry) []format.Entry {
		last := &rows[len(rows)-1]
		for i := range last.Win {
			last.Win[i] = -1
		}
		return rows
	})
	value := citingAll(t, func(rows []format.Entry) []format.Entry {
		last := &rows[len(rows)-1]
		last.Grundy, last.Reach = 1, []uint32{0}
		return rows
	})
	for _, tc := range []struct {
		path string
		opt  Options
	}{
		{hint, Options{Used: true}}, {hint, Options{}},
		{value, Options{Used: true}}, {value, Options{Used: true, Independent: true}}, {value, Options{}}, {value, Options{Independent: true}},
	} {
		tc.opt.Library = NewLibrary()
		_, err := File(tc.path, tc.opt)
		var ce *CitationError
		if !IsInvalid(err) || tc.path == hint && !errors.As(err, &ce) {
			t.Errorf("a forged entry the claim uses (independent %v, used %v): %v, want INVALID", tc.opt.Independent, tc.opt.Used, err)
		}
	}
}

// TestUsedEntriesWorkers: the entries checked, and the verdict, do not
// depend on the number of workers that check them.
func TestUsedEntriesWorkers(t *testing.T) {
	path := citingAll(t, func(rows []format.Entry) []format.Entry { return rows })
	for _, independent := range []bool{false, true} {
		var first Result
		for _, w := range []int{1, 2, 4} {
			res, err := File(path, Options{Used: true, Independent: independent, Workers: w, Library: NewLibrary()})
			if err != nil {
				t.Fatal(err)
			}
			if w == 1 {
				first = res
			} else if res != first {
				t.Errorf("independent %v, %d workers: %+v; 1 worker: %+v", independent, w, res, first)
			}
		}
		if first.Used == 0 || first.Used > first.Read {
			t.Errorf("independent %v: a proof whose rows are all used: %d of %d used", independent, first.Used, first.Read)
		}
		if !independent && first.Used != first.Read {
			t.Errorf("a proof whose rows are all used: %d of %d used", first.Used, first.Read)
		}
	}
}
