// Package searchstatus describes a running search (package solve) in the
// words of a status line. It is apart from package statusline so that a
// command that shows progress without searching (spots-verify) does not
// link the solver.
package searchstatus

import (
	"fmt"
	"strconv"

	"github.com/spots-dev/spots/solve"
)

// Search describes a snapshot of a running search: iterations, their rate,
// the root's numbers, the nimbers known and how full the table is.
func Search(s solve.Progress) string {
	rate := float64(s.Iterations) / max(s.Elapsed.Seconds(), 1e-9)
	fill := ""
	if s.TTCapacity > 0 {
		fill = fmt.Sprintf("  TT %d%%", 100*s.TTEntries/int64(s.TTCapacity))
	}
	return fmt.Sprintf("%d it  %.0f it/s  root pn/dn %s/%s  nimbers %d%s",
		s.Iterations, rate, Num(s.RootPN), Num(s.RootDN), s.Nimbers, fill)
}

// Num writes a proof or disproof number, ∞ for solve.Inf.
func Num(x uint64) string {
	if x == solve.Inf {
		return "∞"
	}
	return strconv.FormatUint(x, 10)
}
