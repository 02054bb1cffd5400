package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// committed is the corpus of the repository, checked once for all tests
// (verifying every certificate takes seconds). In short mode (make test,
// which verifies every certificate with spots-corpus check) the check
// trusts the certificates it finds as listed (CheckOptions.NoVerify).
var committed struct {
	once sync.Once
	c    *Corpus
	rep  *Report
	err  error
}

func committedCorpus(t *testing.T) (*Corpus, *Report) {
	t.Helper()
	committed.once.Do(func() {
		committed.c, committed.err = Open(".")
		if committed.err == nil {
			committed.rep = committed.c.Check(CheckOptions{NoVerify: testing.Short()})
		}
	})
	if committed.err != nil {
		t.Fatal(committed.err)
	}
	return committed.c, committed.rep
}

func TestCommittedCorpusChecks(t *testing.T) {
	c, rep := committedCorpus(t)
	for _, p := range rep.Problems {
		t.Errorf("problem: %s", p)
	}
	if len(c.Literature) != 105 {
		t.Errorf("%d literature rows, want 105", len(c.Literature))
	}
	// The committed corpus holds what the issue asks for: the outcomes of
	// 0*1 … 0*14, all verified.
	for n := 1; n <= 14; n++ {
		i := c.RecordOf(n, false)
		if i < 0 {
			t.Errorf("no outcome certificate of 0*%d", n)
			continue
		}
		if r := c.Records[i]; !r.Committed || !rep.Verified(r.Address) {
			t.Errorf("%s: committed %v, verified %v", r.Claim, r.Committed, rep.Verified(r.Address))
		}
	}
	if len(rep.Certificates) == 0 {
		t.Fatal("no certificate checked")
	}
	for _, cc := range rep.Certificates {
		if cc.Err != nil || cc.Result.Claim != cc.Record.Claim {
			t.Errorf("%s: %v (proves %s)", cc.Path, cc.Err, cc.Result.Claim)
		}
	}
}

// TestLiteratureIsTheSharedTable checks that literature.csv is the
// reference's table, kept in the repository as ../testdata/outcomes.csv
// (which the solver's tests read).
func TestLiteratureIsTheSharedTable(t *testing.T) {
	shared := filepath.Join("..", "testdata", "outcomes.csv")
	want, err := os.ReadFile(shared)
	if err != nil {
		t.Fatalf("the reference's table (part of the repository): %v", err)
	}
	have, err := os.ReadFile(LiteratureFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Errorf("%s differs from %s: copy it again", LiteratureFile, shared)
	}
}

func TestGeneratedFilesAreUpToDateAndDeterministic(t *testing.T) {
	c, rep := committedCorpus(t)
	g1, err := c.Generate(rep)
	if err != nil {
		t.Fatal(err)
	}
	// A second rendering, from a corpus read again, gives the same bytes.
	c2, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	g2, err := c2.Generate(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(g1.Outcomes, g2.Outcomes) || !bytes.Equal(g1.Plot, g2.Plot) {
		t.Error("two renderings of the same corpus differ")
	}
	if stale := c.Stale(g1); len(stale) > 0 {
		t.Errorf("%v stale: run go run ./cmd/spots-corpus regenerate", stale)
	}
	if !bytes.HasPrefix(g1.Plot, []byte("<?xml")) || !bytes.Contains(g1.Plot, []byte("<svg")) {
		t.Errorf("the plot is not an SVG: %.60q", g1.Plot)
	}
	// The index is in its canonical order and form.
	data, err := os.ReadFile(IndexFile)
	if err != nil {
		t.Fatal(err)
	}
	if enc := EncodeIndex(c.Records); !bytes.Equal(enc, data) {
		t.Errorf("%s is not as EncodeIndex writes it:\n%s", IndexFile, enc)
	}
}

// TestCheckWithoutVerifying checks that NoVerify reads no certificate but
// still finds missing files, sizes that differ from the index and every
// other disagreement.
func TestCheckWithoutVerifying(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, c *Corpus)
		what  string // in a problem; "" for none
	}{
		{"as committed", func(*testing.T, *Corpus) {}, ""},
		{"corrupted certificate, same size", func(t *testing.T, c *Corpus) {
			path := c.CertPath(find(t, c, "0*5=W"))
			data, _ := os.ReadFile(path)
			data[len(data)/2] ^= 0x55
			os.WriteFile(path, data, 0o644)
		}, ""},
		{"truncated certificate", func(t *testing.T, c *Corpus) {
			path := c.CertPath(find(t, c, "0*4=W"))
			data, _ := os.ReadFile(path)
			os.WriteFile(path, data[:len(data)/3], 0o644)
		}, "bytes, but index.csv line"},
		{"missing certificate", func(t *testing.T, c *Corpus) {
			os.Remove(c.CertPath(find(t, c, "0*3=W")))
		}, "missing"},
		{"literature contradicts the certificate", func(t *testing.T, c *Corpus) {
			edit(t, c.Path(LiteratureFile), "\n5,W,Mollison,", "\n5,L,Mollison,")
		}, "literature.csv line 6 says L"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := smallCopy(t, 5)
			tt.spoil(t, c)
			c, err := Open(c.Dir)
			if err != nil {
				t.Fatal(err)
			}
			rep := c.Check(CheckOptions{NoVerify: true, Verify: verify.Options{Progress: func(int, int) {
				t.Error("NoVerify ran the checker")
			}}})
			if tt.what == "" {
				if !rep.OK() {
					t.Errorf("problems: %v", rep.Problems)
				}
				for _, cc := range rep.Certificates {
					if !cc.Trusted || !rep.Verified(cc.Record.Address) || cc.Result.Claim != cc.Record.Claim {
						t.Errorf("%s: trusted %v, verified %v, result %v", cc.Record.Claim, cc.Trusted, rep.Verified(cc.Record.Address), cc.Result.Claim)
					}
				}
				return
			}
			for _, p := range rep.Problems {
				if strings.Contains(p.String(), tt.what) {
					return
				}
			}
			t.Errorf("no problem with %q; got %v", tt.what, rep.Problems)
		})
	}
}

