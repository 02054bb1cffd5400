package main

import (
	"fmt"
	"io"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/sprouts"
)

func writePretty(w io.Writer, cmd string, r report) {
	if r.Error != "" {
		fmt.Fprintf(w, "%s\n  error: %s\n", r.Input, r.Error)
		return
	}
	if r.Cells != nil {
		writePrettyCram(w, cmd, r)
		return
	}
	state := "moves remain"
	if *r.Terminal {
		state = "terminal: the player to move loses"
	}
	fmt.Fprintf(w, "%s\n  canonical  %s\n  lives      %d\n  lands      %d (%s)\n", r.Input, r.Canonical, *r.Lives, len(*r.Lands), state)
	if r.Note != "" {
		fmt.Fprintf(w, "  note       %s\n", r.Note)
	}
	switch cmd {
	case "lands":
		for _, land := range *r.Lands {
			fmt.Fprintf(w, "    %-30s %d lives\n", land, sprouts.MustParse(land).Lives())
		}
	case "children":
		fmt.Fprintf(w, "  children   %d\n", len(*r.Children))
		for _, c := range *r.Children {
			fmt.Fprintf(w, "    %s\n", c)
		}
	}
}

// writePrettyCram is writePretty for a Cram position.
func writePrettyCram(w io.Writer, cmd string, r report) {
	state := "moves remain"
	if *r.Terminal {
		state = "terminal: the player to move loses"
	}
	fmt.Fprintf(w, "%s\n  canonical  %s\n  cells      %d\n  regions    %d (%s)\n", r.Input, r.Canonical, *r.Cells, len(*r.Regions), state)
	switch cmd {
	case "lands":
		for _, region := range *r.Regions {
			fmt.Fprintf(w, "    %-30s %d cells\n", region, cram.MustParse(region).Cells())
		}
	case "children":
		fmt.Fprintf(w, "  children   %d\n", len(*r.Children))
		for _, c := range *r.Children {
			fmt.Fprintf(w, "    %s\n", c)
		}
	}
}
