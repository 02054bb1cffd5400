package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// ErrCorrupt marks a certificate file that cannot be decoded (truncated,
// corrupted, hostile); test with errors.Is. A failure of the underlying
// reader is reported as itself, not as ErrCorrupt.
var ErrCorrupt = errors.New("corrupt certificate")

// ErrNotCertificate marks a file that is not a certificate at all: no
// Arrow IPC magic at its start nor at its end (a README, a database, an
// empty file). Such an error is ErrCorrupt too (it does not decode); a
// checker asks for ErrNotCertificate first, to report the input as
// unreadable (exit status 2) rather than a proof as invalid, since
// nothing in the file claims to be one.
var ErrNotCertificate = errors.New("not a certificate")

// notCertificate is the error of a file that is no certificate: it is
// both ErrNotCertificate and ErrCorrupt.
type notCertificate struct{ why string }

func (e *notCertificate) Error() string { return ErrNotCertificate.Error() + ": " + e.why }

// Is makes errors.Is(e, ErrNotCertificate) and errors.Is(e, ErrCorrupt)
// true.
func (e *notCertificate) Is(target error) bool {
	return target == ErrNotCertificate || target == ErrCorrupt
}

// corrupt returns an error wrapping ErrCorrupt.
func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// Bounds on what a reader accepts, beyond the limits of an entry.
const (
	arrowMagic     = "ARROW1"
	maxFooterBytes = 32 << 20                 // a footer holds the schema and 24 bytes per batch
	maxBatches     = 1 << 20                  // record batches in one file
	maxBatchRows   = MaxBatchBytes / 16       // every row takes 16 bytes of offsets and values at least
	maxMetaKeys    = 64                       // schema metadata pairs (a file has 9; more is refused later)
	readBudget     = 2*MaxBatchBytes + 1<<20  // memory the Arrow decoder may hold at once
	maxBodyBytes   = MaxBatchBytes + 1<<20    // a batch's (compressed) body: its buffers, their length prefixes and padding
	maxHeaderText  = MaxPositionBytes + 1<<10 // longest metadata value
)

// CertReader streams a certificate file row by row, so a checker can
// verify in one pass with memory for what it keeps. It trusts nothing in
// the file: every length is checked before it is used (the footer's
// blocks against the file's size, each batch's body and buffer lengths
// against the bytes present, before the Arrow decoder allocates by them),
// every call into the Arrow decoder is guarded against panics, and the
// decoder's memory is bounded (see MaxBatchBytes). All of its errors on a bad file wrap
// ErrCorrupt; after an error, Next returns the same error again.
//
// A CertReader is not safe for concurrent use.
type CertReader struct {
	src      *recordingReaderAt
	file     *os.File // owned, when opened by OpenCertificate
	fr       *ipc.FileReader
	header   Certificate
	declared string // spots.address
	entries  uint64 // spots.entries
	hash     *addresser
	blocks   []fileBlock // the record batches, checked against the file's size

	rec   arrow.Record // the batch being read
	cur   batchView
	batch int // index of the next batch to load
	i     int // next row in cur
	row   int // rows returned
	err   error
}

// OpenCertificate opens the certificate file at path for streaming: a
// regular file (or a link to one; see OpenInput). The caller must Close
// it.
func OpenCertificate(path string) (*CertReader, error) {
	f, info, err := openInput(path)
	if err != nil {
		return nil, err
	}
	r, err := NewCertReader(f, info.Size())
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.file = f
	return r, nil
}

// NewCertReader reads the certificate file of the given size from r: it
// checks the file's structure, schema and metadata now, and its rows as
// Next returns them.
func NewCertReader(r io.ReaderAt, size int64) (*CertReader, error) {
	cr := &CertReader{src: &recordingReaderAt{r: r}}
	if err := cr.open(size); err != nil {
		cr.Close()
		return nil, cr.ioError(err)
	}
	return cr, nil
}

