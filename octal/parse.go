package octal

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Size limits of Parse. They keep hostile input from exhausting memory or
// time: a heap of MaxHeap tokens has some MaxHeap/2 children for each
// digit that lets a move split it.
const (
	MaxInput  = 1 << 16 // bytes of text
	MaxDigits = 64      // digits of a code after the point
	MaxHeap   = 1 << 16 // tokens of one heap
	MaxTokens = 1 << 20 // tokens of all the heaps of a position together
)

// ErrSyntax marks a text that is not written in the notation.
var ErrSyntax = errors.New("not an octal game position")

// ErrTooLarge marks a text over one of the size limits (MaxInput,
// MaxDigits, MaxHeap, MaxTokens).
var ErrTooLarge = errors.New("over a size limit")

// ParseError says why a text is not a position (or a code) and where. It
// wraps ErrTooLarge when a size limit was broken, ErrSyntax otherwise.
type ParseError struct {
	Input  string // the text given to Parse (cut short if very long)
	Offset int    // byte offset of the problem in Input
	Reason string
	kind   error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("octal: parse %q: at byte %d: %s", e.Input, e.Offset, e.Reason)
}

// Unwrap returns ErrTooLarge or ErrSyntax.
func (e *ParseError) Unwrap() error { return e.kind }

// quote quotes a part of the input for a message, shortened if long: the
// ParseError holds the input itself.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strconv.Quote(s)
}

// cut shortens a long input for a ParseError.
func cut(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// Parse reads a position in the notation of the package documentation and
// returns it in canonical form: "!" for the empty position, or heaps
// separated by '+', each "CODE:N" or, after a heap with a code, "N" (a
// heap of the same game). Nothing else is accepted: no spaces, no empty
// heap, no sign.
func Parse(s string) (Position, error) {
	fail := func(at int, kind error, reason string, a ...any) (Position, error) {
		return Empty, &ParseError{Input: cut(s), Offset: at, Reason: fmt.Sprintf(reason, a...), kind: kind}
	}
	switch {
	case len(s) > MaxInput:
		return fail(MaxInput, ErrTooLarge, "longer than %d bytes", MaxInput)
	case s == "":
		return fail(0, ErrSyntax, "empty text (the empty position is %q)", EmptyText)
	case s == EmptyText:
		return Empty, nil
	}
	var (
		hs     []heap
		code   Code
		have   bool // a code has been read
		total  int
		at     int
		parsed = map[string]Code{} // codes already read, by their text
	)
	for _, term := range strings.Split(s, "+") {
		sizeText, sizeAt := term, at
		if codeText, rest, ok := strings.Cut(term, ":"); ok {
			c, seen := parsed[codeText]
			if !seen {
				var off int
				var kind error
				var reason string
				if c, off, reason, kind = readCode(codeText); reason != "" {
					return fail(at+off, kind, "%s", reason)
				}
				parsed[codeText] = c
			}
			code, have = c, true
			sizeText, sizeAt = rest, at+len(codeText)+1
		}
		if !have {
			if _, reason, _ := readSize(term); reason != "" {
				return fail(at, ErrSyntax, "%s is not a heap: want CODE:SIZE, such as 0.77:5, or %q alone for the empty position", quote(term), EmptyText)
			}
			return fail(at, ErrSyntax, "heap %s has no code: the first heap is written CODE:SIZE, such as 0.77:%s", quote(term), term)
		}
		n, reason, kind := readSize(sizeText)
		if reason != "" {
			return fail(sizeAt, kind, "%s", reason)
		}
		if total += n; total > MaxTokens {
			return fail(at, ErrTooLarge, "the heaps have more than %d tokens together", MaxTokens)
		}
		if code.alive(n) {
			hs = append(hs, heap{code: code, n: n})
		}
		at += len(term) + 1
	}
	return fromHeaps(hs), nil
}

// readSize reads a heap's size: a decimal number from 0 to MaxHeap
// without leading zeros.
func readSize(s string) (n int, reason string, kind error) {
	bad := fmt.Sprintf("heap size %s is not a number from 0 to %d without leading zeros (heaps are separated by a single '+')", quote(s), MaxHeap)
	if s == "" || len(s) > 1 && s[0] == '0' || len(s) > 9 {
		return 0, bad, ErrSyntax
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return 0, bad, ErrSyntax
		}
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		return 0, bad, ErrSyntax
	case n > MaxHeap:
		return 0, fmt.Sprintf("a heap of %d tokens is over the limit of %d", n, MaxHeap), ErrTooLarge
	}
	return n, "", nil
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

// FromKey reads what Key wrote: a text Parse reads that is already
// canonical. A database of keys holds nothing else, so any other text
// says the database is not what it claims.
func FromKey(k string) (Position, error) {
	p, err := Parse(k)
	if err != nil {
		return Empty, err
	}
	if p.Key() != k {
		return Empty, fmt.Errorf("octal: %q is not a key (the position's key is %q): write it canonically", cut(k), cut(p.Key()))
	}
	return p, nil
}
