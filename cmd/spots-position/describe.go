package main

import (
	"fmt"
	"slices"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// describeSprouts is the report on a Sprouts position. Its children are
// generated only within l: a position over a limit would take more memory
// than the machine has (0*100000, or a few boundaries of many corners).
func describeSprouts(cmd, input string, l verify.Limits) report {
	p, err := sprouts.Parse(input)
	if err != nil {
		return report{Input: input, Error: cmdline.PositionError(sprouts.Game, input, err).Error()}
	}
	lives, terminal := p.Lives(), p.IsTerminal()
	lands := texts(p.Lands())
	r := report{Input: input, Canonical: p.String(), Lives: &lives, Terminal: &terminal, Lands: &lands,
		Note: cmdline.PositionNote(sprouts.Game, input)}
	if cmd == "children" {
		if err := l.Check(p); err != nil {
			return report{Input: input, Error: cmdline.LimitMessage(err)}
		}
		children := texts(p.Children())
		slices.Sort(children)
		r.Children = &children
	}
	return r
}

// describeCram is the report on a Cram position.
func describeCram(cmd, input string) report {
	p, err := cram.Parse(input)
	if err != nil {
		return report{Input: input, Error: cmdline.PositionError(cram.Game, input, err).Error()}
	}
	cells, terminal := p.Cells(), p.IsTerminal()
	regions := texts(p.Regions())
	r := report{Input: input, Canonical: p.String(), Cells: &cells, Terminal: &terminal, Regions: &regions}
	if cmd == "children" {
		children := texts(p.Children())
		slices.Sort(children)
		r.Children = &children
	}
	return r
}

// texts returns the text of each position, in order (never nil, so that
// JSON shows an empty list as []).
func texts[P fmt.Stringer](ps []P) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}
