package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spots-dev/spots/format"
)

// statsHeader is the header row of --stats.
var statsHeader = []string{"input", "canonical", "algorithm", "outcome", "nimber", "seconds", "iterations", "expansions",
	"grundy_numbers", "nimber_db", "tt_entries", "tt_capacity", "tt_evictions", "nodes", "arguments", "time"}

// writeStats appends the rows of results to the CSV file at path, as SPOTS
// does, with the command's arguments and the time in each row. The header
// is written only when the file is new or empty; a file with another
// header is refused. The old content and the new rows are written together
// to a temporary file renamed over path, so a reader never sees a partial
// file; the old content is copied, never held in memory. A path that is not
// a regular file (/dev/null, /dev/stdout, a pipe) is written directly, as
// a new file: nothing is read from it.
func writeStats(path string, args []string, now time.Time, results []result) error {
	old, err := format.OpenInput(path)
	switch {
	case errors.Is(err, os.ErrNotExist), errors.Is(err, format.ErrNotRegular):
		old = nil
	case err != nil:
		return err
	default:
		defer old.Close()
	}
	var oldHead []byte // the old file's first line, checked against the header
	if old != nil {
		br := bufio.NewReader(format.NewBoundedReader(old, path, format.Bounds{Line: maxStatsLine}))
		line, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return err
		}
		if len(line) > 0 {
			head, err := csv.NewReader(bytes.NewReader(line)).Read()
			if err != nil || !slices.Equal(head, statsHeader) {
				return fmt.Errorf("the file's first line is not the header %s: not appending to it", strings.Join(statsHeader, ","))
			}
			oldHead = line
		}
		if _, err := old.Seek(0, io.SeekStart); err != nil {
			return err
		}
	}
	cmdline := strings.Join(args, " ")
	stamp := now.UTC().Format(time.RFC3339)
	return format.WriteFileAtomic(path, func(w io.Writer) error {
		if oldHead != nil {
			n, err := io.Copy(w, old)
			if err != nil {
				return err
			}
			if last, err := lastByte(old, n); err != nil {
				return err
			} else if last != '\n' {
				if _, err := w.Write([]byte("\n")); err != nil {
					return err
				}
			}
		}
		cw := csv.NewWriter(w)
		if oldHead == nil {
			cw.Write(statsHeader)
		}
		for _, r := range results {
			nimber := ""
			if r.Nimber != nil {
				nimber = strconv.FormatUint(uint64(*r.Nimber), 10)
			}
			st := r.stats
			cw.Write([]string{r.Input, r.Canonical, r.Algorithm, r.Outcome.String(), nimber,
				strconv.FormatFloat(r.Seconds, 'f', 3, 64), u(st.Iterations), u(st.Expansions),
				strconv.Itoa(st.GrundyNumbers), strconv.Itoa(st.NimberDB), strconv.FormatInt(st.TTEntries, 10),
				strconv.Itoa(st.TTCapacity), strconv.FormatInt(st.TTEvictions, 10), strconv.Itoa(st.Nodes),
				cmdline, stamp})
		}
		cw.Flush()
		return cw.Error()
	})
}

// maxStatsLine bounds the header line of an existing --stats file.
const maxStatsLine = 64 << 10

// lastByte returns the last of the n bytes of f.
func lastByte(f *os.File, n int64) (byte, error) {
	var b [1]byte
	_, err := f.ReadAt(b[:], n-1)
	return b[0], err
}

func u(x uint64) string { return strconv.FormatUint(x, 10) }
