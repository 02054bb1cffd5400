package verify

import (
	"errors"
	"fmt"
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/sprouts/sproutsgame"
	"math"
	"strconv"

	"github.com/spots-dev/spots/sprouts"
)

// ErrLimit marks input that the checker refused to check because checking
// it would cost more than its Limits allow: a position too large, or an
// entry or claim whose children would take too much work or memory to
// generate. It says nothing about whether the proof is true: a refused
// file is neither valid nor invalid (spots-verify exits 2, not 1). Test
// for it with errors.Is; errors.As with a *LimitError gives the details.
var ErrLimit = errors.New("over a checking limit")

// LimitError names the limit that a position broke, the offending value
// and the limit's value. It wraps ErrLimit, never ErrInvalidCertificate.
type LimitError struct {
	Row      int    // 1-based row of the certificate or line of the database; 0 for the claim
	Entry    string // the entry of that row, when the refused position is a land of one of its children
	Position string // the position whose cost was refused, as written (cut short if long)
	Limit    string // "lives", "boundaries", "letters", "cells", "moves", "work", "entries" or "cites": the field of Limits, in lowercase
	Value    int64  // the position's value of that measure (math.MaxInt64 when it overflows)
	Max      int64  // the limit in force
}

func (e *LimitError) Error() string {
	if e.Limit == "cites" {
		return fmt.Sprintf("refused: citations: the certificate relies on %d or more certificates, cited directly or through others, over the limit of %d on cites", e.Value, e.Max)
	}
	where := "claim"
	if e.Row > 0 {
		where = fmt.Sprintf("row %d", e.Row)
	}
	switch {
	case e.Entry != "":
		where += fmt.Sprintf(" (%s): the land %s of a child", e.Entry, e.Position)
	case e.Position != "":
		where += " (" + e.Position + ")"
	}
	value := strconv.FormatInt(e.Value, 10)
	if e.Value == math.MaxInt64 {
		value = "more than 2^63"
	}
	what := map[string]string{
		"lives":      "lives",
		"boundaries": "boundaries",
		"letters":    "letters",
		"cells":      "empty cells",
		"moves":      "moves to generate (estimated)",
		"work":       "units of work to check (estimated moves × bytes)",
		"entries":    "entries read",
	}[e.Limit]
	return fmt.Sprintf("refused: %s: %s %s, over the limit of %d on %s", where, value, what, e.Max, e.Limit)
}

// Unwrap makes errors.Is(e, ErrLimit) true.
func (e *LimitError) Unwrap() error { return ErrLimit }

// IsLimit reports whether err says the input was refused by a limit.
func IsLimit(err error) bool { return errors.Is(err, ErrLimit) }

// Limits bounds the work and memory that untrusted input may cost the
// checker. Every position whose children the checker generates (an entry,
// the claim's root, a land of a child named by a winning reply) is measured
// by its game's Measure first, and refused with a *LimitError
// if any measure is over its limit; in hinted checking (File, Stream,
// Certificate) the work of all the generations one entry needs is also
// added up and held to Work. A zero field means its default
// (DefaultLimits); a negative one means no limit. Lives, Boundaries and
// Letters measure Sprouts positions, Cells board positions; Moves and
// Work every game.
type Limits struct {
	Lives      int   // lives of the position
	Boundaries int   // boundaries of the position, all regions and lands together
	Letters    int   // letters written in the position (corners of spots with one life)
	Cells      int   // empty cells of a board position
	Moves      int64 // estimated moves the generator tries (Cost.Moves)
	Work       int64 // estimated work: moves × bytes of the position's key, for one generation and, in hinted checking, for one entry
	Entries    int   // entries of a text database (ReadDatabase), counted as read, repeats included: they bound its memory
	// Cites bounds the certificates that one certificate relies on,
	// cited directly or through others: each is a file found, read and
	// checked, its rows held in memory for the run. A certificate that
	// relies on more is refused as soon as the certificates met are more
	// (in a chain, before any is checked).
	Cites int
}

// DefaultLimits are the limits used for zero fields of Limits. Entries
// holds a text database to some 1 GB (RELIABILITY.md gives the cost of an
// entry); the largest certificate of the corpus has 156,198. Every
// certificate of the corpus (roots up to 0*23) is far inside them: its
// positions and the lands of their children have at most 69 lives, 24
// boundaries, 28 letters, 661 estimated moves and 34,372 units of work.
// A position at the work limit is expanded in about half a second and a
// few hundred megabytes of allocation (0*3000, 18 million units: 0.3 s,
// 96 MB on the reference machine).
//
// A certificate of the corpus relies on some 60 others at most; Cites allows
// chains and trees of citations some 65 times as large.
//
// A board has at most some 16,000 cells (the largest the board games
// parse), so Cells only matters when lowered; at the work limit a region
// of a board has some 4,000 cells.
var DefaultLimits = Limits{
	Lives:      1000,
	Boundaries: 1000,
	Letters:    1000,
	Cells:      1 << 14,
	Moves:      1 << 18,
	Work:       1 << 25,
	Entries:    1 << 19,
	Cites:      1 << 12,
}

