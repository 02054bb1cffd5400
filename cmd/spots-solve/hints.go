package main

import (
	"fmt"

	"github.com/spots-dev/spots/sprouts"
)

// noPositionHint says, for a command line with no position, which flag
// took the position as its directory or file (spots-solve --cert 0*10
// gives 0*10 to --cert), or "".
func noPositionHint(cfg config) string {
	for _, f := range []struct{ name, value, what string }{
		{"--cert", cfg.certDir, "DIR"}, {"--lemmas", cfg.lemmasDir, "DIR"}, {"--state", cfg.swarm.stateDir, "DIR"},
		{"--stats", cfg.statsPath, "FILE"}, {"--db-out", cfg.dbOut, "FILE"},
	} {
		if f.value == "" {
			continue
		}
		if _, err := sprouts.Parse(f.value); err == nil {
			return fmt.Sprintf(": %s takes a %s and took %s: give it one before the position, as in %s %s %s", f.name, f.what, f.value, f.name, f.what, f.value)
		}
	}
	return " (e.g. spots-solve 0*12)"
}