func (r *CertReader) open(size int64) error {
	footer, err := readFooter(r.src, size)
	if err != nil {
		return err
	}
	if err := guard("footer", func() error { return checkFooter(footer) }); err != nil {
		return err
	}
	dataEnd := size - int64(4+len(arrowMagic)+len(footer))
	err = guard("footer", func() (err error) {
		r.blocks, err = footerBlocks(footer, dataEnd)
		return err
	})
	if err != nil {
		return err
	}
	opts := []ipc.Option{ipc.WithAllocator(newBudgetAllocator(readBudget))}
	err = guard("footer", func() (err error) {
		r.fr, err = ipc.NewFileReader(io.NewSectionReader(r.src, 0, size), opts...)
		return err
	})
	if err != nil {
		return err
	}
	if r.fr.NumRecords() != len(r.blocks) {
		return corrupt("the footer lists %d record batches, the Arrow reader %d", len(r.blocks), r.fr.NumRecords())
	}
	schema := r.fr.Schema()
	if err := checkSchema(schema); err != nil {
		return err
	}
	r.header, r.declared, r.entries, err = parseMetadata(schema.Metadata())
	if err != nil {
		return err
	}
	r.hash = newAddresser(r.header.Game, r.header.Notation, r.header.Claim, r.header.Cites, r.entries)
	return nil
}

// Header returns the certificate's fields but Entries, as its metadata
// gives them. They were checked when the reader was made: the format
// version is FormatVersion, or FormatCiting with well-formed Cites, and the claim, game, notation, producer,
// version and creation time are well formed.
func (r *CertReader) Header() Certificate {
	return r.header
}

// DeclaredEntries returns the number of entries that the file's metadata
// states (the rows are held to it as they are read).
func (r *CertReader) DeclaredEntries() uint64 {
	return r.entries
}

// DeclaredAddress returns the content address that the file's metadata
// states (64 lowercase hexadecimal digits), not yet checked against the
// rows: compare it with Address after the last row.
func (r *CertReader) DeclaredAddress() string {
	return r.declared
}

// Next returns the next entry, with a well-formed shape (see Entry and
// the Max* limits), or io.EOF after the last one once the number of rows
// was found to match the metadata. Rows are numbered from 1 in errors.
func (r *CertReader) Next() (Entry, error) {
	if r.err != nil {
		return Entry{}, r.err
	}
	e, err := r.next()
	if err != nil {
		r.err = r.ioError(err)
		r.release()
		return Entry{}, r.err
	}
	return e, nil
}

func (r *CertReader) next() (Entry, error) {
	for r.rec == nil || r.i == r.cur.rows {
		if err := r.load(); err != nil {
			return Entry{}, err
		}
	}
	r.row++
	if uint64(r.row) > r.entries {
		return Entry{}, corrupt("row %d: more rows than spots.entries (%d)", r.row, r.entries)
	}
	e, reason := r.cur.entry(r.i)
	r.i++
	if reason == "" {
		reason = checkEntry(&e)
	}
	if reason != "" {
		return Entry{}, corrupt("row %d: %s", r.row, reason)
	}
	r.hash.entry(&e)
	return e, nil
}

// load makes the next record batch current, or returns io.EOF after the
// last.
func (r *CertReader) load() error {
	r.release()
	if r.batch == r.fr.NumRecords() {
		if uint64(r.row) != r.entries {
			return corrupt("the file has %d rows, spots.entries says %d", r.row, r.entries)
		}
		return io.EOF
	}
	what := fmt.Sprintf("batch %d (after row %d)", r.batch+1, r.row)
	err := guard(what, func() (err error) {
		// The Arrow reader allocates by the lengths the metadata
		// declares before it reads: check them against the body first.
		if err := checkBlockMessage(r.src, r.blocks[r.batch]); err != nil {
			return err
		}
		if r.rec, err = r.fr.RecordAt(r.batch); err != nil {
			return err
		}
		r.cur, err = viewBatch(r.rec)
		return err
	})
	if err != nil {
		return err
	}
	r.batch++
	r.i = 0
	return nil
}

// Row returns the number of the row last read by Next, from 1: the row
// it returned, or the row its error is about; 0 before the first.
func (r *CertReader) Row() int {
	return r.row
}

// Address returns the content address recomputed from the header and the
// rows read; it is an error to call it before Next returned io.EOF. The
// certificate is what its file claims to be only if the address equals
// DeclaredAddress: ReadCertificate checks it, a streaming caller must.
func (r *CertReader) Address() (string, error) {
	if r.err != io.EOF {
		return "", errors.New("certificate address asked for before the last row was read")
	}
	return r.hash.sum(), nil
}

// Close releases the reader's memory and, if OpenCertificate opened the
// file, closes it.
func (r *CertReader) Close() error {
	r.release()
	if r.fr != nil {
		guard("close", r.fr.Close)
		r.fr = nil
	}
	if r.err == nil {
		r.err = errors.New("certificate reader closed")
	}
	if r.file != nil {
		err := r.file.Close()
		r.file = nil
		return err
	}
	return nil
}

