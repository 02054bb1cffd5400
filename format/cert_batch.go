package format

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow/go/v17/arrow"
)

// batchView holds the raw column buffers of one record batch, so that its
// rows are read with bounds checks of our own rather than the decoder's.
type batchView struct {
	rows            int
	posOff, posData []byte
	grundy          []byte
	reach, win      listView
}

// listView is a list column: offsets into values of n 32-bit items.
type listView struct {
	off, values []byte
	n           int
}

// viewBatch checks the shape of a decoded record batch and returns its
// buffers. It may panic on a hostile batch; the caller guards it.
func viewBatch(rec arrow.Record) (batchView, error) {
	rows := rec.NumRows()
	if rows < 0 || rows > maxBatchRows {
		return batchView{}, fmt.Errorf("%d rows in one batch, more than %d", rows, maxBatchRows)
	}
	b := batchView{rows: int(rows)}
	cols := rec.Columns()
	if len(cols) != 4 {
		return batchView{}, fmt.Errorf("%d columns, want 4", len(cols))
	}
	for i, col := range cols {
		if err := checkColumn(col.Data(), b.rows); err != nil {
			return batchView{}, fmt.Errorf("column %s: %w", rec.ColumnName(i), err)
		}
	}
	b.posOff, b.posData = buffer(cols[0].Data(), 1), buffer(cols[0].Data(), 2)
	b.grundy = buffer(cols[1].Data(), 1)
	var err error
	if b.reach, err = viewList(cols[2].Data(), b.rows); err != nil {
		return batchView{}, fmt.Errorf("column reach: %w", err)
	}
	if b.win, err = viewList(cols[3].Data(), b.rows); err != nil {
		return batchView{}, fmt.Errorf("column win: %w", err)
	}
	switch {
	case b.rows > 0 && len(b.posOff) < 4*(b.rows+1):
		return batchView{}, fmt.Errorf("column position: offsets buffer too short")
	case len(b.grundy) < 4*b.rows:
		return batchView{}, fmt.Errorf("column grundy: values buffer too short")
	}
	return b, nil
}

// checkColumn checks that an array (or a list's values) has the given
// length, no offset into its buffers and no null.
func checkColumn(d arrow.ArrayData, rows int) error {
	switch {
	case d.Len() != rows:
		return fmt.Errorf("%d rows, want %d", d.Len(), rows)
	case d.Offset() != 0:
		return fmt.Errorf("offset %d into its buffers", d.Offset())
	case d.NullN() != 0:
		return fmt.Errorf("%d nulls", d.NullN())
	}
	return nil
}

func viewList(d arrow.ArrayData, rows int) (listView, error) {
	if len(d.Children()) != 1 {
		return listView{}, fmt.Errorf("%d value arrays, want 1", len(d.Children()))
	}
	values := d.Children()[0]
	if err := checkColumn(values, values.Len()); err != nil {
		return listView{}, fmt.Errorf("values: %w", err)
	}
	l := listView{off: buffer(d, 1), values: buffer(values, 1), n: values.Len()}
	switch {
	case rows > 0 && len(l.off) < 4*(rows+1):
		return listView{}, fmt.Errorf("offsets buffer too short")
	case l.n < 0 || len(l.values) < 4*l.n:
		return listView{}, fmt.Errorf("values buffer too short")
	}
	return l, nil
}

func buffer(d arrow.ArrayData, i int) []byte {
	bufs := d.Buffers()
	if i >= len(bufs) || bufs[i] == nil {
		return nil
	}
	return bufs[i].Bytes()
}

// entry returns row i (0-based) of the batch, or why it cannot.
func (b *batchView) entry(i int) (Entry, string) {
	s, t, ok := span(b.posOff, i, len(b.posData))
	switch {
	case !ok:
		return Entry{}, "position offsets out of bounds"
	case t-s > MaxPositionBytes:
		return Entry{}, fmt.Sprintf("position of %d bytes is longer than %d", t-s, MaxPositionBytes)
	}
	e := Entry{Position: string(b.posData[s:t]), Grundy: binary.NativeEndian.Uint32(b.grundy[4*i:])}
	reach, reason := b.reach.items(i, MaxReach, "reach")
	if reason != "" {
		return Entry{}, reason
	}
	win, reason := b.win.items(i, MaxWin, "win")
	if reason != "" {
		return Entry{}, reason
	}
	e.Reach = reach
	if len(win) > 0 {
		e.Win = make([]int32, len(win))
		for j, w := range win {
			e.Win[j] = int32(w)
		}
	}
	return e, ""
}

// items returns list i as 32-bit values, nil if empty, or why it cannot.
func (l *listView) items(i, limit int, name string) ([]uint32, string) {
	s, t, ok := span(l.off, i, l.n)
	switch {
	case !ok:
		return nil, name + " offsets out of bounds"
	case t-s > limit:
		return nil, fmt.Sprintf("%s has %d values, more than %d", name, t-s, limit)
	case t == s:
		return nil, ""
	}
	out := make([]uint32, t-s)
	for j := range out {
		out[j] = binary.NativeEndian.Uint32(l.values[4*(s+j):])
	}
	return out, ""
}

// span reads offsets i and i+1 and reports whether 0 ≤ start ≤ end ≤ limit.
// The caller has checked that off holds them.
func span(off []byte, i, limit int) (start, end int, ok bool) {
	start = int(int32(binary.NativeEndian.Uint32(off[4*i:])))
	end = int(int32(binary.NativeEndian.Uint32(off[4*i+4:])))
	return start, end, 0 <= start && start <= end && end <= limit
}
