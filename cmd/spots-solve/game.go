package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

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
		{"--algorithm swarm", cfg.algorithm == "swarm"},
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
func solveCram(ctx context.Context, cfg config, inputs []string, stdout, stderr io.Writer) int {
	fail := func(msg string, a ...any) int {
		fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...)
		return 2
	}
	var roots []cram.Position
	var heaps []uint32
	for _, in := range inputs {
		p, n, err := parseCram(in)
		if err != nil {
			return fail("%v", err)
		}
		if n > 0 && cfg.nimber {
			return fail("%q: --nimber computes the Grundy value of a position alone; leave out the heap (the value of POS+*N is that of POS xor N)", in)
		}
		roots = append(roots, p)
		heaps = append(heaps, n)
	}
	if cfg.certDir != "" {
		if err := os.MkdirAll(cfg.certDir, 0o755); err != nil {
			return fail("--cert: %v", err)
		}
	}
	prog := cfg.progress.New(stderr)
	s := newSearcher(cfg, cram.Rules{}, solve.NewNimberDB(), prog, nil)
	results, status := solveEach(ctx, cfg, s, cram.Game, inputs, roots, heaps, nil, prog, stdout, stderr)
	if cfg.statsPath != "" {
		if err := writeStats(cfg.statsPath, cfg.args, time.Now(), results); err != nil {
			return fail("--stats %s: %v", cfg.statsPath, err)
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "spots-solve: interrupted")
		return statusInterrupted
	}
	return status
}