func (r *CertReader) release() {
	if r.rec != nil {
		guard("release", func() error { r.rec.Release(); return nil })
		r.rec, r.cur = nil, batchView{}
	}
}

// ioError returns the underlying reader's failure, if it had one, in place
// of err: what looked like a corrupt file was then a failed read.
func (r *CertReader) ioError(err error) error {
	if r.src.err != nil && err != io.EOF {
		return fmt.Errorf("reading certificate: %w", r.src.err)
	}
	return err
}

// ReadCertificate reads the whole certificate file at path. Beyond what
// CertReader checks, it checks that the rows hash to the address in the
// metadata and, if the file's name is a content address followed by
// ".arrow", that the name is that address.
func ReadCertificate(path string) (*Certificate, error) {
	r, err := OpenCertificate(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	c, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	name, ok := strings.CutSuffix(filepath.Base(path), ".arrow")
	if addr := r.hash.sum(); ok && IsAddress(strings.ToLower(name)) && name != addr {
		return nil, fmt.Errorf("%s: %w", path, corrupt("the file is named %s but its content address is %s", name, addr))
	}
	return c, nil
}

// readAll reads the rest of the certificate and checks its address.
func readAll(r *CertReader) (*Certificate, error) {
	c := r.Header()
	c.Entries = make([]Entry, 0, min(r.entries, 1<<16))
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		c.Entries = append(c.Entries, e)
	}
	addr, err := r.Address()
	if err != nil {
		return nil, err
	}
	if addr != r.declared {
		return nil, corrupt("the rows hash to %s, the metadata says %s", addr, r.declared)
	}
	return &c, nil
}

// guard runs f, turning a panic (of the Arrow decoder, most likely) into
// an error, and marks every failure as ErrCorrupt, keeping f's error in
// the chain. what names the part of the file being decoded.
func guard(what string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = corrupt("%s: the Arrow decoder failed: %v", what, p)
		}
	}()
	if err = f(); err != nil {
		err = fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
	}
	return err
}

// recordingReaderAt remembers the first failure of the reader under it,
// other than io.EOF, so that a failed read is not blamed on the file.
type recordingReaderAt struct {
	r   io.ReaderAt
	err error
}

func (a *recordingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := a.r.ReadAt(p, off)
	if err != nil && err != io.EOF && a.err == nil {
		a.err = err
	}
	return n, err
}

// budgetAllocator is the Arrow decoder's allocator: it refuses, by
// panicking (which guard turns into an error), to hold more than limit
// bytes at once. It is used by one goroutine at a time.
type budgetAllocator struct {
	mem         memory.Allocator
	used, limit int
}

func newBudgetAllocator(limit int) *budgetAllocator {
	return &budgetAllocator{mem: memory.NewGoAllocator(), limit: limit}
}

func (a *budgetAllocator) take(n int) {
	if n < 0 || n > a.limit-a.used {
		panic(fmt.Sprintf("refusing to allocate %d bytes with %d in use: a batch may take at most %d", n, a.used, a.limit))
	}
	a.used += n
}

func (a *budgetAllocator) Allocate(size int) []byte {
	a.take(size)
	return a.mem.Allocate(size)
}

func (a *budgetAllocator) Reallocate(size int, b []byte) []byte {
	switch {
	case size < 0:
		a.take(size) // panics
	case size >= len(b):
		a.take(size - len(b))
	default:
		a.used -= len(b) - size
	}
	return a.mem.Reallocate(size, b)
}

func (a *budgetAllocator) Free(b []byte) {
	a.used -= len(b)
	a.mem.Free(b)
}

