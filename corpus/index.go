package corpus

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
)

// indexHeader is the first line of index.csv. Files of the older
// headers (see olderIndexHeaders) still read.
var indexHeader = []string{"n", "claim", "address", "entries", "bytes", "algorithm",
	"solve_seconds", "verify_seconds", "added", "producer", "machine", "committed", "command", "independent_seconds",
	"iterations", "cites"}

// The columns of index.csv that came later: a file whose header stops
// before one of them still reads, its rows without it.
const (
	colIndependent = 13 // independent_seconds
	colIterations  = 14 // iterations
	colCites       = 15 // cites
)

// olderIndexHeaders are the headers index.csv had before: without
// independent_seconds, and without iterations and cites. EncodeIndex
// writes the second while no record fills the columns after it, so that
// an index of certificates that cite none reads as it did.
var olderIndexHeaders = [][]string{indexHeader[:colIndependent], indexHeader[:colIterations]}

// Record is one row of index.csv: a certificate we produced and how.
//
// The times were measured once, on Machine, when the certificate was added;
// nothing re-measures them, so the generated table is reproducible.
type Record struct {
	N             int             // the claim is about 0*N
	Claim         format.Claim    // as format.Claim.String writes it
	Address       string          // content address: the file is certs/<Address>.arrow
	Entries       int             // entries in the certificate
	Bytes         int64           // size of the file
	Algorithm     solve.Algorithm // the search that produced it: dfpn or pns
	SolveSeconds  float64         // time of the search
	VerifySeconds float64         // time of verify.File on the written file
	// IndependentSeconds is the time of the independent check
	// (spots-verify --independent) of the file, as spots-corpus retime
	// --independent measures it; 0 when it was not measured.
	IndependentSeconds float64
	Added              string // date it was added, YYYY-MM-DD (UTC)
	Producer           string // producer and version written in the certificate, e.g. "spots dev"
	Machine            string // where it was solved, e.g. "linux/amd64 2 CPUs"
	Committed          bool   // yes: certs/<Address>.arrow is in the repository; no: kept elsewhere (see MaxCertBytes)
	Command            string // the command that makes it again
	// Iterations is the number of iterations its search took, over all
	// its runs; 0 when not recorded (rows from before the column).
	Iterations uint64
	// Cites are the content addresses of the certificates it cites
	// (format.Certificate.Cites), sorted, each once; empty when it cites
	// none. They are part of its content address, and spots-corpus check
	// holds them to the certificate's.
	Cites []string
	// CitesRecorded says whether the index recorded Cites: a row of a
	// file from before the column says nothing of them (Cites is then
	// empty, and the certificate's own header tells). Corpus.SaveIndex
	// records them.
	CitesRecorded bool
	// CitedSolveSeconds is what the searches of the certificates it
	// relies on took, directly or through others (their SolveSeconds,
	// each once): with SolveSeconds, what its whole proof cost to make.
	// Open fills it from the index; it is not a column.
	CitedSolveSeconds float64
	Line              int // line of index.csv, 1-based; 0 for a new record
}

// FileName returns the certificate's file name, <Address>.arrow.
func (r Record) FileName() string { return r.Address + ".arrow" }

// ShortAddress returns the first 12 digits of the address.
func (r Record) ShortAddress() string {
	if len(r.Address) > 12 {
		return r.Address[:12]
	}
	return r.Address
}

// sortRecords orders records as index.csv holds them: by n, then outcome
// claims before Grundy claims, then by claim text and address.
func sortRecords(rs []Record) {
	slices.SortStableFunc(rs, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.N, b.N), cmp.Compare(kindOrder(a.Claim), kindOrder(b.Claim)),
			strings.Compare(a.Claim.String(), b.Claim.String()), strings.Compare(a.Address, b.Address))
	})
}

func kindOrder(c format.Claim) int {
	if c.Kind == format.ClaimGrundy {
		return 1
	}
	return 0
}

// ReadIndex reads index.csv. A malformed row is an error naming its line
// and field; the rows need not be in order (WriteIndex sorts them).
func ReadIndex(r io.Reader) ([]Record, error) {
	return readIndex(r, indexHeader, parseRecord, olderIndexHeaders...)
}

