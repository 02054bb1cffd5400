// Command spots-position reads Sprouts positions (or, with --game, those
// of another registered game: spots-solve --game list) and prints their
// canonical form, lives (the game's size), lands (its components) and, on
// request, children.
//
// Usage:
//
//	spots-position canon|children|lands [--pretty] [--game GAME] [POSITION...]
//
// With no POSITION arguments it reads one position per line from standard
// input (blank lines are skipped). For each input it prints one JSON object
// per line:
//
//	{"input":"0*3","canonical":"0*3","lives":9,"terminal":false,"lands":["0*3"]}
//
// and, for children, a "children" array of the canonical children sorted as
// text. A position that does not parse gives {"input":...,"error":...}
// on its line; the others are still processed and the exit status is 2.
// --pretty prints the same facts for people instead of JSON.
//
// Example:
//
//	$ echo '0*3' | spots-position children
//	{"input":"0*3","canonical":"0*3","lives":9,"terminal":false,"lands":["0*3"],"children":["0*2.AB|AB","0.1a1a","0.AB|0.AB"]}
//
// With --game, a position of another game gives its size and components
// under the game's words (game.Info.SizeName, ComponentName) in place of
// "lives" and "lands"; the command lands (or regions) lists them.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/game"
	_ "github.com/spots-dev/spots/game/all" // the games --game names
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

const usage = `usage: spots-position canon|children|lands [--pretty] [--game GAME] [POSITION...]

Prints the canonical form, lives and lands of Sprouts positions (and their
children with the children command), one JSON object per position. With no
POSITION it reads one position per line from standard input. With
--game GAME it reads the positions of another game (spots-solve --game list
lists them) and prints its size and components (a board's empty cells
and regions) instead of lives and lands.

Commands:
  canon      canonical form, lives, terminal, lands
  children   the same, plus the sorted canonical children
  lands      the same as canon; --pretty lists each land with its lives
             (regions is another name for it)

Examples:
  spots-position canon '0*3' '0.1a1a|0'
  echo '0*3' | spots-position children --pretty
{{games}}
Flags:
`

// usageText is usage with an example for each game but the default.
func usageText() string {
	return cmdline.GameExamples(usage, func(i game.Info) string {
		return fmt.Sprintf("  spots-position --game %s children %s\n", i.Name, i.Example)
	})
}

// exitCodes is the end of --help.
const exitCodes = `  0    every position read
  2    bad usage, or a position that does not parse, or whose children would
       cost more than a --max-… limit allows (the others are still printed)
  130  interrupted (SIGINT, SIGTERM)
`

func main() { os.Exit(runMain()) }

// runMain is main without the exit: SIGINT and SIGTERM end the run with
// status 130 and no partial file, a failed write to standard output makes
// the status at least 1.
func runMain() int {
	stop := interrupt.ExitOnSignal("spots-position", os.Stderr)
	defer stop()
	out := cmdout.New(os.Stdout)
	status := cmdline.JSONErrors("spots-position", !cmdline.HasFlag(os.Args[1:], "pretty"), out, os.Stderr, func(stdout, stderr io.Writer) int {
		return run(os.Args[1:], os.Stdin, stdout, stderr)
	})
	return out.Status("spots-position", status, os.Stderr)
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	flags := pflag.NewFlagSet("spots-position", pflag.ContinueOnError)
	flags.SetOutput(stderr)
	pretty := flags.Bool("pretty", false, "print for people instead of JSON")
	name := flags.String("game", sprouts.Game, "the game of the positions: sprouts, or another that spots-solve --game list prints")
	var limits verify.Limits
	cmdline.LimitFlags(flags, &limits)
	std := buildinfo.AddStd(flags)
	flags.Usage = func() { buildinfo.Usage(stderr, usageText(), flags, exitCodes) }
	if err := cmdline.Parse(flags, args); err != nil {
		fmt.Fprintf(stderr, "spots-position: %v\n", err)
		return 2
	}
	if std.Handle("spots-position", stdout, func(w io.Writer) { buildinfo.Usage(w, usageText(), flags, exitCodes) }) {
		return 0
	}
	if err := cmdline.CheckLimitFlags(limits); err != nil {
		fmt.Fprintf(stderr, "spots-position: %v\n", err)
		return 2
	}
	if flags.NArg() == 0 {
		fmt.Fprintln(stderr, "spots-position: missing command (canon, children or lands)")
		flags.Usage()
		return 2
	}
	cmd := flags.Arg(0)
	if cmd == "regions" {
		cmd = "lands"
	}
	if cmd != "canon" && cmd != "children" && cmd != "lands" {
		fmt.Fprintf(stderr, "spots-position: unknown command %q (want canon, children or lands)%s\n", cmd, cmdline.DidYouMean(cmd, "canon", "children", "lands", "regions"))
		return 2
	}
	g, ok := game.Lookup(*name) // --game Sprouts is sprouts
	if !ok {
		fmt.Fprintf(stderr, "spots-position: unknown --game %q (want %s)\n", *name, strings.Join(game.Names(), " or "))
		return 2
	}
	maxInput := g.Info().MaxInput
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	status := 0
	show := func(r report) {
		if r.Error != "" {
			status = 2
		}
		if *pretty {
			writePretty(out, g, cmd, r)
		} else {
			line, _ := json.Marshal(r)
			out.Write(line)
			out.WriteByte('\n')
		}
	}
	if flags.NArg() > 1 {
		for _, input := range flags.Args()[1:] {
			show(describe(g, cmd, input, limits))
		}
		return status
	}
	err := eachLine(stdin, maxInput, func(n int, line string, whole bool) {
		input := strings.TrimSpace(line)
		switch {
		case !whole:
			show(report{Input: input + "…", Error: fmt.Sprintf("line %d: longer than %d bytes, the most a position may take", n, maxInput)})
		case input != "":
			show(describe(g, cmd, input, limits))
		}
		out.Flush() // a line typed gets its answer at once
	})
	if err != nil {
		out.Flush()
		fmt.Fprintf(stderr, "spots-position: reading standard input: %v\n", err)
		return 2
	}
	return status
}

// eachLine calls fn with each line of r (without its line end) and its
// 1-based number. A line longer than max bytes is passed cut to (at most)
// its first 64 bytes with whole false, and the rest of it is skipped, so that no
// input, however long its lines, is held in memory.
func eachLine(r io.Reader, max int, fn func(n int, line string, whole bool)) error {
	br := bufio.NewReaderSize(r, 64*1024)
	var line []byte
	for n := 1; ; n++ {
		line = line[:0]
		whole := true
		for {
			chunk, more, err := br.ReadLine()
			if err == io.EOF && len(line) == 0 && whole {
				return nil
			}
			if err != nil && err != io.EOF {
				return err
			}
			if whole {
				line = append(line, chunk...)
				if len(line) > max {
					line, whole = line[:min(64, len(line))], false
				}
			}
			if !more || err == io.EOF {
				break
			}
		}
		fn(n, string(line), whole)
	}
}
