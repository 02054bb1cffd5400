package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/spots-dev/spots/solve"
)

// progress shows how far a long command is on standard error: one
// refreshing line on a terminal, a line every 10 s otherwise. A nil
// *progress shows nothing.
type progress struct {
	w        io.Writer
	terminal bool
	shown    bool // a refreshing line is on the screen
	every    time.Duration
	start    time.Time
	last     time.Time
}

func newProgress(w io.Writer) *progress {
	now := time.Now()
	p := &progress{w: w, every: 10 * time.Second, start: now, last: now}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal, p.every = true, time.Second
		}
	}
	return p
}

// line shows a status line, at most once a second on a terminal and every
// 10 s otherwise, unless force.
func (p *progress) line(force bool, format string, a ...any) {
	if p == nil {
		return
	}
	interval := p.every
	if p.terminal {
		interval = 200 * time.Millisecond
	}
	if !force && time.Since(p.last) < interval {
		return
	}
	p.last = time.Now()
	text := fmt.Sprintf("%6.1fs  ", time.Since(p.start).Seconds()) + fmt.Sprintf(format, a...)
	if p.terminal {
		fmt.Fprintf(p.w, "\r%s\x1b[K", text)
		p.shown = true
		return
	}
	fmt.Fprintln(p.w, text)
}

// search shows a snapshot of a running search (solve.Options.Progress),
// which the search calls every p.every.
func (p *progress) search(s solve.Progress) {
	rate := float64(s.Iterations) / max(s.Elapsed.Seconds(), 1e-9)
	fill := ""
	if s.TTCapacity > 0 {
		fill = fmt.Sprintf("  TT %d%%", 100*s.TTEntries/int64(s.TTCapacity))
	}
	p.line(true, "solving: %d it  %.0f it/s  root pn/dn %s/%s  nimbers %d%s",
		s.Iterations, rate, num(s.RootPN), num(s.RootDN), s.Nimbers, fill)
}

func num(x uint64) string {
	if x == solve.Inf {
		return "∞"
	}
	return strconv.FormatUint(x, 10)
}

// clear removes the refreshing line before results are printed.
func (p *progress) clear() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