// readIndex reads an index of the corpus (index.csv, a game's table): the
// header (or one of the older headers, see readCSV), then a record a row,
// which parse makes from the row (its fields and its 1-based line). A
// malformed row is an error naming its line; so is an empty file.
func readIndex[R any](r io.Reader, header []string, parse func(indexRow) (R, error), older ...[]string) ([]R, error) {
	var rs []R
	empty, err := readCSV(r, header, func(line int, f []string) error {
		rc, err := parse(indexRow{f: f, header: header, line: line})
		rs = append(rs, rc)
		return err
	}, older...)
	if err != nil {
		return nil, err
	}
	if empty {
		return nil, errors.New("empty file (want at least the header line)")
	}
	return rs, nil
}

// parseRecord makes the record of a row of index.csv.
func parseRecord(row indexRow) (Record, error) {
	f, field := row.f, row.bad
	claim, err := row.claim()
	if err != nil {
		return Record{}, err
	}
	r := Record{Claim: claim, Line: row.line}
	if r.N, err = ClaimSpots(r.Claim); err != nil {
		return r, err
	}
	if _, _, err = ClaimOutcome(r.Claim); err != nil {
		return r, err
	}
	if f[0] != strconv.Itoa(r.N) {
		return r, field(0, fmt.Sprintf("does not match the claim %s, which is about n = %d", r.Claim, r.N))
	}
	m, err := row.made(solve.SearchDFPN, solve.SearchPDFPN, solve.SearchPNS)
	if err != nil {
		return r, err
	}
	r.Address, r.Entries, r.Bytes, r.Algorithm, r.Producer, r.Machine = m.address, m.entries, m.bytes, m.algorithm, m.producer, m.machine
	r.SolveSeconds, r.VerifySeconds, r.Added = m.solve, m.verify, m.added
	switch f[11] {
	case "yes":
		r.Committed = true
	case "no":
	default:
		return r, field(11, "is not yes or no")
	}
	r.Command = f[12]
	if len(f) > colIndependent && f[colIndependent] != "" {
		if r.IndependentSeconds, err = parseSeconds(f[colIndependent]); err != nil {
			return r, field(colIndependent, "is not a number of seconds")
		}
	}
	if len(f) > colIterations && f[colIterations] != "" {
		if r.Iterations, err = strconv.ParseUint(f[colIterations], 10, 64); err != nil {
			return r, field(colIterations, "is not a count")
		}
	}
	if len(f) > colCites {
		r.CitesRecorded = true
		if r.Cites, err = parseCites(f[colCites], r.Address); err != nil {
			return r, fmt.Errorf("%s: %w", indexHeader[colCites], err)
		}
	}
	return r, nil
}

// parseCites reads the cites field of the row of the certificate at
// address: content addresses separated by single spaces, in increasing
// order, none twice, not its own, at most format.MaxCites; "" for none.
func parseCites(field, address string) ([]string, error) {
	if field == "" {
		return nil, nil
	}
	cites := strings.Split(field, " ")
	if len(cites) > format.MaxCites {
		return nil, fmt.Errorf("%d addresses, over the %d a certificate may cite", len(cites), format.MaxCites)
	}
	for i, a := range cites {
		switch {
		case !format.IsAddress(a):
			return nil, fmt.Errorf("%q is not a content address (64 lowercase hexadecimal digits; separate addresses with one space)", cutField(a))
		case a == address:
			return nil, fmt.Errorf("%s is the certificate's own address: a certificate cannot cite itself", a)
		case i > 0 && a <= cites[i-1]:
			return nil, fmt.Errorf("%s after %s: list the addresses in increasing order, each once, as the certificate does", a, cites[i-1])
		}
	}
	return cites, nil
}

