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

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// The Cram table of a corpus: its index and its certificates, apart from
// the Sprouts ones (see the package documentation).
const (
	CramIndexFile = "cram.csv"
	CramCertsDir  = "cram"
)

// cramHeader is the first line of cram.csv.
var cramHeader = []string{"board", "claim", "address", "entries", "bytes", "algorithm",
	"solve_seconds", "verify_seconds", "added", "producer", "machine", "command"}

// CramRecord is one row of cram.csv: a certificate of a claim about a Cram
// board, committed in cram/ as <Address>.arrow.
type CramRecord struct {
	Board         string       // the claim's root in canonical text, e.g. "4x5"
	Rows, Cols    int          // the board's size when it is an empty rectangle (Rows ≤ Cols); 0 otherwise
	Claim         format.Claim // an outcome without heap, or a Grundy value
	Address       string
	Entries       int
	Bytes         int64
	Algorithm     solve.Algorithm // dfpn, pdfpn or pns
	SolveSeconds  float64
	VerifySeconds float64
	Added         string // YYYY-MM-DD
	Producer      string
	Machine       string
	Command       string // the command that makes it again
	Line          int    // line of cram.csv, 1-based; 0 for a new record
}

// FileName returns the certificate's file name, <Address>.arrow.
func (r CramRecord) FileName() string { return r.Address + ".arrow" }

// ReadCramIndex reads cram.csv. A malformed row is an error naming its
// line and field.
func ReadCramIndex(r io.Reader) ([]CramRecord, error) {
	return readIndex(r, cramHeader, parseCramRecord)
}

// parseCramRecord makes the record of a row of cram.csv.
func parseCramRecord(row indexRow) (CramRecord, error) {
	f, field := row.f, row.bad
	claim, err := row.claim()
	if err != nil {
		return CramRecord{}, err
	}
	r := CramRecord{Board: f[0], Claim: claim, Line: row.line}
	if r.Claim.Kind != format.ClaimGrundy && r.Claim.N != 0 {
		return r, field(1, "has a heap: the table lists boards alone")
	}
	p, err := cram.Parse(r.Board)
	switch {
	case err != nil:
		return r, field(0, err.Error())
	case p.String() != r.Board:
		return r, field(0, fmt.Sprintf("is not in canonical form (%s)", p))
	case r.Claim.Root != r.Board:
		return r, field(0, fmt.Sprintf("is not the root of the claim %s", r.Claim))
	}
	r.Rows, r.Cols = rectangle(r.Board)
	m, err := row.made(solve.SearchDFPN, solve.SearchPDFPN, solve.SearchPNS)
	if err != nil {
		return r, err
	}
	r.Address, r.Entries, r.Bytes, r.Algorithm, r.Producer, r.Machine = m.address, m.entries, m.bytes, m.algorithm, m.producer, m.machine
	r.SolveSeconds, r.VerifySeconds, r.Added = m.solve, m.verify, m.added
	r.Command = f[11]
	return r, nil
}

// rectangle returns the size of a board written "HxW", and 0, 0 for any
// other text.
func rectangle(board string) (rows, cols int) {
	hs, ws, ok := strings.Cut(board, "x")
	if !ok {
		return 0, 0
	}
	h, err1 := strconv.Atoi(hs)
	w, err2 := strconv.Atoi(ws)
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	return h, w
}

// sortCramRecords orders records as cram.csv holds them: empty rectangles
// by rows then columns, other boards after them by text; outcome claims
// before Grundy claims.
func sortCramRecords(rs []CramRecord) {
	slices.SortStableFunc(rs, func(a, b CramRecord) int {
		ra, rb := a.Rows == 0, b.Rows == 0
		if ra != rb {
			if ra {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.Rows, b.Rows), cmp.Compare(a.Cols, b.Cols), strings.Compare(a.Board, b.Board),
			cmp.Compare(kindOrder(a.Claim), kindOrder(b.Claim)), strings.Compare(a.Address, b.Address))
	})
}

