package solve

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A table file holds the used entries of a transposition table, so that a
// long search can stop and go on later from where it was (see
// DFPN.WriteTable). It is a header, tableMagic and the fingerprint
// version, then one record of tableRecord bytes per entry: the two
// fingerprint words, pn, dn and work, little-endian.
const (
	tableMagic  = "spots-tt"
	tableRecord = 8 + 8 + 8 + 8 + 4

	// fingerprintVersion names the fingerprint function. A table written
	// under another function would find nothing, or worse, the wrong
	// entries: change it whenever fingerprint or hashKey changes.
	fingerprintVersion uint32 = 1
)

// ErrTableFile is wrapped by the errors of ReadTable about the file's
// content (as opposed to errors of reading it).
var ErrTableFile = errors.New("not a table file of this version")

// WriteTable writes every used entry of the search's transposition table
// to w and returns how many it wrote. It may be called while the search runs (from Options.Checkpoint):
// each bucket is copied whole (tt.snapshot), so no entry is torn, though
// entries of buckets copied earlier may have changed since. Every entry
// written was true of its couple when it was copied: a proved value is
// final, and unproved numbers only steer the search.
func (s *DFPN[P]) WriteTable(w io.Writer) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var head [len(tableMagic) + 4]byte
	copy(head[:], tableMagic)
	binary.LittleEndian.PutUint32(head[len(tableMagic):], fingerprintVersion)
	if _, err := bw.Write(head[:]); err != nil {
		return 0, err
	}
	n := 0
	t := s.tt
	var rec [tableRecord]byte
	for b := range t.buckets {
		bucket, _ := t.snapshot(b)
		for i := range bucket {
			e := &bucket[i]
			if !e.used() {
				continue
			}
			binary.LittleEndian.PutUint64(rec[0:], e.fp[0])
			binary.LittleEndian.PutUint64(rec[8:], e.fp[1])
			binary.LittleEndian.PutUint64(rec[16:], e.pn)
			binary.LittleEndian.PutUint64(rec[24:], e.dn)
			binary.LittleEndian.PutUint32(rec[32:], e.work)
			if _, err := bw.Write(rec[:]); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, bw.Flush()
}

// ReadTable adds the entries of a table file written by WriteTable to the
// search's table, and returns how many it read. The table may have another
// capacity than the one written: entries are placed as the search would
// place them, and a full bucket gives one up as it would. Call it before
// the search starts, not while it runs.
//
// The file is trusted as a nimber database given with --db-in is: a
// record says a couple is proved, and the search believes it. A
// certificate made afterwards is still checked from the rules.
func (s *DFPN[P]) ReadTable(r io.Reader) (int, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var head [len(tableMagic) + 4]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return 0, fmt.Errorf("%w: header: %v", ErrTableFile, err)
	}
	if string(head[:len(tableMagic)]) != tableMagic {
		return 0, fmt.Errorf("%w: it does not start with %q", ErrTableFile, tableMagic)
	}
	if v := binary.LittleEndian.Uint32(head[len(tableMagic):]); v != fingerprintVersion {
		return 0, fmt.Errorf("%w: fingerprint version %d, want %d", ErrTableFile, v, fingerprintVersion)
	}
	var rec [tableRecord]byte
	n := 0
	for {
		if _, err := io.ReadFull(br, rec[:]); err == io.EOF {
			return n, nil
		} else if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return n, fmt.Errorf("%w: record %d is cut short", ErrTableFile, n+1)
			}
			return n, err
		}
		fp := [2]uint64{binary.LittleEndian.Uint64(rec[0:]), binary.LittleEndian.Uint64(rec[8:])}
		pn, dn := binary.LittleEndian.Uint64(rec[16:]), binary.LittleEndian.Uint64(rec[24:])
		work := binary.LittleEndian.Uint32(rec[32:])
		switch {
		case pn == 0 && dn == 0:
			return n, fmt.Errorf("%w: record %d is proved and disproved at once", ErrTableFile, n+1)
		case (pn == Inf) != (dn == 0) || (dn == Inf) != (pn == 0):
			return n, fmt.Errorf("%w: record %d has an infinite number without its zero (%d, %d)", ErrTableFile, n+1, pn, dn)
		}
		s.tt.putFP(fp, pn, dn, uint64(work))
		n++
	}
}