func TestGenerateRefusesAProblem(t *testing.T) {
	c := smallCopy(t, 5)
	if err := os.Remove(c.CertPath(c.Records[0])); err != nil {
		t.Fatal(err)
	}
	rep := c.Check(CheckOptions{})
	if _, err := c.Generate(rep); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Generate with a missing certificate: %v", err)
	}
	if _, err := c.Generate(nil); err == nil {
		t.Error("Generate without a check succeeded")
	}
}

// smallCopy copies the literature and the certificates of 0*n, n ≤ maxN,
// into a temporary corpus, which checks.
func smallCopy(t *testing.T, maxN int) *Corpus {
	t.Helper()
	c, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	cp, err := c.Copy(t.TempDir(), func(r Record) bool { return r.N <= maxN })
	if err != nil {
		t.Fatal(err)
	}
	if rep := cp.Check(CheckOptions{}); !rep.OK() {
		t.Fatalf("the copy does not check: %v", rep.Problems)
	}
	return cp
}

// find returns the record of a claim.
func find(t *testing.T, c *Corpus, claim string) Record {
	t.Helper()
	for _, r := range c.Records {
		if r.Claim.String() == claim {
			return r
		}
	}
	t.Fatalf("no record of %s", claim)
	return Record{}
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBrokenCorpusFails(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, c *Corpus) (file string)
		n     int
		what  []string // in one problem, with the file's name
	}{
		{"corrupted certificate", func(t *testing.T, c *Corpus) string {
			path := c.CertPath(find(t, c, "0*5=W"))
			data, _ := os.ReadFile(path)
			data[len(data)/2] ^= 0x55
			os.WriteFile(path, data, 0o644)
			return path
		}, 5, []string{"invalid certificate", "0*5=W"}},
		{"truncated certificate", func(t *testing.T, c *Corpus) string {
			path := c.CertPath(find(t, c, "gn(0*4)=1"))
			data, _ := os.ReadFile(path)
			os.WriteFile(path, data[:len(data)/3], 0o644)
			return path
		}, 4, []string{"invalid certificate", "gn(0*4)=1"}},
		{"missing certificate", func(t *testing.T, c *Corpus) string {
			path := c.CertPath(find(t, c, "0*3=W"))
			os.Remove(path)
			return path
		}, 3, []string{"missing", "index.csv line", "0*3=W"}},
		{"unlisted file", func(t *testing.T, c *Corpus) string {
			path := filepath.Join(c.Dir, CertsDir, strings.Repeat("ab", 32)+".arrow")
			data, _ := os.ReadFile(c.CertPath(c.Records[0]))
			os.WriteFile(path, data, 0o644)
			return path
		}, 0, []string{"not listed in index.csv"}},
		{"literature contradicts the certificate", func(t *testing.T, c *Corpus) string {
			edit(t, c.Path(LiteratureFile), "\n5,W,Mollison,", "\n5,L,Mollison,")
			return c.CertPath(find(t, c, "0*5=W"))
		}, 5, []string{"certifies 0*5=W", "literature.csv line 6 says L"}},
		{"literature contradicts the conjecture", func(t *testing.T, c *Corpus) string {
			edit(t, c.Path(LiteratureFile), "\n40,W,", "\n40,L,")
			return c.Path(LiteratureFile)
		}, 40, []string{"line 41 says 0*40 is L", "Sprouts conjecture says W"}},
		{"index claims the opposite", func(t *testing.T, c *Corpus) string {
			edit(t, c.Path(IndexFile), ",0*5=W,", ",0*5=L,")
			return c.CertPath(find(t, c, "0*5=W"))
		}, 5, []string{"the certificate proves 0*5=W", "says it proves 0*5=L"}},
		{"index gives the wrong entry count", func(t *testing.T, c *Corpus) string {
			r := find(t, c, "0*4=W")
			edit(t, c.Path(IndexFile), fmt.Sprintf("%s,%d,", r.Address, r.Entries), fmt.Sprintf("%s,%d,", r.Address, r.Entries+1))
			return c.CertPath(r)
		}, 4, []string{"entries, but index.csv line", "says"}},
		{"file renamed to another address", func(t *testing.T, c *Corpus) string {
			r := find(t, c, "0*2=L")
			other := strings.Repeat("0", 64)
			edit(t, c.Path(IndexFile), r.Address, other)
			os.Rename(c.CertPath(r), filepath.Join(c.Dir, CertsDir, other+".arrow"))
			return filepath.Join(c.Dir, CertsDir, other+".arrow")
		}, 2, []string{"invalid certificate", "content address"}},
		{"a listed-only certificate is present", func(t *testing.T, c *Corpus) string {
			r := find(t, c, "0*3=W")
			edit(t, c.Path(IndexFile), "yes,spots-corpus add --solve 3,", "no,spots-corpus add --solve 3,")
			return c.CertPath(r)
		}, 3, []string{"is present", "not committed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := smallCopy(t, 5)
			file := tt.spoil(t, c)
			c, err := Open(c.Dir)
			if err != nil {
				t.Fatal(err)
			}
			rep := c.Check(CheckOptions{})
			if rep.OK() {
				t.Fatal("the broken corpus checks")
			}
			for _, p := range rep.Problems {
				if p.N == tt.n && p.File == file && containsAll(p.String(), tt.what) {
					return
				}
			}
			t.Errorf("no problem with n = %d, file %s and %q; got:", tt.n, file, tt.what)
			for _, p := range rep.Problems {
				t.Errorf("  %s", p)
			}
		})
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

func TestUnreadableCorpus(t *testing.T) {
	tests := []struct {
		name string
		file string // written into a copy
		text string
		want string
	}{
		{"bad index header", IndexFile, "n,claim\n", "index.csv: line 1: header"},
		// Rows of the header before independent_seconds was added.
		{"bad claim", IndexFile, strings.Join(indexHeader[:13], ",") + "\n5,0*5=X,a,1,1,dfpn,1,1,,p,m,yes,c\n", "line 2: claim"},
		{"claim not about 0*n", IndexFile, strings.Join(indexHeader[:13], ",") + "\n2,0.1=W,a,1,1,dfpn,1,1,,p,m,yes,c\n", `root "0.1" is not an n-spot start`},
		{"heap claim", IndexFile, strings.Join(indexHeader[:13], ",") + "\n2,0*2+*1=W,a,1,1,dfpn,1,1,,p,m,yes,c\n", "says nothing of 0*2 alone"},
		{"n disagrees", IndexFile, strings.Join(indexHeader[:13], ",") + "\n3,0*2=L," + strings.Repeat("a", 64) + ",1,1,dfpn,1,1,,p,m,yes,c\n", `n "3": does not match`},
		{"bad address", IndexFile, strings.Join(indexHeader[:13], ",") + "\n2,0*2=L,xyz,1,1,dfpn,1,1,,p,m,yes,c\n", `address "xyz"`},
		{"bad committed", IndexFile, strings.Join(indexHeader[:13], ",") + "\n2,0*2=L," + strings.Repeat("a", 64) + ",1,1,dfpn,1,1,,p,m,maybe,c\n", `committed "maybe"`},
		{"bad independent time", IndexFile, strings.Join(indexHeader[:colIterations], ",") + "\n2,0*2=L," + strings.Repeat("a", 64) + ",1,1,dfpn,1,1,,p,m,yes,c,soon\n", `independent_seconds "soon"`},
		{"bad iterations", IndexFile, strings.Join(indexHeader, ",") + "\n2,0*2=L," + strings.Repeat("a", 64) + ",1,1,dfpn,1,1,,p,m,yes,c,,many,\n", `iterations "many"`},
		{"cites not an address", IndexFile, strings.Join(indexHeader, ",") + "\n2,0*2=L," + strings.Repeat("a", 64) + ",1,1,dfpn,1,1,,p,m,yes,c,,7,xyz\n", `cites: "xyz" is not a content address`},
		{"cites out of order", IndexFile, strings.Join(indexHeader, ",") + "\n2,0*2=L," + strings.Repeat("a", 64) + ",1,1,dfpn,1,1,,p,m,yes,c,,7," + strings.Repeat("c", 64) + " " + strings.Repeat("b", 64) + "\n", "in increasing order"},
		{"cites itself", IndexFile, strings.Join(indexHeader, ",") + "\n2,0*2=L," + strings.Repeat("a", 64) + ",1,1,dfpn,1,1,,p,m,yes,c,,7," + strings.Repeat("a", 64) + "\n", "cannot cite itself"},
		{"bad literature outcome", LiteratureFile, strings.Join(literatureHeader, ",") + "\n1,X,Conway,2e0\n", "line 2: n = 1: outcome \"X\""},
		{"literature out of order", LiteratureFile, strings.Join(literatureHeader, ",") + "\n2,L,Conway,4e0\n1,L,Conway,2e0\n", "line 3: n = 1 after n = 2"},
		{"open case with a solver", LiteratureFile, strings.Join(literatureHeader, ",") + "\n63,?,GLOP 2007,\n", "outcome ? but first_solved_by"},
		{"solved case without one", LiteratureFile, strings.Join(literatureHeader, ",") + "\n6,L,unsolved,\n", "names no solver"},
		{"short row", LiteratureFile, strings.Join(literatureHeader, ",") + "\n6,L\n", "line 2: 2 fields, want 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := smallCopy(t, 2)
			os.WriteFile(c.Path(tt.file), []byte(tt.text), 0o644)
			_, err := Open(c.Dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.file) {
				t.Errorf("Open: %v, want an error naming %s and %q", err, tt.file, tt.want)
			}
		})
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none")); err == nil {
		t.Error("Open of a missing directory succeeded")
	}
}

