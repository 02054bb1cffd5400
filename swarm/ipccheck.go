package swarm

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// checkStream walks the messages of an Arrow IPC stream that follow the
// schema (data starts after schemaPrefix) and checks every length they
// declare against the bytes actually present, before the Arrow reader sees
// them: the reader allocates a message's metadata by its declared length
// with make (outside any allocator: a 435-byte message could ask for 2³¹
// bytes) and its body by its declared body length. Only uncompressed
// record batches are accepted, whose rows and buffers fit in their body.
func checkStream(data []byte) error {
	for off := 0; off < len(data); {
		if len(data)-off < 8 {
			return fmt.Errorf("message at byte %d: %d bytes left, too few for its framing", off, len(data)-off)
		}
		if binary.LittleEndian.Uint32(data[off:]) != 0xFFFFFFFF {
			return fmt.Errorf("message at byte %d: no continuation marker", off)
		}
		metaLen := int64(int32(binary.LittleEndian.Uint32(data[off+4:])))
		off += 8
		if metaLen == 0 {
			if off != len(data) {
				return fmt.Errorf("%d bytes after the end-of-stream marker", len(data)-off)
			}
			return nil
		}
		if metaLen < 0 || metaLen > int64(len(data)-off) {
			return fmt.Errorf("message at byte %d: metadata of %d bytes declared, %d present", off-8, metaLen, len(data)-off)
		}
		meta := data[off : off+int(metaLen)]
		off += int(metaLen)
		bodyLen, err := checkRecordBatchMeta(meta)
		if err != nil {
			return fmt.Errorf("message at byte %d: %w", off-int(metaLen)-8, err)
		}
		if bodyLen > int64(len(data)-off) {
			return fmt.Errorf("message at byte %d: body of %d bytes declared, %d present", off-int(metaLen)-8, bodyLen, len(data)-off)
		}
		off += int(bodyLen)
	}
	return nil
}

// fbuf reads a flatbuffer with every offset checked.
type fbuf []byte

var errFlatbuffer = errors.New("malformed metadata")

func (b fbuf) u32(at int64) (int64, error) {
	if at < 0 || at+4 > int64(len(b)) {
		return 0, errFlatbuffer
	}
	return int64(binary.LittleEndian.Uint32(b[at:])), nil
}

func (b fbuf) i64(at int64) (int64, error) {
	if at < 0 || at+8 > int64(len(b)) {
		return 0, errFlatbuffer
	}
	return int64(binary.LittleEndian.Uint64(b[at:])), nil
}

// field returns the position of field i of the table at pos, or 0 if the
// table does not have it.
func (b fbuf) field(pos int64, i int) (int64, error) {
	so, err := b.u32(pos)
	if err != nil {
		return 0, err
	}
	vt := pos - int64(int32(so))
	if vt < 0 || vt+4 > int64(len(b)) {
		return 0, errFlatbuffer
	}
	vtSize := int64(binary.LittleEndian.Uint16(b[vt:]))
	slot := int64(4 + 2*i)
	if slot+2 > vtSize {
		return 0, nil
	}
	if vt+slot+2 > int64(len(b)) {
		return 0, errFlatbuffer
	}
	o := int64(binary.LittleEndian.Uint16(b[vt+slot:]))
	if o == 0 {
		return 0, nil
	}
	return pos + o, nil
}

// indirect follows the offset stored at pos (to a table or vector).
func (b fbuf) indirect(pos int64) (int64, error) {
	o, err := b.u32(pos)
	if err != nil {
		return 0, err
	}
	return pos + o, nil
}

// checkRecordBatchMeta checks the metadata of a message (Message.fbs): it
// must be an uncompressed record batch whose length (rows) and buffers fit
// in its body. It returns the body's declared length.
func checkRecordBatchMeta(meta []byte) (int64, error) {
	b := fbuf(meta)
	root, err := b.indirect(0)
	if err != nil {
		return 0, err
	}
	// Message: version 0, header_type 1, header 2, bodyLength 3.
	typePos, err := b.field(root, 1)
	if err != nil {
		return 0, err
	}
	if typePos == 0 || typePos >= int64(len(b)) || b[typePos] != 3 { // MessageHeader.RecordBatch
		return 0, errors.New("not a record batch")
	}
	bodyPos, err := b.field(root, 3)
	if err != nil {
		return 0, err
	}
	var bodyLen int64
	if bodyPos != 0 {
		if bodyLen, err = b.i64(bodyPos); err != nil {
			return 0, err
		}
	}
	if bodyLen < 0 || bodyLen%8 != 0 {
		return 0, fmt.Errorf("body length %d", bodyLen)
	}
	hdrPos, err := b.field(root, 2)
	if err != nil || hdrPos == 0 {
		return 0, errFlatbuffer
	}
	rb, err := b.indirect(hdrPos)
	if err != nil {
		return 0, err
	}
	// RecordBatch: length 0, nodes 1, buffers 2, compression 3.
	if p, err := b.field(rb, 3); err != nil || p != 0 {
		return 0, errors.New("a compressed record batch")
	}
	lenPos, err := b.field(rb, 0)
	if err != nil {
		return 0, err
	}
	var rows int64
	if lenPos != 0 {
		if rows, err = b.i64(lenPos); err != nil {
			return 0, err
		}
	}
	// A row takes at least a key offset and a value (4 bytes each).
	if rows < 0 || rows > bodyLen/8 {
		return 0, fmt.Errorf("%d rows in a body of %d bytes", rows, bodyLen)
	}
	if err := b.checkStructs(rb, 1, 16, func(at int64) error { // FieldNode{length, null_count}
		n, err := b.i64(at)
		if err == nil && (n < 0 || n > rows) {
			err = fmt.Errorf("a column of %d rows in a batch of %d", n, rows)
		}
		return err
	}); err != nil {
		return 0, err
	}
	if err := b.checkStructs(rb, 2, 16, func(at int64) error { // Buffer{offset, length}
		o, err1 := b.i64(at)
		n, err2 := b.i64(at + 8)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if o < 0 || n < 0 || o > bodyLen || n > bodyLen-o {
			return fmt.Errorf("a buffer of %d bytes at %d in a body of %d", n, o, bodyLen)
		}
		return nil
	}); err != nil {
		return 0, err
	}
	return bodyLen, nil
}

// checkStructs checks each element (of size bytes) of the vector of
// structs in field i of the table at pos.
func (b fbuf) checkStructs(pos int64, i int, size int64, check func(at int64) error) error {
	p, err := b.field(pos, i)
	if err != nil || p == 0 {
		return err
	}
	vec, err := b.indirect(p)
	if err != nil {
		return err
	}
	n, err := b.u32(vec)
	if err != nil {
		return err
	}
	if n > (int64(len(b))-vec-4)/size {
		return errFlatbuffer
	}
	for k := range n {
		if err := check(vec + 4 + k*size); err != nil {
			return err
		}
	}
	return nil
}