// EncodeCramIndex returns cram.csv for the records, sorted: the same
// records always give the same bytes.
func EncodeCramIndex(records []CramRecord) []byte {
	rs := slices.Clone(records)
	sortCramRecords(rs)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(cramHeader)
	for _, r := range rs {
		w.Write([]string{r.Board, r.Claim.String(), r.Address, strconv.Itoa(r.Entries), strconv.FormatInt(r.Bytes, 10),
			r.Algorithm.String(), seconds(r.SolveSeconds), seconds(r.VerifySeconds), r.Added, r.Producer, r.Machine, r.Command})
	}
	w.Flush()
	return b.Bytes()
}

// readCram reads the Cram table of the corpus in c.Dir, if it has one.
func (c *Corpus) readCram() error {
	recs, err := readOptional(c.Path(CramIndexFile), ReadCramIndex)
	if err != nil {
		return err
	}
	sortCramRecords(recs)
	c.Cram = recs
	return nil
}

// CramPath returns where the corpus keeps the certificate of r.
func (c *Corpus) CramPath(r CramRecord) string {
	return filepath.Join(c.Dir, CramCertsDir, r.FileName())
}

// SymmetryOutcome returns what the symmetry strategies prove of an empty
// rows×cols Cram board: Loss when both are even (the second player answers
// each move with its image under the half-turn), Win when one is even and
// the other odd (the first player covers the two centre cells, then does
// the same), Unknown when both are odd.
func SymmetryOutcome(rows, cols int) Outcome {
	switch {
	case rows%2 == 0 && cols%2 == 0:
		return Loss
	case rows%2 == 0 || cols%2 == 0:
		return Win
	}
	return Unknown
}

// CramCheck is the verification of one Cram certificate.
type CramCheck struct {
	Record  CramRecord
	Path    string
	Result  verify.Result // what the checker found (with CheckOptions.NoVerify, what the record says)
	Elapsed time.Duration
	Err     error // nil when the file verified and agrees with its record
	Trusted bool  // the checker was skipped (CheckOptions.NoVerify, or a sample that leaves it out)
}

// CramSampleSeconds bounds the Cram certificates a sampled check verifies
// (CheckOptions.Sample set, as spots-corpus check --budget does when the
// corpus is large): those whose recorded verify time is at most this many
// seconds, which are all the boards up to 5x5 and more; the others are
// only found, present with their size. A check without Sample verifies
// them all.
const CramSampleSeconds = 2.0

// checkCram checks the Cram table into rep: every certificate verified
// (with CheckOptions.Sample, those recorded to verify within
// CramSampleSeconds) and as listed, every file of cram/ listed, every
// claim consistent with the others about its board and with the symmetry
// strategies.
func (c *Corpus) checkCram(rep *Report, opt CheckOptions) {
	index := c.Path(CramIndexFile)
	problem := func(file, msg string, a ...any) {
		rep.Problems = append(rep.Problems, Problem{File: file, What: "Cram: " + fmt.Sprintf(msg, a...)})
	}
	byClaim, byAddress := map[string]CramRecord{}, map[string]CramRecord{}
	implied := map[string]CramRecord{}
	for _, r := range c.Cram {
		if o, ok := byClaim[r.Claim.String()]; ok {
			problem(index, "lines %d and %d both list the claim %s; keep one", o.Line, r.Line, r.Claim)
		}
		byClaim[r.Claim.String()] = r
		if o, ok := byAddress[r.Address]; ok {
			problem(index, "lines %d and %d both list the address %s", o.Line, r.Line, r.Address)
		}
		byAddress[r.Address] = r
		out, _ := r.Claim.RootOutcome()
		if o, ok := implied[r.Board]; ok {
			if oo, _ := o.Claim.RootOutcome(); oo != out {
				problem(index, "the claims %s (line %d) and %s (line %d) contradict each other", o.Claim, o.Line, r.Claim, r.Line)
			}
		}
		implied[r.Board] = r
		if r.Rows > 0 {
			if want := SymmetryOutcome(r.Rows, r.Cols); want != outcome.Unknown && want != out {
				problem(index, "line %d: %s says %s is %s, but the symmetry strategy proves %s", r.Line, r.Claim, r.Board, out.Mark(), want.Mark())
			}
		}
	}
	dir := filepath.Join(c.Dir, CramCertsDir)
	names, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		problem(dir, "cannot list the certificates: %v", err)
	}
	for _, e := range names {
		if _, listed := byAddress[strings.TrimSuffix(e.Name(), ".arrow")]; !listed || !strings.HasSuffix(e.Name(), ".arrow") {
			problem(filepath.Join(dir, e.Name()), "is in %s/ but not listed in %s (add it, or remove it)", CramCertsDir, CramIndexFile)
		}
	}
	for _, r := range c.Cram {
		o := opt
		// The independent check knows only Sprouts: with it, Cram
		// certificates are only found.
		o.NoVerify = opt.NoVerify || opt.Verify.Independent || opt.Sample != nil && r.VerifySeconds > CramSampleSeconds
		cc := checkCramCertificate(r, c.CramPath(r), o)
		if cc.Err != nil {
			problem(cc.Path, "%v", cc.Err)
		}
		rep.Cram = append(rep.Cram, cc)
	}
}

