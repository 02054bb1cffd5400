// Command spots-corpus keeps the corpus of known n-spot Sprouts outcomes:
// the literature table, the certificates we produced for it, and the table
// and plot generated from both (see package corpus for the layout).
//
// Usage:
//
//	spots-corpus status [--json] [--dir DIR]
//	spots-corpus check [--json] [--sample | --budget D] [--independent] [--dir DIR]...
//	spots-corpus regenerate [--check [--no-verify]] [--dir DIR]
//	spots-corpus retime [--min-n N | --claim CLAIM...] [--runs K] [--independent] [--dry-run] [--json] [--dir DIR]
//	spots-corpus add --solve N [--nimber] [--algorithm dfpn|pdfpn|pns] [--threads N] [--timeout D]
//	                 [--capacity N] [--replace] [--no-commit] [--out DIR] [--json] [--dir DIR]
//
// status prints one line per n: the outcome, the Grundy value where known,
// what the conjecture predicts, who first solved it, and our certificates
// with their status, size and times, as in
//
//	n   outcome  Grundy  conj.  first solved by     year  certificate              status               entries  solve    verify
//	14  L        0       L      Purinton AuntBeast  2006  0*14=L  5424fc9eedb3     found, not verified  6260     20.27 s  0.72 s
//	15  W        1       W      GLOP                2007  0*15=W  afe87b1cd973     found, not verified  6263     36.93 s  2.63 s
//	                                                      gn(0*15)=1  d4f9a6ebb2db found, not verified  6265     38.63 s  2.89 s
//
// and after the table the frontier: the largest n such that the outcome
// of every 0*n', n' ≤ n, is certified, the certified n beyond it, and
// which of 0*33 … 0*44 (where GLOP's 2010–2011 results lie) are certified
// and which are open, as in
//
//	frontier  every outcome of 0*1 … 0*32 certified; certified beyond it: 0*47
//	33 … 44   certified: none; open: 0*33 … 0*44 (GLOP 2010–2011 first solved 0*33, 0*36 … 0*39, 0*42 … 0*44)
//
// or with --json one object per n (no frontier). It answers from the
// index at once: it finds each committed certificate (present, with the
// size index.csv gives) and verifies none; check verifies them.
// (--no-verify, which status once needed for that, is accepted and
// changes nothing.)
//
// check verifies every committed certificate and reports each disagreement
// between the certificates, index.csv, the files in certs/, the literature
// table and the Sprouts conjecture, naming the n, the file and what is wrong:
//
//	verified  0*14=L  5424fc9eedb3  6260 entries  0.72 s  corpus/certs/5424fc9e….arrow
//	PROBLEM   n = 5: corpus/certs/af026028….arrow: certifies 0*5=W, so 0*5 is W, but literature.csv line 6 says L (first solved by Mollison)
//	corpus: 28 of 28 committed certificates verified, 0 listed but not committed, 105 literature rows, 1.9 MB; 1 problem
//
// A certificate that cites others (add draws on the corpus) is verified
// with them: one library for the run checks each certificate once, those
// cited first, however many cite it, by the default and the --independent
// check alike. A citation of an address that index.csv does not list, or
// of a certificate kept elsewhere from a committed one, is a problem
// naming the certificate and the address; so is a row whose cites (the
// last column of index.csv) differ from the certificate's.
//
// It also applies the size rule: a committed certificate over 16 MB, or a
// corpus directory over 100 MB, is a problem. --dir names the corpus (a
// directory holding index.csv) or a directory holding certificates kept
// elsewhere (listed in index.csv as not committed); it may be repeated,
// and each may be a list of directories (separated by the system's list
// separator, : on Unix). Each certificate kept elsewhere found in one of
// them, as <address>.arrow, is verified like a committed one; those found
// in none are listed as missing, which is not a failure.
//
// --independent verifies the Sprouts certificates with the second
// implementation of the rules alone (spots-verify --independent), which
// shares no code with the rules the solver used; the certificates of the
// other games are then only found.
//
// --sample verifies only a fixed sample (the committed certificates of
// 0*1 … 0*14) and the certificates changed since the last git tag (git
// diff against it, and files git does not track yet); the others are only
// found, present with the size the index gives. A certificate verified
// brings those it cites, directly or not, into the sample (the sample
// line counts them): it is valid only with them. Without a tag it
// compares with HEAD; outside a git work tree it verifies all. --budget D samples
// so only when the verify times index.csv records for the committed
// certificates add up to more than D (make test uses it, make corpus-check
// verifies all).
//
// regenerate rebuilds OUTCOMES.md and outcomes.svg from the literature table
// and the verified certificates (it checks the corpus first and writes
// nothing if that finds a problem); with --check it compares them with the
// files instead of writing, as CI does. --check --no-verify does not run the
// checker on the certificates, only finds each as index.csv lists it, and
// renders as if all verified: for use right after check, which verified
// them (make test runs both, so each certificate is verified once).
//
// retime verifies the committed certificates of 0*N, N ≥ --min-n (or those
// of the claims --claim names), --runs times each in a process of its own,
// records the median time in index.csv and regenerates: the verify/solve
// rule of OUTCOMES.md then judges the checker as it is today, on this
// machine, not the one that ran when the certificate was added. With
// --independent it times the independent check instead and records it in
// index.csv's independent_seconds.
//
// add solves 0*N (its outcome, or with --nimber its Grundy value), writes
// the certificate into the corpus, verifies it, records it in index.csv with
// the times and iterations measured and the certificates it cites, and
// regenerates. The verify time is measured in a
// separate process (this command run again on the file), so that nothing
// the search left in memory helps the check. With --no-commit the
// certificate is written into --out instead and listed in the index as not
// committed; so is one over the size rule (over 16 MB, or one that would
// take the corpus directory over 100 MB), moved to --out after it was made.
//
// The corpus is the corpus/ directory of the repository holding the working
// directory, unless --dir names another. Progress is shown on standard error
// (a refreshing line on a terminal, a line every 10 s otherwise; with
// --progress json a JSON object a line, every second; none with
// --progress none). Exit status: 0 when all is well, 1 when the corpus does
// not check (a certificate missing or invalid, a disagreement, stale
// generated files) or add could not solve or certify, 2 for bad usage or an
// unreadable corpus, 130 when interrupted (SIGINT or SIGTERM; nothing is
// added, and every file is written through a temporary file and a rename).
// A signal stops status, check and regenerate at once, even in the middle
// of a certificate; add saves its search first, and retime stops the
// process that verifies.
package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

const usage = `usage: spots-corpus COMMAND [flags]

Keeps the corpus of known n-spot Sprouts outcomes and their certificates.

Commands:
  status       the table of known outcomes and our certificates
  check        verify every certificate and every claim against the literature and the conjecture
               (--sample / --budget D: a sample; --dir DIR: also the certificates kept elsewhere that DIR holds)
  regenerate   rebuild OUTCOMES.md and outcomes.svg (--check: fail if they are stale; --check --no-verify: after check, without verifying again)
  retime       time again, in separate processes, how long certificates take to verify, and record it
  add          solve 0*N, certify it and add it to the corpus (--solve N)

Run spots-corpus COMMAND --help for its flags; spots-corpus --version
prints the version.

Examples:
  spots-corpus status
  spots-corpus check --json
  spots-corpus check --dir /data/spots-certs
  spots-corpus add --solve 12 --nimber
  spots-corpus retime --claim 0*21=W --runs 5
` + "\nExit status:\n" + exitCodes

// exitCodes is the end of --help.
const exitCodes = `  0    all is well
  1    the corpus does not check, or add could not solve or certify
  2    bad usage or an unreadable corpus
  130  interrupted (SIGINT, SIGTERM): nothing added
`

func main() { os.Exit(runMain()) }

// runMain runs the command with the process's arguments, standard streams
// and signals, and returns its exit status (at least 1 if writing standard
// output failed).
func runMain() int {
	ctx, stop := interrupt.Context() // a second signal ends the process at once
	defer stop()
	out := cmdout.New(os.Stdout)
	status := cmdline.JSONErrors("spots-corpus", cmdline.WantsJSON(os.Args[1:]), out, os.Stderr, func(stdout, stderr io.Writer) int {
		return run(ctx, os.Args[1:], stdout, stderr)
	})
	return out.Status("spots-corpus", status, os.Stderr)
}