func TestSolver(t *testing.T) {
	tests := []struct{ text, who, year string }{
		{"GLOP 2007", "GLOP", "2007"},
		{"GLOP 2010-2011", "GLOP", "2010-2011"},
		{"Applegate-Jacobson-Sleator 1991", "Applegate-Jacobson-Sleator", "1991"},
		{"Purinton AuntBeast 2006", "Purinton AuntBeast", "2006"},
		{"SPOTS sequential", "SPOTS sequential", ""},
		{"Conway", "Conway", ""},
		{"Team 42", "Team 42", ""},
	}
	for _, tt := range tests {
		who, year := Known{N: 1, Outcome: Loss, FirstSolvedBy: tt.text}.Solver()
		if who != tt.who || year != tt.year {
			t.Errorf("%q: %q, %q; want %q, %q", tt.text, who, year, tt.who, tt.year)
		}
	}
	if who, year := (Known{N: 63, Outcome: Unknown, FirstSolvedBy: "unsolved"}).Solver(); who != "" || year != "" {
		t.Errorf("open case: %q, %q", who, year)
	}
}

func TestConjecture(t *testing.T) {
	tests := []struct {
		n   int
		out Outcome
		g   uint32
	}{{1, Loss, 0}, {2, Loss, 0}, {3, Win, 1}, {4, Win, 1}, {5, Win, 1}, {6, Loss, 0}, {11, Win, 1}, {12, Loss, 0}, {63, Win, 1}, {104, Loss, 0}}
	for _, tt := range tests {
		if out, g := Conjecture(tt.n); out != tt.out || g != tt.g {
			t.Errorf("Conjecture(%d) = %s, %d; want %s, %d", tt.n, out, g, tt.out, tt.g)
		}
	}
}

