package format

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// SPRHeader is the first line of a nimber database of a normal-play
// impartial game in the format of GLOP and SPOTS.
const SPRHeader = "[Positions+Nimber]"

// MaxSPRLine is the longest line ReadSPR accepts, in bytes.
const MaxSPRLine = 1 << 20

// MaxSPRGrundy is the largest Grundy value the format holds: SPOTS stores
// them in 8 bits.
const MaxSPRGrundy = 255

// SPREntry is one line of a nimber database: gn(Position) = Grundy.
type SPREntry struct {
	Position string // as written in the file
	Grundy   uint32
	Line     int // line number in the file read, 1-based; 0 when not read
}

// LineError is a malformed line of a text database.
type LineError struct {
	Line   int    // 1-based
	Text   string // the line, cut short if long
	Reason string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %s: %q", e.Line, e.Reason, e.Text)
}

// SPROptions controls ReadSPR.
type SPROptions struct {
	// Lenient skips malformed lines instead of failing, reporting each to
	// Warn (if set), as the reference solver does.
	Lenient bool
	Warn    func(*LineError)
}

// ReadSPR reads a [Positions+Nimber] database: the header line, then one
// "<position> <grundy value>" line per entry (one space, a decimal value
// 0…255). Empty lines are allowed. Anything else is a *LineError, unless
// opt.Lenient, which skips the line; a missing header, and a line longer
// than MaxSPRLine, are always errors. It holds every entry: see SPRReader
// for one at a time.
func ReadSPR(r io.Reader, opt SPROptions) ([]SPREntry, error) {
	var out []SPREntry
	err := NewSPRReader(r, opt).Each(func(e SPREntry) error {
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SPRReader reads a [Positions+Nimber] database entry by entry, as ReadSPR
// does, so that a caller can measure (and refuse) each entry as it comes
// instead of holding the whole file first. Its memory is that of one line.
type SPRReader struct {
	br   *bufio.Reader
	opt  SPROptions
	line int    // lines read
	buf  []byte // of the line being read, kept from line to line
	err  error
}

// NewSPRReader reads the database in r.
func NewSPRReader(r io.Reader, opt SPROptions) *SPRReader {
	return &SPRReader{br: bufio.NewReaderSize(r, 64*1024), opt: opt}
}

// Next returns the next entry, io.EOF after the last, or the error that
// ended the file (then again on every call).
func (sr *SPRReader) Next() (SPREntry, error) {
	if sr.err != nil {
		return SPREntry{}, sr.err
	}
	e, err := sr.next()
	if err != nil {
		sr.err = err
	}
	return e, err
}

// Each calls fn with every entry left, in order, until the end of the
// file (it returns nil), an error of the file or the first error of fn
// (returned).
func (sr *SPRReader) Each(fn func(SPREntry) error) error {
	for {
		e, err := sr.Next()
		if err == io.EOF {
			return nil
		}
		if err == nil {
			err = fn(e)
		}
		if err != nil {
			return err
		}
	}
}

func (sr *SPRReader) next() (SPREntry, error) {
	for {
		sr.line++
		text, err := readLine(sr.br, sr.buf[:0])
		sr.buf = text[:0]
		if err == io.EOF {
			if sr.line == 1 {
				return SPREntry{}, &LineError{Line: 1, Reason: "empty file: the first line must be " + SPRHeader}
			}
			return SPREntry{}, io.EOF
		}
		if err != nil {
			if le, ok := err.(*LineError); ok {
				le.Line = sr.line
			}
			return SPREntry{}, err
		}
		if sr.line == 1 {
			if string(text) != SPRHeader {
				return SPREntry{}, &LineError{Line: 1, Text: cut(text), Reason: "the first line must be " + SPRHeader}
			}
			continue
		}
		if len(text) == 0 {
			continue
		}
		e, lerr := parseSPRLine(text, sr.line)
		if lerr != nil {
			if sr.opt.Lenient {
				warn(sr.opt, lerr)
				continue
			}
			return SPREntry{}, lerr
		}
		return e, nil
	}
}

func warn(opt SPROptions, e *LineError) {
	if opt.Warn != nil {
		opt.Warn(e)
	}
}

// readLine returns the next line without its '\n', appended to buf. A
// line longer than MaxSPRLine is an error that ends the file: what follows
// is not read (a file of one endless line, /dev/zero, would otherwise be
// read for ever).
func readLine(br *bufio.Reader, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > MaxSPRLine+1 {
			return nil, &LineError{Text: cut(append(buf, chunk[:min(len(chunk), 128)]...)),
				Reason: fmt.Sprintf("line longer than %d bytes: this is not a %s database", MaxSPRLine, SPRHeader)}
		}
		buf = append(buf, chunk...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(buf) == 0:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
		}
		return bytes.TrimSuffix(buf, []byte("\n")), nil
	}
}

func parseSPRLine(text []byte, line int) (SPREntry, *LineError) {
	fail := func(reason string) (SPREntry, *LineError) {
		return SPREntry{}, &LineError{Line: line, Text: cut(text), Reason: reason}
	}
	i := bytes.IndexByte(text, ' ')
	switch {
	case bytes.HasSuffix(text, []byte("\r")):
		return fail("line ends with a carriage return")
	case i < 0:
		return fail("no space between position and Grundy value")
	case i == 0:
		return fail("empty position")
	}
	pos, val := text[:i], text[i+1:]
	for _, c := range pos {
		if c < 0x20 || c == 0x7F {
			return fail(fmt.Sprintf("control character 0x%02x in the position", c))
		}
	}
	if len(val) == 0 || bytes.ContainsAny(val, " \t") {
		return fail("want one space, then the Grundy value")
	}
	for _, c := range val {
		if c < '0' || c > '9' {
			return fail(fmt.Sprintf("Grundy value %q is not a decimal number", val))
		}
	}
	g, err := strconv.ParseUint(string(val), 10, 32)
	if err != nil || g > MaxSPRGrundy {
		return fail(fmt.Sprintf("Grundy value %s is more than %d", val, MaxSPRGrundy))
	}
	return SPREntry{Position: string(pos), Grundy: uint32(g), Line: line}, nil
}

func cut(b []byte) string {
	if len(b) > 120 {
		return string(b[:120]) + "…"
	}
	return string(b)
}

// WriteSPR writes a [Positions+Nimber] database with the entries sorted
// bytewise by position, so equal databases are equal files.
func WriteSPR(w io.Writer, entries []SPREntry) error {
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b SPREntry) int { return cmp.Compare(a.Position, b.Position) })
	bw := bufio.NewWriter(w)
	bw.WriteString(SPRHeader + "\n")
	for _, e := range sorted {
		if e.Grundy > MaxSPRGrundy {
			return fmt.Errorf("%s: Grundy value %d does not fit the format (at most %d)", e.Position, e.Grundy, MaxSPRGrundy)
		}
		if e.Position == "" || strings.ContainsFunc(e.Position, func(r rune) bool { return r <= ' ' || r == 0x7F }) {
			return fmt.Errorf("position %q cannot be written on one line", e.Position)
		}
		bw.WriteString(e.Position)
		bw.WriteByte(' ')
		bw.WriteString(strconv.FormatUint(uint64(e.Grundy), 10))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// WriteSPRFile writes a database to path through a temporary file in the
// same directory, renamed into place once complete: a reader never sees a
// partial file, and a failure leaves any old file as it was.
func WriteSPRFile(path string, entries []SPREntry) error {
	return WriteFileAtomic(path, func(w io.Writer) error { return WriteSPR(w, entries) })
}

// IsLineError reports whether err is (or wraps) a *LineError.
func IsLineError(err error) bool {
	var le *LineError
	return errors.As(err, &le)
}
