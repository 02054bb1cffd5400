package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// checking is one run of Check: the report it fills, step by step, and
// what the steps share.
type checking struct {
	c                            *Corpus
	rep                          *Report
	indexFile, litFile, certsDir string
	byAddress                    map[string]Record // the index's rows by address (index)
	lib                          *verify.Library   // what checked the certificates (certificates), for the lemmas that cite them
}

// problem adds a problem about 0*n (0: the corpus) in file to the report.
func (k *checking) problem(n int, file, msg string, a ...any) {
	k.rep.Problems = append(k.rep.Problems, Problem{N: n, File: file, What: fmt.Sprintf(msg, a...)})
}

// rel is the path of the file name in certs/.
func (k *checking) rel(name string) string { return filepath.Join(k.certsDir, name) }

// literature checks the literature against the conjecture.
func (k *checking) literature() {
	for _, lit := range k.c.Literature {
		if lit.Open() {
			continue
		}
		if want, _ := Conjecture(lit.N); lit.Outcome != want {
			k.problem(lit.N, k.litFile, "line %d says 0*%d is %s, but the Sprouts conjecture says %s (%d mod 6 = %d)",
				lit.Line, lit.N, lit.Outcome.Mark(), want.Mark(), lit.N, lit.N%6)
		}
	}
}

// index checks the index against itself: one row a claim, one an
// address, one claim of each kind for an n.
func (k *checking) index() {
	byClaim, byKind := map[string]Record{}, map[[2]int]Record{}
	k.byAddress = map[string]Record{}
	for _, r := range k.c.Records {
		if o, ok := byClaim[r.Claim.String()]; ok {
			k.problem(r.N, k.indexFile, "lines %d and %d both list the claim %s; keep one", o.Line, r.Line, r.Claim)
		}
		byClaim[r.Claim.String()] = r
		if o, ok := k.byAddress[r.Address]; ok {
			k.problem(r.N, k.indexFile, "lines %d and %d both list the address %s", o.Line, r.Line, r.Address)
		}
		k.byAddress[r.Address] = r
		key := [2]int{r.N, kindOrder(r.Claim)}
		if o, ok := byKind[key]; ok && o.Claim != r.Claim {
			what := "outcome"
			if r.Claim.Kind == format.ClaimGrundy {
				what = "Grundy value"
			}
			k.problem(r.N, k.indexFile, "lines %d and %d give two %s claims for 0*%d (%s and %s); keep one", o.Line, r.Line, what, r.N, o.Claim, r.Claim)
		}
		byKind[key] = r
	}
}

// certsFiles checks the files in certs/ against the index.
func (k *checking) certsFiles() {
	names, err := os.ReadDir(k.certsDir)
	if err != nil && !os.IsNotExist(err) {
		k.problem(0, k.certsDir, "cannot list the certificates: %v", err)
	}
	for _, e := range names {
		name := e.Name()
		r, listed := k.byAddress[strings.TrimSuffix(name, ".arrow")]
		switch {
		case !listed || !strings.HasSuffix(name, ".arrow"):
			k.problem(0, k.rel(name), "is in %s/ but not listed in %s (add it with spots-corpus add, or remove it)", CertsDir, IndexFile)
		case !r.Committed:
			k.problem(r.N, k.rel(name), "is present, but %s line %d says the certificate of %s is not committed (set committed to yes, or remove the file)", IndexFile, r.Line, r.Claim)
		}
	}
}

// citations checks each certificate's citations (citesOf: from its row,
// or, for an index from before the column, its header when it is to be
// verified) point inside the corpus.
func (k *checking) citations(citesOf map[string][]string) {
	for _, r := range k.c.Records {
		file := k.indexFile
		if r.Committed {
			file = k.rel(r.FileName())
		}
		for _, a := range citesOf[r.Address] {
			if problem := outside(r, a, k.byAddress); problem != "" {
				k.rep.Problems = append(k.rep.Problems, Problem{N: r.N, File: file, What: problem})
			}
		}
	}
}

