package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/verify"
)

// report is what is printed for one input.
type report struct {
	Input     string  `json:"path"` // the file, as given
	Valid     bool    `json:"valid"`
	Claim     string  `json:"claim,omitempty"`
	Address   string  `json:"address,omitempty"`
	Entries   int     `json:"entries,omitempty"`
	Seconds   float64 `json:"seconds"`
	Converted string  `json:"converted,omitempty"`
	Error     string  `json:"error,omitempty"`
	Row       int     `json:"row,omitempty"`
	Position  string  `json:"position,omitempty"`
	Rule      string  `json:"rule,omitempty"`
	Refused   bool    `json:"refused,omitempty"` // a limit refused the input: neither valid nor invalid
	Limit     string  `json:"limit,omitempty"`   // the limit, e.g. "lives"
	// Independent: checked with the second implementation of the rules
	// (--independent); for a database, Entries counts those read and
	// Valid those found valid.
	Independent bool `json:"independent,omitempty"`
	ValidCount  int  `json:"valid_entries,omitempty"`
	// Cites is the number of certificates the certificate cites, Cited
	// the number it relies on, directly or not: all were checked, valid.
	Cites int `json:"cites,omitempty"`
	Cited int `json:"cited,omitempty"`
	// Used is the number of entries of cited certificates the claim
	// relies on, each checked; Unchecked the number it does not use,
	// left unchecked (without --whole).
	Used      int `json:"cited_entries_used,omitempty"`
	Unchecked int `json:"cited_entries_unchecked,omitempty"`
	// Remembered: the verdict is one this build of the checker reached
	// before on this machine (not checked again; --no-cache checks).
	Remembered bool `json:"remembered,omitempty"`
	// Incomplete: cited certificates were not found (Missing, sorted), so
	// the proof was neither found valid nor invalid (exit status 3).
	Incomplete bool     `json:"incomplete,omitempty"`
	Missing    []string `json:"missing,omitempty"`

	unreadable  bool
	unsupported bool // --independent and a game it does not know
}

// printer prints each verdict as soon as it is known (a long run shows
// its results as it goes) and keeps the exit status they make.
type printer struct {
	w      io.Writer
	json   bool
	prog   *statusline.Line
	status int
}

func (p *printer) emit(r report) {
	p.prog.Clear()
	print(p.w, r, p.json)
	p.status = worse(p.status, r.status())
}

// status is the exit status of r alone: 0 valid, 1 invalid, 2 unreadable
// or refused, 3 incomplete.
func (r report) status() int {
	switch {
	case r.Valid:
		return 0
	case r.unreadable && !r.Incomplete:
		return 2
	case r.Incomplete:
		return 3
	}
	return 1
}

// worse is the exit status of a run that had the statuses a and b: bad
// input (2) first, then a proof rejected (1), then one incomplete (3).
func worse(a, b int) int {
	rank := func(s int) int { return [...]int{0, 2, 3, 1}[s] }
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// finish records the verdict: valid, invalid (with the failing row), or an
// input that could not be read.
func finish(r report, err error) report {
	if err == nil {
		r.Valid = true
		return r
	}
	r.Error = err.Error()
	var f *verify.Failure
	if errors.As(err, &f) {
		r.Row, r.Position, r.Rule = f.Row, f.Position, f.Rule
	}
	var l *verify.LimitError
	if errors.As(err, &l) {
		r.Refused, r.Limit, r.Row, r.Position = true, l.Limit, l.Row, l.Position
		r.Error += fmt.Sprintf(" (raise it with --max-%s)", l.Limit)
	}
	if !verify.IsInvalid(err) {
		r.unreadable = true
	}
	r.unsupported = errors.Is(err, verify.ErrUnsupported)
	var ie *verify.IncompleteError
	if errors.As(err, &ie) {
		r.Incomplete, r.Missing = true, ie.Missing
	}
	return r
}

func print(w io.Writer, r report, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(r)
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	switch {
	case r.Valid && r.Independent && r.Address == "":
		fmt.Fprintf(w, "VALID    %s  %d entries (%d valid)  %.2f s  %s  (independent rules)\n", r.Claim, r.Entries, r.ValidCount, r.Seconds, r.Input)
	case r.Valid && r.Independent:
		fmt.Fprintf(w, "VALID    %s  %s  %d entries  %s  %s  (independent rules)%s\n", r.Claim, r.Address, r.Entries, r.took(), r.Input, citesNote(r))
	case r.Valid:
		fmt.Fprintf(w, "VALID    %s  %s  %d entries  %s  %s%s\n", r.Claim, r.Address, r.Entries, r.took(), r.Input, citesNote(r))
		if r.Converted != "" {
			fmt.Fprintf(w, "         written as %s\n", r.Converted)
		}
	case r.Incomplete:
		printIncomplete(w, r)
	case r.unsupported:
		fmt.Fprintf(w, "UNSUPPORTED  %s: %s\n", r.Input, r.Error)
	case r.Refused:
		fmt.Fprintf(w, "REFUSED  %s: %s\n", r.Input, r.Error)
	case r.unreadable:
		// The reader's error may already begin with the path.
		fmt.Fprintf(w, "UNREADABLE  %s: %s\n", r.Input, strings.TrimPrefix(r.Error, r.Input+": "))
	default:
		fmt.Fprintf(w, "INVALID  %s: %s\n", r.Input, r.Error)
	}
}

// printIncomplete prints the verdict of a certificate whose cited
// certificates were not all found: each address still needed, one a
// line, and where to get them.
func printIncomplete(w io.Writer, r report) {
	what := "1 certificate it cites was"
	if len(r.Missing) != 1 {
		what = fmt.Sprintf("%d certificates it relies on were", len(r.Missing))
	}
	fmt.Fprintf(w, "INCOMPLETE  %s: %s not found, so it was not checked:\n", r.Input, what)
	for _, a := range r.Missing {
		fmt.Fprintf(w, "  missing %s.arrow\n", a)
	}
	fmt.Fprintf(w, "  get them and name their directory with --cites DIR (the corpus's are in corpus/certs of\n"+
		"  https://github.com/spots-dev/spots: git clone --depth 1 https://github.com/spots-dev/spots,\n"+
		"  then --cites spots/corpus/certs); whoever has them all writes them with --bundle DIR\n")
}

// took is the time the check took, or "remembered" for a verdict reached
// before.
func (r report) took() string {
	if r.Remembered {
		return "remembered"
	}
	return fmt.Sprintf("%.2f s", r.Seconds)
}