func TestClaims(t *testing.T) {
	tests := []struct {
		claim string
		n     int
		out   Outcome
		g     int // -1: none
		err   string
	}{
		{"0=L", 1, Loss, 0, ""},
		{"0*14=L", 14, Loss, 0, ""},
		{"0*15=W", 15, Win, -1, ""},
		{"gn(0*9)=1", 9, Win, 1, ""},
		{"gn(0*12)=0", 12, Loss, 0, ""},
		{"0*1=L", 0, 0, 0, "not in canonical form"},
		{"0.0=L", 0, 0, 0, "not an n-spot start"},
		{"0*0=L", 0, 0, 0, "not an n-spot start"},
		{"0*x=L", 0, 0, 0, "not an n-spot start"},
		{"0*99999=L", 0, 0, 0, "not an n-spot start"},
		{"0*3+*1=L", 3, 0, 0, "says nothing of 0*3 alone"},
	}
	for _, tt := range tests {
		c, err := format.ParseClaim(tt.claim)
		if err != nil {
			t.Fatal(err)
		}
		n, err := ClaimSpots(c)
		var out Outcome
		var g *uint32
		if err == nil {
			out, g, err = ClaimOutcome(c)
		}
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %v, want an error with %q", tt.claim, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tt.claim, err)
		case n != tt.n || out != tt.out || (g == nil) != (tt.g < 0) || g != nil && int(*g) != tt.g:
			t.Errorf("%s: n %d, %s, %v; want %d, %s, %d", tt.claim, n, out, g, tt.n, tt.out, tt.g)
		}
	}
}

