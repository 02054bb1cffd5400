// Command spots-solve solves Sprouts positions (and, with --game, the
// positions of the other registered games: spots-solve --game list) with
// proof-number search.
//
// Usage:
//
//	spots-solve [flags] POSITION...
//
// A POSITION is in the reference's notation (0*12, 0.1a1a|0) or in GLOP's
// (with '}' ending regions and ']' ending lands); POS+*N adds a nim heap of
// size N. For each position it prints who wins, as in
//
//	0*12  L  (second player wins)
//
// or with --nimber its Grundy value. With --json it prints one JSON object
// per position instead:
//
//	{"input":"0*12","canonical":"0*12","outcome":"L","grundy":null,
//	 "algorithm":"pdfpn","seconds":4.1,"iterations":41205,
//	 "grundy_numbers":1189,"tt_entries":32845,…}
//
// (docs/json.md lists the keys). While a position takes longer than a
// second, a status line on standard error shows the elapsed time,
// iterations, iterations per second, the root's proof and disproof
// numbers, the nimbers known and how full the transposition table is (a
// line every 10 s when standard error is not a terminal; none with
// --progress none); --progress json writes the same as a JSON object a
// line, every second.
//
// The positions share one search: what is proved for one is reused by the
// next. Exit status: 0 when every position was solved, 1 when a limit
// (--timeout, --max-iterations) left one unknown, 2 for bad usage or input,
// in which case nothing is solved or written, 130 when interrupted (SIGINT
// or SIGTERM): the positions left are not started, what was solved is
// printed (and written to --stats and --db-out).
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/game"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/internal/interrupt"
)

const usage = `usage: spots-solve [flags] POSITION...
       spots-solve --game GAME [flags] POSITION...
       spots-solve --game list [--json]
       spots-solve --algorithm swarm [--workers-local N] [flags] POSITION
       spots-solve worker --join HOST:PORT [flags]

Solves Sprouts positions (e.g. 0*12) with proof-number search and prints
who wins, or with --nimber the Grundy value. A position is written in the
reference's notation (0*12, 0.1a1a|0) or in GLOP's (2AB.}AB.}]!); POS+*N
adds a nim heap of N (0*3+*1). With --algorithm swarm the process is the
master of a swarm of worker processes (started here with --workers-local,
or on other machines with "spots-solve worker"); its flags are listed by
spots-solve --algorithm swarm --help, a worker's by spots-solve worker
--help.

Games (--game): sprouts (the default) and the others of the registry,
which spots-solve --game list prints with an example position each
(go doc on the game's package describes its notation). They run with
pdfpn, dfpn and pns, not with the swarm, --db-in, --db-out, --state or
--resume.

A position whose children would cost more than the checker's limits is
refused before any search (exit 2), naming the limit and the flag that
raises it: --max-lives, --max-boundaries, --max-letters, --max-cells,
--max-moves, --max-work, as spots-verify --help lists them. A --db-in
of more entries than --max-entries (524288; counted as read, sums and
repeats included) is refused as it is read, and so is one whose values
take more than half of --memory.

Examples:
  spots-solve 0*12                      who wins 12 spots
  spots-solve --nimber --json 0*9 0*10  Grundy values, as JSON lines
  spots-solve --cert certs 0*3+*1       solve and certify 0*3+*1=W|L
{{games}}  spots-solve --algorithm swarm --workers-local 2 0*14

The options of SPOTS (the reference solver) are accepted too:
--compute_nimber, --input_database, --output_database, --stats_path and
--algorithm pns-pdfpn (the swarm).

Flags:
`

// usageText is usage with an example line for each game but the default.
func usageText() string {
	return cmdline.GameExamples(usage, func(i game.Info) string {
		return fmt.Sprintf("  spots-solve --game %s --cert certs %s\n", i.Name, i.Example)
	})
}

// swarmUsage is the head of --help after --algorithm swarm.
const swarmUsage = `usage: spots-solve --algorithm swarm [--workers-local N] [flags] POSITION

Solves one Sprouts position with a swarm (PNS-PDFPN): this process is the
master, which keeps the top of the game tree and hands its leaves out as
jobs over HTTP (--listen) to worker processes, found by gossip (--gossip):
started here with --workers-local, or on other machines with
"spots-solve worker --join HOST:PORT" (see its --help). Workers and master
share the key of --key, --key-file or $SPOTS_SWARM_KEY; requests are signed
with it and the gossip encrypted. The master checks the values workers
send before it believes them, and audits the result (a certificate built
from its values must verify) before it prints it. With --state DIR it
saves its values every few seconds, and --resume DIR continues after a
crash or restart. While it solves it serves a status page
(--status-listen, http://127.0.0.1:7402/ by default), which ends with the
solve: --status-file FILE.html keeps that page in a file, written every
few seconds and once more at the end, to look at when the run is over
(FILE.json: the page's figures as JSON). go doc
github.com/spots-dev/spots/swarm describes the protocol.

Examples:
  spots-solve --algorithm swarm --workers-local 2 0*14
  SPOTS_SWARM_KEY=... spots-solve --algorithm swarm --listen 10.0.0.1:7400 \
      --gossip 10.0.0.1:7401 --cert certs 0*20

Flags:
`

// exitCodes is the end of --help.
const exitCodes = `  0    every position solved
  1    a position left unknown (--timeout, --max-iterations), a certificate not written
  2    bad usage or input: nothing solved or written
  130  interrupted (SIGINT, SIGTERM): what was solved is printed and written
`

// statusInterrupted is the exit status after SIGINT or SIGTERM.
const statusInterrupted = 130

func main() { os.Exit(runMain()) }

// runMain is main without the exit: the build's version goes into the
// certificates, SIGINT or SIGTERM cancels the run (a second one ends it at
// once), and a failed write to standard output makes the status at least 1.
func runMain() int {
	ctx, stop := interrupt.Context()
	defer stop()
	out := cmdout.New(os.Stdout)
	status := cmdline.JSONErrors("spots-solve", cmdline.WantsJSON(os.Args[1:]), out, os.Stderr, func(stdout, stderr io.Writer) int {
		return run(ctx, os.Args[1:], stdout, stderr)
	})
	return out.Status("spots-solve", status, os.Stderr)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "worker" {
		return runWorker(ctx, args[1:], stdout, stderr)
	}
	cfg, positions, status := parseFlags(args, stdout, stderr)
	if status >= 0 {
		return status
	}
	if err := checkOutputs(cfg); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return 2
	}
	prof, err := cpuprofile.Start(cfg.cpuProfile, format.CreateAtomic)
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return 2
	}
	status = solveAll(ctx, cfg, positions, stdout, stderr)
	if err := prof.Stop(); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		status = max(status, 2)
	}
	return status
}
