package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/verify"
)

// citingCorpus makes a corpus in a temporary directory with two
// certificates made by add: gn(0*6)=0, then 0*8=L, which draws on the
// corpus and so cites it. It returns the directory and the two records.
func citingCorpus(t *testing.T) (dir string, gn6, o8 corpus.Record) {
	t.Helper()
	dir = smallCorpus(t, 0)
	for _, args := range [][]string{{"--solve", "6", "--nimber"}, {"--solve", "8"}} {
		if status, stdout, stderr := runCmd(t, append([]string{"add", "--no-state", "--dir", dir}, args...)...); status != 0 {
			t.Fatalf("add %v: %d\n%s%s", args, status, stdout, stderr)
		}
	}
	_, gn6 = record(t, dir, 6, true)
	_, o8 = record(t, dir, 8, false)
	if !slices.Equal(o8.Cites, []string{gn6.Address}) || !o8.CitesRecorded {
		t.Fatalf("0*8=L cites %v (recorded %v), want gn(0*6)=0's %s", o8.Cites, o8.CitesRecorded, gn6.Address)
	}
	return dir, gn6, o8
}

// TestCitingCorpus: add records what a certificate cites and the
// iterations of its search; check verifies a citing certificate with the
// one it cites, through one library, and a sample that chooses the citing
// one verifies the cited one too; the table and status say so.
func TestCitingCorpus(t *testing.T) {
	dir, gn6, o8 := citingCorpus(t)
	if len(gn6.Cites) != 0 || gn6.Iterations == 0 || o8.Iterations == 0 {
		t.Errorf("gn(0*6)=0 cites %v, %d iterations; 0*8=L %d iterations", gn6.Cites, gn6.Iterations, o8.Iterations)
	}
	index, err := os.ReadFile(filepath.Join(dir, corpus.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	if header, _, _ := strings.Cut(string(index), "\n"); !strings.HasSuffix(header, ",independent_seconds,iterations,cites") {
		t.Errorf("index.csv header %q, want the columns iterations and cites at the end", header)
	}
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, independent := range []bool{false, true} {
		lib := verify.NewLibrary(filepath.Join(dir, corpus.CertsDir))
		rep := c.Check(corpus.CheckOptions{Verify: verify.Options{Independent: independent, Library: lib}})
		if !rep.OK() {
			t.Fatalf("independent %v: problems %v", independent, rep.Problems)
		}
		for _, cc := range rep.Certificates {
			if cc.Trusted || cc.Err != nil {
				t.Errorf("independent %v: %s trusted %v, %v", independent, cc.Record.Claim, cc.Trusted, cc.Err)
			}
			if cc.Record.Address == o8.Address && (!slices.Equal(cc.Cites, o8.Cites) || cc.Result.Cites != 1 || cc.Result.Cited != 1) {
				t.Errorf("independent %v: 0*8=L cites %v, result %+v", independent, cc.Cites, cc.Result)
			}
		}
		if got := lib.Closure(o8.Address); !slices.Equal(got, []string{gn6.Address}) {
			t.Errorf("independent %v: the run's library holds the closure %v of 0*8=L, want gn(0*6)=0's", independent, got)
		}
	}
	citingSample(t, c)
	citingOutputs(t, dir, o8)
}

// citingSample: a sample of a citing certificate takes in what it cites;
// a sample of the cited one alone leaves the citing one out.
func citingSample(t *testing.T, c *corpus.Corpus) {
	t.Helper()
	// A sample of 0*8=L alone verifies gn(0*6)=0 too.
	rep := c.Check(corpus.CheckOptions{Sample: func(r corpus.Record) bool { return r.N == 8 }})
	if !rep.OK() || rep.SampleCited != 1 {
		t.Errorf("sample: problems %v, %d cited added, want 1", rep.Problems, rep.SampleCited)
	}
	for _, cc := range rep.Certificates {
		if cc.Trusted {
			t.Errorf("sample: %s only found, though 0*8=L cites it", cc.Record.Claim)
		}
	}
	// A sample of gn(0*6)=0 alone leaves 0*8=L out.
	rep = c.Check(corpus.CheckOptions{Sample: func(r corpus.Record) bool { return r.N == 6 }})
	if !rep.OK() || rep.SampleCited != 0 || !rep.Certificates[1].Trusted {
		t.Errorf("sample of gn(0*6)=0: problems %v, %d cited, 0*8=L trusted %v", rep.Problems, rep.SampleCited, rep.Certificates[1].Trusted)
	}
}

// citingOutputs: OUTCOMES.md, status and check say what a certificate
// cites.
func citingOutputs(t *testing.T, dir string, o8 corpus.Record) {
	t.Helper()
	outcomes, err := os.ReadFile(filepath.Join(dir, corpus.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(outcomes), "| `0*8=L` cites 1: `gn(0*6)=0` |") {
		t.Errorf("%s does not say what 0*8=L cites:\n%s", corpus.OutcomesFile, outcomes)
	}
	status, stdout, stderr := runCmd(t, "status", "--dir", dir)
	if status != 0 || !strings.Contains(stdout, "frontier  the outcome of 0*1 is not certified; certified beyond it: 0*6, 0*8\n") ||
		!strings.Contains(stdout, "33 … 44   certified: none; open: 0*33 … 0*44") {
		t.Errorf("status: %d\n%s%s", status, stdout, stderr)
	}
	status, stdout, stderr = runCmd(t, "check", "--dir", dir)
	if status != 0 || !strings.Contains(stdout, "0*8=L  "+o8.ShortAddress()) || !strings.Contains(stdout, "cites 1 (relies on 1 in all, verified)") {
		t.Errorf("check: %d\n%s%s", status, stdout, stderr)
	}
}

// TestCheckRefusesBadCitations: check refuses (exit 1) a corpus whose
// certificate cites an address the corpus does not list, cites a
// certificate kept elsewhere from a committed one, or whose row says
// other citations than the certificate; the problem names the address.
func TestCheckRefusesBadCitations(t *testing.T) {
	tests := []struct {
		name  string
		spoil func(t *testing.T, dir string, gn6, o8 corpus.Record) []string // the extra arguments of check
		want  []string                                                       // in the output, with %s for gn(0*6)=0's address
	}{
		{"cited certificate outside the corpus", func(t *testing.T, dir string, gn6, o8 corpus.Record) []string {
			c := openWithout(t, dir, gn6)
			if err := c.SaveIndex(); err != nil {
				t.Fatal(err)
			}
			return nil
		}, []string{"the certificate of 0*8=L cites %s, which is not a certificate of the corpus", "incomplete: 1 cited certificate not found in"}},
		{"row without the citation", func(t *testing.T, dir string, gn6, o8 corpus.Record) []string {
			c, _ := record(t, dir, 8, false)
			c.Records[c.RecordOf(8, false)].Cites = nil
			if err := c.SaveIndex(); err != nil {
				t.Fatal(err)
			}
			return nil
		}, []string{"the certificate cites %s, but index.csv line 3 says it cites none"}},
		{"cited certificate kept elsewhere", func(t *testing.T, dir string, gn6, o8 corpus.Record) []string {
			c, _ := record(t, dir, 6, true)
			kept := t.TempDir()
			if err := os.Rename(c.CertPath(gn6), filepath.Join(kept, gn6.FileName())); err != nil {
				t.Fatal(err)
			}
			c.Records[c.RecordOf(6, true)].Committed = false
			if err := c.SaveIndex(); err != nil {
				t.Fatal(err)
			}
			return []string{"--dir", kept}
		}, []string{"cites %s, the certificate of gn(0*6)=0 (index.csv line 2), which is kept elsewhere"}},
		{"spoilt cited certificate", func(t *testing.T, dir string, gn6, o8 corpus.Record) []string {
			c, _ := record(t, dir, 6, true)
			if err := spoilCert(c.CertPath(gn6)); err != nil {
				t.Fatal(err)
			}
			return nil
		}, []string{"n = 8: ", "cited certificate %s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, gn6, o8 := citingCorpus(t)
			args := append([]string{"check", "--dir", dir}, tt.spoil(t, dir, gn6, o8)...)
			status, stdout, stderr := runCmd(t, args...)
			if status != 1 {
				t.Errorf("status %d, want 1", status)
			}
			for _, w := range tt.want {
				if w = strings.ReplaceAll(w, "%s", gn6.Address); !strings.Contains(stdout, w) {
					t.Errorf("no %q in\n%s%s", w, stdout, stderr)
				}
			}
		})
	}
}

// openWithout opens the corpus in dir without the record r and its file.
func openWithout(t *testing.T, dir string, r corpus.Record) *corpus.Corpus {
	t.Helper()
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(c.CertPath(r)); err != nil {
		t.Fatal(err)
	}
	c.Records = slices.DeleteFunc(c.Records, func(o corpus.Record) bool { return o.Address == r.Address })
	return c
}

// TestOlderIndexWithoutCites: an index.csv from before the cites column
// still reads, its rows' citations unrecorded; check learns them from the
// certificates (a sample still takes what a certificate cites), and the
// next index written records them.
func TestOlderIndexWithoutCites(t *testing.T) {
	dir, gn6, o8 := citingCorpus(t)
	c, err := corpus.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Records {
		c.Records[i].Cites, c.Records[i].CitesRecorded, c.Records[i].Iterations = nil, false, 0
	}
	old := corpus.EncodeIndex(c.Records)
	if header, _, _ := strings.Cut(string(old), "\n"); !strings.HasSuffix(header, ",command,independent_seconds") {
		t.Fatalf("an index without citations or iterations has the header %q, want the older one", header)
	}
	path := filepath.Join(dir, corpus.IndexFile)
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if c, err = corpus.Open(dir); err != nil {
		t.Fatal(err)
	}
	if r := c.Records[c.RecordOf(8, false)]; r.CitesRecorded || len(r.Cites) > 0 {
		t.Fatalf("0*8=L read from an older index: cites %v, recorded %v", r.Cites, r.CitesRecorded)
	}
	rep := c.Check(corpus.CheckOptions{Sample: func(r corpus.Record) bool { return r.N == 8 }})
	if !rep.OK() || rep.SampleCited != 1 || !slices.Equal(rep.Certificates[1].Cites, o8.Cites) {
		t.Errorf("problems %v, %d cited added to the sample, 0*8=L cites %v", rep.Problems, rep.SampleCited, rep.Certificates[1].Cites)
	}
	// Writing a row that fills the new columns writes them all, the
	// citations of the older rows read from their certificates.
	c.Records[c.RecordOf(6, true)].Iterations = gn6.Iterations
	if err := c.SaveIndex(); err != nil {
		t.Fatal(err)
	}
	if _, r := record(t, dir, 8, false); !r.CitesRecorded || !slices.Equal(r.Cites, o8.Cites) {
		t.Errorf("0*8=L written again: cites %v, recorded %v; want %v", r.Cites, r.CitesRecorded, o8.Cites)
	}
	if status, stdout, stderr := runCmd(t, "check", "--dir", dir); status != 0 {
		t.Errorf("check: %d\n%s%s", status, stdout, stderr)
	}
}