// readFooter checks the magic numbers at both ends of an Arrow file of
// the given size and returns its footer's bytes.
func readFooter(r io.ReaderAt, size int64) ([]byte, error) {
	const tail = 4 + len(arrowMagic) // footer length, magic
	head := make([]byte, min(int64(len(arrowMagic)), size))
	if err := readAt(r, head, 0); err != nil {
		return nil, err
	}
	end := make([]byte, min(int64(tail), size))
	if err := readAt(r, end, size-int64(len(end))); err != nil {
		return nil, err
	}
	startOK, endOK := string(head) == arrowMagic, len(end) == tail && string(end[4:]) == arrowMagic
	switch {
	case !startOK && !endOK && !strings.HasPrefix(arrowMagic, string(head)) || size == 0:
		return nil, &notCertificate{"not an Arrow IPC file (no ARROW1 at its start or its end)"}
	case size < int64(8+tail):
		return nil, corrupt("file of %d bytes is too short for an Arrow file", size)
	case !startOK || !endOK:
		return nil, corrupt("not an Arrow IPC file (no ARROW1 at its start and end)")
	}
	n := int64(int32(binary.LittleEndian.Uint32(end)))
	if n <= 0 || n > maxFooterBytes || n > size-int64(8+tail) {
		return nil, corrupt("footer length %d does not fit a file of %d bytes", n, size)
	}
	footer := make([]byte, n)
	if err := readAt(r, footer, size-int64(tail)-n); err != nil {
		return nil, err
	}
	return footer, nil
}

func readAt(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return corrupt("file ends early, at byte %d", off+int64(n))
	}
	return err
}

// checkSchema checks the columns of a certificate file: names, order and
// types (nullability aside: nulls are refused row by row).
func checkSchema(s *arrow.Schema) error {
	want := certSchema(arrow.Metadata{})
	if s.NumFields() != want.NumFields() {
		return corrupt("the schema has %d columns, want %d", s.NumFields(), want.NumFields())
	}
	for i, f := range s.Fields() {
		w := want.Field(i)
		if f.Name != w.Name || !sameType(f.Type, w.Type) {
			return corrupt("column %d is %s: %s, want %s: %s", i+1, f.Name, f.Type, w.Name, w.Type)
		}
		if reason := checkFieldMetadata(f.Metadata); reason != "" {
			return corrupt("column %d (%s): %s", i+1, f.Name, reason)
		}
	}
	return nil
}

// checkFieldMetadata returns why md cannot be a column's field metadata,
// or "": a column holds no metadata (files written before descriptions
// existed) or one description, whose text is not checked further since it
// carries no meaning for a program.
func checkFieldMetadata(md arrow.Metadata) string {
	switch {
	case md.Len() == 0:
		return ""
	case md.Len() > 1 || md.Keys()[0] != metaDescription:
		return fmt.Sprintf("field metadata %v: want none or only %q", md.Keys(), metaDescription)
	case len(md.Values()[0]) > maxHeaderText:
		return fmt.Sprintf("a description of %d bytes, more than %d", len(md.Values()[0]), maxHeaderText)
	}
	return ""
}

func sameType(a, b arrow.DataType) bool {
	if a.ID() != b.ID() {
		return false
	}
	la, ok := a.(*arrow.ListType)
	if !ok {
		return true
	}
	return la.Elem().ID() == b.(*arrow.ListType).Elem().ID()
}

var metaKeys = []string{metaFormat, metaGame, metaNotation, metaClaim, metaAddress, metaEntries, metaProducer, metaVersion, metaCreated}

// parseMetadata reads and checks the schema metadata of a certificate
// file: exactly the keys in metaKeys, each well formed.
func parseMetadata(md arrow.Metadata) (c Certificate, address string, entries uint64, err error) {
	m, err := metadataMap(md)
	if err != nil {
		return c, "", 0, err
	}
	switch m[metaFormat] {
	case FormatVersion:
		if hasKey(m, metaCites) {
			return c, "", 0, corrupt("metadata key %q is not part of %s", metaCites, FormatVersion)
		}
	case FormatCiting:
		if !hasKey(m, metaCites) {
			return c, "", 0, corrupt("metadata key %q is missing", metaCites)
		}
		if c.Cites = strings.Split(m[metaCites], ","); len(c.Cites) == 1 && c.Cites[0] == "" {
			return c, "", 0, corrupt("spots.cites is empty: a certificate that cites none is %s", FormatVersion)
		}
	default:
		return c, "", 0, corrupt("spots.format is %q; this reader knows %q and %q", cutString(m[metaFormat]), FormatVersion, FormatCiting)
	}
	if c.Claim, err = ParseClaim(m[metaClaim]); err != nil {
		return c, "", 0, corrupt("spots.claim: %v", err)
	}
	c.Game, c.Notation, c.Producer, c.Version = m[metaGame], m[metaNotation], m[metaProducer], m[metaVersion]
	if err := checkHeader(&c); err != nil {
		return c, "", 0, corrupt("%v", err)
	}
	if c.Created, err = time.Parse(time.RFC3339, m[metaCreated]); err != nil {
		return c, "", 0, corrupt("spots.created %q is not an RFC 3339 time", cutString(m[metaCreated]))
	}
	address = m[metaAddress]
	if !IsAddress(address) {
		return c, "", 0, corrupt("spots.address %q is not 64 lowercase hexadecimal digits", cutString(address))
	}
	entries, err = parseCount(m[metaEntries])
	if err != nil {
		return c, "", 0, corrupt("spots.entries: %v", err)
	}
	return c, address, entries, nil
}