func TestTable(t *testing.T) {
	c := smallCopy(t, 5)
	rows := c.Table(c.Check(CheckOptions{}))
	if len(rows) != 105 {
		t.Fatalf("%d rows", len(rows))
	}
	r3, r6, r63 := rows[2], rows[5], rows[62]
	if r3.N != 3 || r3.Outcome != Win || r3.Grundy == nil || *r3.Grundy != 1 || !r3.Certified() || len(r3.Certificates) != 2 {
		t.Errorf("row 3: %+v", r3)
	}
	if r6.Outcome != Loss || r6.Grundy == nil || *r6.Grundy != 0 || r6.Certified() {
		t.Errorf("row 6 (literature only, L so Grundy 0): %+v", r6)
	}
	if r63.Outcome != Unknown || r63.Grundy != nil || r63.Known == nil || !r63.Known.Open() || r63.ConjectureOutcome != Win {
		t.Errorf("row 63 (open): %+v", r63)
	}
	// Without a check, committed certificates are unchecked and prove nothing.
	for _, cert := range c.Table(nil)[2].Certificates {
		if cert.Status != StatusUnchecked {
			t.Errorf("%s: status %q without a check", cert.Claim, cert.Status)
		}
	}
	g, err := Render(rows)
	if err != nil {
		t.Fatal(err)
	}
	md := string(g.Outcomes)
	for _, want := range []string{
		"| 3 | W | 1 | W | Conway |  | 7e0 | `0*3=W` [`" + r3.Certificates[0].ShortAddress() + "`](certs/" + r3.Certificates[0].Address + ".arrow)",
		"| 7 | L | 0 | L | Applegate-Jacobson-Sleator | 1991 | 2e2 |",
		"| 63 | ? |  | W | *open* |",
		"| 33 | W |  | W | GLOP | 2010-2011 | 1e6 |",
		"settles 89 of the 105",
		"![proof size against n beside the published proof sizes, certificate bytes, solve and verify times](outcomes.svg)",
		"| entries | bytes | solve | verify | verify/solve |",
		"| 3 | W | 1 | W | Conway |  | 7e0 |",
		"| 6 | L | 0 | L | ",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("OUTCOMES.md has no %q", want)
		}
	}
}

