package format

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// The metadata keys of a certificate file's Arrow schema. A file holds
// exactly these keys.
const (
	metaFormat   = "spots.format"   // FormatVersion
	metaGame     = "spots.game"     // Certificate.Game
	metaNotation = "spots.notation" // Certificate.Notation
	metaClaim    = "spots.claim"    // Claim.String()
	metaAddress  = "spots.address"  // Certificate.Address()
	metaEntries  = "spots.entries"  // number of entries, decimal
	metaProducer = "spots.producer" // Certificate.Producer
	metaVersion  = "spots.version"  // Certificate.Version
	metaCreated  = "spots.created"  // Certificate.Created, RFC 3339 in UTC
	metaCites    = "spots.cites"    // Certificate.Cites joined by ",": only in FormatCiting
)

// The columns of a certificate file, in this order.
const (
	colPosition = "position" // utf8
	colGrundy   = "grundy"   // uint32
	colReach    = "reach"    // list<uint32>
	colWin      = "win"      // list<int32>
)

// metaDescription is the one key a column's field metadata may hold: a
// sentence for people reading the file with a generic Arrow tool. It is
// not part of the content address, and a reader accepts a column without
// it (files written before it existed have none). docs/certificate-format.md
// says the same at length.
const metaDescription = "description"

// columnDescriptions are the values of metaDescription, by column.
var columnDescriptions = map[string]string{
	colPosition: "Atomic Sprouts position in canonical text; rows are sorted by lives, then by these bytes. The format: docs/certificate-format.md in github.com/spots-dev/spots.",
	colGrundy:   "Grundy value of position.",
	colReach:    "For each m < grundy, the index of a child of value m, in child order (children sorted by canonical key bytes).",
	colWin:      "Per child, in child order: -1 if its lands are earlier rows whose values xor to other than grundy, else component<<20|move naming a reply that reaches grundy.",
}

// DefaultBatchRows is the number of entries per record batch when
// WriteOptions.BatchRows is 0.
const DefaultBatchRows = 65536

// WriteOptions controls how a certificate is encoded. No option changes the
// content address, only the bytes of the file.
type WriteOptions struct {
	// BatchRows is the number of entries per record batch (0:
	// DefaultBatchRows). Larger batches compress better and take more
	// memory to write and read. A batch is also cut early to keep its
	// decoded size under MaxBatchBytes.
	BatchRows int
	// CompressionLevel is a zstd level, 1…22, or 0 for the default. It is
	// validated but has no effect yet: Arrow Go v17 offers zstd body
	// compression (ipc.WithZstd) without a level, and always compresses
	// at klauspost/compress's default speed (comparable to zstd level 3).
	CompressionLevel int
}

func (opt WriteOptions) check() error {
	if opt.BatchRows < 0 {
		return fmt.Errorf("batch rows %d: want 0 (default) or more", opt.BatchRows)
	}
	if opt.CompressionLevel < 0 || opt.CompressionLevel > 22 {
		return fmt.Errorf("compression level %d: want 0 (default) or 1…22", opt.CompressionLevel)
	}
	return nil
}

func (opt WriteOptions) batchRows() int {
	if opt.BatchRows == 0 {
		return DefaultBatchRows
	}
	return opt.BatchRows
}

