package statusline

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"
)

// Mode is how a Line shows progress: the value of a command's --progress
// flag (it implements pflag.Value). The zero Mode is Text.
type Mode int

// The modes.
const (
	// Text is a line for people: refreshing in place on a terminal, a
	// plain line every 10 s otherwise.
	Text Mode = iota
	// JSON is one JSON object a line, at most one a second, each with
	// "elapsed_seconds", "phase" (what is in progress), "message" (the
	// text line's words) and the figures of the phase: for programs that
	// follow a long run.
	JSON
	// Off shows nothing.
	Off
)

// FlagUsage is the help of a --progress flag.
const FlagUsage = "how to show progress on standard error: text (a status line), json (a JSON object a line, every second, for programs) or none"

// String returns "text", "json" or "none".
func (m Mode) String() string {
	switch m {
	case JSON:
		return "json"
	case Off:
		return "none"
	}
	return "text"
}

// Set reads "text", "json" or "none" (for --progress).
func (m *Mode) Set(s string) error {
	switch s {
	case "text":
		*m = Text
	case "json":
		*m = JSON
	case "none":
		*m = Off
	default:
		return fmt.Errorf("want text, json or none, not %q", s)
	}
	return nil
}

// Type names the flag's value in --help.
func (m *Mode) Type() string { return "text|json|none" }

// New returns a Line of mode m writing to w, or nil (which shows nothing)
// for Off.
func (m Mode) New(w io.Writer) *Line {
	switch m {
	case Off:
		return nil
	case JSON:
		l := New(w)
		l.json, l.terminal, l.last = true, false, time.Time{} // the first report at once
		return l
	}
	return New(w)
}

// Report shows a report of progress: in text mode the line text (as
// Show(force, "%s", text)); in JSON mode one line holding
// elapsed_seconds, phase (what is in progress, e.g. "solving"), the
// fields of fields (a struct or map that marshals to a JSON object; nil
// for none) and message (text). It is limited as Show is.
func (l *Line) Report(force bool, phase string, fields any, text string) {
	if l == nil || !l.due(force) {
		return
	}
	if !l.json {
		l.write(text)
		return
	}
	b := fmt.Appendf(nil, `{"elapsed_seconds":%.1f`, time.Since(l.start).Seconds())
	if phase != "" {
		p, _ := json.Marshal(phase)
		b = append(append(b, `,"phase":`...), p...)
	}
	if fields != nil {
		if f, err := json.Marshal(fields); err == nil && len(f) > 2 && f[0] == '{' {
			b = append(append(b, ','), f[1:len(f)-1]...)
		}
	}
	m, _ := json.Marshal(text)
	b = append(append(append(b, `,"message":`...), m...), "}\n"...)
	l.w.Write(b)
}

// Rate returns n per second over d, 0 for no time: a figure for a report.
func Rate(n uint64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return math.Round(float64(n)/d.Seconds()*10) / 10
}
