package corpus

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxTableRows is the most rows a table of a corpus (index.csv,
// literature.csv, the games' tables) may have: a hundred times the few hundred
// claims a corpus of this size could list.
const MaxTableRows = 20_000

// readCSV reads a CSV file whose first line must be header and calls row
// for each line after it with its 1-based line number. A missing or wrong
// header, a row with another number of fields, or an error of row is an
// error naming the line. The slice passed to row is reused (its strings
// are not): row must not keep the slice. It reports whether the input was
// empty, so that callers can tell "no file content" from "a header and no
// rows". A file may also begin with one of the older headers, the header
// without its last columns (added since): its rows then have that many
// fields.
//
// A table of more than MaxTableRows rows is refused at the row past it:
// what a table costs (reading it, and checking every pair of its rows for
// claims listed twice) is then bounded whatever the file holds.
func readCSV(r io.Reader, header []string, row func(line int, rec []string) error, older ...[]string) (empty bool, err error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked below, with a clearer message
	cr.ReuseRecord = true
	want := strings.Join(header, ",")
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return line == 1, nil
		}
		if err != nil {
			return false, err // csv errors name the line
		}
		if line == 1 {
			got := strings.Join(rec, ",")
			for _, h := range older {
				if got == strings.Join(h, ",") {
					header = h
				}
			}
			if got != strings.Join(header, ",") {
				return false, fmt.Errorf("line 1: header %q, want %q", got, want)
			}
			continue
		}
		if line > MaxTableRows+1 {
			return false, fmt.Errorf("line %d: more than %d rows, the most a table of the corpus may have (it holds one row per claim or known case; remove the rows repeated)", line, MaxTableRows)
		}
		if len(rec) != len(header) {
			return false, fmt.Errorf("line %d: %d fields, want %d (%s)", line, len(rec), len(header), want)
		}
		if err := row(line, rec); err != nil {
			return false, fmt.Errorf("line %d: %w", line, err)
		}
	}
}
