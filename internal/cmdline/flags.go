// Package cmdline answers the mistakes people make on the commands' command
// lines: an unknown flag names the nearest known one, an option of SPOTS
// (the reference solver) that spots does not take says what to use
// instead, a position that is probably not what was meant says so, and
// under --json a usage error is a JSON object on standard output as well
// as a line on standard error.
package cmdline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// UnknownFlagError is an unknown flag on the command line, with the known
// flag nearest to it when one is near enough.
type UnknownFlagError struct {
	Err        error  // pflag's error
	Suggestion string // "--nimber", or "" when no flag is near
}

func (e *UnknownFlagError) Error() string {
	if e.Suggestion == "" {
		return e.Err.Error()
	}
	return fmt.Sprintf("%v (did you mean %s?)", e.Err, e.Suggestion)
}

func (e *UnknownFlagError) Unwrap() error { return e.Err }

// Parse parses args with flags, as flags.Parse does. An unknown flag gives
// an *UnknownFlagError naming the nearest flag of the set (hidden ones
// included): --nimbr suggests --nimber, --db_in --db-in, and -json (one
// dash) --json.
func Parse(flags *pflag.FlagSet, args []string) error {
	err := flags.Parse(args)
	var ne *pflag.NotExistError
	if err == nil || !errors.As(err, &ne) {
		return err
	}
	var names []string
	flags.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	given := ne.GetSpecifiedName()
	if short := ne.GetSpecifiedShortnames(); short != "" {
		given = short // -json: the letters after the one dash
	}
	s := Nearest(given, names)
	if s != "" {
		s = "--" + s
	}
	return &UnknownFlagError{Err: err, Suggestion: s}
}

// Nearest returns the candidate nearest to word: one that word begins
// (at least 3 letters of it), or one within a few edits (an edit is a
// letter added, removed, changed, or two neighbours swapped; '_' and '-'
// are one letter). It returns "" when none is near enough: at most 1 edit
// for words of up to 4 letters, 2 up to 8, 3 beyond.
func Nearest(word string, candidates []string) string {
	w := strings.ToLower(strings.ReplaceAll(word, "_", "-"))
	best, bestD := "", -1
	limit := 3
	switch {
	case len(w) <= 4:
		limit = 1
	case len(w) <= 8:
		limit = 2
	}
	for _, c := range candidates {
		d := distance(w, strings.ToLower(c))
		if len(w) >= 3 && strings.HasPrefix(c, w) {
			d = min(d, 1) // a prefix is as good as one edit
		}
		if d <= limit && (bestD < 0 || d < bestD || d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the optimal-string-alignment distance of a and b: the
// Levenshtein distance with the swap of two neighbours as one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] is the distance of ra[:i] and rb[:j]; three rows suffice.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// DidYouMean returns " (did you mean X?)" for the candidate X nearest to
// word (see Nearest), or "" when none is near: the end of a message about
// an unknown command or value.
func DidYouMean(word string, candidates ...string) string {
	if s := Nearest(word, candidates); s != "" {
		return " (did you mean " + s + "?)"
	}
	return ""
}