// metadataMap returns the metadata as a map, refusing unknown, repeated,
// missing and overlong keys.
func metadataMap(md arrow.Metadata) (map[string]string, error) {
	m := make(map[string]string, len(metaKeys))
	for i, k := range md.Keys() {
		v := md.Values()[i]
		switch {
		case !isMetaKey(k):
			return nil, corrupt("unknown metadata key %q", cutString(k))
		case hasKey(m, k):
			return nil, corrupt("metadata key %q appears twice", k)
		case len(v) > maxHeaderText:
			return nil, corrupt("metadata %s has %d bytes, more than %d", k, len(v), maxHeaderText)
		}
		m[k] = v
	}
	for _, k := range metaKeys {
		if !hasKey(m, k) {
			return nil, corrupt("metadata key %q is missing", k)
		}
	}
	return m, nil
}

func isMetaKey(k string) bool {
	if k == metaCites {
		return true
	}
	for _, w := range metaKeys {
		if k == w {
			return true
		}
	}
	return false
}

func hasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// parseCount reads a decimal uint64 without sign or leading zeros.
func parseCount(s string) (uint64, error) {
	if s == "" || strings.Trim(s, "0123456789") != "" || len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("%q is not a decimal number without leading zeros", cutString(s))
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s does not fit 64 bits", s)
	}
	return n, nil
}

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

// The Arrow flatbuffer schema's codes for the column types we use.
const (
	fbTypeInt  = 2
	fbTypeUtf8 = 5
	fbTypeList = 12
)

// checkFooter walks the footer's flatbuffer before the Arrow decoder sees
// it, because that decoder sizes some allocations by vector lengths it
// reads without checking them. It checks every offset and vector length
// it follows, and that the schema has the shape of a certificate: four
// columns of the right types, no dictionary, at most one metadata pair
// per column (its description), a bounded number of schema metadata pairs
// and of record batches.
func checkFooter(buf []byte) error {
	root, err := fbRoot(buf)
	if err != nil {
		return err
	}
	schema, err := root.table(1, "schema")
	if err != nil {
		return err
	}
	if _, n, err := root.vector(2, 24, "dictionaries"); err != nil || n != 0 {
		return errors.Join(err, errIf(n != 0, "%d dictionaries, want none", n))
	}
	if _, n, err := root.vector(3, 24, "record batches"); err != nil || n > maxBatches {
		return errors.Join(err, errIf(n > maxBatches, "%d record batches, more than %d", n, maxBatches))
	}
	if _, n, err := schema.vector(2, 4, "metadata"); err != nil || n > maxMetaKeys {
		return errors.Join(err, errIf(n > maxMetaKeys, "%d metadata pairs, more than %d", n, maxMetaKeys))
	}
	start, n, err := schema.vector(1, 4, "columns")
	if err != nil {
		return err
	}
	types := []uint8{fbTypeUtf8, fbTypeInt, fbTypeList, fbTypeList}
	if n != len(types) {
		return fmt.Errorf("the schema has %d columns, want %d", n, len(types))
	}
	for i, typ := range types {
		f, err := fbElement(buf, start, i)
		if err == nil {
			err = checkFieldFB(f, typ, typ == fbTypeList, 1)
		}
		if err != nil {
			return fmt.Errorf("column %d: %w", i+1, err)
		}
	}
	return nil
}

// checkFieldFB checks a schema field: its type code, no dictionary, at
// most maxMeta metadata pairs (a column may carry its description, a list's
// item nothing; checkSchema checks the pair), and for a list one child
// field of type Int.
func checkFieldFB(f fbTable, typ uint8, list bool, maxMeta int) error {
	got, err := f.u8(2)
	switch {
	case err != nil:
		return err
	case got != typ:
		return fmt.Errorf("type code %d, want %d", got, typ)
	case f.has(4):
		return errors.New("dictionary-encoded")
	}
	if _, n, err := f.vector(6, 4, "metadata"); err != nil || n > maxMeta {
		return errors.Join(err, errIf(n > maxMeta, "%d metadata pairs, want at most %d", n, maxMeta))
	}
	start, n, err := f.vector(5, 4, "children")
	want := 0
	if list {
		want = 1
	}
	if err != nil || n != want {
		return errors.Join(err, errIf(n != want, "%d child fields, want %d", n, want))
	}
	if !list {
		return nil
	}
	child, err := fbElement(f.buf, start, 0)
	if err != nil {
		return err
	}
	return checkFieldFB(child, fbTypeInt, false, 0)
}

