package corpus

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzReadIndex checks that no input makes the index reader panic and that
// what it accepts encodes to an index it reads back to the same bytes.
func FuzzReadIndex(f *testing.F) {
	if data, err := os.ReadFile("index.csv"); err == nil {
		f.Add(string(data))
	}
	f.Add(strings.Join(indexHeader, ",") + "\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		rs, err := ReadIndex(strings.NewReader(in))
		if err != nil {
			return
		}
		once := EncodeIndex(rs)
		back, err := ReadIndex(bytes.NewReader(once))
		if err != nil {
			t.Fatalf("accepted records encode to an index that does not read: %v\n%s", err, once)
		}
		if twice := EncodeIndex(back); !bytes.Equal(once, twice) {
			t.Fatalf("index changes on a round trip:\n%s\n%s", once, twice)
		}
	})
}

// FuzzReadLiterature checks that no input makes the literature reader
// panic and that what it accepts keeps its promise: n strictly increasing,
// and a solver named exactly for the settled rows ("unsolved" or
// nothing for the open ones).
func FuzzReadLiterature(f *testing.F) {
	if data, err := os.ReadFile("literature.csv"); err == nil {
		f.Add(string(data))
	}
	f.Add(strings.Join(literatureHeader, ",") + "\n1,L,Conway,2e0\n")
	f.Fuzz(func(t *testing.T, in string) {
		rows, err := ReadLiterature(strings.NewReader(in))
		if err != nil {
			return
		}
		for i, k := range rows {
			if i > 0 && k.N <= rows[i-1].N {
				t.Fatalf("row %d: n = %d after %d", i, k.N, rows[i-1].N)
			}
			unsolved := k.FirstSolvedBy == "" || strings.EqualFold(k.FirstSolvedBy, "unsolved")
			if k.Open() != unsolved {
				t.Fatalf("row %d: outcome %v, solver %q", i, k.Outcome, k.FirstSolvedBy)
			}
		}
	})
}

// FuzzReadCramIndex checks that no input makes the Cram index reader panic
// and that what it accepts encodes to an index it reads back to the same
// bytes.
func FuzzReadCramIndex(f *testing.F) {
	if data, err := os.ReadFile(GameIndexFile("cram")); err == nil {
		f.Add(string(data))
	}
	f.Add(strings.Join(gameHeader(cramGame), ",") + "\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		rs, err := ReadGameIndex(cramGame, strings.NewReader(in))
		if err != nil {
			return
		}
		once := EncodeGameIndex(cramGame, rs)
		back, err := ReadGameIndex(cramGame, bytes.NewReader(once))
		if err != nil {
			t.Fatalf("accepted records encode to an index that does not read: %v\n%s", err, once)
		}
		if twice := EncodeGameIndex(cramGame, back); !bytes.Equal(once, twice) {
			t.Fatalf("index changes on a round trip:\n%s\n%s", once, twice)
		}
	})
}

func FuzzReadLemmaIndex(f *testing.F) {
	f.Add(strings.Join(lemmaHeader, ",") + "\n")
	f.Add(strings.Join(lemmaHeader, ",") + "\n53,lemmas(0*53)," + strings.Repeat("ab", 32) + ",10,2000,dfpn,12.5,3.000,2026-11-28,spots v1,linux/amd64 2 CPUs,spots-corpus add --solve 53,12345," + strings.Repeat("cd", 32) + "\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		rs, err := ReadLemmaIndex(strings.NewReader(in))
		if err != nil {
			return
		}
		once := EncodeLemmaIndex(rs)
		back, err := ReadLemmaIndex(bytes.NewReader(once))
		if err != nil {
			t.Fatalf("accepted records encode to an index that does not read: %v\n%s", err, once)
		}
		if twice := EncodeLemmaIndex(back); !bytes.Equal(once, twice) {
			t.Fatalf("index changes on a round trip:\n%s\n%s", once, twice)
		}
	})
}
