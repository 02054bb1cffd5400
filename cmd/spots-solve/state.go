package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// stateSaver saves a DFPN or PDFPN search into --state and restores one
// from --resume (package checkpoint).
type stateSaver struct {
	dir     string
	base    checkpoint.Manifest // the question, and the runs before this one
	s       *solve.DFPN[sprouts.Position]
	started time.Time
	stderr  io.Writer
	prog    *statusline.Line
}

// newStateSaver returns the saver of the one search of the command line,
// or nil without --state and --resume.
func newStateSaver(cfg config, root sprouts.Position, heap uint32, stderr io.Writer, prog *statusline.Line) *stateSaver {
	dir := cfg.swarm.stateDir
	if dir == "" {
		dir = cfg.swarm.resumeDir // go on saving where the search came from
	}
	if dir == "" {
		return nil
	}
	return &stateSaver{dir: dir, stderr: stderr, prog: prog, started: time.Now(),
		base: checkpoint.Manifest{Position: root.String(), Heap: heap, Nimber: cfg.nimber,
			Algorithm: cfg.algorithm, Capacity: cfg.plan.Capacity, Version: buildinfo.Version()}}
}

// resume loads the checkpoint of --resume into the search. A checkpoint of
// another question is refused.
func (c *stateSaver) resume(dir string) error {
	m, err := checkpoint.Load(dir)
	if err != nil {
		return err
	}
	if !m.Same(c.base) {
		return fmt.Errorf("it holds a search of %s (heap %d, nimber %v), not of %s (heap %d, nimber %v)",
			m.Position, m.Heap, m.Nimber, c.base.Position, c.base.Heap, c.base.Nimber)
	}
	if err := checkpoint.Restore(dir, m, c.s); err != nil {
		return err
	}
	c.base.Iterations, c.base.Seconds, c.base.Runs = m.Iterations, m.Seconds, m.Runs
	fmt.Fprintf(c.stderr, "spots-solve: resumed %s from %s: %s\n", m.Position, dir, m.Describe())
	return nil
}

// save writes the search's state; p is a snapshot of the search (its
// iterations in this run so far).
func (c *stateSaver) save(p solve.Progress) {
	m := c.base
	m.Iterations += p.Iterations
	m.Seconds += time.Since(c.started).Seconds()
	m.Runs++
	start := time.Now()
	m, err := checkpoint.Save(c.dir, m, c.s)
	c.prog.Clear()
	if err != nil {
		fmt.Fprintf(c.stderr, "spots-solve: warning: --state %s: %v (the search goes on)\n", c.dir, err)
		return
	}
	fmt.Fprintf(c.stderr, "spots-solve: saved the search to %s in %.1f s: %s\n", c.dir, time.Since(start).Seconds(), m.Describe())
}

// errStateUse is returned for --state or --resume where they cannot apply.
var errStateUse = errors.New("--state and --resume save and continue one dfpn or pdfpn search (or a swarm's): give one position and --algorithm dfpn, pdfpn or swarm")
