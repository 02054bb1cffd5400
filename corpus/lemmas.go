package corpus

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// The lemmas of a corpus: certificates of what a search of 0*n that has
// not finished has proved so far (claim lemmas(0*n), format.ClaimLemmas),
// so that the search goes on from them on any machine, from a fresh clone.
// spots-corpus add writes them when a search stops unsolved, draws on
// them when it starts, and retires those of 0*n once 0*n is certified.
const (
	LemmaIndexFile = "lemmas.csv"
	LemmaCertsDir  = "lemmas"
)

// lemmaHeader is the first line of lemmas.csv.
var lemmaHeader = []string{"n", "claim", "address", "entries", "bytes", "algorithm",
	"solve_seconds", "verify_seconds", "added", "producer", "machine", "command", "iterations", "cites"}

// LemmaRecord is one row of lemmas.csv: a certificate of lemmas about a
// search of 0*N, committed in lemmas/ as <Address>.arrow.
type LemmaRecord struct {
	N             int
	Claim         format.Claim // lemmas(0*N)
	Address       string
	Entries       int
	Bytes         int64
	Algorithm     solve.Algorithm // the search: dfpn or pns
	SolveSeconds  float64         // the search's time over all its runs, up to the lemmas
	VerifySeconds float64         // the check of the written file
	Added         string          // YYYY-MM-DD
	Producer      string
	Machine       string
	Command       string   // the command that goes on with the search
	Iterations    uint64   // the search's iterations over all its runs, up to the lemmas
	Cites         []string // the certificates of certs/ it cites, sorted
	Line          int      // line of lemmas.csv, 1-based; 0 for a new record
}

// FileName returns the certificate's file name, <Address>.arrow.
func (r LemmaRecord) FileName() string { return r.Address + ".arrow" }

// ReadLemmaIndex reads lemmas.csv. A malformed row is an error naming its
// line and field.
func ReadLemmaIndex(r io.Reader) ([]LemmaRecord, error) {
	return readIndex(r, lemmaHeader, parseLemmaRecord)
}

func parseLemmaRecord(row indexRow) (LemmaRecord, error) {
	f, field := row.f, row.bad
	claim, err := row.claim()
	if err != nil {
		return LemmaRecord{}, err
	}
	r := LemmaRecord{Claim: claim, Line: row.line}
	if r.N, err = strconv.Atoi(f[0]); err != nil || r.N < 1 {
		return r, field(0, "is not a number of spots")
	}
	if claim.Kind != format.ClaimLemmas || claim.Root != StartText(r.N) {
		return r, field(1, fmt.Sprintf("is not the claim lemmas(%s)", StartText(r.N)))
	}
	m, err := row.made(solve.SearchDFPN, solve.SearchPDFPN, solve.SearchPNS)
	if err != nil {
		return r, err
	}
	r.Address, r.Entries, r.Bytes, r.Algorithm, r.Producer, r.Machine = m.address, m.entries, m.bytes, m.algorithm, m.producer, m.machine
	r.SolveSeconds, r.VerifySeconds, r.Added = m.solve, m.verify, m.added
	r.Command = f[11]
	if r.Iterations, err = strconv.ParseUint(f[12], 10, 64); err != nil {
		return r, field(12, "is not a count")
	}
	if f[13] != "" {
		r.Cites = strings.Fields(f[13])
		for _, a := range r.Cites {
			if !format.IsAddress(a) {
				return r, field(13, "is not a list of content addresses separated by spaces")
			}
		}
	}
	return r, nil
}

// EncodeLemmaIndex returns lemmas.csv for the records, sorted by n, then
// address: the same records always give the same bytes.
func EncodeLemmaIndex(records []LemmaRecord) []byte {
	rs := slices.Clone(records)
	sortLemmaRecords(rs)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(lemmaHeader)
	for _, r := range rs {
		w.Write([]string{strconv.Itoa(r.N), r.Claim.String(), r.Address, strconv.Itoa(r.Entries), strconv.FormatInt(r.Bytes, 10),
			r.Algorithm.String(), seconds(r.SolveSeconds), seconds(r.VerifySeconds), r.Added, r.Producer, r.Machine, r.Command,
			strconv.FormatUint(r.Iterations, 10), strings.Join(r.Cites, " ")})
	}
	w.Flush()
	return b.Bytes()
}

func sortLemmaRecords(rs []LemmaRecord) {
	slices.SortStableFunc(rs, func(a, b LemmaRecord) int {
		return cmp.Or(cmp.Compare(a.N, b.N), strings.Compare(a.Address, b.Address))
	})
}

// readLemmas reads the lemmas of the corpus in c.Dir, if it has any.
func (c *Corpus) readLemmas() error {
	recs, err := readOptional(c.Path(LemmaIndexFile), ReadLemmaIndex)
	if err != nil {
		return err
	}
	sortLemmaRecords(recs)
	c.Lemmas = recs
	return nil
}

// LemmaPath returns where the corpus keeps the certificate of r.
func (c *Corpus) LemmaPath(r LemmaRecord) string {
	return filepath.Join(c.Dir, LemmaCertsDir, r.FileName())
}

// LemmasOf returns the records of the lemmas about 0*n.
func (c *Corpus) LemmasOf(n int) []LemmaRecord {
	var out []LemmaRecord
	for _, r := range c.Lemmas {
		if r.N == n {
			out = append(out, r)
		}
	}
	return out
}

