package format

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// firstBlock returns where, in an encoded certificate, the footer's first
// record batch block and that batch's metadata flatbuffer start.
func firstBlock(t *testing.T, data []byte) (block, meta int) {
	t.Helper()
	footer := len(data) - 10 - int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	root, err := fbRoot(data[footer : len(data)-10])
	if err != nil {
		t.Fatal(err)
	}
	start, n, err := root.vector(3, fbBlockBytes, "record batches")
	if err != nil || n == 0 {
		t.Fatalf("no record batch: %v", err)
	}
	block = footer + start
	return block, int(binary.LittleEndian.Uint64(data[block:])) + 8
}

// allocated returns the bytes allocated while f ran.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadDeclaredLengths rewrites, in a certificate of about 1 KB, the
// lengths the Arrow reader allocates by before reading: the body and
// metadata lengths of the footer's block, and a buffer's length in the
// batch's metadata. Each must be refused as corrupt, naming the length,
// without allocating for bytes that are not in the file.
func TestReadDeclaredLengths(t *testing.T) {
	data := encode(t, sampleCert(3), WriteOptions{})
	block, meta := firstBlock(t, data)
	msg, err := fbRoot(data[meta:])
	if err != nil {
		t.Fatal(err)
	}
	rb, err := msg.table(fbMessageHeader, "header")
	if err != nil {
		t.Fatal(err)
	}
	buffers, n, err := rb.vector(fbRecordBuffers, fbBufferBytes, "buffers")
	if err != nil || n < 2 {
		t.Fatalf("%d buffers: %v", n, err)
	}
	bodyField, _ := msg.field(fbMessageBody)
	tests := []struct {
		name   string
		at     int // byte to rewrite
		size   int // 4 or 8 bytes
		value  uint64
		reason string
	}{
		{"body of 48 MB", block + 16, 8, 48 << 20, "body length"},
		{"body of 2^31", block + 16, 8, 1 << 31, "body length"},
		{"body past the end", block + 16, 8, uint64(len(data)), "but the data ends"},
		{"negative body", block + 16, 8, 1<<64 - 8, "body length"},
		{"metadata of 2^30", block + 8, 4, 1 << 30, "metadata length"},
		{"negative metadata", block + 8, 4, 1<<32 - 8, "metadata length"},
		{"offset past the end", block, 8, uint64(len(data)), "outside the file"},
		{"message's own body length", meta + bodyField, 8, 1 << 31, "declares a body"},
		{"buffer of 40 MB", meta + buffers + fbBufferBytes + 8, 8, 40 << 20, "do not fit a body"},
		{"buffer past the body", meta + buffers + fbBufferBytes, 8, 1 << 20, "do not fit a body"},
	}
	if _, err := decode(data); err != nil {
		t.Fatalf("the unchanged file: %v", err)
	}
	for _, tt := range tests {
		bad := slices.Clone(data)
		if tt.size == 8 {
			binary.LittleEndian.PutUint64(bad[tt.at:], tt.value)
		} else {
			binary.LittleEndian.PutUint32(bad[tt.at:], uint32(tt.value))
		}
		var err error
		used := allocated(func() { _, err = decode(bad) })
		switch {
		case !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), tt.reason):
			t.Errorf("%s: %v, want a corrupt file and %q", tt.name, err, tt.reason)
		case used > 8<<20:
			t.Errorf("%s: %d bytes allocated to refuse a file of %d", tt.name, used, len(data))
		}
	}
}

// stream writes a record batch of n rows as an Arrow IPC stream.
func stream(t testing.TB, n int) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "g", Type: arrow.PrimitiveTypes.Uint32}}, nil)
	b := array.NewUint32Builder(memory.NewGoAllocator())
	for i := range n {
		b.Append(uint32(i))
	}
	col := b.NewArray()
	rec := array.NewRecord(schema, []arrow.Array{col}, int64(n))
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCheckIPCStream: a stream as Arrow writes it passes; each declared
// length made larger than the bytes present is refused, naming it. The
// 16-byte frame declaring 2^31 - 8 bytes of metadata is the one that made
// Arrow's stream reader allocate 2 GB outside its allocator.
func TestCheckIPCStream(t *testing.T) {
	good := stream(t, 100)
	if err := CheckIPCStream(good, 0, 1<<20); err != nil {
		t.Fatalf("a stream as Arrow writes it: %v", err)
	}
	schemaLen := 8 + int(binary.LittleEndian.Uint32(good[4:]))
	msg := schemaLen + 8 // the record batch's metadata
	root, err := fbRoot(good[msg:])
	if err != nil {
		t.Fatal(err)
	}
	bodyField, _ := root.field(fbMessageBody)
	schemaMsg, err := fbRoot(good[8:schemaLen])
	if err != nil {
		t.Fatal(err)
	}
	schema, err := schemaMsg.table(fbMessageHeader, "schema")
	if err != nil {
		t.Fatal(err)
	}
	fieldsAt, _, _ := schema.ref(1)
	withFields := func(n uint32) []byte {
		d := slices.Clone(good)
		binary.LittleEndian.PutUint32(d[8+fieldsAt:], n)
		return d
	}
	huge := append(binary.LittleEndian.AppendUint32([]byte{0xff, 0xff, 0xff, 0xff}, 1<<31-8), make([]byte, 8)...)
	tests := []struct {
		name   string
		data   []byte
		reason string
	}{
		{"metadata of 2^31", huge, "metadata length 2147483640"},
		{"metadata past the end", good[:schemaLen-4], "only"},
		{"negative metadata", append([]byte{0xff, 0xff, 0xff, 0xff}, 0xf8, 0xff, 0xff, 0xff), "metadata length -8"},
		{"old frame of 2^31", binary.LittleEndian.AppendUint32(nil, 1<<31-8), "metadata length"},
		{"body past the end", good[:len(good)-16], "only"},
		{"body over the limit", func() []byte {
			d := slices.Clone(good)
			binary.LittleEndian.PutUint64(d[msg+bodyField:], 1<<40)
			return d
		}(), "body length 1099511627776"},
		{"torn frame", good[:schemaLen+2], "too few"},
		{"schema of 2^30 fields", withFields(1 << 30), "fields: 1073741824 items do not fit"},
	}
	for _, tt := range tests {
		if err := CheckIPCStream(tt.data, 0, 1<<20); err == nil || !strings.Contains(err.Error(), tt.reason) {
			t.Errorf("%s: %v, want an error about %q", tt.name, err, tt.reason)
		}
	}
	if err := CheckIPCStream(good, 0, 100); err == nil {
		t.Errorf("a body of 400 bytes passes a limit of 100")
	}
}

// FuzzCheckIPCStream: no input makes CheckIPCStream panic, and what it
// accepts is then read by Arrow's stream reader with an allocator bounded
// by a few times the input's size (its refusals and the reader's panics
// are recovered: what matters is that nothing is allocated outside it,
// which would exhaust the fuzzer's memory).
func FuzzCheckIPCStream(f *testing.F) {
	f.Add(stream(f, 3))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xf8, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		if CheckIPCStream(data, 0, 1<<20) != nil {
			return
		}
		mem := NewBudgetAllocator(4*len(data) + 1<<16)
		guard("stream", func() error {
			r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithAllocator(mem))
			if err != nil {
				return err
			}
			defer r.Release()
			for r.Next() {
			}
			return r.Err()
		})
	})
}