// commands maps each command to its function and a one-line summary.
var commands = map[string]struct {
	run     func(*env) int
	summary string
	flags   func(*pflag.FlagSet, *options)
}{
	"status":     {atOnce(runStatus), "spots-corpus status [--json] [--state-root DIR] [--game GAME] [--dir DIR]", statusFlags},
	"check":      {atOnce(runCheck), "spots-corpus check [--json] [--sample | --budget D] [--independent] [--dir DIR]...", checkFlags},
	"regenerate": {atOnce(runRegenerate), "spots-corpus regenerate [--check [--no-verify]] [--dir DIR]", regenerateFlags},
	"retime":     {runRetime, "spots-corpus retime [--min-n N | --claim CLAIM...] [--runs K] [--independent] [--dry-run] [--json] [--dir DIR]", retimeFlags},
	"add":        {runAdd, "spots-corpus add --solve N [--nimber] [--algorithm dfpn|pdfpn|pns] [--threads N] [--timeout D] [--capacity N] [--replace] [--no-commit] [--out DIR] [--json] [--dir DIR]", addFlags},
}

// atOnce makes a command that has nothing to wind down (it reads and
// verifies, and writes its files atomically) stop at the first SIGINT or
// SIGTERM, with status 130, even in the middle of verifying a certificate
// for minutes. add and retime wind down instead: add saves its search,
// retime ends the process verifying apart.
func atOnce(run func(*env) int) func(*env) int {
	return func(e *env) int {
		defer interrupt.ExitWhenDone(e.ctx, "spots-corpus", e.stderr)()
		return run(e)
	}
}

// options holds the flags of all commands.
type options struct {
	dir      string
	json     bool
	progress statusline.Mode // --progress
	noVerify bool            // status, regenerate --check
	game     string          // status: --game, the table of a game other than Sprouts
	check    bool            // regenerate
	// check
	dirs     []string      // --dir as given
	certDirs []string      // the directories of certificates kept elsewhere among them
	sample   bool          // --sample
	budget   time.Duration // --budget
	// check and retime: the independent check (spots-verify --independent)
	independent bool
	noCache     bool // check, regenerate: --no-cache
	// add
	solve         int   // the N being added
	solves        []int // --solve
	nimber        bool
	algorithm     solve.Algorithm // --algorithm, read by checkAddFlags
	algorithmName string          // --algorithm as given
	timeout       time.Duration
	capacity      int
	threads       int // --threads: pdfpn's
	replace       bool
	noCommit      bool
	out           string
	state         string        // --state: the checkpoint directory ("" for the default)
	noState       bool          // --no-state
	noReuse       bool          // --no-reuse
	every         time.Duration // --state-every
	lemmaEntries  int           // --lemma-entries
	lemmasEvery   time.Duration // --lemmas-every
	runs          int           // runs the solve took, from its checkpoint; retime: processes per certificate
	// retime
	minN   int
	claims []string
	dryRun bool
}

// env is what a command runs with.
type env struct {
	ctx            context.Context
	opt            options
	flags          *pflag.FlagSet
	stdout, stderr io.Writer
	prog           *statusline.Line
	pool           *certify.Pool   // add: the certificates drawn on, read once a run
	lib            *verify.Library // add: the checks of what the certificates cite, once a run
}