// checkCramCertificate verifies the certificate of r at path and compares
// it with r; with opt.NoVerify it only checks that the file is there with
// the size r gives.
func checkCramCertificate(r CramRecord, path string, opt CheckOptions) (cc CramCheck) {
	cc = CramCheck{Record: r, Path: path}
	start := time.Now()
	defer func() { cc.Elapsed = time.Since(start) }()
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		cc.Err = fmt.Errorf("missing: %s line %d lists the certificate of %s, but there is no such file", CramIndexFile, r.Line, r.Claim)
		return cc
	case err != nil:
		cc.Err = fmt.Errorf("unreadable: %w", err)
		return cc
	case st.Size() != r.Bytes:
		cc.Err = fmt.Errorf("the file has %d bytes, but %s line %d says %d", st.Size(), CramIndexFile, r.Line, r.Bytes)
		return cc
	}
	if opt.NoVerify {
		cc.Result, cc.Trusted = verify.Result{Claim: r.Claim, Address: r.Address, Entries: r.Entries}, true
		return cc
	}
	res, err := verify.File(path, opt.Verify)
	cc.Result = res
	cc.Err = unlike(res, err, CramIndexFile, r.Line, r.Claim, r.Address, r.Entries)
	return cc
}

// writeCramMarkdown writes the Cram section of OUTCOMES.md: one row per
// certificate of the Cram table, with what the check found of it.
func writeCramMarkdown(b *strings.Builder, recs []CramRecord, rep *Report) {
	if len(recs) == 0 {
		return
	}
	status := map[string]string{}
	for _, cc := range rep.Cram {
		if cc.Err != nil {
			status[cc.Record.Address] = StatusFailed
		} else {
			status[cc.Record.Address] = StatusVerified
		}
	}
	b.WriteString("\n## Cram\n\n")
	b.WriteString("Certificates of Cram boards (cram.csv, certificates in cram/; the game and its notation: `go doc github.com/spots-dev/spots/cram`). ")
	b.WriteString("A move covers two orthogonally adjacent empty cells; the player who cannot move loses. ")
	b.WriteString("*board*: rows x columns of empty cells, or the rows of a board with holes. ")
	b.WriteString("*symmetry*: what the symmetry strategies prove of an empty board (L when both sides are even, W when one is, blank when both are odd); every claim here must agree. ")
	b.WriteString("*entries*, *bytes*, *solve*, *verify*: as above.\n\n")
	b.WriteString("| board | claim | outcome | Grundy | symmetry | certificate | status | entries | bytes | solve | verify |\n")
	b.WriteString("|---|---|:---:|:---:|:---:|---|---|---:|---:|---:|---:|\n")
	for _, r := range recs {
		out, g := r.Claim.RootOutcome()
		gs := ""
		if g != nil {
			gs = strconv.FormatUint(uint64(*g), 10)
		}
		sym := ""
		if r.Rows > 0 {
			if s := SymmetryOutcome(r.Rows, r.Cols); s != Unknown {
				sym = s.Mark()
			}
		}
		st := status[r.Address]
		if st == "" {
			st = StatusUnchecked
		}
		fmt.Fprintf(b, "| `%s` | `%s` | %s | %s | %s | [`%s`](%s/%s) | %s | %d | %s | %s | %s |\n",
			cell(r.Board), cell(r.Claim.String()), out.Mark(), gs, sym, r.Address[:12], CramCertsDir, r.FileName(), st,
			r.Entries, SizeText(r.Bytes), duration(r.SolveSeconds), duration(r.VerifySeconds))
	}
}
