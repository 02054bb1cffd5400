package format

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Arrow's IPC readers size their buffers by lengths that a message
// declares (the metadata length of its frame, the body length, the length
// of each buffer in the body) and allocate before they find out that the
// bytes are not there: a message of a few hundred bytes can make them
// allocate gigabytes, some of it outside any allocator they are given.
// The functions here check those lengths against the bytes actually
// present, with our own bounds-checked reading of the framing and the
// flatbuffer metadata, before an Arrow reader is called.

// The Arrow flatbuffer codes and slots used here.
const (
	ipcContinuation   = 0xFFFFFFFF
	fbHeaderSchema    = 1 // Message.header_type of a schema
	fbHeaderRecord    = 3 // Message.header_type of a record batch
	fbMessageType     = 1 // Message slots: version 0, header_type 1, header 2, bodyLength 3
	fbMessageHeader   = 2
	fbMessageBody     = 3
	fbHeaderDict      = 2 // Message.header_type of a dictionary batch
	fbRecordBuffers   = 2 // RecordBatch slots: length 0, nodes 1, buffers 2
	fbDictData        = 1 // DictionaryBatch slots: id 0, data 1
	maxSchemaFields   = 1024
	maxSchemaDepth    = 32
	fbBlockBytes      = 24 // Block struct: offset int64, metaDataLength int32, padding, bodyLength int64
	fbBufferBytes     = 16 // Buffer struct: offset int64, length int64
	maxIPCMetaDefault = 1 << 20
)

// CheckIPCStream checks the framing of an Arrow IPC stream held in memory
// (as ipc.NewReader reads it) before an Arrow reader is given it: every
// message's metadata length must be at most maxMeta and fit the bytes that
// follow it, its metadata must be a well-formed Message flatbuffer, its
// body length must be at most maxBody and fit the bytes that follow, and a
// record batch's buffers must lie inside its body; a schema's vectors must
// fit its metadata, with at most 1,024 fields in all, nested at most 32
// deep (Arrow's schema decoder allocates by those vector lengths and
// recurses without bound). It returns nil if the
// stream ends with an end-of-stream marker or at the end of data after a
// complete message, and an error naming the message and the bad length
// otherwise. It never allocates in proportion to a declared length. A
// caller that then decodes data with an allocator bounded by a few times
// len(data) cannot be made to allocate more than that. maxMeta ≤ 0 means
// 1 MiB.
func CheckIPCStream(data []byte, maxMeta int, maxBody int64) error {
	if maxMeta <= 0 {
		maxMeta = maxIPCMetaDefault
	}
	for i, p := 1, 0; p < len(data); i++ {
		if len(data)-p < 4 {
			return fmt.Errorf("message %d: %d bytes left at byte %d, too few for a frame", i, len(data)-p, p)
		}
		cid := binary.LittleEndian.Uint32(data[p:])
		p += 4
		n := int64(int32(cid)) // the length before Arrow 0.15, without the continuation marker
		switch cid {
		case 0:
			return nil // end of stream
		case ipcContinuation:
			if len(data)-p < 4 {
				return fmt.Errorf("message %d: the frame ends after its continuation marker", i)
			}
			n = int64(int32(binary.LittleEndian.Uint32(data[p:])))
			p += 4
			if n == 0 {
				return nil // end of stream
			}
		}
		switch {
		case n < 0 || n > int64(maxMeta):
			return fmt.Errorf("message %d: metadata length %d at byte %d, want 1…%d", i, n, p-4, maxMeta)
		case n > int64(len(data)-p):
			return fmt.Errorf("message %d: metadata length %d at byte %d, but only %d bytes follow", i, n, p-4, len(data)-p)
		}
		meta := data[p : p+int(n)]
		p += int(n)
		body, err := ipcBodyLength(meta)
		if err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		switch {
		case body < 0 || body > maxBody:
			return fmt.Errorf("message %d: body length %d, want 0…%d", i, body, maxBody)
		case body > int64(len(data)-p):
			return fmt.Errorf("message %d: body length %d, but only %d bytes follow", i, body, len(data)-p)
		}
		if err := checkIPCMessage(meta, body); err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
		p += int(body)
	}
	return nil
}

// ipcBodyLength returns the body length a Message flatbuffer declares.
func ipcBodyLength(meta []byte) (int64, error) {
	msg, err := fbRoot(meta)
	if err != nil {
		return 0, fmt.Errorf("metadata: %w", err)
	}
	return msg.i64(fbMessageBody)
}

