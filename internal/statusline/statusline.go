// Package statusline shows the progress of long commands on standard error:
// one refreshing line on a terminal, a plain line every 10 s otherwise (a
// log file or CI keeps every line, and not too many). It knows nothing of
// what is shown (package searchstatus describes a search), so the checker
// can use it without linking the solver.
package statusline

import (
	"fmt"
	"io"
	"os"
	"time"
)

// Line is a status line. A nil *Line shows nothing, so callers can pass
// nil for --progress none.
type Line struct {
	w        io.Writer
	terminal bool
	json     bool // JSON mode (Mode.New)
	shown    bool // a refreshing line is on the screen
	start    time.Time
	last     time.Time
}

// New returns a status line writing to w, refreshing in place when w is a
// terminal.
func New(w io.Writer) *Line {
	now := time.Now()
	l := &Line{w: w, start: now, last: now}
	// An *os.File, or a writer passing its writes to one (cmdline.JSONErrors).
	if f, ok := w.(interface{ Stat() (os.FileInfo, error) }); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			l.terminal = true
		}
	}
	return l
}

// Every is how often a caller should offer a new line: every second on a
// terminal and in JSON mode, every 10 s otherwise.
func (l *Line) Every() time.Duration {
	if l != nil && (l.terminal || l.json) {
		return time.Second
	}
	return 10 * time.Second
}

// Show writes the line (prefixed with the elapsed time) unless one was
// written less than Every ago (a fifth of a second on a terminal), or
// force is set. In JSON mode the line is a JSON object holding the text
// as its "message" (see Report).
func (l *Line) Show(force bool, format string, a ...any) {
	if l == nil {
		return
	}
	if l.json {
		l.Report(force, "", nil, fmt.Sprintf(format, a...))
		return
	}
	if l.due(force) {
		l.write(fmt.Sprintf(format, a...))
	}
}

// due reports whether a line may be shown now (see Show), and if so
// records that one is.
func (l *Line) due(force bool) bool {
	gap := l.Every()
	if l.terminal {
		gap = 200 * time.Millisecond
	}
	if !force && time.Since(l.last) < gap {
		return false
	}
	l.last = time.Now()
	return true
}

// write writes a text line: the elapsed time and text.
func (l *Line) write(text string) {
	text = fmt.Sprintf("%6.1fs  ", time.Since(l.start).Seconds()) + text
	if l.terminal {
		fmt.Fprintf(l.w, "\r%s\x1b[K", text)
		l.shown = true
		return
	}
	fmt.Fprintln(l.w, text)
}

// Clear removes a refreshing line before results are printed.
func (l *Line) Clear() {
	if l != nil && l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// Entries returns a progress function for a check of entries (the shape
// of verify.Options.Progress) that shows "what: done of total entries
// checked" (without "of total" when total is 0), or nil for a nil line.
func (l *Line) Entries(what string) func(done, total int) {
	if l == nil {
		return nil
	}
	return func(done, total int) {
		of := ""
		if total > 0 {
			of = fmt.Sprintf(" of %d", total)
		}
		l.Show(false, "%s: %d%s entries checked", what, done, of)
	}
}
