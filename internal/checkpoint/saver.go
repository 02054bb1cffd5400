package checkpoint

import (
	"context"
	"fmt"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
)

// Saver saves one search into a checkpoint directory as it runs, and
// restores it from one: what spots-solve --state/--resume and spots-corpus
// add do with a DFPN. Base says what the search is about (Position, Heap,
// Nimber, Algorithm, Capacity, Version); Resume fills in how far earlier
// runs came.
type Saver struct {
	Dir    string
	Base   Manifest
	Search Search
	// Log, if set, is given one line after each save, a failed save, and a
	// resume (a failed save does not stop the search).
	Log func(line string)

	started time.Time
}

// NewSaver returns a saver of s into dir; base describes the search. The
// temporary files a save killed in an earlier run left in dir are removed
// now (format.RemoveStaleTemps).
func NewSaver(dir string, base Manifest, s Search, log func(string)) *Saver {
	format.RemoveStaleTemps(dir)
	return &Saver{Dir: dir, Base: base, Search: s, Log: log, started: time.Now()}
}

// Resume restores the checkpoint of dir into the search (before it
// starts), refusing a checkpoint of another question; the end of ctx stops
// it. It returns the checkpoint's manifest.
func (c *Saver) Resume(ctx context.Context, dir string) (Manifest, error) {
	m, err := Load(dir)
	if err != nil {
		return m, err
	}
	if !m.Same(c.Base) {
		return m, fmt.Errorf("it holds a search of %s (heap %d, nimber %v), not of %s (heap %d, nimber %v)",
			m.Position, m.Heap, m.Nimber, c.Base.Position, c.Base.Heap, c.Base.Nimber)
	}
	if err := Restore(ctx, dir, m, c.Search); err != nil {
		return m, err
	}
	c.Base.Iterations, c.Base.Seconds, c.Base.Runs = m.Iterations, m.Seconds, m.Runs
	c.started = time.Now() // restoring is not searching
	c.log("resumed %s from %s: %s", m.Position, dir, m.Describe())
	return m, nil
}

// Forget drops what Resume learnt of earlier runs (their iterations,
// time and number): the search starts again from nothing.
func (c *Saver) Forget() {
	c.Base.Iterations, c.Base.Seconds, c.Base.Runs = 0, 0, 0
	c.started = time.Now()
}

// Totals returns the iterations and seconds of search over all runs, this
// one's counted up to now with iterations (a snapshot of the search).
func (c *Saver) Totals(iterations uint64) (uint64, float64) {
	return c.Base.Iterations + iterations, c.Base.Seconds + time.Since(c.started).Seconds()
}

// Save writes the search's state; p is a snapshot of the search. It fits
// solve.Options.Checkpoint.
func (c *Saver) Save(p solve.Progress) {
	m := c.Base
	m.Iterations, m.Seconds = c.Totals(p.Iterations)
	m.Runs++
	start := time.Now()
	m, err := Save(c.Dir, m, c.Search)
	if err != nil {
		c.log("warning: saving the search to %s: %v (the search goes on)", c.Dir, err)
		return
	}
	c.log("saved the search to %s in %.1f s: %s", c.Dir, time.Since(start).Seconds(), m.Describe())
}

func (c *Saver) log(format string, a ...any) {
	if c.Log != nil {
		c.Log(fmt.Sprintf(format, a...))
	}
}