// WriteCertificate writes c into dir as <address>.arrow, where address is
// c.Address(), and returns the file's path. The file is written to a
// temporary file in dir, read back and checked to hold c's content, and
// only then renamed into place, so no reader sees a partial or wrong
// certificate. If a file of that name already exists and reads as a
// certificate of that address, it is left untouched and its path returned.
// If it does not (it is corrupt, truncated or holds other content), the
// checked new file atomically replaces it: a damaged file at an address
// never blocks later writes. (Two writers racing on the same certificate
// may both rename; the survivor holds the same content either way.) An
// invalid certificate, a missing dir, or an existing file that cannot be
// read for another reason (permissions) is an error.
func WriteCertificate(dir string, c *Certificate, opt WriteOptions) (string, error) {
	if err := checkCertificate(c); err != nil {
		return "", fmt.Errorf("write certificate: %w", err)
	}
	addr := c.Address()
	path := filepath.Join(dir, addr+".arrow")
	if _, err := os.Lstat(path); err == nil {
		ok, err := holdsAddress(path, addr)
		if err != nil {
			return "", fmt.Errorf("write certificate %s: the file already there: %w", path, err)
		}
		if ok {
			return path, nil
		}
	}
	a, err := createReplacing(path) // whatever is at the address is damage: replaced
	if err != nil {
		return "", fmt.Errorf("write certificate %s: %w", path, err)
	}
	err = EncodeCertificate(a, c, opt)
	if err == nil {
		err = checkWritten(a.File, addr)
	}
	if err != nil {
		a.Abort()
		return "", fmt.Errorf("write certificate %s: %w", path, err)
	}
	if err := a.Commit(); err != nil {
		return "", fmt.Errorf("write certificate %s: %w", path, err)
	}
	return path, nil
}

// holdsAddress reports whether the file at path is a readable certificate
// whose content address is addr. A corrupt file (or anything that is not a
// regular file) gives false; a file that cannot be opened or read gives an
// error.
func holdsAddress(path, addr string) (bool, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return false, err
	}
	if !info.Mode().IsRegular() {
		return false, nil
	}
	r, err := OpenCertificate(path)
	if errors.Is(err, ErrCorrupt) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer r.Close()
	got, err := readAll(r)
	switch {
	case errors.Is(err, ErrCorrupt):
		return false, nil
	case err != nil:
		return false, err
	}
	return got.Address() == addr, nil
}

// checkWritten reads back the file just written and checks that it is a
// certificate of address addr.
func checkWritten(f *os.File, addr string) error {
	_, err := readBack(f, addr)
	return err
}

// readBack reads back the file just written, checks that it is a
// certificate of address addr and returns it.
func readBack(f *os.File, addr string) (*Certificate, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r, err := NewCertReader(f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("reading back the new file: %w", err)
	}
	defer r.Close()
	got, err := readAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading back the new file: %w", err)
	}
	if a := got.Address(); a != addr {
		return nil, fmt.Errorf("the new file reads back as %s, not %s", a, addr)
	}
	return got, nil
}

// EncodeCertificate writes c to w as an Arrow IPC file: the schema and its
// metadata (see the meta* keys), then the entries in record batches whose
// bodies are zstd-compressed. A certificate without entries gives a file
// with the schema and no batch. It refuses a certificate that a reader
// would refuse, so whatever it writes reads back.
func EncodeCertificate(w io.Writer, c *Certificate, opt WriteOptions) error {
	if err := opt.check(); err != nil {
		return fmt.Errorf("encode certificate: %w", err)
	}
	if err := checkCertificate(c); err != nil {
		return fmt.Errorf("encode certificate: %w", err)
	}
	schema := certSchema(certMetadata(c))
	mem := memory.NewGoAllocator()
	fw, err := ipc.NewFileWriter(newOffsetWriter(w), ipc.WithSchema(schema), ipc.WithZstd(), ipc.WithAllocator(mem))
	if err != nil {
		return fmt.Errorf("encode certificate: %w", err)
	}
	rows := opt.batchRows()
	for start, batches := 0, 0; start < len(c.Entries); batches++ {
		if batches == maxBatches {
			return fmt.Errorf("encode certificate: more than %d record batches: raise BatchRows", maxBatches)
		}
		end := batchEnd(c.Entries, start, rows)
		if err := writeBatch(fw, schema, mem, c.Entries[start:end]); err != nil {
			return fmt.Errorf("encode certificate: entries %d…%d: %w", start+1, end, err)
		}
		start = end
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("encode certificate: %w", err)
	}
	return nil
}

