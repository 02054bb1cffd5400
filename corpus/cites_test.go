package corpus

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
)

// addr returns a content address made of one repeated digit.
func addr(digit string) string { return strings.Repeat(digit, 64) }

// citingRecords are three records, 0*8=L citing gn(0*6)=0 and 0*9=W
// citing both.
func citingRecords(t *testing.T) []Record {
	t.Helper()
	claim := func(s string) format.Claim {
		c, err := format.ParseClaim(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return []Record{
		{N: 6, Claim: claim("gn(0*6)=0"), Address: addr("a"), Algorithm: solve.SearchDFPN, Committed: true, Command: "c", Iterations: 966, CitesRecorded: true},
		{N: 8, Claim: claim("0*8=L"), Address: addr("b"), Algorithm: solve.SearchDFPN, Committed: true, Command: "c", Iterations: 6775, Cites: []string{addr("a")}, CitesRecorded: true},
		{N: 9, Claim: claim("0*9=W"), Address: addr("c"), Algorithm: solve.SearchDFPN, Committed: true, Command: "c", Cites: []string{addr("a"), addr("b")}, CitesRecorded: true},
	}
}

// TestIndexColumns: index.csv keeps the header it had until a record
// fills iterations or cites; then it writes both, and reads them back.
func TestIndexColumns(t *testing.T) {
	rs := citingRecords(t)
	var old []Record
	for _, r := range rs {
		r.Iterations, r.Cites, r.CitesRecorded = 0, nil, false
		old = append(old, r)
	}
	enc := EncodeIndex(old)
	if want := strings.Join(indexHeader[:colIterations], ",") + "\n"; !bytes.HasPrefix(enc, []byte(want)) {
		t.Errorf("without iterations or cites, the header is not the older one:\n%s", enc)
	}
	back, err := ReadIndex(bytes.NewReader(enc))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range back {
		if r.CitesRecorded || r.Cites != nil || r.Iterations != 0 {
			t.Errorf("%s read from the older header: cites %v (recorded %v), %d iterations", r.Claim, r.Cites, r.CitesRecorded, r.Iterations)
		}
	}

	enc = EncodeIndex(rs)
	if want := strings.Join(indexHeader, ",") + "\n"; !bytes.HasPrefix(enc, []byte(want)) {
		t.Errorf("the header is not the one with cites:\n%s", enc)
	}
	if want := ",c,,," + addr("a") + " " + addr("b") + "\n"; !bytes.Contains(enc, []byte(want)) {
		t.Errorf("0*9=W's row does not end %q:\n%s", want, enc)
	}
	back, err = ReadIndex(bytes.NewReader(enc))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range back {
		if w := rs[i]; !r.CitesRecorded || !slices.Equal(r.Cites, w.Cites) || r.Iterations != w.Iterations {
			t.Errorf("%s read back: cites %v (recorded %v), %d iterations; want %v, %d", r.Claim, r.Cites, r.CitesRecorded, r.Iterations, w.Cites, w.Iterations)
		}
	}
	if again := EncodeIndex(back); !bytes.Equal(again, enc) {
		t.Errorf("written again, the index differs:\n%s\nwant\n%s", again, enc)
	}
}

// TestCitationOrder: the certificates that cite or are cited are checked
// on one goroutine, each after those it cites; the others apart; and a
// sample takes with a certificate all it cites.
func TestCitationOrder(t *testing.T) {
	rs := citingRecords(t)
	rs = append(rs, Record{N: 5, Address: addr("d"), Committed: true}) // cites none, cited by none
	cites := map[string][]string{}
	for _, r := range rs {
		cites[r.Address] = r.Cites
	}
	// In the order 0*9, 0*8, 0*5, gn(0*6): the cited come first all the same.
	jobs := []certJob{{r: rs[2]}, {r: rs[1]}, {r: rs[3]}, {r: rs[0]}}
	shared, isolated := citationOrder(jobs, cites)
	var order []string
	for _, i := range shared {
		order = append(order, jobs[i].r.Address[:1])
	}
	if got := strings.Join(order, " "); got != "a b c" || !slices.Equal(isolated, []int{2}) {
		t.Errorf("shared %s, isolated %v; want a b c and [2]", got, isolated)
	}
	if !jobs[0].shared || jobs[2].shared {
		t.Errorf("marked shared: %v %v %v %v", jobs[0].shared, jobs[1].shared, jobs[2].shared, jobs[3].shared)
	}

	chosen, added := closeSample(rs, func(r Record) bool { return r.N == 9 }, cites)
	if added != 2 || !chosen(rs[0]) || !chosen(rs[1]) || !chosen(rs[2]) || chosen(rs[3]) {
		t.Errorf("sample of 0*9=W: %d added; chosen %v %v %v %v", added, chosen(rs[0]), chosen(rs[1]), chosen(rs[2]), chosen(rs[3]))
	}
	chosen, added = closeSample(rs, func(r Record) bool { return r.N == 6 }, cites)
	if added != 0 || chosen(rs[1]) {
		t.Errorf("sample of gn(0*6)=0: %d added, 0*8=L chosen %v", added, chosen(rs[1]))
	}
}

// TestCitesInTable: OUTCOMES.md says after a citing certificate's claim
// what it cites, by the claims they prove; a certificate that cites none
// looks as before.
func TestCitesInTable(t *testing.T) {
	rs := citingRecords(t)
	c := &Corpus{Records: rs}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, c.Table(nil)); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"| `gn(0*6)=0` | [`" + addr("a") + "`]",
		"| `0*8=L` cites 1: `gn(0*6)=0` | [`" + addr("b") + "`]",
		"| `0*9=W` cites 2: `gn(0*6)=0`, `0*8=L` | [`" + addr("c") + "`]",
		"2 of them cite others by content address",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
}

// TestFrontier: the frontier is the last n of an unbroken run from 1 of
// certified outcomes; the goal lists which of GoalFrom … GoalTo are
// certified and open.
func TestFrontier(t *testing.T) {
	var rows []Row
	for _, n := range []int{1, 2, 3, 5, 34, 47} {
		rows = append(rows, Row{N: n, Certificates: []Cert{{Status: StatusFound}}})
	}
	rows = append(rows, Row{N: 4, Certificates: []Cert{{Status: StatusFailed}}})
	rows = append(rows, Row{N: 33, Known: &Known{N: 33, Outcome: Win, FirstSolvedBy: "GLOP 2010-2011"}})
	rows = append(rows, Row{N: 35, Known: &Known{N: 35, Outcome: Win, FirstSolvedBy: "GLOP 2007"}})
	f := FrontierOf(rows)
	if f.Complete != 3 || !slices.Equal(f.Beyond, []int{5, 34, 47}) || !slices.Equal(f.Goal, []int{34}) ||
		len(f.Open) != GoalTo-GoalFrom || f.Open[0] != 33 || !slices.Equal(f.Late, []int{33}) {
		t.Errorf("frontier %+v", f)
	}
	if f := FrontierOf(nil); f.Complete != 0 || f.Beyond != nil || len(f.Open) != GoalTo-GoalFrom+1 {
		t.Errorf("frontier of nothing %+v", f)
	}
}

// TestProofSolveSeconds: a citing certificate's proof cost the searches of
// everything it relies on, each once, and its verify ratio is over that.
func TestProofSolveSeconds(t *testing.T) {
	a, b, d := strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("d", 64)
	c := &Corpus{Records: []Record{
		{N: 10, Address: a, SolveSeconds: 100},
		{N: 11, Address: b, SolveSeconds: 10, Cites: []string{a}},
		{N: 14, Address: d, SolveSeconds: 1, VerifySeconds: 5.5, Cites: []string{a, b}},
	}}
	c.sumCited()
	for i, want := range []float64{100, 110, 111} {
		if got := c.Records[i].ProofSolveSeconds(); got != want {
			t.Errorf("record %d: proof solve %g s, want %g", i, got, want)
		}
	}
	if q, ok := c.Records[2].VerifyRatio(); !ok || q != 5.5/111 || c.Records[2].OverTarget() {
		t.Errorf("ratio %g, %v, over %v", q, ok, c.Records[2].OverTarget())
	}
}

// TestIndexAlgorithm: the algorithm column of index.csv and lemmas.csv
// reads the names of solve.ParseAlgorithm that these searches write (dfpn,
// pdfpn, pns), and writes them back byte for byte; any other name, one of
// another search included, is an error naming the column and the value.
func TestIndexAlgorithm(t *testing.T) {
	rs := citingRecords(t)
	enc := EncodeIndex(rs)
	for _, tc := range []struct {
		name string
		want solve.Algorithm // 0: an error
	}{
		{"dfpn", solve.SearchDFPN},
		{"pns", solve.SearchPNS},
		{"pdfpn", solve.SearchPDFPN},
		{"swarm", 0},
		{"mcts", 0},
		{"DFPN", 0},
		{"", 0},
	} {
		text := strings.Replace(string(enc), ",dfpn,", ","+tc.name+",", 1)
		back, err := ReadIndex(strings.NewReader(text))
		if tc.want == 0 {
			if err == nil || !strings.Contains(err.Error(), `algorithm "`+tc.name+`"`) || !strings.Contains(err.Error(), "dfpn, pdfpn or pns") {
				t.Errorf("%q: %v, want an error naming the column and the value", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.name, err)
		}
		if back[0].Algorithm != tc.want {
			t.Errorf("%q read as %v", tc.name, back[0].Algorithm)
		}
		if again := EncodeIndex(back); string(again) != text {
			t.Errorf("%q: written back as\n%s\nwant\n%s", tc.name, again, text)
		}
	}
}

// TestCitedBy: the claims whose certificates or lemmas cite an address, a
// record without recorded cites asked its certificate's header, one whose
// certificate cannot be read counted as citing.
func TestCitedBy(t *testing.T) {
	rs := citingRecords(t)
	unread := rs[2]
	unread.N, unread.Address, unread.Cites, unread.CitesRecorded = 10, addr("d"), nil, false
	unread.Claim.Root = "0*10"
	c := &Corpus{Dir: t.TempDir(), Records: append(rs, unread)}
	lemma, err := format.ParseClaim("lemmas(0*11)")
	if err != nil {
		t.Fatal(err)
	}
	c.Lemmas = []LemmaRecord{{N: 11, Claim: lemma, Address: addr("e"), Cites: []string{addr("b")}}}
	for _, tc := range []struct {
		address string
		want    []string
	}{
		{addr("a"), []string{"0*8=L", "0*9=W", "0*10=W"}},
		{addr("b"), []string{"0*9=W", "0*10=W", "lemmas(0*11) (eeeeeeeeeeee)"}},
		{addr("c"), []string{"0*10=W"}},
		{addr("d"), nil},
	} {
		if got := c.CitedBy(tc.address); !slices.Equal(got, tc.want) {
			t.Errorf("CitedBy(%.4s…) = %q, want %q", tc.address, got, tc.want)
		}
	}
}
