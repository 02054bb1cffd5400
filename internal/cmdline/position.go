package cmdline

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games a position may be of
	"github.com/spots-dev/spots/sprouts"
)

// PositionNote returns a note on text, a position of game that parsed,
// when it is probably not what was meant, or "". A bare number is one:
// in the notation each digit is a spot (0, 1 or 2 lines drawn at it), so
// 12 is two spots, and twelve spots are 0*12.
func PositionNote(game, text string) string {
	n := bareNumber(text)
	if game != sprouts.Game || n == 0 {
		return ""
	}
	spots := "a spot"
	if len(text) > 1 {
		spots = strconv.Itoa(len(text)) + " spots"
	}
	return fmt.Sprintf("%s is read as %s: each digit is a spot, written by the lines drawn at it; %d spots with no line drawn are 0*%d", text, spots, n, n)
}

// PositionError returns err, the error of parsing text as a position of
// game, with a hint when text looks like something else: a bare number
// meant as a number of spots (0*N), GLOP's notation, or a position of
// another registered game (then --game names it, or is left out for the
// default game, Sprouts).
func PositionError(name, text string, err error) error {
	if err == nil {
		return nil
	}
	hint := ""
	if name == sprouts.Game {
		if n := bareNumber(text); n > 0 {
			hint = fmt.Sprintf("%d spots with no line drawn are written 0*%d", n, n)
		} else if strings.HasSuffix(text, "!") && strings.ContainsAny(text, "}]") {
			hint = "this is GLOP's notation (a position ending with !): spots-solve reads it; spots-position and spots-verify read the notation of SPOTS (GLOP's 2AB.}AB.}]! is 2AB|AB)"
		}
	}
	if g, ok := game.Lookup(name); ok && hint == "" {
		hint = otherGame(g.Info(), text)
	}
	if hint == "" {
		return err
	}
	return &hinted{err: err, hint: hint}
}

// otherGame returns a hint when text, which is no position of the game
// of info, is one of another registered game, or "".
func otherGame(info game.Info, text string) string {
	for i, h := range game.List() {
		other := h.Info()
		if other.Name == info.Name {
			continue
		}
		if _, err := h.Parse(text); err != nil {
			continue
		}
		if i == 0 { // the default game
			return fmt.Sprintf("%s is a %s %s, not a %s %s: leave out --game %s", text, other.Title, other.Noun, info.Title, info.Noun, info.Name)
		}
		return fmt.Sprintf("%s is a %s %s, not a %s %s: spots-solve, spots-position and spots-play read %s with --game %s", text, other.Title, other.Noun, info.Title, info.Noun, other.Title, other.Name)
	}
	return ""
}

// hinted is an error with a hint on what was probably meant.
type hinted struct {
	err  error
	hint string
}

func (h *hinted) Error() string { return h.err.Error() + " (" + h.hint + ")" }
func (h *hinted) Unwrap() error { return h.err }

// maxBareSpots bounds the number a bare-number note names: beyond it the
// text is no number of spots anyone meant.
const maxBareSpots = 1 << 20

// bareNumber returns N when text is a bare number N from 1 to
// maxBareSpots, else 0 ("0" is one spot, and so is meant).
func bareNumber(text string) int {
	if text == "" || strings.Trim(text, "0123456789") != "" {
		return 0
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > maxBareSpots {
		return 0
	}
	return n
}

// GameExamples returns usage with its "{{games}}" replaced by a line for
// each registered game but the default (the first), which line writes
// from the game's Info: a command's help shows every game it can play
// with an example of its own.
func GameExamples(usage string, line func(game.Info) string) string {
	var b strings.Builder
	for _, g := range game.List()[1:] {
		b.WriteString(line(g.Info()))
	}
	return strings.Replace(usage, "{{games}}", b.String(), 1)
}
