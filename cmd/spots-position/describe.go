package main

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/verify"
)

// report is the JSON object printed for one input. Its keys for the size
// and the components are the game's words (game.Info.SizeName and
// ComponentName): "lives" and "lands" for Sprouts.
type report struct {
	Input     string
	Canonical string
	sizeName  string
	Size      *int
	Terminal  *bool
	partsName string
	Parts     *[]string
	Children  *[]string
	Note      string // the position is probably not what was meant (a bare number: 12 is two spots)
	Error     string
}

// MarshalJSON writes r with its keys in a fixed order, those of the
// size and the components named by the game, and the empty ones left out.
func (r report) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	add := func(key string, v any) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		val, _ := json.Marshal(v) // strings, numbers, bools, lists of strings: never an error
		b.Write(k)
		b.WriteByte(':')
		b.Write(val)
	}
	add("input", r.Input)
	if r.Canonical != "" {
		add("canonical", r.Canonical)
	}
	if r.Size != nil {
		add(r.sizeName, *r.Size)
	}
	if r.Terminal != nil {
		add("terminal", *r.Terminal)
	}
	if r.Parts != nil {
		add(r.partsName, *r.Parts)
	}
	if r.Children != nil {
		add("children", *r.Children)
	}
	if r.Note != "" {
		add("note", r.Note)
	}
	if r.Error != "" {
		add("error", r.Error)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// describe is the report on a position of g. Its children are generated
// only within l: a position over a limit would take more memory than the
// machine has (0*100000, or a few boundaries of many corners).
func describe(g game.Game, cmd, input string, l verify.Limits) report {
	info := g.Info()
	p, err := g.Parse(input)
	if err != nil {
		return report{Input: input, Error: cmdline.PositionError(info.Name, input, err).Error()}
	}
	size, terminal := g.Size(p), g.NumComponents(p) == 0
	parts := texts(g.Components(p))
	r := report{Input: input, Canonical: p.String(), sizeName: info.SizeName, Size: &size, Terminal: &terminal,
		partsName: info.ComponentName, Parts: &parts, Note: cmdline.PositionNote(info.Name, input)}
	if cmd == "children" {
		if err := l.CheckPosition(g, p); err != nil {
			return report{Input: input, Error: cmdline.LimitMessage(err)}
		}
		children := texts(g.Children(p))
		slices.Sort(children)
		r.Children = &children
	}
	return r
}

// texts returns the text of each position, in order (never nil, so that
// JSON shows an empty list as []).
func texts(ps []game.Position) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.String())
	}
	return out
}