// PutLemmas lists rs, the files of one set of lemmas about one n, in
// place of every other record of lemmas about that n: a search's newest
// lemmas hold what it proved before (it drew on them), so they replace
// the older. It returns the records replaced; their files are the
// caller's to remove once the index is saved.
func (c *Corpus) PutLemmas(rs ...LemmaRecord) (replaced []LemmaRecord) {
	if len(rs) == 0 {
		return nil
	}
	n, put := rs[0].N, map[string]bool{}
	for _, r := range rs {
		put[r.Address] = true
	}
	keep := c.Lemmas[:0:0]
	for _, o := range c.Lemmas {
		switch {
		case put[o.Address]:
		case o.N == n:
			replaced = append(replaced, o)
		default:
			keep = append(keep, o)
		}
	}
	c.Lemmas = append(keep, rs...)
	sortLemmaRecords(c.Lemmas)
	return replaced
}

// RetireLemmas drops the records of the lemmas about 0*n (once 0*n is
// certified they are worth nothing more) and returns them; their files
// are the caller's to remove once the index is saved.
func (c *Corpus) RetireLemmas(n int) []LemmaRecord {
	var keep, gone []LemmaRecord
	for _, r := range c.Lemmas {
		if r.N == n {
			gone = append(gone, r)
		} else {
			keep = append(keep, r)
		}
	}
	c.Lemmas = keep
	return gone
}

// SaveLemmas writes lemmas.csv (removing it when no lemmas are left).
func (c *Corpus) SaveLemmas() error {
	path := c.Path(LemmaIndexFile)
	if len(c.Lemmas) == 0 {
		if err := refuseLink(path); err != nil {
			return err
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", path, err)
		}
		return nil
	}
	return writeFile(path, EncodeLemmaIndex(c.Lemmas))
}

// LemmaCheck is what Check found of one certificate of lemmas.
type LemmaCheck struct {
	Record  LemmaRecord
	Path    string
	Result  verify.Result
	Err     error
	Trusted bool // found with the size its record gives, not verified (NoVerify, or left out of Sample)
	Elapsed time.Duration
}

// checkLemmas verifies each certificate of lemmas (with lib, which finds
// what it cites in certs/), compares it with its row, and holds every
// file of lemmas/ to a row; a problem is added to rep. With opt.Sample,
// only the lemmas it chooses are verified (by address, as the changed
// certificates are), the others found.
func (c *Corpus) checkLemmas(rep *Report, opt CheckOptions, lib *verify.Library) {
	index := c.Path(LemmaIndexFile)
	problem := func(n int, file, msg string, a ...any) {
		rep.Problems = append(rep.Problems, Problem{N: n, File: file, What: "lemmas: " + fmt.Sprintf(msg, a...)})
	}
	byAddress := map[string]LemmaRecord{}
	for _, r := range c.Lemmas {
		if o, ok := byAddress[r.Address]; ok {
			problem(r.N, index, "lines %d and %d both list the address %s", o.Line, r.Line, r.Address)
		}
		byAddress[r.Address] = r
		if k := c.RecordOf(r.N, false); k >= 0 {
			problem(r.N, index, "line %d lists lemmas about 0*%d, which index.csv line %d certifies: retire them (spots-corpus add retires them when it certifies 0*n)", r.Line, r.N, c.Records[k].Line)
		}
	}
	dir := filepath.Join(c.Dir, LemmaCertsDir)
	names, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		problem(0, dir, "cannot list the certificates: %v", err)
	}
	for _, e := range names {
		if _, listed := byAddress[strings.TrimSuffix(e.Name(), ".arrow")]; !listed || !strings.HasSuffix(e.Name(), ".arrow") {
			problem(0, filepath.Join(dir, e.Name()), "is in %s/ but not listed in %s (add it, or remove it)", LemmaCertsDir, LemmaIndexFile)
		}
	}
	for _, r := range c.Lemmas {
		if r.Bytes > MaxLemmaBytes {
			problem(r.N, index, "line %d lists lemmas of %d bytes (%s), over the %s a file outside certs/ may have: keep fewer (spots-corpus add --lemma-entries)", r.Line, r.Bytes, SizeText(r.Bytes), SizeText(MaxLemmaBytes))
		}
		trust := opt.NoVerify || opt.Sample != nil && !opt.Sample(Record{N: r.N, Address: r.Address})
		lc := checkLemmaCertificate(r, c.LemmaPath(r), trust, opt.Verify, lib)
		if lc.Err != nil {
			problem(r.N, lc.Path, "%v", lc.Err)
		}
		rep.Lemmas = append(rep.Lemmas, lc)
	}
}

// checkLemmaCertificate verifies the certificate of lemmas of r at path
// and compares it with r; with trust it only checks that the file is
// there with the size r gives.
func checkLemmaCertificate(r LemmaRecord, path string, trust bool, vopt verify.Options, lib *verify.Library) (lc LemmaCheck) {
	lc = LemmaCheck{Record: r, Path: path}
	start := time.Now()
	defer func() { lc.Elapsed = time.Since(start) }()
	if err := refuseLink(path); err != nil {
		lc.Err = err
		return lc
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		lc.Err = fmt.Errorf("missing: %s line %d lists the certificate of %s, but there is no such file", LemmaIndexFile, r.Line, r.Claim)
		return lc
	case err != nil:
		lc.Err = fmt.Errorf("unreadable: %w", err)
		return lc
	case st.Size() != r.Bytes:
		lc.Err = fmt.Errorf("the file has %d bytes, but %s line %d says %d", st.Size(), LemmaIndexFile, r.Line, r.Bytes)
		return lc
	}
	if trust {
		lc.Result, lc.Trusted = verify.Result{Claim: r.Claim, Address: r.Address, Entries: r.Entries}, true
		return lc
	}
	vopt.Library = lib
	res, err := verify.File(path, vopt)
	lc.Result = res
	lc.Err = unlike(res, err, LemmaIndexFile, r.Line, r.Claim, r.Address, r.Entries)
	return lc
}
