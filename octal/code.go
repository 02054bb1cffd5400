package octal

import (
	"fmt"
	"strings"
)

// Code is an octal game: what a move taking k tokens from a heap may leave
// behind, for every k. The zero value has no moves; make one with
// ParseCode. Codes are immutable and may be shared between goroutines.
type Code struct {
	text   string  // canonical: "0." and the digits, trailing zeros dropped
	digits []uint8 // digits[k-1] for moves taking k tokens; never modified
}

// What a digit's bits allow a move that takes k tokens to leave behind.
const (
	leaveNothing = 1 // the heap had exactly k tokens
	leaveOne     = 2 // one heap of at least one token
	leaveTwo     = 4 // two heaps of at least one token each
)

// ParseCode reads an octal code, "0." followed by 1 to MaxDigits octal
// digits (Kayles is "0.77"), and returns it with its trailing zeros
// dropped ("0.070" is "0.07"; a code of zeros only is "0.0", the game
// without moves).
func ParseCode(s string) (Code, error) {
	c, off, reason, kind := readCode(s)
	if reason != "" {
		return Code{}, &ParseError{Input: cut(s), Offset: off, Reason: reason, kind: kind}
	}
	return c, nil
}

// MustParseCode is ParseCode for codes known to be valid, such as
// constants in programs and tests. It panics on error.
func MustParseCode(s string) Code {
	c, err := ParseCode(s)
	if err != nil {
		panic(err)
	}
	return c
}

// readCode reads a code; on failure it returns the byte offset, the
// reason, and ErrSyntax or ErrTooLarge.
func readCode(s string) (c Code, off int, reason string, kind error) {
	rest, ok := strings.CutPrefix(s, "0.")
	switch {
	case !ok && strings.HasPrefix(s, "."):
		return c, 0, fmt.Sprintf("%s is not an octal code: write it with its leading zero, %s", quote(s), quote("0"+s)), ErrSyntax
	case !ok:
		return c, 0, fmt.Sprintf("%s is not an octal code: want \"0.\" and octal digits, such as 0.77 (Kayles)", quote(s)), ErrSyntax
	case rest == "":
		return c, 2, fmt.Sprintf("octal code %s has no digits after the point", quote(s)), ErrSyntax
	case len(rest) > MaxDigits:
		return c, 2 + MaxDigits, fmt.Sprintf("octal code %s has more than %d digits", quote(s), MaxDigits), ErrTooLarge
	}
	digits := make([]uint8, 0, len(rest))
	for i := range len(rest) {
		d := rest[i]
		if d < '0' || d > '7' {
			return Code{}, 2 + i, fmt.Sprintf("%q in octal code %s is not an octal digit (0 to 7)", d, quote(s)), ErrSyntax
		}
		digits = append(digits, d-'0')
	}
	last := len(digits)
	for last > 1 && digits[last-1] == 0 {
		last--
	}
	digits = digits[:last:last]
	return Code{text: "0." + rest[:last], digits: digits}, 0, "", nil
}

// String returns the code as ParseCode reads it, without trailing zeros.
func (c Code) String() string {
	if c.text == "" {
		return "0.0"
	}
	return c.text
}

// Heaps returns the position made of heaps of the given sizes in this
// game, in canonical form: heaps without a move are dropped, so a heap of
// size 0 is no heap. A size out of 0…MaxHeap, or more than MaxTokens
// tokens together, is an error.
func (c Code) Heaps(sizes ...int) (Position, error) {
	hs := make([]heap, 0, len(sizes))
	total := 0
	for _, n := range sizes {
		if n < 0 || n > MaxHeap {
			return Empty, fmt.Errorf("octal: %s: heap of %d tokens: want 0 to %d", c, n, MaxHeap)
		}
		if total += n; total > MaxTokens {
			return Empty, fmt.Errorf("octal: %s: heaps %v: more than %d tokens together", c, sizes, MaxTokens)
		}
		if c.alive(n) {
			hs = append(hs, heap{code: c, n: n})
		}
	}
	return fromHeaps(hs), nil
}

// alive reports whether a heap of n tokens has a move.
func (c Code) alive(n int) bool {
	for k := 1; k <= len(c.digits) && k <= n; k++ {
		d := c.digits[k-1]
		if d&leaveNothing != 0 && n == k || d&leaveOne != 0 && n > k || d&leaveTwo != 0 && n-k >= 2 {
			return true
		}
	}
	return false
}

// moves returns the number of moves from a heap of n tokens: at most the
// number of its children, which are fewer when moves meet.
func (c Code) moves(n int) int {
	m := 0
	for k := 1; k <= len(c.digits) && k <= n; k++ {
		d, left := c.digits[k-1], n-k
		if d&leaveNothing != 0 && left == 0 {
			m++
		}
		if d&leaveOne != 0 && left > 0 {
			m++
		}
		if d&leaveTwo != 0 {
			m += left / 2 // heaps a and left−a, 1 ≤ a ≤ left−a
		}
	}
	return m
}
