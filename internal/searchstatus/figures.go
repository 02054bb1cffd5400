// Package searchstatus describes a running search (package solve) for a
// status line.
package searchstatus

import (
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
)

// Figures are the figures of a running search in a JSON progress line
// (--progress json).
type Figures struct {
	Iterations          uint64  `json:"iterations"`
	IterationsPerSecond float64 `json:"iterations_per_second"`
	// RootPN and RootDN are the root's proof and disproof numbers; null
	// when infinite (the root is disproved, or proved).
	RootPN        *uint64 `json:"root_pn"`
	RootDN        *uint64 `json:"root_dn"`
	GrundyNumbers int     `json:"grundy_numbers"`           // entries in the nimber database
	TTEntries     int64   `json:"tt_entries,omitempty"`     // dfpn, pdfpn: entries of the table in use
	TTCapacity    int     `json:"tt_capacity,omitempty"`    // dfpn, pdfpn: the table's capacity
	TTFill        float64 `json:"tt_fill,omitempty"`        // TTEntries / TTCapacity, from 0 to 1
	Seconds       float64 `json:"search_seconds,omitempty"` // the search's own time (of this position)
}

// FiguresOf returns the figures of p.
func FiguresOf(p solve.Progress) Figures {
	f := Figures{Iterations: p.Iterations, IterationsPerSecond: statusline.Rate(p.Iterations, p.Elapsed),
		RootPN: Finite(p.RootPN), RootDN: Finite(p.RootDN), GrundyNumbers: p.Nimbers,
		TTEntries: p.TTEntries, TTCapacity: p.TTCapacity, Seconds: float64(p.Elapsed.Milliseconds()) / 1000}
	if p.TTCapacity > 0 {
		f.TTFill = float64(p.TTEntries) / float64(p.TTCapacity)
	}
	return f
}

// Finite returns &x, or nil for solve.Inf: a proof number as a JSON
// progress line gives it (null for infinite).
func Finite(x uint64) *uint64 {
	if x == solve.Inf {
		return nil
	}
	return &x
}
