package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/play"
)

// moveJSON is one move in the output of best --json.
type moveJSON struct {
	Position    string `json:"position"`              // the position reached, canonical
	Land        string `json:"land"`                  // the component moved in (a land, region or heap; canonical text), or "*N" for the Nim heap
	Description string `json:"description,omitempty"` // Sprouts: the line drawn, in the input as written, when it can be named; any game: a move in the Nim heap
	Value       *int64 `json:"grundy,omitempty"`      // the proven Grundy value of the position reached
}

// certJSON is a certificate used, in the output of best --json.
type certJSON struct {
	Path    string `json:"path"`
	Claim   string `json:"claim"`
	Address string `json:"address"`
	Entries int    `json:"entries"`
}

// bestJSON is the output of best --json.
type bestJSON struct {
	Input        string          `json:"input"`
	Canonical    string          `json:"canonical"`
	Outcome      outcome.Outcome `json:"outcome"`          // W, L or unknown
	Value        *int64          `json:"grundy,omitempty"` // the proven Grundy value, when known
	Winning      []moveJSON      `json:"winning"`          // every proven winning move (empty for a loss)
	Move         *moveJSON       `json:"move,omitempty"`   // for a loss: the move that leaves the fewest proven winning replies
	Note         string          `json:"note,omitempty"`
	Certificates []certJSON      `json:"certificates"`
}

// best prints the proven winning moves of g (input is the text given).
func best(ctx context.Context, lib *play.Library, input string, g play.Game, asJSON bool, stdout, stderr io.Writer) int {
	a, err := lib.Analyze(ctx, g)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	if !a.Outcome.Known() {
		fmt.Fprintf(stderr, "%s: %s: %v (it proves neither its value nor a move to a position of value 0)\n", name, g, play.ErrNotCovered)
		return 2
	}
	descr := play.NewDescriber(input)
	out := bestJSON{Input: input, Canonical: g.String(), Outcome: a.Outcome, Winning: []moveJSON{}}
	if a.ValueKnown {
		out.Value = value(a.Value)
	}
	toJSON := func(m play.Move) moveJSON {
		j := moveJSON{Position: m.To.String(), Land: m.From, Description: descr.Describe(m)}
		if m.Known {
			j.Value = value(m.Value)
		}
		return j
	}
	for _, i := range a.Winning {
		out.Winning = append(out.Winning, toJSON(a.Moves[i]))
	}
	status := 0
	if a.Outcome == outcome.Loss {
		status = 1
		if m, replies, ok := lib.Toughest(a); ok {
			j := toJSON(m)
			out.Move = &j
			out.Note = fmt.Sprintf("a loss for the player to move: no move wins; this one leaves the opponent the fewest proven winning replies (%d)", replies)
		} else {
			out.Note = "a loss for the player to move: no move is left"
		}
	}
	for _, c := range lib.Values.Certs() {
		out.Certificates = append(out.Certificates, certJSON{Path: c.Path, Claim: c.Claim.String(), Address: c.Address, Entries: c.Entries})
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 2
		}
		return status
	}
	printBest(stdout, a, out)
	return status
}

func printBest(w io.Writer, a play.Analysis, out bestJSON) {
	sum := a.Game.Rules.NumComponents(a.Game.Position) > 1 || a.Game.Heap > 0
	v := ""
	if out.Value != nil {
		v = fmt.Sprintf(", value %d", *out.Value)
	}
	switch a.Outcome {
	case outcome.Win:
		fmt.Fprintf(w, "%s  W  (the player to move wins%s): %d proven winning move%s\n", out.Canonical, v, len(out.Winning), plural(len(out.Winning)))
		for _, m := range out.Winning {
			printMove(w, m, sum)
		}
	case outcome.Loss:
		fmt.Fprintf(w, "%s  L  (the player to move loses%s)\n", out.Canonical, v)
		if out.Move != nil {
			printMove(w, *out.Move, sum)
		}
		fmt.Fprintf(w, "  (%s)\n", out.Note)
	}
	for _, c := range out.Certificates {
		fmt.Fprintf(w, "proof  %s  %s  %d entries, verified  %s\n", c.Claim, c.Address[:12]+"…", c.Entries, c.Path)
	}
}

func printMove(w io.Writer, m moveJSON, sum bool) {
	line := "  " + m.Position
	if m.Description != "" {
		line += "    " + m.Description
	} else if sum {
		line += "    (a move in " + m.Land + ")"
	}
	fmt.Fprintln(w, line)
}

func value(g uint32) *int64 {
	v := int64(g)
	return &v
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
