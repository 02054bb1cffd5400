package cram

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Size limits of Parse. They keep hostile input from exhausting memory: a
// board is allocated only once its dimensions are known to be within them.
const (
	MaxInput = 1 << 16 // bytes of text
	MaxArea  = 1 << 12 // cells of one board (holes included)
	MaxCells = 1 << 14 // cells of all the boards of a position together
)

// ErrSyntax marks a text that is not written in the notation.
var ErrSyntax = errors.New("not a Cram position")

// ErrTooLarge marks a text over one of the size limits (MaxInput, MaxArea,
// MaxCells).
var ErrTooLarge = errors.New("over a size limit")

// ParseError says why a text is not a position and where. It wraps
// ErrTooLarge when a size limit was broken, ErrSyntax otherwise.
type ParseError struct {
	Input  string // the text given to Parse (cut short if very long)
	Offset int    // byte offset of the problem in Input
	Reason string
	kind   error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("cram: parse %q: at byte %d: %s", e.Input, e.Offset, e.Reason)
}

// Unwrap returns ErrTooLarge or ErrSyntax.
func (e *ParseError) Unwrap() error { return e.kind }

// Parse reads a position in the notation of the package documentation and
// returns it in canonical form: "!" for the empty position, boards
// separated by '+', each "HxW" (H rows and W columns of empty cells, as
// decimal numbers from 1 without leading zeros) or rows of '.' (empty)
// and '#' (hole) separated by '/', all rows of the same length. Nothing
// else is accepted: no spaces, no empty board, no empty row.
func Parse(s string) (Position, error) {
	fail := func(at int, kind error, reason string, a ...any) (Position, error) {
		in := s
		if len(in) > 80 {
			in = in[:80] + "…"
		}
		return Empty, &ParseError{Input: in, Offset: at, Reason: fmt.Sprintf(reason, a...), kind: kind}
	}
	switch {
	case len(s) > MaxInput:
		return fail(MaxInput, ErrTooLarge, "longer than %d bytes", MaxInput)
	case s == "":
		return fail(0, ErrSyntax, "empty text (the empty position is %q)", EmptyText)
	case s == EmptyText:
		return Empty, nil
	}
	var s2 scratch
	var rs []region
	total, at := 0, 0
	for _, board := range strings.Split(s, "+") {
		g, off, reason := readBoard(board)
		if reason != "" {
			kind := ErrSyntax
			if g.h < 0 {
				kind = ErrTooLarge
			}
			return fail(at+off, kind, "%s", reason)
		}
		if total += g.h * g.w; total > MaxCells {
			return fail(at, ErrTooLarge, "the boards have more than %d cells together", MaxCells)
		}
		rs = append(rs, g.regionTexts(&s2)...)
		at += len(board) + 1
	}
	return fromRegions(rs), nil
}

// MustParse is Parse for texts known to be valid, such as constants in
// programs and tests. It panics on error.
func MustParse(s string) Position {
	p, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// readBoard reads one board: "HxW" or rows. On failure it returns the
// byte offset and the reason, with g.h < 0 when the board is too large.
func readBoard(b string) (g grid, off int, reason string) {
	tooLarge := grid{h: -1}
	if b == "" {
		return g, 0, "empty board (boards are separated by a single '+')"
	}
	if '0' <= b[0] && b[0] <= '9' {
		hs, ws, ok := strings.Cut(b, "x")
		if !ok {
			return g, len(b), `want "HxW": a number of rows, 'x', a number of columns`
		}
		h, err := dimension(hs)
		if err != "" {
			return g, 0, "rows: " + err
		}
		w, err := dimension(ws)
		if err != "" {
			return g, len(hs) + 1, "columns: " + err
		}
		if h*w > MaxArea {
			return tooLarge, 0, fmt.Sprintf("a %dx%d board has more than %d cells", h, w, MaxArea)
		}
		g = newGrid(h, w)
		for i := range g.empty {
			g.empty[i] = true
		}
		return g, 0, ""
	}
	rows := strings.Split(b, "/")
	w := len(rows[0])
	if len(rows)*w > MaxArea || len(rows) > MaxArea {
		return tooLarge, 0, fmt.Sprintf("a board of %d rows of %d cells has more than %d cells", len(rows), w, MaxArea)
	}
	g = newGrid(len(rows), w)
	at := 0
	for r, row := range rows {
		switch {
		case row == "":
			return g, at, "empty row (rows are separated by a single '/')"
		case len(row) != w:
			return g, at, fmt.Sprintf("row %d has %d cells, the first row %d", r+1, len(row), w)
		}
		for c := range len(row) {
			switch row[c] {
			case '.':
				g.empty[r*w+c] = true
			case '#':
			default:
				return g, at + c, fmt.Sprintf("%q is not a cell (want '.' for empty, '#' for a hole)", row[c])
			}
		}
		at += len(row) + 1
	}
	return g, 0, ""
}

// dimension reads a board's height or width: a decimal number from 1 to
// MaxArea without leading zeros.
func dimension(s string) (int, string) {
	if s == "" || s[0] == '0' || len(s) > 5 {
		return 0, fmt.Sprintf("%q is not a number from 1 to %d without leading zeros", s, MaxArea)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxArea {
		return 0, fmt.Sprintf("%q is not a number from 1 to %d without leading zeros", s, MaxArea)
	}
	return n, ""
}

// regionBox returns the height and width of the bounding box of a region
// from its canonical text, without decoding it.
func regionBox(text string) (h, w int) {
	if hs, ws, ok := strings.Cut(text, "x"); ok {
		h, _ = strconv.Atoi(hs)
		w, _ = strconv.Atoi(ws)
		return h, w
	}
	w = strings.IndexByte(text, '/')
	if w < 0 {
		return 1, len(text)
	}
	return (len(text) + 1) / (w + 1), w
}

// decodeRegion reads the canonical text of one region back into a grid.
func decodeRegion(text string) (grid, error) {
	g, off, reason := readBoard(text)
	if reason != "" {
		return g, &ParseError{Input: text, Offset: off, Reason: reason, kind: ErrSyntax}
	}
	return g, nil
}