// checkCertificate returns why c cannot be written, or nil.
func checkCertificate(c *Certificate) error {
	if err := checkHeader(c); err != nil {
		return err
	}
	if y := c.Created.UTC().Year(); y < 0 || y > 9999 {
		return fmt.Errorf("creation time %v is not in years 0…9999, which RFC 3339 cannot write", c.Created)
	}
	for i := range c.Entries {
		if reason := checkEntry(&c.Entries[i]); reason != "" {
			return fmt.Errorf("entry %d: %s", i+1, reason)
		}
	}
	return nil
}

// certSchema is the schema of every certificate file, with the given
// metadata.
func certSchema(md arrow.Metadata) *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: colPosition, Type: arrow.BinaryTypes.String, Metadata: describe(colPosition)},
		{Name: colGrundy, Type: arrow.PrimitiveTypes.Uint32, Metadata: describe(colGrundy)},
		{Name: colReach, Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Uint32), Metadata: describe(colReach)},
		{Name: colWin, Type: arrow.ListOfNonNullable(arrow.PrimitiveTypes.Int32), Metadata: describe(colWin)},
	}, &md)
}

// describe is the field metadata of column col: its description.
func describe(col string) arrow.Metadata {
	return arrow.NewMetadata([]string{metaDescription}, []string{columnDescriptions[col]})
}

func certMetadata(c *Certificate) arrow.Metadata {
	m := map[string]string{
		metaFormat:   c.Format(),
		metaGame:     c.Game,
		metaNotation: c.Notation,
		metaClaim:    c.Claim.String(),
		metaAddress:  c.Address(),
		metaEntries:  strconv.Itoa(len(c.Entries)),
		metaProducer: c.Producer,
		metaVersion:  c.Version,
		metaCreated:  c.Created.UTC().Format(time.RFC3339Nano),
	}
	if len(c.Cites) > 0 {
		m[metaCites] = strings.Join(c.Cites, ",")
	}
	return arrow.MetadataFrom(m)
}

// batchEnd returns the end of the batch that starts at entries[start]: at
// most rows entries, and no more than fit MaxBatchBytes (but at least one).
func batchEnd(entries []Entry, start, rows int) int {
	const budget = MaxBatchBytes - 1<<16 // room for the last offsets and the padding of buffers
	size, end := 0, start
	for end < len(entries) && end-start < rows {
		size += entryBytes(&entries[end])
		if end > start && size > budget {
			break
		}
		end++
	}
	return end
}

// entryBytes is what e adds to the decoded column buffers of a batch: its
// position, its lists and four 32-bit offsets or values.
func entryBytes(e *Entry) int {
	return len(e.Position) + 4*(len(e.Reach)+len(e.Win)) + 16
}

func writeBatch(fw *ipc.FileWriter, schema *arrow.Schema, mem memory.Allocator, entries []Entry) error {
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	pos := b.Field(0).(*array.StringBuilder)
	grundy := b.Field(1).(*array.Uint32Builder)
	reach := b.Field(2).(*array.ListBuilder)
	reachValues := reach.ValueBuilder().(*array.Uint32Builder)
	win := b.Field(3).(*array.ListBuilder)
	winValues := win.ValueBuilder().(*array.Int32Builder)
	for i := range entries {
		e := &entries[i]
		pos.Append(e.Position)
		grundy.Append(e.Grundy)
		reach.Append(true)
		reachValues.AppendValues(e.Reach, nil)
		win.Append(true)
		winValues.AppendValues(e.Win, nil)
	}
	rec := b.NewRecord()
	defer rec.Release()
	return fw.Write(rec)
}

// offsetWriter gives an io.Writer the one Seek that Arrow's file writer
// makes, to learn the current offset, counted from the first byte written.
type offsetWriter struct{ CountingWriter }

func newOffsetWriter(w io.Writer) *offsetWriter {
	return &offsetWriter{CountingWriter{W: w}}
}

func (o *offsetWriter) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekCurrent {
		return 0, errors.New("certificate writer: cannot seek")
	}
	return o.N, nil
}