// sizeRule checks the size rule: no committed certificate, and not the
// corpus directory, over its limit. It sets the report's Bytes.
func (k *checking) sizeRule(limits Limits) {
	for _, r := range k.c.Records {
		if r.Committed && r.Bytes > limits.Cert() {
			k.problem(r.N, k.rel(r.FileName()), "the certificate of %s has %d bytes (%s), over the %s a committed certificate may have: keep it elsewhere (committed no in %s line %d, the file out of %s/)",
				r.Claim, r.Bytes, SizeText(r.Bytes), SizeText(limits.Cert()), IndexFile, r.Line, CertsDir)
		}
	}
	total, err := k.c.Size()
	if err != nil {
		k.problem(0, k.c.Dir, "%v", err)
		return
	}
	k.rep.Bytes = total
	if total > limits.Corpus() {
		k.problem(0, k.c.Dir, "holds %d bytes (%s), over the %s the corpus may have: keep its largest certificates elsewhere", total, SizeText(total), SizeText(limits.Corpus()))
	}
}

// certificates checks every committed certificate (present, valid, and
// what the index says) and each one kept elsewhere that is in one of
// opt.Elsewhere.
func (k *checking) certificates(opt CheckOptions, citesOf map[string][]string) {
	chosen := func(Record) bool { return !opt.NoVerify }
	if opt.Sample != nil && !opt.NoVerify {
		var added int
		chosen, added = closeSample(k.c.Records, opt.Sample, citesOf)
		k.rep.SampleCited = added
	}
	var jobs []certJob
	for _, r := range k.c.Records {
		if r.Committed {
			jobs = append(jobs, certJob{r: r, path: k.c.CertPath(r), trust: !chosen(r)})
		}
	}
	committedJobs := len(jobs)
	jobs = append(jobs, k.elsewhereJobs(opt)...)
	if opt.Verify.Library == nil {
		opt.Verify.Library = verify.NewLibrary(append([]string{k.certsDir}, opt.Elsewhere...)...)
	}
	k.lib = opt.Verify.Library
	checks := k.c.checkCertificates(jobs, opt, citesOf)
	for _, cc := range checks[:committedJobs] {
		if cc.Err != nil {
			k.problem(cc.Record.N, k.rel(cc.Record.FileName()), "%v", cc.Err)
		}
		k.rep.Certificates = append(k.rep.Certificates, cc)
	}
	found := checks[committedJobs:]
	for i := range k.rep.Elsewhere {
		if k.rep.Elsewhere[i].Missing {
			continue
		}
		cc := found[0]
		found = found[1:]
		if cc.Err != nil {
			k.problem(cc.Record.N, cc.Path, "kept elsewhere: %v", cc.Err)
		}
		if cc.Note != "" {
			k.rep.Notes = append(k.rep.Notes, Problem{N: cc.Record.N, File: cc.Path, What: "kept elsewhere: " + cc.Note})
		}
		k.rep.Elsewhere[i] = cc
	}
}

// elsewhereJobs lists the certificates kept elsewhere in the report (each
// found in one of opt.Elsewhere, or missing) and returns the jobs that
// verify those found.
func (k *checking) elsewhereJobs(opt CheckOptions) []certJob {
	if len(opt.Elsewhere) == 0 {
		return nil
	}
	k.rep.Elsewhere = []CertCheck{}
	var jobs []certJob
	for _, r := range k.c.Records {
		if r.Committed {
			continue
		}
		path := findElsewhere(opt.Elsewhere, r.FileName())
		if path == "" {
			k.rep.Elsewhere = append(k.rep.Elsewhere, CertCheck{Record: r, Missing: true})
			continue
		}
		k.rep.Elsewhere = append(k.rep.Elsewhere, CertCheck{Record: r, Path: path})
		jobs = append(jobs, certJob{r: r, path: path, trust: opt.NoVerify, elsewhere: true})
	}
	return jobs
}

// claims checks every claim against the other claims about the same n,
// the literature and the conjecture.
func (k *checking) claims() {
	implied := map[int]Record{}
	for _, r := range k.c.Records {
		file := k.indexFile
		if r.Committed {
			file = k.rel(r.FileName())
		}
		if o, ok := implied[r.N]; ok {
			oo, _, _ := ClaimOutcome(o.Claim)
			if out, _, _ := ClaimOutcome(r.Claim); oo != out {
				k.problem(r.N, k.indexFile, "the claims %s (line %d) and %s (line %d) contradict each other", o.Claim, o.Line, r.Claim, r.Line)
			}
		}
		implied[r.N] = r
		problems, notes := k.c.CheckClaim(r.Claim, file)
		k.rep.Problems = append(k.rep.Problems, problems...)
		k.rep.Notes = append(k.rep.Notes, notes...)
	}
}
