package swarm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
)

// encodeMessage frames a JSON header and a list of Grundy values (an Arrow
// IPC stream) into one body: the header's length (4 bytes, big endian), the
// header, the stream.
func encodeMessage(header any, nimbers []solve.NimberEntry) ([]byte, error) {
	js, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	binary.Write(&buf, binary.BigEndian, uint32(len(js)))
	buf.Write(js)
	if err := writeNimbers(&buf, nimbers); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeMessage(body []byte, header any) ([]solve.NimberEntry, error) {
	if len(body) < 4 {
		return nil, errors.New("message too short")
	}
	n := binary.BigEndian.Uint32(body)
	if uint64(n) > uint64(len(body)-4) {
		return nil, errors.New("message header longer than the message")
	}
	if err := json.Unmarshal(body[4:4+n], header); err != nil {
		return nil, fmt.Errorf("message header: %w", err)
	}
	return readNimbers(body[4+n:])
}

var nimberSchema = arrow.NewSchema([]arrow.Field{
	{Name: "key", Type: arrow.BinaryTypes.Binary},
	{Name: "g", Type: arrow.PrimitiveTypes.Uint32},
}, nil)

// writeNimbers writes Grundy values as an Arrow IPC stream of (key, g).
func writeNimbers(w io.Writer, entries []solve.NimberEntry) error {
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, nimberSchema)
	defer b.Release()
	keys := b.Field(0).(*array.BinaryBuilder)
	gs := b.Field(1).(*array.Uint32Builder)
	for _, e := range entries {
		keys.Append([]byte(e.Key))
		gs.Append(e.G)
	}
	rec := b.NewRecord()
	defer rec.Release()
	iw := ipc.NewWriter(w, ipc.WithSchema(nimberSchema), ipc.WithAllocator(mem))
	if err := iw.Write(rec); err != nil {
		return err
	}
	return iw.Close()
}

// schemaPrefix is the schema message that opens every stream writeNimbers
// writes. readNimbers requires it byte for byte, so the Arrow library never
// parses a schema from the network (it sizes allocations by unchecked
// lengths in it).
var schemaPrefix = func() []byte {
	var buf bytes.Buffer
	iw := ipc.NewWriter(&buf, ipc.WithSchema(nimberSchema))
	iw.Close()
	b := buf.Bytes()
	return b[:len(b)-8] // without the end-of-stream marker
}()

// maxNimberMeta bounds the metadata of one message of a stream of Grundy
// values: a record batch of two columns declares a few hundred bytes.
const maxNimberMeta = 4096

// readNimbers reads what writeNimbers wrote. The input comes over the
// network: a malformed stream is an error, never a panic, and what it may
// allocate is bounded.
func readNimbers(data []byte) (out []solve.NimberEntry, err error) {
	if !bytes.HasPrefix(data, schemaPrefix) {
		return nil, errors.New("the Grundy values: the stream does not start with the expected schema")
	}
	if err := format.CheckIPCStream(data[len(schemaPrefix):], maxNimberMeta, int64(len(data))); err != nil {
		return nil, fmt.Errorf("the Grundy values: %w", err)
	}
	// A message cannot make the reader hold more than a few times its own
	// size; a refusal panics, recovered below.
	mem := format.NewBudgetAllocator(4 * len(data))
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("malformed Grundy values: %v", r)
		}
	}()
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithSchema(nimberSchema), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("the Grundy values: %w", err)
	}
	defer r.Release()
	for r.Next() {
		rec := r.Record()
		keys, ok1 := rec.Column(0).(*array.Binary)
		gs, ok2 := rec.Column(1).(*array.Uint32)
		if !ok1 || !ok2 || rec.NumCols() != 2 || keys.Len() != int(rec.NumRows()) || gs.Len() != int(rec.NumRows()) {
			return nil, errors.New("the Grundy values: wrong columns")
		}
		for i := range int(rec.NumRows()) {
			out = append(out, solve.NimberEntry{Key: string(keys.Value(i)), G: gs.Value(i)})
		}
	}
	return out, r.Err()
}
