package corpus

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
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
	// Cites are the addresses of the certificates it cites: its header's
	// when it was verified (covered by its address), else the record's.
	// Result.Cited counts those it relies on, directly or not, each
	// verified.
	Cites []string
}

// Report is what Check found.
type Report struct {
	Certificates []CertCheck // one per committed record, in index order
	// Elsewhere has one check per record that is not committed, in index
	// order, when CheckOptions.Elsewhere names directories (nil otherwise).
	Elsewhere []CertCheck
	Problems  []Problem    // disagreements: the corpus does not check
	Notes     []Problem    // worth knowing but not wrong (a certificate of a case the literature lists as open)
	Bytes     int64        // the size of the corpus directory (see Corpus.Size)
	Games     []GameCheck  // one per record of the games' tables (Corpus.Games), in their order
	Lemmas    []LemmaCheck // one per record of lemmas.csv, in its order
	// SampleCited counts the committed certificates that CheckOptions.Sample
	// left out but that were verified all the same, because a certificate
	// it chose cites them, directly or not: a certificate is valid only
	// with those it cites.
	SampleCited int
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
	// checked within one certificate). Its Library, if nil, is one made
	// for the check, which looks for cited certificates in certs/ and in
	// Elsewhere: every certificate that cites or is cited is checked with
	// that one library, so each is verified once however many cite it.
	Verify verify.Options
	// NoVerify skips the checker: a committed certificate that is present
	// with the size its record gives counts as verified (CertCheck.Trusted)
	// without being read. Everything else is checked as usual. It is for
	// work that follows a full Check of the same files, such as comparing
	// the generated files after spots-corpus check.
	NoVerify bool
	// Sample, if set, chooses the committed certificates to verify, and
	// with each the committed certificates it cites, directly or not
	// (Report.SampleCited counts those it adds); the others are checked
	// as with NoVerify (present, with the size their record gives;
	// CertCheck.Trusted). See Sample and SampleMaxN.
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
//
// The certificates form a DAG by their citations. Each is verified once,
// those it cites first, with one verify.Library for all that cite or are
// cited. A certificate that cites an address the index does not list is
// a problem (naming both): a citation must not point outside the corpus;
// so is a committed certificate that cites one kept elsewhere, which the
// repository alone could not verify, and a row whose cites differ from
// its certificate's.
func (c *Corpus) Check(opt CheckOptions) *Report {
	k := &checking{c: c, rep: &Report{}, indexFile: c.Path(IndexFile), litFile: c.Path(LiteratureFile),
		certsDir: filepath.Join(c.Dir, CertsDir)}
	k.literature()
	k.index()
	k.certsFiles()
	citesOf := c.citations(opt)
	k.citations(citesOf)
	k.sizeRule(opt.Limits)
	k.certificates(opt, citesOf)
	k.claims()
	c.checkGames(k.rep, opt)
	c.checkLemmas(k.rep, opt, k.lib)
	sort.SliceStable(k.rep.Problems, func(i, j int) bool {
		return k.rep.Problems[i].N < k.rep.Problems[j].N
	})
	return k.rep
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

// citations returns the addresses each record's certificate cites, by its
// address: the row's, or for a row of an index from before the cites
// column, the certificate's header (when opt verifies: a check that
// verifies nothing reads no certificate). A header read is not yet
// verified; it only orders the checks and closes the sample, and the
// check of the certificate then covers it.
func (c *Corpus) citations(opt CheckOptions) map[string][]string {
	out := map[string][]string{}
	for _, r := range c.Records {
		switch {
		case r.CitesRecorded:
			out[r.Address] = r.Cites
		case opt.NoVerify:
		case r.Committed:
			out[r.Address], _ = headerCites(c.CertPath(r))
		default:
			if path := findElsewhere(opt.Elsewhere, r.FileName()); path != "" {
				out[r.Address], _ = headerCites(path)
			}
		}
	}
	return out
}

// outside returns what is wrong with r citing the address a, or "": a
// citation must name a certificate of the corpus, and one of a committed
// certificate a committed certificate.
func outside(r Record, a string, byAddress map[string]Record) string {
	cited, ok := byAddress[a]
	switch {
	case !ok:
		return fmt.Sprintf("the certificate of %s cites %s, which is not a certificate of the corpus (%s lists none at that address, and a citation must not point outside the corpus): add the cited certificate with spots-corpus add, or make this one again with spots-corpus add --replace", r.Claim, a, IndexFile)
	case r.Committed && !cited.Committed:
		return fmt.Sprintf("the certificate of %s cites %s, the certificate of %s (%s line %d), which is kept elsewhere: a committed certificate may cite only committed ones, or the repository cannot verify it; commit the cited certificate, or make this one again with spots-corpus add --replace", r.Claim, a, cited.Claim, IndexFile, cited.Line)
	}
	return ""
}

// closeSample returns the choice of the committed records that sample
// chooses and of those they cite, directly or not (cites gives each
// record's citations by address), and how many it adds: a certificate
// verifies only with those it cites.
func closeSample(records []Record, sample func(Record) bool, cites map[string][]string) (func(Record) bool, int) {
	committed := map[string]bool{}
	for _, r := range records {
		if r.Committed {
			committed[r.Address] = false
		}
	}
	var stack []string
	for _, r := range records {
		if r.Committed && sample(r) {
			committed[r.Address] = true
			stack = append(stack, r.Address)
		}
	}
	added := 0
	for len(stack) > 0 {
		a := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, b := range cites[a] {
			if in, ok := committed[b]; ok && !in {
				committed[b] = true
				added++
				stack = append(stack, b)
			}
		}
	}
	return func(r Record) bool { return r.Committed && committed[r.Address] }, added
}

// certJob is one certificate to check: the record, where its file is, and
// whether only to find it (trust) rather than verify it.
type certJob struct {
	r         Record
	path      string
	trust     bool
	elsewhere bool // the file is kept elsewhere, not in certs/
	shared    bool // it cites or is cited: checked with the run's library (see checkCertificates)
}

// checkCertificates checks the certificates of jobs on as many goroutines
// as there are CPUs, and returns the checks in the order of jobs.
//
// A verify.Library is not safe for concurrent use, so the certificates
// that cite or are cited (by cites, each certificate's citations by
// address) are checked on one goroutine with opt.Verify.Library, those
// they cite before them, so that each file is verified at its own path
// once and its citers find it done. The others, which share nothing, are
// checked on every goroutine each with a library of its own (which keeps
// no rows in memory after it).
func (c *Corpus) checkCertificates(jobs []certJob, opt CheckOptions, cites map[string][]string) []CertCheck {
	shared, isolated := citationOrder(jobs, cites)
	out := make([]CertCheck, len(jobs))
	var mu sync.Mutex // serialises opt's callbacks and the queues
	begun, checked := 0, 0
	serial := func(f func()) {
		mu.Lock()
		defer mu.Unlock()
		f()
	}
	vopt := opt.Verify
	if vopt.Progress != nil {
		vopt.Progress = func(done, total int) { serial(func() { opt.Verify.Progress(done, total) }) }
	}
	// take returns the next job for the worker (the first takes the
	// shared ones, in order, then helps with the others), or -1.
	take := func(first bool) int {
		i := -1
		serial(func() {
			switch {
			case first && len(shared) > 0:
				i, shared = shared[0], shared[1:]
			case len(isolated) > 0:
				i, isolated = isolated[0], isolated[1:]
			default:
				return
			}
			begun++
			if opt.Progress != nil {
				opt.Progress(begun, len(jobs), jobs[i].r)
			}
		})
		return i
	}
	var wg sync.WaitGroup
	for w := range min(runtime.GOMAXPROCS(0), len(jobs)) {
		wg.Go(func() {
			for {
				i := take(w == 0)
				if i < 0 {
					return
				}
				o := vopt
				if !jobs[i].shared {
					o.Library = nil
				}
				out[i] = checkCertificate(jobs[i], o)
				if opt.Checked != nil {
					serial(func() {
						checked++
						opt.Checked(checked, len(jobs), out[i])
					})
				}
			}
		})
	}
	wg.Wait()
	return out
}

// citationOrder splits the jobs (their indexes) into those that cite or
// are cited (shared), each after the jobs it cites, and the others, in
// their order; it marks the shared ones. A job left to trust is never
// shared: it is not read.
func citationOrder(jobs []certJob, cites map[string][]string) (shared, isolated []int) {
	cited := map[string]bool{}
	for _, j := range jobs {
		if !j.trust {
			for _, a := range cites[j.r.Address] {
				cited[a] = true
			}
		}
	}
	byAddress := map[string]int{}
	for i := range jobs {
		j := &jobs[i]
		j.shared = !j.trust && (len(cites[j.r.Address]) > 0 || cited[j.r.Address])
		if j.shared {
			byAddress[j.r.Address] = i
		}
	}
	// Depth first, each job after those it cites. A cycle would need a
	// hash collision; visiting each job once ends it all the same, and the
	// check rejects it.
	seen := make([]bool, len(jobs))
	var visit func(i int)
	visit = func(i int) {
		if seen[i] {
			return
		}
		seen[i] = true
		for _, a := range cites[jobs[i].r.Address] {
			if k, ok := byAddress[a]; ok {
				visit(k)
			}
		}
		shared = append(shared, i)
	}
	for i, j := range jobs {
		if j.shared {
			visit(i)
		} else {
			isolated = append(isolated, i)
		}
	}
	return shared, isolated
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
		cc.Result = verify.Result{Claim: r.Claim, Address: r.Address, Entries: r.Entries, Cites: len(r.Cites)}
		cc.Trusted, cc.Cites = true, r.Cites
		sizeDiffers()
		return cc
	}
	res, err := verify.File(cc.Path, opt)
	cc.Result = res
	if cc.Err = unlike(res, err, IndexFile, r.Line, r.Claim, r.Address, r.Entries); cc.Err != nil {
		return cc
	}
	// The file is valid and at its address, which covers its header's
	// citations.
	if cc.Cites, err = headerCites(cc.Path); err != nil {
		cc.Err = fmt.Errorf("unreadable certificate (listed for %s): %w", r.Claim, err)
		return cc
	}
	if r.CitesRecorded && !slices.Equal(cc.Cites, r.Cites) {
		cc.Err = fmt.Errorf("the certificate cites %s, but %s line %d says it cites %s (the cites column must list the certificate's citations)",
			citeList(cc.Cites), IndexFile, r.Line, citeList(r.Cites))
		return cc
	}
	sizeDiffers()
	return cc
}

// citeList writes addresses for a message: "none", or the addresses
// separated by spaces.
func citeList(cites []string) string {
	if len(cites) == 0 {
		return "none"
	}
	return strings.Join(cites, " ")
}

// unlike compares what verify.File found in a certificate (res, err) with
// the row of an index (file, line) that lists it with claim, address and
// entries, and says what differs, or returns nil.
func unlike(res verify.Result, err error, file string, line int, claim format.Claim, address string, entries int) error {
	switch {
	case err != nil && verify.IsInvalid(err):
		return fmt.Errorf("invalid certificate (listed for %s): %w", claim, err)
	case errors.Is(err, verify.ErrIncomplete):
		return fmt.Errorf("certificate not checked (listed for %s): %w", claim, err)
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