func TestPutAndIndexOrder(t *testing.T) {
	c := smallCopy(t, 3)
	r := find(t, c, "0*3=W")
	r.Address, r.Line = strings.Repeat("f", 64), 0
	old, ok := c.Put(r, c.RecordOf(3, false))
	if !ok || old.Claim.String() != "0*3=W" || old.Address == r.Address {
		t.Errorf("Put replaced %+v, %v", old, ok)
	}
	if got := c.Records[c.RecordOf(3, false)].Address; got != r.Address {
		t.Errorf("after Put: %s", got)
	}
	if i := c.RecordOf(3, true); i < 0 || c.Records[i].Claim.String() != "gn(0*3)=1" || c.RecordOf(7, false) != -1 {
		t.Errorf("RecordOf: %d", i)
	}
	if err := c.SaveIndex(); err != nil {
		t.Fatal(err)
	}
	c2, err := Open(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var claims []string
	for _, r := range c2.Records {
		claims = append(claims, r.Claim.String())
	}
	if got := strings.Join(claims, " "); got != "0=L 0*2=L 0*3=W gn(0*3)=1" {
		t.Errorf("index order: %s", got)
	}
}

func TestFind(t *testing.T) {
	dir, err := Find(filepath.Join("..", "cmd"))
	if err != nil {
		t.Fatal(err)
	}
	if abs, _ := filepath.Abs("."); dir != abs {
		t.Errorf("Find from cmd/: %s, want %s", dir, abs)
	}
	if _, err := Find(t.TempDir()); err == nil || !strings.Contains(err.Error(), "--dir") {
		t.Errorf("Find outside the repository: %v", err)
	}
}

func TestSpans(t *testing.T) {
	tests := []struct {
		ns   []int
		want string
	}{
		{nil, "none"},
		{[]int{5}, "0*5"},
		{[]int{1, 2, 3, 5, 7, 8, 10}, "0*1 … 0*3, 0*5, 0*7, 0*8, 0*10"},
	}
	for _, tt := range tests {
		if got := spans(tt.ns); got != tt.want {
			t.Errorf("spans(%v) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}

// keepElsewhere makes the certificate of claim in c one kept elsewhere:
// its file moves into a new directory, which it returns, and index.csv
// says committed no. It returns the corpus read again.
func keepElsewhere(t *testing.T, c *Corpus, claim string) (*Corpus, string) {
	t.Helper()
	r := find(t, c, claim)
	dir := t.TempDir()
	if err := os.Rename(c.CertPath(r), filepath.Join(dir, r.FileName())); err != nil {
		t.Fatal(err)
	}
	r.Committed = false
	c.Put(r, c.RecordOf(r.N, r.Claim.Kind == format.ClaimGrundy))
	if err := c.SaveIndex(); err != nil {
		t.Fatal(err)
	}
	c, err := Open(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	return c, dir
}

func TestSizeRule(t *testing.T) {
	c := smallCopy(t, 5)
	total, err := c.Size()
	if err != nil {
		t.Fatal(err)
	}
	largest := find(t, c, "gn(0*5)=1") // the largest of n ≤ 5
	for _, r := range c.Records {
		if r.Bytes > largest.Bytes {
			t.Fatalf("%s has %d bytes, more than %s", r.Claim, r.Bytes, largest.Claim)
		}
	}
	tests := []struct {
		name   string
		limits Limits
		file   string // of the problem; "" for none
		what   string
	}{
		{"defaults", Limits{}, "", ""},
		{"exactly at both limits", Limits{CertBytes: largest.Bytes, CorpusBytes: total}, "", ""},
		{"a certificate one byte over", Limits{CertBytes: largest.Bytes - 1}, c.CertPath(largest),
			fmt.Sprintf("has %d bytes (%s), over the %s a committed certificate may have", largest.Bytes, SizeText(largest.Bytes), SizeText(largest.Bytes-1))},
		{"the corpus one byte over", Limits{CorpusBytes: total - 1}, c.Dir, fmt.Sprintf("holds %d bytes", total)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, noVerify := range []bool{false, true} {
				rep := c.Check(CheckOptions{Limits: tt.limits, NoVerify: noVerify})
				if rep.Bytes != total {
					t.Errorf("report: %d bytes, want %d", rep.Bytes, total)
				}
				if tt.file == "" {
					if !rep.OK() {
						t.Errorf("problems: %v", rep.Problems)
					}
					continue
				}
				if len(rep.Problems) != 1 || rep.Problems[0].File != tt.file || !strings.Contains(rep.Problems[0].What, tt.what) {
					t.Errorf("NoVerify %v: problems %v, want one of %s with %q", noVerify, rep.Problems, tt.file, tt.what)
				}
			}
		})
	}
	// A certificate kept elsewhere is held to neither limit.
	c, _ = keepElsewhere(t, c, "gn(0*5)=1")
	if rep := c.Check(CheckOptions{Limits: Limits{CertBytes: largest.Bytes - 1}}); !rep.OK() {
		t.Errorf("a large certificate kept elsewhere: %v", rep.Problems)
	}
}

func TestFits(t *testing.T) {
	c := smallCopy(t, 3)
	total, err := c.Size()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		limits   Limits
		bytes    int64
		inCorpus bool
		freed    int64
		fits     bool
		why      string
	}{
		{"small", Limits{}, 1000, false, 0, true, ""},
		{"at the certificate limit", Limits{CertBytes: 1000}, 1000, false, 0, true, ""},
		{"over the certificate limit", Limits{CertBytes: 999}, 1000, false, 0, false, "it has 1000 bytes (1.0 KB), over the 999 B"},
		{"16 MB", Limits{}, MaxCertBytes, false, 0, true, ""},
		{"over 16 MB", Limits{}, MaxCertBytes + 1, false, 0, false, "over the 16.0 MB"},
		{"the corpus would be over", Limits{CorpusBytes: total + 999}, 1000, false, 0, false, fmt.Sprintf("would hold %d bytes", total+1000)},
		{"the corpus just fits", Limits{CorpusBytes: total + 1000}, 1000, false, 0, true, ""},
		{"already in the corpus", Limits{CorpusBytes: total}, 1000, true, 0, true, ""},
		{"a replaced file frees room", Limits{CorpusBytes: total + 500}, 1000, false, 500, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fits, why, err := c.Fits(tt.limits, tt.bytes, tt.inCorpus, tt.freed)
			if err != nil || fits != tt.fits || !strings.Contains(why, tt.why) || fits && why != "" {
				t.Errorf("Fits: %v %q %v; want %v and %q", fits, why, err, tt.fits, tt.why)
			}
		})
	}
}

func TestCheckElsewhere(t *testing.T) {
	tests := []struct {
		name     string
		dirs     func(kept string) []string
		spoil    func(t *testing.T, path string)
		noVerify bool
		status   string // of the certificate kept elsewhere; "" for no check of it
		found    bool   // in kept (not another directory)
		problem  string // in the one problem; "" for none
	}{
		{"no directory given", func(string) []string { return nil }, nil, false, "", false, ""},
		{"in the directory", func(k string) []string { return []string{k} }, nil, false, StatusElsewhere, true, ""},
		{"in the second directory", func(k string) []string { return []string{t.TempDir(), k} }, nil, false, StatusElsewhere, true, ""},
		{"in no directory", func(string) []string { return []string{t.TempDir()} }, nil, false, StatusMissing, false, ""},
		{"corrupted", func(k string) []string { return []string{k} }, func(t *testing.T, path string) {
			data, _ := os.ReadFile(path)
			data[len(data)/2] ^= 0x55
			os.WriteFile(path, data, 0o644)
		}, false, StatusFailed, true, "kept elsewhere: invalid certificate (listed for 0*5=W)"},
		{"trailing garbage", func(k string) []string { return []string{k} }, func(t *testing.T, path string) {
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.Write([]byte{0})
			f.Close()
		}, false, StatusFailed, true, "kept elsewhere: invalid certificate"},
		{"not verified", func(k string) []string { return []string{k} }, nil, true, StatusFound, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, kept := keepElsewhere(t, smallCopy(t, 5), "0*5=W")
			r := find(t, c, "0*5=W")
			if tt.spoil != nil {
				tt.spoil(t, filepath.Join(kept, r.FileName()))
			}
			rep := c.Check(CheckOptions{Elsewhere: tt.dirs(kept), NoVerify: tt.noVerify})
			if len(rep.Certificates) != 7 {
				t.Errorf("%d committed certificates checked, want 7", len(rep.Certificates))
			}
			switch {
			case tt.problem == "" && !rep.OK():
				t.Errorf("problems: %v", rep.Problems)
			case tt.problem != "" && (len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0].What, tt.problem) || rep.Problems[0].File != filepath.Join(kept, r.FileName())):
				t.Errorf("problems: %v, want one with %q", rep.Problems, tt.problem)
			}
			if tt.status == "" {
				if rep.Elsewhere != nil {
					t.Errorf("checked elsewhere: %+v", rep.Elsewhere)
				}
				return
			}
			if len(rep.Elsewhere) != 1 || rep.Elsewhere[0].Record.Address != r.Address {
				t.Fatalf("elsewhere: %+v", rep.Elsewhere)
			}
			cc := rep.Elsewhere[0]
			var status string
			switch {
			case cc.Missing:
				status = StatusMissing
			case cc.Err != nil:
				status = StatusFailed
			case cc.Trusted:
				status = StatusFound
			default:
				status = StatusElsewhere
			}
			if status != tt.status || (cc.Path == filepath.Join(kept, r.FileName())) != tt.found {
				t.Errorf("status %q, path %q; want %q (found in %s: %v)", status, cc.Path, tt.status, kept, tt.found)
			}
			if status == StatusElsewhere && (cc.Result.Claim != r.Claim || cc.Result.Entries != r.Entries) {
				t.Errorf("result %+v", cc.Result)
			}
			// Certificates kept elsewhere never make the generated files.
			if rep.OK() && rep.Verified(r.Address) {
				t.Error("Verified counts a certificate kept elsewhere")
			}
		})
	}
}

