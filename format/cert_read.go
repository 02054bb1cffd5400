package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/ipc"
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
	opts := []ipc.Option{ipc.WithAllocator(NewBudgetAllocator(readBudget))}
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
		return nil, corrupt("cut short: %d bytes, too few for an Arrow IPC file (fetch the file again)", size)
	case !endOK:
		return nil, corrupt("cut short or damaged: it begins as an Arrow IPC file (ARROW1) but does not end as one (fetch the file again)")
	case !startOK:
		return nil, corrupt("damaged: it ends as an Arrow IPC file (ARROW1) but does not begin as one (fetch the file again)")
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
