// Command spots-play reads perfect play off proof certificates.
//
// Usage:
//
//	spots-play best POSITION (--cert FILE | --corpus DIR) [--game GAME] [--json]
//	spots-play game [POSITION] (--cert FILE | --corpus DIR) [--game GAME] [--first you|spots]
//
// best prints every move from POSITION that a certificate proves to win
// (the position it reaches has the proven value 0), or, when the position
// is proven lost, the move that leaves the fewest proven winning replies. game
// plays against a human in the terminal: the human picks a move by its
// number from the list of moves, spots answers with a proven winning move
// when it has one and says when it has none.
//
// --game names the game, as spots-solve --game list lists them: Sprouts
// by default, or any other registered game, which plays the same way
// (package game's registry serves every game to this command alike).
// Sprouts alone has a drawing: its moves are named by the spots the line
// joins; the moves of the other games are shown by the position they
// reach.
//
// POSITION is in the game's notation, as spots-position --game reads it,
// optionally followed by a Nim heap: '0*9', '0*3+*1'. A certificate is
// verified (package verify) before anything is read from it; with
// --corpus, the certificates of the game's table in the corpus directory
// (for Sprouts index.csv and certs/, for another game GAME.csv and GAME/)
// are read and the first that covers the position is verified and used
// (those about the position itself first, then the smaller first), or,
// when none covers it alone, one for each of its components. Nothing is
// searched: the moves come from the certificates and the rules of the
// game alone.
//
// Exit status of best: 0 winning moves printed, 1 the position is a loss
// for the player to move, 2 bad usage or input, or no certificate covers
// the position. Of game: 0 the game ended or the human quit, 2 bad usage,
// a start no certificate covers, or input that ended before the game. 130
// for both after SIGINT or SIGTERM.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games spots-play plays
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/play"
	"github.com/spots-dev/spots/verify"
)

const name = "spots-play"

const usage = `usage: spots-play best POSITION (--cert FILE | --corpus DIR) [--game GAME] [--json]
       spots-play game [POSITION] (--cert FILE | --corpus DIR) [--game GAME] [--first you|spots]

Perfect play read off proof certificates, never searched.

  best   every move from POSITION that a certificate proves to win (the
         position reached, printed in canonical notation, has the proven
         value 0), in Sprouts with the spots the line joins when the move
         can be named in POSITION as written; for a lost position, the
         move that leaves the opponent the fewest proven winning replies
  game   play against spots in the terminal: choose your move by its
         number; spots answers with a proven winning move when it has one,
         and says so when it has none

--game GAME plays another registered game than Sprouts, the default
(spots-solve --game list lists them): the same commands, the moves shown
by the position they reach (a drawing to name them is Sprouts' alone).

POSITION is a position of the game as spots-position --game GAME reads
it, optionally plus a Nim heap: '0*9', '0.AB|AB', '0*3+*1' in Sprouts,
and as the examples below write it in the other games. game starts, without POSITION, from the root
of the --cert certificate's claim.

--cert FILE verifies one certificate and uses it. --corpus DIR uses the
corpus directory of the repository (for Sprouts DIR/index.csv and
DIR/certs/*.arrow, for another game DIR/GAME.csv and DIR/GAME/*.arrow):
it reads its certificates and verifies the first that covers the
position, those about the position itself first, or one for each part
of the position (land, region, heap) when none covers it alone.

Examples:
  spots-play best '0*9' --corpus corpus
  spots-play best '0*3+*1' --cert certs/0123….arrow --json
  spots-play game '0*5' --corpus corpus --first spots
{{games}}
Flags:
`

// usageText is usage with an example line for each registered game but
// the default, from its example position.
func usageText() string {
	return cmdline.GameExamples(usage, func(i game.Info) string {
		return fmt.Sprintf("  spots-play best '%s' --game %s --corpus corpus\n", i.Example, i.Name)
	})
}

const bestExitCodes = `  best:
  0    winning moves printed
  1    the position is a loss for the player to move (a move is printed)
  2    bad usage or input, or no certificate covers the position
  game:
  0    the game ended, or you quit
  2    bad usage, a start no certificate covers, or input ended first
  130  interrupted (SIGINT, SIGTERM)
`

func main() { os.Exit(runMain()) }

// runMain is main without the exit: SIGINT and SIGTERM end the run with
// status 130, a failed write to standard output makes the status at least 1.
func runMain() int {
	stop := interrupt.ExitOnSignal(name, os.Stderr)
	defer stop()
	out := cmdout.New(os.Stdout)
	status := cmdline.JSONErrors(name, cmdline.WantsJSON(os.Args[1:]), out, os.Stderr, func(stdout, stderr io.Writer) int {
		return run(os.Args[1:], os.Stdin, stdout, stderr)
	})
	return out.Status(name, status, os.Stderr)
}