func TestCheckSample(t *testing.T) {
	tests := []struct {
		name     string
		maxN     int
		changed  []string // claims
		corrupt  string   // claim of a certificate spoilt, same size
		verified []string // claims verified; the others only found
		problem  bool
	}{
		{"fixed part only", 2, nil, "", []string{"0=L", "0*2=L"}, false},
		{"fixed part and a changed one", 2, []string{"gn(0*4)=1"}, "", []string{"0=L", "0*2=L", "gn(0*4)=1"}, false},
		{"a spoilt one outside the sample is not read", 2, nil, "0*5=W", []string{"0=L", "0*2=L"}, false},
		{"a spoilt one that changed is caught", 2, []string{"0*5=W"}, "0*5=W", []string{"0=L", "0*2=L"}, true},
		{"a spoilt one in the fixed part is caught", 5, nil, "0*5=W", []string{"0=L", "0*2=L", "0*3=W", "gn(0*3)=1", "0*4=W", "gn(0*4)=1", "gn(0*5)=1"}, true},
		{"everything", 100, nil, "", []string{"0=L", "0*2=L", "0*3=W", "gn(0*3)=1", "0*4=W", "gn(0*4)=1", "0*5=W", "gn(0*5)=1"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := smallCopy(t, 5)
			changed := map[string]bool{}
			for _, claim := range tt.changed {
				changed[find(t, c, claim).Address] = true
			}
			if tt.corrupt != "" {
				path := c.CertPath(find(t, c, tt.corrupt))
				data, _ := os.ReadFile(path)
				data[len(data)/2] ^= 0x55
				os.WriteFile(path, data, 0o644)
			}
			rep := c.Check(CheckOptions{Sample: Sample(tt.maxN, changed)})
			if rep.OK() == tt.problem {
				t.Errorf("problems: %v", rep.Problems)
			}
			var verified []string
			for _, cc := range rep.Certificates {
				if !cc.Trusted && cc.Err == nil {
					verified = append(verified, cc.Record.Claim.String())
				}
				if cc.Trusted && cc.Err != nil {
					t.Errorf("%s: found only, yet %v", cc.Record.Claim, cc.Err)
				}
			}
			if got, want := strings.Join(verified, " "), strings.Join(tt.verified, " "); got != want {
				t.Errorf("verified %s, want %s", got, want)
			}
		})
	}
}