// checkIPCMessage checks a Message flatbuffer whose body has the given
// length (as its frame or file block gives it): the message declares the
// same body length, and if it is a record batch, each of its buffers lies
// inside the body.
func checkIPCMessage(meta []byte, body int64) error {
	msg, err := fbRoot(meta)
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	declared, err := msg.i64(fbMessageBody)
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	if declared != body {
		return fmt.Errorf("the message declares a body of %d bytes, its frame %d", declared, body)
	}
	typ, err := msg.u8(fbMessageType)
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	var rb fbTable
	switch typ {
	case fbHeaderSchema:
		schema, err := msg.table(fbMessageHeader, "schema")
		if err == nil {
			err = checkSchemaVectors(schema)
		}
		if err != nil {
			return fmt.Errorf("schema: %w", err)
		}
		return nil
	case fbHeaderRecord:
		rb, err = msg.table(fbMessageHeader, "record batch header")
	case fbHeaderDict:
		var dict fbTable
		dict, err = msg.table(fbMessageHeader, "dictionary batch header")
		if err == nil {
			rb, err = dict.table(fbDictData, "dictionary data")
		}
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	if _, _, err := rb.vector(1, 16, "nodes"); err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	start, n, err := rb.vector(fbRecordBuffers, fbBufferBytes, "buffers")
	if err != nil {
		return fmt.Errorf("metadata: %w", err)
	}
	for k := range n {
		q := start + fbBufferBytes*k
		off := int64(binary.LittleEndian.Uint64(meta[q:]))
		size := int64(binary.LittleEndian.Uint64(meta[q+8:]))
		if off < 0 || size < 0 || off > body || size > body-off {
			return fmt.Errorf("buffer %d: %d bytes at offset %d do not fit a body of %d bytes", k, size, off, body)
		}
	}
	return nil
}

// checkSchemaVectors checks that the vectors of a Schema flatbuffer (its
// fields, their children, the key-value metadata of both, its features)
// fit the buffer, and bounds the number of fields and their nesting.
func checkSchemaVectors(schema fbTable) error {
	// Schema slots: endianness 0, fields 1, custom_metadata 2, features 3.
	if _, _, err := schema.vector(2, 4, "metadata"); err != nil {
		return err
	}
	if _, _, err := schema.vector(3, 8, "features"); err != nil {
		return err
	}
	budget := maxSchemaFields
	var fields func(t fbTable, slot, depth int) error
	fields = func(t fbTable, slot, depth int) error {
		start, n, err := t.vector(slot, 4, "fields")
		if err != nil {
			return err
		}
		if depth > maxSchemaDepth {
			return fmt.Errorf("fields nested more than %d deep", maxSchemaDepth)
		}
		if budget -= n; budget < 0 {
			return fmt.Errorf("more than %d fields", maxSchemaFields)
		}
		for i := range n {
			f, err := fbElement(t.buf, start, i)
			if err != nil {
				return err
			}
			// Field slots: name 0, nullable 1, type_type 2, type 3,
			// dictionary 4, children 5, custom_metadata 6.
			if _, _, err := f.vector(6, 4, "field metadata"); err != nil {
				return err
			}
			if err := fields(f, 5, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return fields(schema, 1, 0)
}

// i64 reads a 64-bit integer field (0 if absent).
func (t fbTable) i64(slot int) (int64, error) {
	p, ok := t.field(slot)
	if !ok {
		return 0, nil
	}
	if p < 0 || p > len(t.buf)-8 {
		return 0, fmt.Errorf("flatbuffer offset %d out of bounds", p)
	}
	return int64(binary.LittleEndian.Uint64(t.buf[p:])), nil
}

// fileBlock is a record batch's place in an Arrow file, as its footer
// gives it.
type fileBlock struct {
	offset int64
	meta   int32
	body   int64
}

// footerBlocks returns the record batch blocks of a footer that
// checkFooter accepted, checking that each lies inside the file's data
// (before the footer, which starts at dataEnd) and that its lengths are
// within bounds, so that the Arrow reader, which allocates by them before
// reading, never allocates for bytes that are not there.
func footerBlocks(footer []byte, dataEnd int64) ([]fileBlock, error) {
	root, err := fbRoot(footer)
	if err != nil {
		return nil, err
	}
	start, n, err := root.vector(3, fbBlockBytes, "record batches")
	if err != nil {
		return nil, err
	}
	blocks := make([]fileBlock, n)
	for i := range blocks {
		q := start + fbBlockBytes*i
		b := fileBlock{
			offset: int64(binary.LittleEndian.Uint64(footer[q:])),
			meta:   int32(binary.LittleEndian.Uint32(footer[q+8:])),
			body:   int64(binary.LittleEndian.Uint64(footer[q+16:])),
		}
		switch {
		case b.offset < int64(len(arrowMagic)) || b.offset > dataEnd:
			return nil, fmt.Errorf("record batch %d: offset %d is outside the file's data (bytes 8…%d)", i+1, b.offset, dataEnd)
		case b.meta < 8 || int64(b.meta) > maxIPCMetaDefault:
			return nil, fmt.Errorf("record batch %d: metadata length %d, want 8…%d", i+1, b.meta, maxIPCMetaDefault)
		case b.body < 0 || b.body > maxBodyBytes:
			return nil, fmt.Errorf("record batch %d: body length %d, want 0…%d", i+1, b.body, maxBodyBytes)
		case int64(b.meta)+b.body > dataEnd-b.offset:
			return nil, fmt.Errorf("record batch %d: %d bytes of metadata and %d of body at byte %d, but the data ends at byte %d", i+1, b.meta, b.body, b.offset, dataEnd)
		}
		blocks[i] = b
	}
	return blocks, nil
}

// checkBlockMessage reads the metadata of a record batch block (bounded by
// footerBlocks) and checks it with checkIPCMessage, then the zstd frames of
// its body with checkZstdBody.
func checkBlockMessage(r io.ReaderAt, b fileBlock) error {
	buf := make([]byte, b.meta)
	if err := readAt(r, buf, b.offset); err != nil {
		return err
	}
	// The frame: a continuation marker and a length, or (before Arrow
	// 0.15) a length alone; the Arrow file reader skips it the same way.
	prefix := 4
	switch binary.LittleEndian.Uint32(buf) {
	case 0:
		prefix = 0
	case ipcContinuation:
		prefix = 8
	}
	if prefix == 0 {
		return errors.New("the message metadata starts with an end-of-stream marker")
	}
	if err := checkIPCMessage(buf[prefix:], b.body); err != nil {
		return err
	}
	return checkZstdBody(r, buf[prefix:], b.offset+int64(b.meta), b.body)
}