func errIf(cond bool, format string, args ...any) error {
	if !cond {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// fbTable is a flatbuffer table, read with bounds checks.
type fbTable struct {
	buf       []byte
	pos       int // of the table
	vt, vtLen int // its vtable
}

func fbU32(buf []byte, p int) (int, error) {
	if p < 0 || p > len(buf)-4 {
		return 0, fmt.Errorf("flatbuffer offset %d out of bounds", p)
	}
	return int(binary.LittleEndian.Uint32(buf[p:])), nil
}

func fbU16(buf []byte, p int) (int, error) {
	if p < 0 || p > len(buf)-2 {
		return 0, fmt.Errorf("flatbuffer offset %d out of bounds", p)
	}
	return int(binary.LittleEndian.Uint16(buf[p:])), nil
}

func fbRoot(buf []byte) (fbTable, error) {
	p, err := fbU32(buf, 0)
	if err != nil {
		return fbTable{}, err
	}
	return fbTableAt(buf, p)
}

func fbTableAt(buf []byte, pos int) (fbTable, error) {
	so, err := fbU32(buf, pos)
	if err != nil {
		return fbTable{}, err
	}
	vt := pos - int(int32(uint32(so)))
	vtLen, err := fbU16(buf, vt)
	if err != nil {
		return fbTable{}, err
	}
	if vtLen < 4 || vtLen%2 != 0 || vt+vtLen > len(buf) {
		return fbTable{}, fmt.Errorf("flatbuffer vtable of %d bytes at %d out of bounds", vtLen, vt)
	}
	return fbTable{buf: buf, pos: pos, vt: vt, vtLen: vtLen}, nil
}

// field returns the position of field slot's value, if present.
func (t fbTable) field(slot int) (int, bool) {
	o := 4 + 2*slot
	if o+2 > t.vtLen {
		return 0, false
	}
	off := int(binary.LittleEndian.Uint16(t.buf[t.vt+o:]))
	return t.pos + off, off != 0
}

func (t fbTable) has(slot int) bool {
	_, ok := t.field(slot)
	return ok
}

func (t fbTable) u8(slot int) (uint8, error) {
	p, ok := t.field(slot)
	if !ok {
		return 0, nil
	}
	if p >= len(t.buf) {
		return 0, fmt.Errorf("flatbuffer offset %d out of bounds", p)
	}
	return t.buf[p], nil
}

// ref follows the offset stored in field slot; ok is false if absent.
func (t fbTable) ref(slot int) (pos int, ok bool, err error) {
	p, ok := t.field(slot)
	if !ok {
		return 0, false, nil
	}
	off, err := fbU32(t.buf, p)
	return p + off, true, err
}

func (t fbTable) table(slot int, name string) (fbTable, error) {
	p, ok, err := t.ref(slot)
	if err == nil && !ok {
		err = fmt.Errorf("no %s", name)
	}
	if err != nil {
		return fbTable{}, err
	}
	return fbTableAt(t.buf, p)
}

// vector returns where the items of vector field slot start and how many
// there are (0 if absent), checking that they fit the buffer.
func (t fbTable) vector(slot, itemSize int, name string) (start, n int, err error) {
	p, ok, err := t.ref(slot)
	if err != nil || !ok {
		return 0, 0, err
	}
	if n, err = fbU32(t.buf, p); err != nil {
		return 0, 0, err
	}
	if n > (len(t.buf)-p-4)/itemSize {
		return 0, 0, fmt.Errorf("%s: %d items do not fit the flatbuffer", name, n)
	}
	return p + 4, n, nil
}

// fbElement returns table i of a vector of tables that starts at start.
func fbElement(buf []byte, start, i int) (fbTable, error) {
	p := start + 4*i
	off, err := fbU32(buf, p)
	if err != nil {
		return fbTable{}, err
	}
	return fbTableAt(buf, p+off)
}