// resolved returns l with zero fields set to their defaults and negative
// ones to no limit.
func (l Limits) resolved() Limits {
	pick := func(v, d int64) int64 {
		switch {
		case v == 0:
			return d
		case v < 0:
			return math.MaxInt64
		}
		return v
	}
	return Limits{
		Lives:      int(pick(int64(l.Lives), int64(DefaultLimits.Lives))),
		Boundaries: int(pick(int64(l.Boundaries), int64(DefaultLimits.Boundaries))),
		Letters:    int(pick(int64(l.Letters), int64(DefaultLimits.Letters))),
		Cells:      int(pick(int64(l.Cells), int64(DefaultLimits.Cells))),
		Moves:      pick(l.Moves, DefaultLimits.Moves),
		Work:       pick(l.Work, DefaultLimits.Work),
		Entries:    int(min(pick(int64(l.Entries), int64(DefaultLimits.Entries)), math.MaxInt)),
		Cites:      int(min(pick(int64(l.Cites), int64(DefaultLimits.Cites)), math.MaxInt)),
	}
}

// CheckEntries returns a *LimitError naming row if a database of n entries
// (the row-th line its last) is over the limit on entries, nil otherwise.
// ReadDatabase calls it for every entry; a caller that reads a database
// its own way does the same.
func (l Limits) CheckEntries(row, n int) error {
	if max := l.resolved().Entries; n > max {
		return &LimitError{Row: row, Limit: "entries", Value: int64(n), Max: int64(max)}
	}
	return nil
}

// Cost measures a position before its children are generated: the
// measures of package game (game.Cost), which each game's Measure fills
// in. Lives, Boundaries and Letters measure Sprouts positions (Measure),
// Cells board positions; Moves bounds the moves the generator tries,
// Bytes what each child costs to build and keep, and Work is Moves ×
// Bytes, saturating.
type Cost = game.Cost

// Measure returns the cost of generating the children of p. It reads p's
// text once and allocates in proportion to it.
func Measure(p sprouts.Position) Cost { return sproutsgame.Measure(p) }

// saturate converts x to an int64, math.MaxInt64 when it is larger or NaN.
func saturate(x float64) int64 {
	if x >= math.MaxInt64 || math.IsNaN(x) {
		return math.MaxInt64
	}
	return int64(x)
}

// check returns a *LimitError (with no row or position) if c is over one
// of the limits in l, which must be resolved.
func (l Limits) check(c Cost) *LimitError {
	switch {
	case c.Lives > l.Lives:
		return &LimitError{Limit: "lives", Value: int64(c.Lives), Max: int64(l.Lives)}
	case c.Boundaries > l.Boundaries:
		return &LimitError{Limit: "boundaries", Value: int64(c.Boundaries), Max: int64(l.Boundaries)}
	case c.Letters > l.Letters:
		return &LimitError{Limit: "letters", Value: int64(c.Letters), Max: int64(l.Letters)}
	case c.Cells > l.Cells:
		return &LimitError{Limit: "cells", Value: int64(c.Cells), Max: int64(l.Cells)}
	case c.Moves > l.Moves:
		return &LimitError{Limit: "moves", Value: c.Moves, Max: l.Moves}
	case c.Work > l.Work:
		return &LimitError{Limit: "work", Value: c.Work, Max: l.Work}
	}
	return nil
}

// Check returns a *LimitError if generating the children of p would break
// one of the limits (zero fields: DefaultLimits), nil otherwise. It never
// generates them.
func (l Limits) Check(p sprouts.Position) error {
	if e := l.resolved().check(Measure(p)); e != nil {
		e.Position = cutText(p.String())
		return e
	}
	return nil
}

// CheckPosition is Check for a position of any registered game, measured
// by the game's Measure.
func (l Limits) CheckPosition(g game.Game, p game.Position) error {
	if e := l.resolved().check(g.Measure(p)); e != nil {
		e.Position = cutText(p.String())
		return e
	}
	return nil
}

// cutText shortens a long position for a message.
func cutText(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
