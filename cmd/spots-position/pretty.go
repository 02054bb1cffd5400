package main

import (
	"fmt"
	"io"

	"github.com/spots-dev/spots/game"
)

// writePretty writes the report r of the command cmd (canon, children or
// lands) on a position of g for people: the position, its size and its
// parts, then what cmd lists. A Sprouts position has lives and lands,
// another game's position its own size and components (game.Info); the
// layout is the same.
func writePretty(w io.Writer, g game.Game, cmd string, r report) {
	if r.Error != "" {
		fmt.Fprintf(w, "%s\n  error: %s\n", r.Input, r.Error)
		return
	}
	info := g.Info()
	sizeOf := func(part string) int {
		p, err := g.Parse(part)
		if err != nil {
			return 0 // not reached: the part is a component the game wrote
		}
		return g.Size(p)
	}
	state := "moves remain"
	if *r.Terminal {
		state = "terminal: the player to move loses"
	}
	fmt.Fprintf(w, "%s\n  canonical  %s\n  %-10s %d\n  %-10s %d (%s)\n", r.Input, r.Canonical, info.SizeName, *r.Size, info.ComponentName, len(*r.Parts), state)
	if r.Note != "" {
		fmt.Fprintf(w, "  note       %s\n", r.Note)
	}
	switch cmd {
	case "lands":
		for _, part := range *r.Parts {
			fmt.Fprintf(w, "    %-30s %d %s\n", part, sizeOf(part), info.SizeName)
		}
	case "children":
		fmt.Fprintf(w, "  children   %d\n", len(*r.Children))
		for _, c := range *r.Children {
			fmt.Fprintf(w, "    %s\n", c)
		}
	}
}