// cutField shortens a field quoted in an error message.
func cutField(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// made is what every index (index.csv, the games' tables) says of how a
// certificate was made, in their columns 2 … 10.
type made struct {
	address           string
	entries           int
	bytes             int64
	algorithm         solve.Algorithm
	solve, verify     float64
	added             string
	producer, machine string
}

// indexRow is one row of an index (index.csv, a game's table) as it is parsed:
// its fields, the header whose names its errors quote, and its 1-based
// line. Both indexes hold the claim in column 1 and how the certificate
// was made in columns 2 … 10, which its methods read.
type indexRow struct {
	f, header []string
	line      int
}

// bad returns the error of field i: its column's name, its value and
// what is wrong with it.
func (row indexRow) bad(i int, what string) error {
	return fmt.Errorf("%s %q: %w", row.header[i], row.f[i], errors.New(what))
}

// claim reads column 1, the claim, as format.ParseClaim does.
func (row indexRow) claim() (format.Claim, error) {
	c, err := format.ParseClaim(row.f[1])
	if err != nil {
		return c, fmt.Errorf("claim: %w", err)
	}
	return c, nil
}

// made reads columns 2 … 10: address, entries, bytes, algorithm (one of
// algorithms), solve and verify seconds, the date added (may be empty),
// producer and machine (free text). A malformed field is an error naming
// its column and value.
func (row indexRow) made(algorithms ...solve.Algorithm) (made, error) {
	var m made
	var err error
	f, field := row.f, row.bad
	if m.address = f[2]; !format.IsAddress(m.address) {
		return m, field(2, "is not a content address (64 lowercase hexadecimal digits)")
	}
	if m.entries, err = strconv.Atoi(f[3]); err != nil || m.entries < 0 {
		return m, field(3, "is not a count")
	}
	if m.bytes, err = strconv.ParseInt(f[4], 10, 64); err != nil || m.bytes < 0 {
		return m, field(4, "is not a size in bytes")
	}
	if m.algorithm, err = solve.ParseAlgorithm(f[5]); err != nil || !slices.Contains(algorithms, m.algorithm) {
		names := make([]string, len(algorithms))
		for i, a := range algorithms {
			names[i] = a.String()
		}
		return m, field(5, "is not "+orList(names))
	}
	if m.solve, err = parseSeconds(f[6]); err != nil {
		return m, field(6, "is not a number of seconds")
	}
	if m.verify, err = parseSeconds(f[7]); err != nil {
		return m, field(7, "is not a number of seconds")
	}
	if m.added = f[8]; m.added != "" {
		if _, err := time.Parse(time.DateOnly, m.added); err != nil {
			return m, field(8, "is not a date YYYY-MM-DD")
		}
	}
	m.producer, m.machine = f[9], f[10]
	return m, nil
}

// orList writes "a or b", "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

func parseSeconds(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v != v || v > 1e12 {
		return 0, errors.New("bad seconds")
	}
	return v, nil
}

// EncodeIndex returns index.csv for the records, sorted (by n, outcome
// claims before Grundy claims, claim text): the same records always give
// the same bytes. The columns iterations and cites are written when a
// record fills one of them (or was read from a file that had them);
// without, the file is as it was before they were added. A record whose
// citations were not recorded (CitesRecorded false) is then written as
// citing none: Corpus.SaveIndex first reads them from the certificates.
func EncodeIndex(records []Record) []byte {
	rs := slices.Clone(records)
	sortRecords(rs)
	header := indexHeader[:colIterations]
	for _, r := range rs {
		if r.Iterations > 0 || r.CitesRecorded || len(r.Cites) > 0 {
			header = indexHeader
		}
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	for _, r := range rs {
		committed := "no"
		if r.Committed {
			committed = "yes"
		}
		independent := ""
		if r.IndependentSeconds > 0 {
			independent = seconds(r.IndependentSeconds)
		}
		row := []string{strconv.Itoa(r.N), r.Claim.String(), r.Address, strconv.Itoa(r.Entries),
			strconv.FormatInt(r.Bytes, 10), r.Algorithm.String(), seconds(r.SolveSeconds), seconds(r.VerifySeconds),
			r.Added, r.Producer, r.Machine, committed, r.Command, independent}
		if len(header) > colIterations {
			iterations := ""
			if r.Iterations > 0 {
				iterations = strconv.FormatUint(r.Iterations, 10)
			}
			row = append(row, iterations, strings.Join(r.Cites, " "))
		}
		w.Write(row)
	}
	w.Flush()
	return b.Bytes()
}

// seconds writes a time as index.csv keeps it: milliseconds.
func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }
