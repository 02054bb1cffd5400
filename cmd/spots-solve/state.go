package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/sprouts"
)

// newStateSaver returns the saver of the one search of the command line
// into --state (or, without it, back into --resume), or nil without
// either. Its Search is set when the search is made.
func newStateSaver(cfg config, root sprouts.Position, heap uint32, stderr io.Writer, prog *statusline.Line) *checkpoint.Saver {
	dir := cfg.swarm.stateDir
	if dir == "" {
		dir = cfg.swarm.resumeDir // go on saving where the search came from
	}
	if dir == "" {
		return nil
	}
	base := checkpoint.Manifest{Position: root.String(), Heap: heap, Nimber: cfg.nimber,
		Algorithm: cfg.algorithm, Capacity: cfg.plan.Capacity, Version: buildinfo.Version()}
	return checkpoint.NewSaver(dir, base, nil, func(line string) {
		prog.Clear()
		fmt.Fprintf(stderr, "spots-solve: %s\n", line)
	})
}

// errStateUse is returned for --state or --resume where they cannot apply.
var errStateUse = errors.New("--state and --resume save and continue one dfpn or pdfpn search (or a swarm's): give one position and --algorithm dfpn, pdfpn or swarm")
