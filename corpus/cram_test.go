package corpus

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spots-dev/spots/game"
)

// cramGame is the game of the Cram table.
var cramGame = game.MustGet("cram")

// cramRecords returns the records of c's Cram table (none without one).
func cramRecords(c *Corpus) []GameRecord {
	if t := c.GameTable("cram"); t != nil {
		return t.Records
	}
	return nil
}

// TestCramTable: the committed Cram table lists certificates of every
// empty board up to 5x5 (but 1x1, which has no move), written as
// EncodeGameIndex writes it, and each checks: verified (without -short),
// as listed, and in agreement with the symmetry strategies.
func TestCramTable(t *testing.T) {
	c, rep := committedCorpus(t)
	data, err := os.ReadFile(c.Path(GameIndexFile("cram")))
	if err != nil {
		t.Fatal(err)
	}
	if enc := EncodeGameIndex(cramGame, cramRecords(c)); !bytes.Equal(enc, data) {
		t.Errorf("%s is not as EncodeCramIndex writes it:\n%s", GameIndexFile("cram"), enc)
	}
	have := map[string]bool{}
	for _, r := range cramRecords(c) {
		have[r.Claim.Root] = true
	}
	for h := 1; h <= 5; h++ {
		for w := h; w <= 5; w++ {
			if b := strconv.Itoa(h) + "x" + strconv.Itoa(w); b != "1x1" && !have[b] {
				t.Errorf("no certificate of %s", b)
			}
		}
	}
	checked := 0
	for _, cc := range rep.Games {
		if cc.Game == "cram" {
			checked++
		}
	}
	if checked != len(cramRecords(c)) {
		t.Fatalf("%d Cram certificates checked, %d listed", checked, len(cramRecords(c)))
	}
	for _, cc := range rep.Games {
		if cc.Err != nil || cc.Result.Claim != cc.Record.Claim || cc.Trusted != testing.Short() {
			t.Errorf("%s: %v (proves %s, trusted %v)", cc.Path, cc.Err, cc.Result.Claim, cc.Trusted)
		}
	}
}

// cramCopy makes a corpus in a temporary directory with the committed
// literature, no Sprouts certificate, and the Cram table and certificates
// (changed by edit, which gets the text of cram.csv and the directory).
func cramCopy(t *testing.T, edit func(index string, dir string) string) *Corpus {
	t.Helper()
	c, _ := committedCorpus(t)
	dir := t.TempDir()
	if _, err := c.Copy(dir, func(Record) bool { return false }); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, GameCertsDir("cram")), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, r := range cramRecords(c) {
		data, err := os.ReadFile(c.GamePath("cram", r))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, GameCertsDir("cram"), r.FileName()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := string(EncodeGameIndex(cramGame, cramRecords(c)))
	if err := os.WriteFile(filepath.Join(dir, GameIndexFile("cram")), []byte(edit(index, dir)), 0o644); err != nil {
		t.Fatal(err)
	}
	cp, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return cp
}

// TestBrokenCramTable: what is wrong with a Cram table is a problem of the
// corpus, named.
func TestBrokenCramTable(t *testing.T) {
	c, _ := committedCorpus(t)
	first := cramRecords(c)[0]
	tests := []struct {
		name string
		edit func(index, dir string) string
		want string
	}{
		{"as committed", func(index, _ string) string { return index }, ""},
		{"a certificate missing", func(index, dir string) string {
			os.Remove(filepath.Join(dir, GameCertsDir("cram"), first.FileName()))
			return index
		}, "missing"},
		{"a file not listed", func(index, dir string) string {
			os.WriteFile(filepath.Join(dir, GameCertsDir("cram"), "stray.arrow"), []byte("x"), 0o644)
			return index
		}, "not listed"},
		{"a claim against the symmetry strategy", func(index, _ string) string {
			return strings.Replace(index, "2x2,2x2=L,", "2x2,2x2=W,", 1)
		}, "symmetry strategy proves L"},
		{"another certificate's size", func(index, _ string) string {
			n := "," + strconv.Itoa(first.Entries) + ","
			return strings.Replace(index, n+strconv.FormatInt(first.Bytes, 10)+",", n+"1,", 1)
		}, "bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cp := cramCopy(t, tt.edit)
			rep := cp.Check(CheckOptions{NoVerify: true}) // TestCramTable verifies them
			var cram []string
			for _, p := range rep.Problems {
				if strings.HasPrefix(p.What, "Cram: ") {
					cram = append(cram, p.String())
				}
			}
			switch {
			case tt.want == "" && len(cram) > 0:
				t.Errorf("problems: %q", cram)
			case tt.want != "" && (len(cram) == 0 || !strings.Contains(strings.Join(cram, "\n"), tt.want)):
				t.Errorf("problems %q, want one saying %q", cram, tt.want)
			}
		})
	}
}

// TestReadCramIndexErrors: a malformed row is an error naming the field.
func TestReadCramIndexErrors(t *testing.T) {
	head := strings.Join(gameHeader(cramGame), ",") + "\n"
	addr := strings.Repeat("ab", 32)
	for _, tc := range []struct{ row, want string }{
		{"5x4,5x4=W," + addr + ",1,2,dfpn,0,0,,,,c", "not in canonical form"},
		{"4x5,4x4=W," + addr + ",1,2,dfpn,0,0,,,,c", "not the root"},
		{"4x5,4x5+*1=W," + addr + ",1,2,dfpn,0,0,,,,c", "heap"},
		{"4y5,4y5=W," + addr + ",1,2,dfpn,0,0,,,,c", "parse"},
		{"4x5,4x5=W,xyz,1,2,dfpn,0,0,,,,c", "content address"},
		{"4x5,4x5=W," + addr + ",1,2,swarm,0,0,,,,c", "dfpn"},
	} {
		_, err := ReadGameIndex(cramGame, strings.NewReader(head+tc.row+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.row, err, tc.want)
		}
	}
}
