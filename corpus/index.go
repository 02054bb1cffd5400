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
)

// indexHeader is the first line of index.csv; files without its last
// column (independent_seconds, added later) still read.
var indexHeader = []string{"n", "claim", "address", "entries", "bytes", "algorithm",
	"solve_seconds", "verify_seconds", "added", "producer", "machine", "committed", "command", "independent_seconds"}

// Record is one row of index.csv: a certificate we produced and how.
//
// The times were measured once, on Machine, when the certificate was added;
// nothing re-measures them, so the generated table is reproducible.
type Record struct {
	N             int          // the claim is about 0*N
	Claim         format.Claim // as format.Claim.String writes it
	Address       string       // content address: the file is certs/<Address>.arrow
	Entries       int          // entries in the certificate
	Bytes         int64        // size of the file
	Algorithm     string       // the search that produced it: dfpn or pns
	SolveSeconds  float64      // time of the search
	VerifySeconds float64      // time of verify.File on the written file
	// IndependentSeconds is the time of the independent check
	// (spots-verify --independent) of the file, as spots-corpus retime
	// --independent measures it; 0 when it was not measured.
	IndependentSeconds float64
	Added              string // date it was added, YYYY-MM-DD (UTC)
	Producer           string // producer and version written in the certificate, e.g. "spots dev"
	Machine            string // where it was solved, e.g. "linux/amd64 2 CPUs"
	Committed          bool   // yes: certs/<Address>.arrow is in the repository; no: kept elsewhere (see MaxCertBytes)
	Command            string // the command that makes it again
	Line               int    // line of index.csv, 1-based; 0 for a new record
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
	return readIndex(r, indexHeader, func(line int, f []string) (Record, error) {
		rc, err := parseRecord(f)
		rc.Line = line
		return rc, err
	}, indexHeader[:len(indexHeader)-1])
}

// readIndex reads an index of the corpus (index.csv, cram.csv): the
// header (or one of the older headers, see readCSV), then a record a row,
// which parse makes from the row's fields and its 1-based line. A
// malformed row is an error naming its line; so is an empty file.
func readIndex[R any](r io.Reader, header []string, parse func(line int, f []string) (R, error), older ...[]string) ([]R, error) {
	var rs []R
	empty, err := readCSV(r, header, func(line int, f []string) error {
		rc, err := parse(line, f)
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

func parseRecord(f []string) (Record, error) {
	var r Record
	var err error
	field := func(i int, what string) error {
		return fmt.Errorf("%s %q: %w", indexHeader[i], f[i], errors.New(what))
	}
	if r.Claim, err = format.ParseClaim(f[1]); err != nil {
		return r, fmt.Errorf("claim: %w", err)
	}
	if r.N, err = ClaimSpots(r.Claim); err != nil {
		return r, err
	}
	if _, _, err = ClaimOutcome(r.Claim); err != nil {
		return r, err
	}
	if f[0] != strconv.Itoa(r.N) {
		return r, field(0, fmt.Sprintf("does not match the claim %s, which is about n = %d", r.Claim, r.N))
	}
	m, err := parseMade(f, indexHeader, "dfpn", "pns")
	if err != nil {
		return r, err
	}
	r.Address, r.Entries, r.Bytes, r.Algorithm = m.address, m.entries, m.bytes, m.algorithm
	r.SolveSeconds, r.VerifySeconds, r.Added = m.solve, m.verify, m.added
	r.Producer, r.Machine = f[9], f[10]
	switch f[11] {
	case "yes":
		r.Committed = true
	case "no":
	default:
		return r, field(11, "is not yes or no")
	}
	r.Command = f[12]
	if len(f) > 13 && f[13] != "" {
		if r.IndependentSeconds, err = parseSeconds(f[13]); err != nil {
			return r, field(13, "is not a number of seconds")
		}
	}
	return r, nil
}

// made is what both indexes (index.csv, cram.csv) say of how a
// certificate was made, in their columns 2 … 8.
type made struct {
	address       string
	entries       int
	bytes         int64
	algorithm     string
	solve, verify float64
	added         string
}

// parseMade reads columns 2 … 8 of a row f of an index whose header is
// header: address, entries, bytes, algorithm (one of algorithms), solve
// and verify seconds, and the date added (may be empty). A malformed
// field is an error naming its column and value.
func parseMade(f, header []string, algorithms ...string) (made, error) {
	var m made
	var err error
	field := func(i int, what string) error {
		return fmt.Errorf("%s %q: %w", header[i], f[i], errors.New(what))
	}
	if m.address = f[2]; !format.IsAddress(m.address) {
		return m, field(2, "is not a content address (64 lowercase hexadecimal digits)")
	}
	if m.entries, err = strconv.Atoi(f[3]); err != nil || m.entries < 0 {
		return m, field(3, "is not a count")
	}
	if m.bytes, err = strconv.ParseInt(f[4], 10, 64); err != nil || m.bytes < 0 {
		return m, field(4, "is not a size in bytes")
	}
	if m.algorithm = f[5]; !slices.Contains(algorithms, m.algorithm) {
		return m, field(5, "is not "+orList(algorithms))
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
// the same bytes.
func EncodeIndex(records []Record) []byte {
	rs := slices.Clone(records)
	sortRecords(rs)
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(indexHeader)
	for _, r := range rs {
		committed := "no"
		if r.Committed {
			committed = "yes"
		}
		independent := ""
		if r.IndependentSeconds > 0 {
			independent = seconds(r.IndependentSeconds)
		}
		w.Write([]string{strconv.Itoa(r.N), r.Claim.String(), r.Address, strconv.Itoa(r.Entries),
			strconv.FormatInt(r.Bytes, 10), r.Algorithm, seconds(r.SolveSeconds), seconds(r.VerifySeconds),
			r.Added, r.Producer, r.Machine, committed, r.Command, independent})
	}
	w.Flush()
	return b.Bytes()
}

// seconds writes a time as index.csv keeps it: milliseconds.
func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }
