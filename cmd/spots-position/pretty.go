package main

import (
	"fmt"
	"io"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/sprouts"
)

// writePretty writes the report r of the command cmd (canon, children or
// lands) for people: the position, its size and its parts, then what cmd
// lists. A Sprouts position has lives and lands, a Cram board cells and
// regions; the layout is the same.
func writePretty(w io.Writer, cmd string, r report) {
	if r.Error != "" {
		fmt.Fprintf(w, "%s\n  error: %s\n", r.Input, r.Error)
		return
	}
	// The words and figures of the game: sizeOf is the size of a part.
	size, sizeWord, parts, partsWord := 0, "lives", []string(nil), "lands"
	sizeOf := func(part string) int { return sprouts.MustParse(part).Lives() }
	if r.Cells != nil {
		size, sizeWord, parts, partsWord = *r.Cells, "cells", *r.Regions, "regions"
		sizeOf = func(part string) int { return cram.MustParse(part).Cells() }
	} else {
		size, parts = *r.Lives, *r.Lands
	}
	state := "moves remain"
	if *r.Terminal {
		state = "terminal: the player to move loses"
	}
	fmt.Fprintf(w, "%s\n  canonical  %s\n  %-10s %d\n  %-10s %d (%s)\n", r.Input, r.Canonical, sizeWord, size, partsWord, len(parts), state)
	if r.Note != "" {
		fmt.Fprintf(w, "  note       %s\n", r.Note)
	}
	switch cmd {
	case "lands":
		for _, part := range parts {
			fmt.Fprintf(w, "    %-30s %d %s\n", part, sizeOf(part), sizeWord)
		}
	case "children":
		fmt.Fprintf(w, "  children   %d\n", len(*r.Children))
		for _, c := range *r.Children {
			fmt.Fprintf(w, "    %s\n", c)
		}
	}
}
