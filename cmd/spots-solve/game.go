package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// games are the values --game accepts.
var games = []string{sprouts.Game, cram.Game}

// errSproutsOnly is wrapped by the usage errors of options that only
// Sprouts has.
var errSproutsOnly = errors.New("is for Sprouts only")

// checkGame returns why cfg cannot run for its --game, or nil. Cram has
// no swarm, no text databases (--db-in, --db-out: GLOP/SPOTS Sprouts
// positions) and no checkpoints (--state, --resume).
func checkGame(cfg config) error {
	switch cfg.game {
	case sprouts.Game:
		return nil
	case cram.Game:
	default:
		return fmt.Errorf("unknown --game %q (want %s)", cfg.game, strings.Join(games, " or "))
	}
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"--algorithm swarm", cfg.algorithm == solve.SearchSwarm},
		{"--db-in", cfg.dbIn != ""},
		{"--db-out", cfg.dbOut != ""},
		{"--state", cfg.swarm.stateDir != ""},
		{"--resume", cfg.swarm.resumeDir != ""},
	} {
		if f.set {
			return fmt.Errorf("--game cram: %s %w (Cram runs with --algorithm pdfpn, dfpn or pns)", f.name, errSproutsOnly)
		}
	}
	return nil
}

// parseCram reads a Cram board given on the command line, optionally
// followed by a nim heap "+*N".
func parseCram(in string) (cram.Position, uint32, error) {
	text, n := in, uint32(0)
	if i := strings.LastIndex(in, "+*"); i >= 0 {
		v, err := strconv.ParseUint(in[i+2:], 10, 32)
		if err != nil {
			return cram.Empty, 0, fmt.Errorf("%q: the heap after \"+*\" must be a number from 0 to %d", in, uint32(1<<32-1))
		}
		text, n = in[:i], uint32(v)
	}
	p, err := cram.Parse(text)
	if err != nil {
		return cram.Empty, 0, cmdline.PositionError(cram.Game, text, err)
	}
	return p, n, nil
}

// solveCram is solveAll for --game cram: the boards of the command line
// solved one after another by one search, each certified with --cert.
func solveCram(r *runner, inputs []string) int {
	roots, heaps, err := parseAll(inputs, r.cfg.nimber, parseCram, func(string, uint32) error { return nil })
	if err != nil {
		return r.fail("%v", err)
	}
	for i, p := range roots {
		if err := r.cfg.limits.CheckCram(p); err != nil {
			return r.fail("%q: %s", inputs[i], cmdline.LimitMessage(err))
		}
	}
	if status := r.makeCertDir(); status >= 0 {
		return status
	}
	r.startProgress()
	s, err := newSearcher(r.cfg, cram.Rules{}, solve.NewNimberDB(), r.prog, nil)
	if err != nil {
		return r.fail("--algorithm %s: %v", r.cfg.algorithm, err)
	}
	results, status := solveEach(r, pipeline(r, cram.Game, s), inputs, roots, heaps)
	return r.finish(results, status, nil)
}