// options are the flags of both subcommands.
type options struct {
	game         string    // the name given to --game
	rules        game.Game // the game it names, once resolved
	cert, corpus string
	json         bool
	first        string
	command      string   // best or game
	positions    []string // the arguments after it
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, status := parseArgs(args, stdout, stderr)
	if o == nil {
		return status
	}
	bad := func(msg string, a ...any) int {
		fmt.Fprintf(stderr, name+": "+msg+"\n", a...)
		return 2
	}
	if msg := o.usageError(); msg != "" {
		return bad("%s", msg)
	}
	rules, err := game.Get(o.game)
	if err != nil {
		return bad("--game: %v", err)
	}
	o.rules = rules
	start, err := startOf(rules, o.positions, stderr)
	if err != nil {
		return bad("position: %v", err)
	}
	ctx := context.Background()
	lib, err := o.library(ctx)
	if err != nil {
		return bad("%v", err)
	}
	if start == nil {
		if start, err = claimRoot(rules, lib); err != nil {
			return bad("the claim's root: %v", err)
		}
	}
	if o.command == "best" {
		return best(ctx, lib, o.positions[0], *start, o.json, stdout, stderr)
	}
	return playGame(ctx, lib, *start, o.first == "spots", stdin, stdout, stderr)
}

// parseArgs reads the command line; it returns nil and the exit status
// when the run ends there (--help, --version, a bad flag, no command).
func parseArgs(args []string, stdout, stderr io.Writer) (*options, int) {
	flags := pflag.NewFlagSet(name, pflag.ContinueOnError)
	flags.SetOutput(stderr)
	var o options
	flags.StringVar(&o.game, "game", game.Default().Info().Name, "the game `GAME`: sprouts, or another that spots-solve --game list lists")
	flags.StringVar(&o.cert, "cert", "", "use the certificate `FILE` (verified first)")
	flags.StringVar(&o.corpus, "corpus", "", "use the certificates of the corpus directory `DIR` (index.csv, certs/)")
	flags.BoolVar(&o.json, "json", false, "best: print one JSON object")
	flags.StringVar(&o.first, "first", "you", "game: who moves first, `you` or spots")
	std := buildinfo.AddStd(flags)
	printUsage := func(w io.Writer) { buildinfo.Usage(w, usageText(), flags, bestExitCodes) }
	flags.Usage = func() { printUsage(stderr) }
	if err := cmdline.Parse(flags, args); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return nil, 2
	}
	if std.Handle(name, stdout, printUsage) {
		return nil, 0
	}
	if flags.NArg() == 0 {
		fmt.Fprintf(stderr, "%s: missing command: best or game\n", name)
		flags.Usage()
		return nil, 2
	}
	o.command, o.positions = flags.Arg(0), flags.Args()[1:]
	return &o, 0
}

// usageError says what is wrong with the command line ("" if nothing).
func (o *options) usageError() string {
	cmd, n := o.command, len(o.positions)
	switch {
	case cmd != "best" && cmd != "game":
		return fmt.Sprintf("unknown command %q: want best or game%s", cmd, cmdline.DidYouMean(cmd, "best", "game"))
	case o.cert != "" && o.corpus != "":
		return fmt.Sprintf("--cert %s and --corpus %s: give one", o.cert, o.corpus)
	case o.cert == "" && o.corpus == "":
		return cmd + " needs a certificate: --cert FILE or --corpus DIR"
	case o.first != "you" && o.first != "spots":
		return fmt.Sprintf("--first %q: want you or spots", o.first)
	case cmd == "best" && n != 1:
		return fmt.Sprintf("best takes one position, not %d", n)
	case cmd == "game" && n > 1:
		return fmt.Sprintf("game takes at most one position, not %d", n)
	case cmd == "game" && n == 0 && o.cert == "":
		return "game with --corpus needs a position to start from, e.g. '0*5'"
	case cmd == "game" && o.json:
		return "--json goes with best"
	}
	return ""
}

// library opens the certificates of --cert or --corpus.
func (o *options) library(ctx context.Context) (*play.Library, error) {
	if o.cert != "" {
		return play.OpenCert(ctx, o.rules, o.cert, verify.Options{})
	}
	return play.OpenCorpus(o.rules, o.corpus, verify.Options{})
}

// claimRoot returns where game starts without a position: the root of the
// certificate's claim, with its heap for a claim of an outcome.
func claimRoot(rules game.Game, lib *play.Library) (*play.Game, error) {
	c := lib.Values.Certs()[0].Claim
	g, err := play.ParseGame(rules, c.Root)
	if err != nil {
		return nil, err
	}
	if c.Kind.Outcome().Known() {
		g.Heap = c.N
	}
	return &g, nil
}

// startOf parses the position of the command line, a position of the
// game rules, if one is given (nil if none), with a note on standard
// error where a newcomer may have meant another (0*12 for 12).
func startOf(rules game.Game, rest []string, stderr io.Writer) (*play.Game, error) {
	if len(rest) != 1 {
		return nil, nil
	}
	gameName := rules.Info().Name
	g, err := play.ParseGame(rules, rest[0])
	if err != nil {
		return nil, cmdline.PositionError(gameName, rest[0], err)
	}
	if note := cmdline.PositionNote(gameName, rest[0]); note != "" {
		fmt.Fprintf(stderr, "%s: note: %s\n", name, note)
	}
	return &g, nil
}
