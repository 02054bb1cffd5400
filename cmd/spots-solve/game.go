package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games --game names
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// gameList is the value of --game that lists the games.
const gameList = game.Reserved

// errSproutsOnly is wrapped by the usage errors of options that only
// Sprouts has.
var errSproutsOnly = errors.New("is for Sprouts only")

// checkGame returns why cfg cannot run for its --game, or nil. Sprouts,
// the default game, has everything; the other registered games have no
// swarm, no text databases (--db-in, --db-out: GLOP/SPOTS Sprouts
// positions) and no checkpoints (--state, --resume).
func checkGame(cfg config) error {
	if cfg.game == sprouts.Game {
		return nil
	}
	g, ok := game.Lookup(cfg.game)
	if !ok {
		return fmt.Errorf("unknown --game %q (want %s)", cfg.game, strings.Join(game.Names(), " or "))
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
			info := g.Info()
			return fmt.Errorf("--game %s: %s %w (%s runs with --algorithm pdfpn, dfpn or pns)", info.Name, f.name, errSproutsOnly, info.Title)
		}
	}
	return nil
}

// otherGames names, for messages, the games of --game other than Sprouts:
// cfg's own when it is one (its title), else "the other games".
func otherGames(cfg config) string {
	if g, ok := game.Lookup(cfg.game); ok && cfg.game != sprouts.Game {
		return g.Info().Title
	}
	return "the other games"
}

// listGames writes the registered games, one a line: the name, an example
// position and the one-line description; with asJSON one JSON object a
// line.
func listGames(w io.Writer, asJSON bool) error {
	games := game.List()
	width := 0
	for _, g := range games {
		width = max(width, len(g.Info().Name))
	}
	for _, g := range games {
		info := g.Info()
		if asJSON {
			b, err := json.Marshal(struct {
				Name        string `json:"name"`
				Title       string `json:"title"`
				Example     string `json:"example"`
				Description string `json:"description"`
				Notation    string `json:"notation"`
			}{info.Name, info.Title, info.Example, info.Description, info.Notation})
			if err != nil {
				return fmt.Errorf("--game list: %w", err)
			}
			if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
				return err
			}
			continue
		}
		if _, err := fmt.Fprintf(w, "%-*s  %-8s  %s\n", width, info.Name, info.Example, info.Description); err != nil {
			return err
		}
	}
	return nil
}

// parseIn returns the reader of positions of g given on the command line,
// each optionally followed by a nim heap "+*N".
func parseIn(g game.Game) func(in string) (game.Position, uint32, error) {
	return func(in string) (game.Position, uint32, error) {
		text, n := in, uint32(0)
		if i := strings.LastIndex(in, "+*"); i >= 0 {
			v, err := strconv.ParseUint(in[i+2:], 10, 32)
			if err != nil {
				return nil, 0, fmt.Errorf("%q: the heap after \"+*\" must be a number from 0 to %d", in, uint32(1<<32-1))
			}
			text, n = in[:i], uint32(v)
		}
		p, err := g.Parse(text)
		if err != nil {
			return nil, 0, cmdline.PositionError(g.Info().Name, text, err)
		}
		return p, n, nil
	}
}

// solveGame is solveAll for a game other than Sprouts: the positions of
// the command line solved one after another by one search over the
// game's registered rules, drawing on the certificates of --reuse, each
// certified with --cert.
func solveGame(r *runner, name string, inputs []string) int {
	g, err := game.Get(name)
	if err != nil {
		return r.fail("%v", err) // not reached: checkGame refused it
	}
	roots, heaps, err := parseAll(inputs, r.cfg.nimber, parseIn(g), func(string, uint32) error { return nil })
	if err != nil {
		return r.fail("%v", err)
	}
	for i, p := range roots {
		if err := r.cfg.limits.CheckPosition(g, p); err != nil {
			return r.fail("%q: %s", inputs[i], cmdline.LimitMessage(err))
		}
	}
	if status := r.makeCertDir(); status >= 0 {
		return status
	}
	r.startProgress()
	db := solve.NewNimberDB()
	pool, err := r.loadPool()
	if err != nil {
		return r.fail("--reuse %s: %v (leave out --reuse to solve without them)", strings.Join(r.cfg.reuse, ", "), err)
	}
	pool.Preload(db)
	s, err := newSearcher[game.Position](r.cfg, g, db, r.prog, nil)
	if err != nil {
		return r.fail("--algorithm %s: %v", r.cfg.algorithm, err)
	}
	p := pipeline(r, g.Info().Name, s)
	if pool != nil {
		// As for Sprouts (reuseChecked), a result found with the values
		// drawn on is believed once the checker derives it with the
		// certificates they come from; else it is solved again without.
		lib, verdicts := pool.Library(), cmdline.Verdicts("spots-solve", r.stderr)
		p.Searcher = &prove.Resumed[game.Position]{Searcher: s, Game: g.Info().Name, Pool: pool, Library: lib, Verdicts: verdicts, Progress: checking(r.prog),
			Restart: func(why error) solve.Searcher[game.Position] {
				r.prog.Clear()
				fmt.Fprintf(r.stderr, "spots-solve: --reuse: the certificates drawn on do not prove the result found with them, %v; solving again without them\n", why)
				fresh, _ := newSearcher[game.Position](r.cfg, g, solve.NewNimberDB(), r.prog, nil) // cfg made the search that failed: it makes this one
				return fresh
			}}
		p.Pool, p.Verify.Library, p.Verify.Verdicts = pool, lib, verdicts
	}
	results, status := solveEach(r, p, inputs, roots, heaps)
	return r.finish(results, status, nil)
}