func (e *env) fail(status int, msg string, a ...any) int {
	e.prog.Clear()
	fmt.Fprintf(e.stderr, "spots-corpus: "+msg+"\n", a...)
	return status
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "--version", "version":
		fmt.Fprintf(stdout, "spots-corpus %s\n", buildinfo.Version())
		return 0
	}
	if name == verifyCommand {
		return runVerifyChild(args[1:], stdout, stderr)
	}
	cmd, ok := commands[name]
	if !ok && strings.HasPrefix(name, "-") {
		fmt.Fprintf(stderr, "spots-corpus: %s: give the command first (status, check, regenerate, retime or add), then its flags\n", name)
		return 2
	}
	if !ok {
		fmt.Fprintf(stderr, "spots-corpus: unknown command %q (want status, check, regenerate, retime or add)%s\n", name,
			cmdline.DidYouMean(name, "status", "check", "regenerate", "retime", "add"))
		fmt.Fprint(stderr, usage)
		return 2
	}
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr}
	flags := pflag.NewFlagSet("spots-corpus "+name, pflag.ContinueOnError)
	flags.SetOutput(stderr)
	if name == "check" {
		flags.StringArrayVar(&e.opt.dirs, "dir", nil, "the corpus directory (default: corpus/ of the repository holding the working directory), or a `DIR` holding certificates kept elsewhere, to verify too; repeatable, each may be a list separated by "+string(filepath.ListSeparator))
	} else {
		flags.StringVar(&e.opt.dir, "dir", "", "the corpus directory (default: corpus/ of the repository holding the working directory)")
	}
	flags.Var(&e.opt.progress, "progress", statusline.FlagUsage)
	cmd.flags(flags, &e.opt)
	std := buildinfo.AddStd(flags)
	text := fmt.Sprintf("usage: %s\n\nFlags:\n", cmd.summary)
	flags.Usage = func() { buildinfo.Usage(stderr, text, flags, exitCodes) }
	if err := cmdline.Parse(flags, args[1:]); err != nil {
		fmt.Fprintf(stderr, "spots-corpus %s: %v\n", name, err)
		return 2
	}
	if std.Handle("spots-corpus", stdout, func(w io.Writer) { buildinfo.Usage(w, text, flags, exitCodes) }) {
		return 0
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "spots-corpus %s: unexpected argument %q\n", name, flags.Arg(0))
		flags.Usage()
		return 2
	}
	e.flags = flags
	e.prog = e.opt.progress.New(stderr)
	if status := e.sortDirs(); status >= 0 {
		return status
	}
	if e.opt.dir == "" {
		dir, err := corpus.Find(".")
		if err != nil {
			return e.fail(2, "%v", err)
		}
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, dir); err == nil {
				dir = rel
			}
		}
		e.opt.dir = dir
	}
	return cmd.run(e)
}

// sortDirs sorts check's --dir values: the corpus directory (one holding
// index.csv or literature.csv) goes to opt.dir, the others, directories of
// certificates kept elsewhere, to opt.certDirs. It returns the exit status
// of a bad value, or -1.
func (e *env) sortDirs() int {
	for _, list := range e.opt.dirs {
		for _, d := range filepath.SplitList(list) {
			if d == "" {
				continue
			}
			st, err := os.Stat(d)
			if err != nil {
				return e.fail(2, "--dir: %v", err)
			}
			if !st.IsDir() {
				return e.fail(2, "--dir %s is not a directory", d)
			}
			if !isCorpus(d) {
				e.opt.certDirs = append(e.opt.certDirs, d)
				continue
			}
			if e.opt.dir != "" && filepath.Clean(e.opt.dir) != filepath.Clean(d) {
				return e.fail(2, "--dir %s and --dir %s are both corpus directories (they hold %s); give one", e.opt.dir, d, corpus.IndexFile)
			}
			e.opt.dir = d
		}
	}
	return -1
}

// isCorpus reports whether dir holds a corpus's index or literature table.
func isCorpus(dir string) bool {
	for _, name := range []string{corpus.IndexFile, corpus.LiteratureFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return true
		}
	}
	return false
}

// open reads the corpus; an unreadable one is exit status 2.
func (e *env) open() (*corpus.Corpus, int) {
	c, err := corpus.Open(e.opt.dir)
	if err != nil {
		return nil, e.fail(2, "%v", err)
	}
	return c, -1
}

// plural returns "1 problem", "2 problems".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// millis rounds seconds to milliseconds, as index.csv keeps them.
func millis(s float64) float64 { return math.Round(s*1000) / 1000 }
