package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/verify"
)

// Problem is one thing Check found wrong: a certificate, a file or a claim
// that disagrees with another.
type Problem struct {
	N    int    // the n of 0*n it concerns; 0 when it concerns no single n
	File string // the file at fault: its path (the corpus directory joined with its name)
	What string // what is wrong, naming the values that disagree
}

// String returns the problem as one line: "n = 14: certs/….arrow: what".
func (p Problem) String() string {
	var b strings.Builder
	if p.N > 0 {
		fmt.Fprintf(&b, "n = %d: ", p.N)
	}
	if p.File != "" {
		b.WriteString(p.File + ": ")
	}
	b.WriteString(p.What)
	return b.String()
}

// CertCheck is the verification of one certificate: a committed one, or
// one kept elsewhere and looked for in CheckOptions.Elsewhere.
type CertCheck struct {
	Record  Record
	Path    string        // the file checked; "" when Missing
	Result  verify.Result // what the checker found in the file (with CheckOptions.NoVerify, what the record says)
	Elapsed time.Duration // how long this check took (reported, never recorded)
	Err     error         // nil when the file verified and agrees with its record
	// Trusted is set when the checker was skipped (CheckOptions.NoVerify,
	// or a certificate CheckOptions.Sample leaves out): the file is
	// present and as large as its record says, and nothing more is known
	// of it.
	Trusted bool
	// Missing is set for a certificate kept elsewhere that is in none of
	// the directories of CheckOptions.Elsewhere (Err is nil: that is not a
	// problem of the corpus).
	Missing bool
	// Note says what is worth knowing but not wrong: a certificate kept
	// elsewhere whose file has another size than index.csv gives (made
	// again: the same content, with other provenance or compression).
	Note string
}

// Report is what Check found.
type Report struct {
	Certificates []CertCheck // one per committed record, in index order
	// Elsewhere has one check per record that is not committed, in index
	// order, when CheckOptions.Elsewhere names directories (nil otherwise).
	Elsewhere []CertCheck
	Problems  []Problem   // disagreements: the corpus does not check
	Notes     []Problem   // worth knowing but not wrong (a certificate of a case the literature lists as open)
	Bytes     int64       // the size of the corpus directory (see Corpus.Size)
	Cram      []CramCheck // one per record of the Cram table, in its order
}

// OK reports whether Check found no problem.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

// Verified reports whether the certificate of the given address was
// verified by this check and agrees with its record (with
// CheckOptions.NoVerify: was found as its record says, and is trusted).
func (r *Report) Verified(address string) bool {
	for _, c := range r.Certificates {
		if c.Record.Address == address {
			return c.Err == nil
		}
	}
	return false
}

// CheckOptions controls Check.
type CheckOptions struct {
	// Progress, if set, is called before each certificate is verified, with
	// its number (from 1), the number of certificates and its record.
	// Certificates are verified on several goroutines (one per CPU);
	// Progress and Verify.Progress are called one call at a time.
	Progress func(i, total int, r Record)
	// Checked, if set, is called as each certificate's check ends, with
	// the number ended so far, the number of certificates and the check,
	// one call at a time: a caller shows what was done as it is done.
	Checked func(done, total int, cc CertCheck)
	// Verify is passed to verify.File (its Progress reports the entries
	// checked within one certificate).
	Verify verify.Options
	// NoVerify skips the checker: a committed certificate that is present
	// with the size its record gives counts as verified (CertCheck.Trusted)
	// without being read. Everything else is checked as usual. It is for
	// work that follows a full Check of the same files, such as comparing
	// the generated files after spots-corpus check.
	NoVerify bool
	// Sample, if set, chooses the committed certificates to verify; the
	// others are checked as with NoVerify (present, with the size their
	// record gives; CertCheck.Trusted). See Sample and SampleMaxN.
	Sample func(Record) bool
	// Elsewhere lists directories in which to look for the certificates
	// index.csv lists as not committed (kept elsewhere), each as
	// <address>.arrow; the first directory holding one wins. A certificate
	// found is verified like a committed one (a failure is a problem); one
	// found in none is reported as missing (Report.Elsewhere), which is
	// not a problem.
	Elsewhere []string
	// Limits is the size rule (zero: MaxCertBytes, MaxCorpusBytes).
	Limits Limits
}

// SampleMaxN bounds the fixed part of the sample of spots-corpus check
// --sample: the committed certificates of 0*1 … 0*SampleMaxN, which verify
// in a few seconds together.
const SampleMaxN = 14

