// Command spots-verify checks proofs of results about Sprouts and the
// other registered games (spots-solve --game list).
//
// Usage:
//
//	spots-verify [--independent] [--json] FILE.arrow...
//	spots-verify --spr DB --claim CLAIM [--convert DIR | --independent] [--json]
//	spots-verify --dump FILE.arrow > rows.jsonl
//
// The first form checks certificates written by spots (hinted: one pass,
// no search), each with the rules of the game its header names (sprouts,
// or another game of the registry). The second checks a GLOP/SPOTS [Positions+Nimber] text
// database against a claim such as '0*12=L', '0*12+*1=W' or 'gn(0*9)=1',
// searching for the witnesses the database leaves out; with --convert it
// then writes them, with only the entries the claim needs, as a certificate
// in DIR.
//
// By default the checker trusts package sprouts, the rules the solver
// uses too. --independent checks Sprouts certificates and databases with a
// second implementation of the rules (package verify/sprouts2), written
// apart and sharing no code with it, and ignores the hints (they name
// children in package sprouts' order): it searches for every witness, one
// or two moves deep, on every core. A single bug in the rules can then no
// longer make a false proof pass: it would have to be made twice, in two
// different ways. Verdicts, exit statuses and limits are those of the
// default check.
//
// Each input gives one line:
//
//	VALID    0*12=L  350383a8d4a2…  885 entries  0.10 s  certs/3503….arrow
//	INVALID  certs/bad.arrow: row 17 (0.AB|AB): reach: value 1: child 3 (…) has the value 0
//
// or with --json one object. With --dump the one certificate given is
// checked, and if valid its rows are written on standard output as JSON
// lines (format.Dump), for readers without Arrow. Exit status: 0 when everything is valid, 1
// when something is invalid, 2 for bad usage, an input that cannot be
// read, or an input refused by a limit:
//
//	REFUSED  big.arrow: refused: claim (0*100000): 300000 lives, over the limit of 1000 on lives (raise it with --max-lives)
//
// Input is untrusted, so before generating the children of any position
// (an entry, the claim's root, a land a hint names) the checker measures
// it and refuses it if it is over a limit: --max-lives, --max-boundaries,
// --max-letters (Sprouts), --max-cells (boards), --max-moves (estimated
// moves to generate) and --max-work (estimated moves × bytes, for one
// generation and, for certificates, for all those of one entry). 0 keeps a default (verify.DefaultLimits; every
// certificate of the corpus passes them with a wide margin), -1 removes a
// limit.
package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
	"github.com/spots-dev/spots/verify/sprouts2"
)

const usage = `usage: spots-verify [--independent] [--json] FILE.arrow...
       spots-verify --spr DB --claim CLAIM [--convert DIR | --independent] [--json]

Checks certificates of results about Sprouts or another registered game
(the game is read from each certificate's header, spots-solve --game list
lists the games), or a [Positions+Nimber] database of Sprouts
positions (GLOP, SPOTS) against a claim: POS=W, POS=L, POS+*N=W, POS+*N=L or
gn(POS)=N.

The default check trusts package sprouts (the rules the solver also uses)
and follows the certificate's hints. --independent (Sprouts only) trusts
instead a second implementation of the rules written apart from it
(verify/sprouts2), ignores the hints and searches for every witness, one
or two moves deep, on every core: a bug in one implementation of the rules
can no longer make a false proof pass.

Before expanding any position the checker measures it; a position over a
limit is refused (exit 2) with a message naming the limit and the --max-…
flag that raises it. 0 keeps the default, -1 removes the limit.

Examples:
  spots-verify certs/*.arrow
  spots-verify --independent certs/*.arrow
  spots-verify --dump certs/eacf849c….arrow > rows.jsonl   # rows without Arrow
  spots-verify --spr glop-db.txt --claim '0*12=L' --convert certs
  spots-verify --spr glop-db.txt --claim '0*12=L' --independent

Flags:
`

// exitCodes is the end of --help.
const exitCodes = `  0    every input valid
  1    an input invalid, a certificate cut short or damaged included
  2    bad usage, an input that cannot be read or is no certificate at all
       (nothing in it claims to be one), an input refused by a limit,
       or (--independent) a certificate of another game than Sprouts
  3    incomplete: a certificate cited was not found (each missing address is named)
  130  interrupted (SIGINT, SIGTERM): no partial file is left
`

