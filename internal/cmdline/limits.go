package cmdline

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/verify"
)

// LimitFlags binds the flags of verify.Limits that bound a position
// (--max-lives, --max-boundaries, --max-letters, --max-cells, --max-moves,
// --max-work) to l: every command that generates the children of a
// position it was given takes them, and refuses at once a position over
// one (see LimitMessage) instead of running out of memory.
func LimitFlags(flags *pflag.FlagSet, l *verify.Limits) {
	d := verify.DefaultLimits
	flags.IntVar(&l.Lives, "max-lives", 0, fmt.Sprintf("refuse positions with more lives than `N` (0: default %d, -1: no limit)", d.Lives))
	flags.IntVar(&l.Boundaries, "max-boundaries", 0, fmt.Sprintf("refuse positions with more boundaries than `N` (0: default %d, -1: no limit)", d.Boundaries))
	flags.IntVar(&l.Letters, "max-letters", 0, fmt.Sprintf("refuse positions with more letters than `N` (0: default %d, -1: no limit)", d.Letters))
	flags.IntVar(&l.Cells, "max-cells", 0, fmt.Sprintf("refuse board positions with more empty cells than `N` (0: default %d, -1: no limit)", d.Cells))
	flags.Int64Var(&l.Moves, "max-moves", 0, fmt.Sprintf("refuse positions with more estimated moves to generate than `N` (0: default %d, -1: no limit)", d.Moves))
	flags.Int64Var(&l.Work, "max-work", 0, fmt.Sprintf("refuse a position, or an entry, needing more estimated work (moves × bytes) than `N` (0: default %d, -1: no limit)", d.Work))
}

// CheckLimitFlags refuses a value of LimitFlags' flags under -1.
func CheckLimitFlags(l verify.Limits) error {
	for _, f := range []struct {
		name string
		v    int64
	}{{"max-lives", int64(l.Lives)}, {"max-boundaries", int64(l.Boundaries)}, {"max-letters", int64(l.Letters)}, {"max-cells", int64(l.Cells)}, {"max-moves", l.Moves}, {"max-work", l.Work}} {
		if f.v < -1 {
			return fmt.Errorf("--%s %d: want a positive number, 0 for the default or -1 for no limit", f.name, f.v)
		}
	}
	return nil
}

// LimitMessage is the text of err, and for a *verify.LimitError the flag
// that raises the limit it names. The error of Limits.Check, which names
// the position as a certificate's claim, is said of the position given,
// which the caller names.
func LimitMessage(err error) string {
	var le *verify.LimitError
	if !errors.As(err, &le) {
		return err.Error()
	}
	msg := err.Error()
	if le.Row == 0 && le.Entry == "" {
		msg = "refused: " + strings.TrimPrefix(msg, "refused: claim ("+le.Position+"): ")
	}
	return fmt.Sprintf("%s (raise it with --max-%s)", msg, le.Limit)
}
