package format

import (
	"encoding/binary"
	"errors"
	"fmt"
)

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