func TestVerifyRatio(t *testing.T) {
	tests := []struct {
		n             int
		solve, verify float64
		text          string
		over          bool
	}{
		{14, 20, 1, "5.0 %", false},
		{14, 20, 1.02, "5.1 % ⚠", true},
		{15, 36.928, 2.628, "7.1 % ⚠", true},
		{13, 1, 0.5, "50.0 %", false}, // below 0*14: not held to the target
		{20, 0, 0, "–", false},
	}
	for _, tt := range tests {
		r := Record{N: tt.n, SolveSeconds: tt.solve, VerifySeconds: tt.verify}
		if got := ratio(r); got != tt.text || r.OverTarget() != tt.over {
			t.Errorf("0*%d, %g s / %g s: %q, over %v; want %q, %v", tt.n, tt.verify, tt.solve, got, r.OverTarget(), tt.text, tt.over)
		}
	}
	// OUTCOMES.md names those over the target.
	c := smallCopy(t, 3)
	r := find(t, c, "0*3=W")
	rows := c.Table(c.Check(CheckOptions{}))
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "0 of the 0 listed here meet that.") {
		t.Errorf("no certificate of 0*14 and up: %s", md.String()[:600])
	}
	rows = append(rows, Row{N: 15, Certificates: []Cert{{Record: Record{N: 15, Claim: r.Claim, SolveSeconds: 10, VerifySeconds: 1, Address: r.Address}, Status: StatusNotCommitted}}})
	md.Reset()
	if err := WriteMarkdown(&md, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "0 of the 1 listed here meet that; ⚠ marks the 1 that do not: `0*3=W` (10.0 %).") {
		t.Errorf("one over the target: %s", md.String()[:800])
	}
}

// TestIndependentTimes: where index.csv records the time of the
// independent check (spots-corpus retime --independent), it is within
// IndependentTarget of the solve time for 0*14 and up.
func TestIndependentTimes(t *testing.T) {
	c, err := Open(".")
	if err != nil {
		t.Fatal(err)
	}
	timed := 0
	for _, r := range c.Records {
		if r.IndependentSeconds == 0 || r.N < VerifyTargetN {
			continue
		}
		timed++
		if r.IndependentSeconds > IndependentTarget*r.SolveSeconds {
			t.Errorf("%s: the independent check took %.2f s, over %.0f %% of the solve's %.1f s", r.Claim, r.IndependentSeconds, 100*IndependentTarget, r.SolveSeconds)
		}
	}
	t.Logf("%d certificates of 0*%d and up with an independent time", timed, VerifyTargetN)
}