func main() { os.Exit(runMain()) }

// runMain is main without the exit: SIGINT and SIGTERM end the run with
// status 130 and no partial file, a failed write to standard output makes
// the status at least 1.
func runMain() int {
	stop := interrupt.ExitOnSignal("spots-verify", os.Stderr)
	defer stop()
	out := cmdout.New(os.Stdout)
	status := cmdline.JSONErrors("spots-verify", cmdline.WantsJSON(os.Args[1:]), out, os.Stderr, func(stdout, stderr io.Writer) int {
		return run(os.Args[1:], stdout, stderr)
	})
	return out.Status("spots-verify", status, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	c, status := parseArgs(args, stdout, stderr)
	if c == nil {
		return status
	}
	if msg := c.usageError(); msg != "" {
		return c.bad("%s", msg)
	}
	opt := verify.Options{Limits: c.limits, Independent: c.independent, Library: verify.NewLibrary(c.cites...), Used: !c.whole}
	if !c.noCache {
		opt.Verdicts = cmdline.Verdicts("spots-verify", stderr)
	}
	p := &printer{w: stdout, json: c.json, prog: showProgress(c.progress, stderr, &opt)}
	if err := c.checkOutputs(); err != nil {
		return c.bad("%v", err)
	}
	prof, err := cpuprofile.Start(c.profile, format.CreateAtomic)
	if err != nil {
		return c.bad("%v", err)
	}
	defer func() {
		if err := prof.Stop(); err != nil {
			fmt.Fprintf(stderr, "spots-verify: %v\n", err)
		}
	}()
	switch {
	case c.dump:
		return dump(c.flags.Args(), c.spr != "", opt, c.json, stdout, stderr)
	case c.bundle != "" || c.inline != "":
		p.prog.Clear()
		return export(c.flags.Arg(0), c.bundle+c.inline, c.inline != "", opt, c.json, stdout, stderr)
	case c.spr != "":
		claim, err := canonicalClaim(c.claim, c.independent)
		if err != nil {
			return c.bad("--claim: %v", err)
		}
		if claim.Kind == format.ClaimLemmas {
			return c.bad("--claim %s: a claim of lemmas is what a certificate's rows prove, not a claim about a position a database is checked against: give POS=W, POS=L or gn(POS)=N", c.claim)
		}
		p.emit(checkDatabase(c.spr, claim, c.convert, c.lenient, opt, p.prog))
	case c.flags.NArg() == 0:
		fmt.Fprintln(stderr, "spots-verify: nothing to check: give certificate files, or --spr DB --claim CLAIM")
		c.flags.Usage()
		return 2
	default:
		var want *format.Claim
		if c.claim != "" {
			claim, err := canonicalClaim(c.claim, c.independent)
			if err != nil {
				return c.bad("--claim: %v", err)
			}
			want = &claim
		}
		for _, path := range c.flags.Args() {
			p.emit(expect(checkFile(path, opt), want, c.independent))
		}
	}
	return p.status
}

// canonicalClaim parses a claim and writes its root in canonical form, so
// users may type any notation of the position. With independent the root
// is read by the second implementation of the rules and left as typed (it
// has no canonical form).
func canonicalClaim(s string, independent bool) (format.Claim, error) {
	c, err := format.ParseClaim(s)
	if err != nil {
		return c, err
	}
	if independent {
		_, err := sprouts2.Parse(c.Root)
		return c, err
	}
	p, err := sprouts.Parse(c.Root)
	if err != nil {
		return c, err
	}
	c.Root = p.String()
	return c, nil
}

func checkFile(path string, opt verify.Options) report {
	start := time.Now()
	res, err := verify.File(path, opt)
	r := report{Input: path, Claim: res.Claim.String(), Address: res.Address, Entries: res.Entries, Seconds: time.Since(start).Seconds(),
		Independent: opt.Independent, Cites: res.Cites, Cited: res.Cited, Used: res.Used, Unchecked: res.Read - res.Used, Remembered: res.Remembered}
	if res.Claim.Kind == 0 {
		r.Claim = ""
	}
	return finish(r, err)
}
