package corpus

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// literatureHeader is the first line of literature.csv.
var literatureHeader = []string{"n", "outcome", "first_solved_by", "proof_size_grundy_numbers"}

// Known is one row of the literature table: what the papers say of 0*N.
type Known struct {
	N       int
	Outcome Outcome // Unknown for an open case
	// FirstSolvedBy is the text of the table: who, and often the year
	// ("GLOP 2007"); "unsolved" (or empty) for an open case.
	FirstSolvedBy string
	// ProofSize is the size of the published proof in Grundy numbers, as
	// the table writes it ("3e6"); empty when unknown.
	ProofSize string
	Line      int // line of literature.csv, 1-based
}

// yearSuffix matches a year or a range of years at the end of
// first_solved_by: "GLOP 2007", "GLOP 2010-2011".
var yearSuffix = regexp.MustCompile(`^(.*\S)\s+((?:1[89]|2[0-9])[0-9]{2}(?:[-–](?:1[89]|2[0-9])[0-9]{2})?)$`)

// Solver splits FirstSolvedBy into who and the year when the text ends with
// one ("GLOP 2010-2011" gives "GLOP", "2010-2011"; "SPOTS sequential" gives
// it whole and no year). An open case gives two empty strings.
func (k Known) Solver() (who, year string) {
	if k.Open() {
		return "", ""
	}
	if m := yearSuffix.FindStringSubmatch(k.FirstSolvedBy); m != nil {
		return m[1], m[2]
	}
	return k.FirstSolvedBy, ""
}

// Open reports whether the literature lists 0*N as unsolved.
func (k Known) Open() bool { return k.Outcome == Unknown }

// ReadLiterature reads literature.csv: the header, then one row per n in
// increasing order. A malformed row is an error naming its line and what
// is wrong; so is an outcome "?" with a solver, or a known outcome without
// one.
func ReadLiterature(r io.Reader) ([]Known, error) {
	var rows []Known
	_, err := readCSV(r, literatureHeader, func(line int, rec []string) error {
		k, err := parseKnown(rec, line)
		if err != nil {
			return err
		}
		if len(rows) > 0 && k.N <= rows[len(rows)-1].N {
			return fmt.Errorf("n = %d after n = %d (rows must be in increasing order of n, each n once)", k.N, rows[len(rows)-1].N)
		}
		rows = append(rows, k)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, errors.New("no rows after the header")
	}
	return rows, nil
}

func parseKnown(rec []string, line int) (Known, error) {
	k := Known{FirstSolvedBy: strings.TrimSpace(rec[2]), ProofSize: strings.TrimSpace(rec[3]), Line: line}
	n, err := strconv.Atoi(rec[0])
	if err != nil || n < 1 || n > maxSpots {
		return k, fmt.Errorf("n %q is not a number of spots from 1 to %d", rec[0], maxSpots)
	}
	k.N = n
	if k.Outcome, err = ParseOutcome(rec[1]); err != nil {
		return k, fmt.Errorf("n = %d: %w", n, err)
	}
	unsolved := k.FirstSolvedBy == "" || strings.EqualFold(k.FirstSolvedBy, "unsolved")
	switch {
	case k.Open() && !unsolved:
		return k, fmt.Errorf("n = %d: outcome ? but first_solved_by is %q (want unsolved or empty)", n, k.FirstSolvedBy)
	case !k.Open() && unsolved:
		return k, fmt.Errorf("n = %d: outcome %s but first_solved_by %q names no solver", n, k.Outcome.Mark(), k.FirstSolvedBy)
	}
	if k.ProofSize != "" {
		if v, err := strconv.ParseFloat(k.ProofSize, 64); err != nil || v <= 0 {
			return k, fmt.Errorf("n = %d: proof size %q is not a positive number", n, k.ProofSize)
		}
	}
	return k, nil
}