// Sample returns the choice of CheckOptions.Sample that verifies the
// committed certificates of 0*n for n ≤ maxN (the fixed sample) and those
// whose address is in changed (e.g. the certificates changed since the
// last release).
func Sample(maxN int, changed map[string]bool) func(Record) bool {
	return func(r Record) bool { return r.N <= maxN || changed[r.Address] }
}

// VerifySeconds returns the verify times index.csv records for the
// committed certificates, added up: about what a full check costs in CPU
// seconds on the machines that made them.
func (c *Corpus) VerifySeconds() float64 {
	var s float64
	for _, r := range c.Records {
		if r.Committed {
			s += r.VerifySeconds
		}
	}
	return s
}

// Check verifies every committed certificate with verify.File (unless
// opt.NoVerify) and reports each disagreement between the certificates, the
// index, the files in certs/, the literature table and the Sprouts
// conjecture (see the package documentation). It reads certificates but
// writes nothing.
func (c *Corpus) Check(opt CheckOptions) *Report {
	rep := &Report{}
	indexFile, litFile := c.Path(IndexFile), c.Path(LiteratureFile)
	problem := func(n int, file, msg string, a ...any) {
		rep.Problems = append(rep.Problems, Problem{N: n, File: file, What: fmt.Sprintf(msg, a...)})
	}

	// The literature against the conjecture.
	for _, k := range c.Literature {
		if k.Open() {
			continue
		}
		if want, _ := Conjecture(k.N); k.Outcome != want {
			problem(k.N, litFile, "line %d says 0*%d is %s, but the Sprouts conjecture says %s (%d mod 6 = %d)",
				k.Line, k.N, k.Outcome.Mark(), want.Mark(), k.N, k.N%6)
		}
	}

	// The index against itself.
	byClaim, byAddress := map[string]Record{}, map[string]Record{}
	byKind := map[[2]int]Record{}
	for _, r := range c.Records {
		if o, ok := byClaim[r.Claim.String()]; ok {
			problem(r.N, indexFile, "lines %d and %d both list the claim %s; keep one", o.Line, r.Line, r.Claim)
		}
		byClaim[r.Claim.String()] = r
		if o, ok := byAddress[r.Address]; ok {
			problem(r.N, indexFile, "lines %d and %d both list the address %s", o.Line, r.Line, r.Address)
		}
		byAddress[r.Address] = r
		key := [2]int{r.N, kindOrder(r.Claim)}
		if o, ok := byKind[key]; ok && o.Claim != r.Claim {
			what := "outcome"
			if r.Claim.Kind == format.ClaimGrundy {
				what = "Grundy value"
			}
			problem(r.N, indexFile, "lines %d and %d give two %s claims for 0*%d (%s and %s); keep one", o.Line, r.Line, what, r.N, o.Claim, r.Claim)
		}
		byKind[key] = r
	}

	// The files in certs/ against the index.
	certsDir := filepath.Join(c.Dir, CertsDir)
	rel := func(name string) string { return filepath.Join(certsDir, name) }
	names, err := os.ReadDir(certsDir)
	if err != nil && !os.IsNotExist(err) {
		problem(0, certsDir, "cannot list the certificates: %v", err)
	}
	for _, e := range names {
		name := e.Name()
		r, listed := byAddress[strings.TrimSuffix(name, ".arrow")]
		switch {
		case !listed || !strings.HasSuffix(name, ".arrow"):
			problem(0, rel(name), "is in %s/ but not listed in %s (add it with spots-corpus add, or remove it)", CertsDir, IndexFile)
		case !r.Committed:
			problem(r.N, rel(name), "is present, but %s line %d says the certificate of %s is not committed (set committed to yes, or remove the file)", IndexFile, r.Line, r.Claim)
		}
	}

	// The size rule.
	limits := opt.Limits
	for _, r := range c.Records {
		if r.Committed && r.Bytes > limits.Cert() {
			problem(r.N, rel(r.FileName()), "the certificate of %s has %d bytes (%s), over the %s a committed certificate may have: keep it elsewhere (committed no in %s line %d, the file out of %s/)",
				r.Claim, r.Bytes, SizeText(r.Bytes), SizeText(limits.Cert()), IndexFile, r.Line, CertsDir)
		}
	}
	if total, err := c.Size(); err != nil {
		problem(0, c.Dir, "%v", err)
	} else {
		rep.Bytes = total
		if total > limits.Corpus() {
			problem(0, c.Dir, "holds %d bytes (%s), over the %s the corpus may have: keep its largest certificates elsewhere", total, SizeText(total), SizeText(limits.Corpus()))
		}
	}

	// Every committed certificate: present, valid, and what the index
	// says; and each one kept elsewhere that is in one of opt.Elsewhere.
	var jobs []certJob
	for _, r := range c.Records {
		if r.Committed {
			jobs = append(jobs, certJob{r: r, path: c.CertPath(r), trust: opt.NoVerify || opt.Sample != nil && !opt.Sample(r)})
		}
	}
	committedJobs := len(jobs)
	if len(opt.Elsewhere) > 0 {
		rep.Elsewhere = []CertCheck{}
	}
	for _, r := range c.Records {
		if r.Committed || len(opt.Elsewhere) == 0 {
			continue
		}
		path := findElsewhere(opt.Elsewhere, r.FileName())
		if path == "" {
			rep.Elsewhere = append(rep.Elsewhere, CertCheck{Record: r, Missing: true})
			continue
		}
		rep.Elsewhere = append(rep.Elsewhere, CertCheck{Record: r, Path: path})
		jobs = append(jobs, certJob{r: r, path: path, trust: opt.NoVerify, elsewhere: true})
	}
	checks := c.checkCertificates(jobs, opt)
	for _, cc := range checks[:committedJobs] {
		if cc.Err != nil {
			problem(cc.Record.N, rel(cc.Record.FileName()), "%v", cc.Err)
		}
		rep.Certificates = append(rep.Certificates, cc)
	}
	found := checks[committedJobs:]
	for i := range rep.Elsewhere {
		if rep.Elsewhere[i].Missing {
			continue
		}
		cc := found[0]
		found = found[1:]
		if cc.Err != nil {
			problem(cc.Record.N, cc.Path, "kept elsewhere: %v", cc.Err)
		}
		if cc.Note != "" {
			rep.Notes = append(rep.Notes, Problem{N: cc.Record.N, File: cc.Path, What: "kept elsewhere: " + cc.Note})
		}
		rep.Elsewhere[i] = cc
	}

	// Every claim against the other claims about the same n, the
	// literature and the conjecture.
	implied := map[int]Record{}
	for _, r := range c.Records {
		file := indexFile
		if r.Committed {
			file = rel(r.FileName())
		}
		if o, ok := implied[r.N]; ok {
			oo, _, _ := ClaimOutcome(o.Claim)
			if out, _, _ := ClaimOutcome(r.Claim); oo != out {
				problem(r.N, indexFile, "the claims %s (line %d) and %s (line %d) contradict each other", o.Claim, o.Line, r.Claim, r.Line)
			}
		}
		implied[r.N] = r
		problems, notes := c.CheckClaim(r.Claim, file)
		rep.Problems = append(rep.Problems, problems...)
		rep.Notes = append(rep.Notes, notes...)
	}
	c.checkCram(rep, opt)
	sort.SliceStable(rep.Problems, func(i, j int) bool {
		return rep.Problems[i].N < rep.Problems[j].N
	})
	return rep
}

// findElsewhere returns the path of the file name in the first of dirs
// that holds it as a regular file, or "".
func findElsewhere(dirs []string, name string) string {
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// certJob is one certificate to check: the record, where its file is, and
// whether only to find it (trust) rather than verify it.
type certJob struct {
	r         Record
	path      string
	trust     bool
	elsewhere bool // the file is kept elsewhere, not in certs/
}

// checkCertificates checks the certificates of jobs on as many goroutines
// as there are CPUs, and returns the checks in the order of jobs.
func (c *Corpus) checkCertificates(jobs []certJob, opt CheckOptions) []CertCheck {
	records := make([]Record, len(jobs))
	for i, j := range jobs {
		records[i] = j.r
	}
	out := make([]CertCheck, len(records))
	var mu sync.Mutex // serialises opt's callbacks
	next, checked := 0, 0
	serial := func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		f()
	}
	vopt := opt.Verify
	if vopt.Progress != nil {
		vopt.Progress = func(done, total int) { serial(func() { opt.Verify.Progress(done, total) }) }
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(records)) {
		wg.Go(func() {
			for {
				var i int
				serial(func() {
					i = next
					next++
					if i < len(records) && opt.Progress != nil {
						opt.Progress(i+1, len(records), records[i])
					}
				})
				if i >= len(records) {
					return
				}
				out[i] = checkCertificate(jobs[i], vopt)
				if opt.Checked != nil {
					serial(func() {
						checked++
						opt.Checked(checked, len(records), out[i])
					})
				}
			}
		})
	}
	wg.Wait()
	return out
}

// checkCertificate verifies the certificate of j.r in j.path and compares
// it with j.r; with j.trust it only checks that the file is there with the
// size j.r gives.
func checkCertificate(j certJob, opt verify.Options) (cc CertCheck) {
	r := j.r
	cc = CertCheck{Record: r, Path: j.path}
	start := time.Now()
	defer func() { cc.Elapsed = time.Since(start) }()
	st, err := os.Stat(cc.Path)
	if err != nil {
		switch {
		case os.IsNotExist(err) && j.elsewhere:
			cc.Err = fmt.Errorf("missing: the certificate of %s (%s line %d) is gone", r.Claim, IndexFile, r.Line)
		case os.IsNotExist(err):
			cc.Err = fmt.Errorf("missing: %s line %d lists the certificate of %s as committed, but there is no such file", IndexFile, r.Line, r.Claim)
		default:
			cc.Err = fmt.Errorf("unreadable: %w", err)
		}
		return cc
	}
	if !j.elsewhere {
		if err := refuseLink(cc.Path); err != nil {
			cc.Err = err
			return cc
		}
	}
	sizeDiffers := func() {
		if st.Size() == r.Bytes {
			return
		}
		if j.elsewhere {
			// The address names the content; a file made again (by
			// spots-solve --cert, or another version) differs in its
			// provenance and compression, so in its size.
			cc.Note = fmt.Sprintf("the file has %d bytes, %s line %d says %d: not the file indexed, one with the same content made again", st.Size(), IndexFile, r.Line, r.Bytes)
			return
		}
		cc.Err = fmt.Errorf("the file has %d bytes, but %s line %d says %d", st.Size(), IndexFile, r.Line, r.Bytes)
	}
	if j.trust {
		cc.Result = verify.Result{Claim: r.Claim, Address: r.Address, Entries: r.Entries}
		cc.Trusted = true
		sizeDiffers()
		return cc
	}
	res, err := verify.File(cc.Path, opt)
	cc.Result = res
	if cc.Err = unlike(res, err, IndexFile, r.Line, r.Claim, r.Address, r.Entries); cc.Err == nil {
		sizeDiffers()
	}
	return cc
}

// unlike compares what verify.File found in a certificate (res, err) with
// the row of an index (file, line) that lists it with claim, address and
// entries, and says what differs, or returns nil.
func unlike(res verify.Result, err error, file string, line int, claim format.Claim, address string, entries int) error {
	switch {
	case err != nil && verify.IsInvalid(err):
		return fmt.Errorf("invalid certificate (listed for %s): %w", claim, err)
	case err != nil:
		return fmt.Errorf("unreadable certificate (listed for %s): %w", claim, err)
	case res.Address != address:
		return fmt.Errorf("the file's content address is %s, but %s line %d says %s", res.Address, file, line, address)
	case res.Claim != claim:
		return fmt.Errorf("the certificate proves %s, but %s line %d says it proves %s", res.Claim, file, line, claim)
	case res.Entries != entries:
		return fmt.Errorf("the certificate has %d entries, but %s line %d says %d", res.Entries, file, line, entries)
	}
	return nil
}

// CheckClaim compares a claim about 0*n with the literature table and the
// Sprouts conjecture. It returns the disagreements as problems, and as a
// note a claim that settles a case the table leaves open (or does not
// list); file names the certificate (or index) the claim comes from.
func (c *Corpus) CheckClaim(claim format.Claim, file string) (problems, notes []Problem) {
	n, err := ClaimSpots(claim)
	if err != nil {
		return []Problem{{File: file, What: err.Error()}}, nil
	}
	out, g, err := ClaimOutcome(claim)
	if err != nil {
		return []Problem{{N: n, File: file, What: err.Error()}}, nil
	}
	add := func(list *[]Problem, msg string, a ...any) {
		*list = append(*list, Problem{N: n, File: file, What: fmt.Sprintf(msg, a...)})
	}
	if k, ok := c.Known(n); !ok || k.Open() {
		add(&notes, "certifies %s, a case the literature table does not settle", claim)
	} else if k.Outcome != out {
		add(&problems, "certifies %s, so 0*%d is %s, but %s line %d says %s (first solved by %s)",
			claim, n, out.Mark(), LiteratureFile, k.Line, k.Outcome.Mark(), k.FirstSolvedBy)
	}
	wantOut, wantG := Conjecture(n)
	switch {
	case out != wantOut:
		add(&problems, "certifies %s, so 0*%d is %s, but the Sprouts conjecture says %s (%d mod 6 = %d)",
			claim, n, out, wantOut, n, n%6)
	case g != nil && *g != wantG:
		add(&problems, "certifies %s, but the extended Sprouts conjecture says gn(0*%d) = %d (%d mod 6 = %d)",
			claim, n, wantG, n, n%6)
	}
	return problems, notes
}
