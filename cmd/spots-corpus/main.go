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
//	spots-corpus add --solve N [--nimber] [--algorithm dfpn|pns] [--timeout D]
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
// shares no code with the rules the solver used; the Cram certificates are
// then only found.
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
// --no-progress). Exit status: 0 when all is well, 1 when the corpus does
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
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/outcome"
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
	certify.Version = buildinfo.Version()
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
	"status":     {atOnce(runStatus), "spots-corpus status [--json] [--state-root DIR] [--dir DIR]", statusFlags},
	"check":      {atOnce(runCheck), "spots-corpus check [--json] [--sample | --budget D] [--independent] [--dir DIR]...", checkFlags},
	"regenerate": {atOnce(runRegenerate), "spots-corpus regenerate [--check [--no-verify]] [--dir DIR]", regenerateFlags},
	"retime":     {runRetime, "spots-corpus retime [--min-n N | --claim CLAIM...] [--runs K] [--independent] [--dry-run] [--json] [--dir DIR]", retimeFlags},
	"add":        {runAdd, "spots-corpus add --solve N [--nimber] [--algorithm dfpn|pns] [--timeout D] [--capacity N] [--replace] [--no-commit] [--out DIR] [--json] [--dir DIR]", addFlags},
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
	dir        string
	json       bool
	noProgress bool
	progress   statusline.Mode // --progress (Off with --no-progress)
	noVerify   bool            // status, regenerate --check
	check      bool            // regenerate
	// check
	dirs     []string      // --dir as given
	certDirs []string      // the directories of certificates kept elsewhere among them
	sample   bool          // --sample
	budget   time.Duration // --budget
	// check and retime: the independent check (spots-verify --independent)
	independent bool
	// add
	solve     int   // the N being added
	solves    []int // --solve
	nimber    bool
	algorithm string
	timeout   time.Duration
	capacity  int
	replace   bool
	noCommit  bool
	out       string
	state     string        // --state: the checkpoint directory ("" for the default)
	noState   bool          // --no-state
	noReuse   bool          // --no-reuse
	every     time.Duration // --state-every
	runs      int           // runs the solve took, from its checkpoint; retime: processes per certificate
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
	flags.BoolVar(&e.opt.noProgress, "no-progress", false, "do not show progress on standard error")
	_ = flags.MarkHidden("no-progress") // --progress none says it; kept for the scripts that use it
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
	e.prog = e.opt.progress.Unless(e.opt.noProgress).New(stderr)
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

func statusFlags(f *pflag.FlagSet, o *options) {
	f.BoolVar(&o.json, "json", false, "print one JSON object per n")
	f.BoolVar(&o.noVerify, "no-verify", false, "deprecated: status verifies nothing (spots-corpus check does)")
	f.Lookup("no-verify").Hidden = true
	f.StringVar(&o.state, "state-root", "", "where add keeps its checkpoints (`DIR`/0*N, DIR/gn(0*N)): each found is listed as an unfinished solve with its iterations (default: spots/corpus in the user's cache directory)")
}

func checkFlags(f *pflag.FlagSet, o *options) {
	f.BoolVar(&o.json, "json", false, "print the report as one JSON object")
	f.BoolVar(&o.sample, "sample", false, fmt.Sprintf("verify only the committed certificates of 0*1 … 0*%d and those changed since the last git tag (since HEAD when there is no tag); only find the others", corpus.SampleMaxN))
	f.DurationVar(&o.budget, "budget", 0, "as --sample when the verify times index.csv records for the committed certificates add up to more than `D` (e.g. 90s; 0: never)")
	f.BoolVar(&o.independent, "independent", false, "verify the Sprouts certificates with the second, independent implementation of the rules (spots-verify --independent); the Cram certificates are then only found")
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

func regenerateFlags(f *pflag.FlagSet, o *options) {
	f.BoolVar(&o.check, "check", false, "compare with the committed files instead of writing; exit 1 if they are stale")
	f.BoolVar(&o.noVerify, "no-verify", false, "with --check: do not verify the certificates, only check that each is present as index.csv lists it (for use after spots-corpus check, which verifies them)")
}

func addFlags(f *pflag.FlagSet, o *options) {
	f.IntSliceVar(&o.solves, "solve", nil, "solve the n-spot start 0*`N`; several N (--solve 34,35 or the flag again) are added one after another in one run, which checks what their certificates cite once")
	f.BoolVar(&o.nimber, "nimber", false, "prove the Grundy value instead of the outcome")
	f.StringVar(&o.algorithm, "algorithm", "dfpn", "search: dfpn or pns")
	f.DurationVar(&o.timeout, "timeout", 0, "give up after this long (e.g. 10m; 0: never)")
	f.IntVar(&o.capacity, "capacity", solve.DefaultCapacity, "transposition-table entries (dfpn)")
	f.BoolVar(&o.replace, "replace", false, "replace the corpus's certificate of the same kind for 0*N")
	f.BoolVar(&o.noCommit, "no-commit", false, "list the certificate in the index as not committed and write it into --out, not the corpus")
	f.StringVar(&o.out, "out", ".", fmt.Sprintf("where a certificate not committed goes (`DIR`): with --no-commit, or one over the size rule (%d MB, or more than takes the corpus to %d MB)", corpus.MaxCertBytes/1e6, corpus.MaxCorpusBytes/1e6))
	f.StringVar(&o.state, "state", "", "dfpn: save the search to `DIR` every --state-every and when it stops, and resume from it: the same command run again after a crash, a Ctrl-C or --timeout goes on where it was (default: a directory per claim in the user's cache directory, removed once the certificate is added)")
	f.DurationVar(&o.every, "state-every", solve.DefaultCheckpointEvery, "how often --state saves the search")
	f.BoolVar(&o.noState, "no-state", false, "neither save nor resume the search")
	f.BoolVar(&o.noReuse, "no-reuse", false, "solve from nothing: do not draw on the corpus's certificates (by default the search preloads their values and the new certificate cites those its proof relies on)")
	f.BoolVar(&o.json, "json", false, "print the result as one JSON object")
}

// sofar describes, for the status line, the search over all its runs and
// what is left of it when a previous solve's time (before) gives an
// estimate.
func sofar(saver *checkpoint.Saver, p solve.Progress, before float64) string {
	its, secs := saver.Totals(p.Iterations)
	text := ""
	if saver.Base.Runs > 0 {
		text = fmt.Sprintf("; in all %s, %d iterations over %d runs", time.Duration(secs*float64(time.Second)).Round(time.Second), its, saver.Base.Runs+1)
	}
	if before > secs {
		text += fmt.Sprintf("; about %s left, if it takes as long as the certificate it replaces", time.Duration((before-secs)*float64(time.Second)).Round(time.Second))
	}
	return text
}

// stateDir returns the checkpoint directory of add, or "" for none.
func stateDir(o options) (string, error) {
	switch {
	case o.noState || o.algorithm != "dfpn":
		return "", nil
	case o.state != "":
		return o.state, nil
	}
	root, err := stateRoot("")
	if err != nil {
		return "", fmt.Errorf("no --state given and %w", err)
	}
	name := corpus.StartText(o.solve)
	if o.nimber {
		name = "gn(" + name + ")"
	}
	return filepath.Join(root, name), nil
}

// stateRoot returns the directory under which add keeps its checkpoints by
// default (one directory per claim, 0*n or gn(0*n)), or root if given.
func stateRoot(root string) (string, error) {
	if root != "" {
		return root, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the checkpoints: %w", err)
	}
	return filepath.Join(cache, "spots", "corpus"), nil
}

// open reads the corpus; an unreadable one is exit status 2.
func (e *env) open() (*corpus.Corpus, int) {
	c, err := corpus.Open(e.opt.dir)
	if err != nil {
		return nil, e.fail(2, "%v", err)
	}
	return c, -1
}

// limits is the size rule the commands apply (the zero value: the
// defaults of package corpus); tests make it small.
var limits corpus.Limits

// check verifies the corpus (with --no-verify: checks it without
// verifying the certificates), showing progress. opt gives the rest of
// the options (its NoVerify, Limits and Progress are set here).
func (e *env) check(c *corpus.Corpus, opt corpus.CheckOptions) *corpus.Report {
	opt.NoVerify, opt.Limits = e.opt.noVerify, limits
	if e.prog != nil {
		what := "verifying"
		if opt.NoVerify {
			what = "finding"
		}
		opt.Progress = func(i, total int, r corpus.Record) {
			e.prog.Report(false, what, checkProgress{i, total, r.Claim.String()}, fmt.Sprintf("%s %d of %d: %s", what, i, total, r.Claim))
		}
		if e.opt.progress == statusline.Text {
			// A line a certificate, kept: interrupted, the run shows
			// what it had checked.
			opt.Checked = func(done, total int, cc corpus.CertCheck) {
				e.prog.Clear()
				fmt.Fprintf(e.stderr, "spots-corpus: %d of %d: %s %s (%.2f s)\n", done, total, cc.Record.Claim, checkedWord(cc), cc.Elapsed.Seconds())
			}
		}
	}
	rep := c.Check(opt)
	e.prog.Clear()
	return rep
}

// checkedWord says how a certificate's check ended, in a word or two.
func checkedWord(cc corpus.CertCheck) string {
	switch {
	case cc.Err != nil:
		return "FAILED"
	case cc.Trusted:
		return "found"
	}
	return "verified"
}

// checkProgress are the figures of check's progress in --progress json.
type checkProgress struct {
	Certificate int    `json:"certificate"` // the number of the certificate begun, from 1
	Of          int    `json:"of"`          // the certificates
	Claim       string `json:"claim"`
}

func printProblems(w io.Writer, rep *corpus.Report) {
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "PROBLEM   %s\n", p)
	}
	for _, p := range rep.Notes {
		fmt.Fprintf(w, "note      %s\n", p)
	}
}

// ---- check

type certJSON struct {
	N             int     `json:"n"`
	Claim         string  `json:"claim"`
	Address       string  `json:"address"`
	Entries       int     `json:"entries"`
	Bytes         int64   `json:"bytes"`
	Algorithm     string  `json:"algorithm"`
	SolveSeconds  float64 `json:"solve_seconds"`
	VerifySeconds float64 `json:"verify_seconds"`
	Added         string  `json:"added,omitempty"`
	Committed     bool    `json:"committed"`
	Command       string  `json:"command,omitempty"`
	Iterations    uint64  `json:"iterations,omitempty"` // of the search, when index.csv records them
	// Cites are the addresses of the certificates it cites (index.csv's
	// cites; in check's report, the certificate's own when verified), and
	// Cited the number it relies on, directly or not, as check verified
	// them.
	Cites   []string `json:"cites,omitempty"`
	Cited   int      `json:"cited,omitempty"`
	Status  string   `json:"status,omitempty"`
	Path    string   `json:"path,omitempty"`
	Seconds float64  `json:"seconds,omitempty"` // this check's time
	Error   string   `json:"error,omitempty"`
}

type problemJSON struct {
	N       int    `json:"n,omitempty"`
	File    string `json:"path,omitempty"` // the file at fault
	What    string `json:"what"`
	OldFile string `json:"file,omitempty"` // deprecated: path's former key (docs/json.md)
}

type checkJSON struct {
	Dir          string        `json:"dir"`
	OK           bool          `json:"ok"`
	Sample       string        `json:"sample,omitempty"` // what --sample verified, when it sampled
	Bytes        int64         `json:"bytes"`            // the size of the corpus directory
	Certificates []certJSON    `json:"certificates"`
	Elsewhere    []certJSON    `json:"elsewhere,omitempty"` // with --dir DIR of certificates kept elsewhere
	Cram         []cramJSON    `json:"cram"`                // the Cram table's certificates
	Problems     []problemJSON `json:"problems"`
	Notes        []problemJSON `json:"notes"`
}

// cramJSON is a Cram certificate in check's JSON.
type cramJSON struct {
	Board   string  `json:"board"`
	Claim   string  `json:"claim"`
	Address string  `json:"address"`
	Path    string  `json:"path"`
	Seconds float64 `json:"seconds"`
	Status  string  `json:"status"` // as certJSON's: verified, found (not in the sample) or FAILED
	Error   string  `json:"error,omitempty"`
}

// cramStatus returns the status of a Cram certificate in check's report.
func cramStatus(cc corpus.CramCheck) string {
	switch {
	case cc.Err != nil:
		return corpus.StatusFailed
	case cc.Trusted:
		return corpus.StatusFound
	}
	return corpus.StatusVerified
}

func recordJSON(r corpus.Record) certJSON {
	return certJSON{N: r.N, Claim: r.Claim.String(), Address: r.Address, Entries: r.Entries, Bytes: r.Bytes,
		Algorithm: r.Algorithm, SolveSeconds: r.SolveSeconds, VerifySeconds: r.VerifySeconds, Added: r.Added,
		Committed: r.Committed, Command: r.Command, Iterations: r.Iterations, Cites: r.Cites}
}

func problemsJSON(ps []corpus.Problem) []problemJSON {
	out := []problemJSON{}
	for _, p := range ps {
		out = append(out, problemJSON{N: p.N, File: p.File, What: p.What, OldFile: p.File})
	}
	return out
}

// certStatus returns the status of a certificate in check's report.
func certStatus(cc corpus.CertCheck, elsewhere bool) string {
	switch {
	case cc.Missing:
		return corpus.StatusMissing
	case cc.Err != nil:
		return corpus.StatusFailed
	case cc.Trusted:
		return corpus.StatusFound
	case elsewhere:
		return corpus.StatusElsewhere
	}
	return corpus.StatusVerified
}

func runCheck(e *env) int {
	if e.opt.sample && e.opt.budget != 0 {
		return e.fail(2, "--sample and --budget: give one (--budget samples only when the full check is over it)")
	}
	if e.opt.budget < 0 {
		return e.fail(2, "--budget %v is negative", e.opt.budget)
	}
	c, status := e.open()
	if c == nil {
		return status
	}
	opt := corpus.CheckOptions{Elsewhere: e.opt.certDirs, Verify: verify.Options{Independent: e.opt.independent}}
	sample := e.sample(c, &opt)
	rep := e.check(c, opt)
	if rep.SampleCited > 0 {
		sample += fmt.Sprintf(", and the %s they cite, directly or not (a certificate verifies only with those it cites)", plural(rep.SampleCited, "certificate"))
	}
	if e.opt.json {
		printCheckJSON(e.stdout, c, rep, sample)
	} else {
		e.printCheck(c, rep, opt, sample)
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

// sample sets opt.Sample to what check verifies, with --sample or when
// the recorded verify times are over --budget, and returns a phrase
// saying what that is ("" when check verifies every certificate).
func (e *env) sample(c *corpus.Corpus, opt *corpus.CheckOptions) string {
	recorded := c.VerifySeconds()
	over := e.opt.budget > 0 && recorded > e.opt.budget.Seconds()
	if !e.opt.sample && !over {
		return ""
	}
	var sample string
	opt.Sample, sample = sampleOf(c.Dir)
	if over {
		sample += fmt.Sprintf(" (the recorded verify times add up to %.0f s, over --budget %v)", recorded, e.opt.budget)
	}
	return sample
}

// printCheckJSON prints check's report as one JSON object.
func printCheckJSON(w io.Writer, c *corpus.Corpus, rep *corpus.Report, sample string) {
	out := checkJSON{Dir: c.Dir, OK: rep.OK(), Sample: sample, Bytes: rep.Bytes, Certificates: []certJSON{},
		Cram: []cramJSON{}, Problems: problemsJSON(rep.Problems), Notes: problemsJSON(rep.Notes)}
	for _, cc := range rep.Cram {
		j := cramJSON{Board: cc.Record.Board, Claim: cc.Record.Claim.String(), Address: cc.Record.Address,
			Path: cc.Path, Seconds: cc.Elapsed.Seconds(), Status: cramStatus(cc)}
		if cc.Err != nil {
			j.Error = cc.Err.Error()
		}
		out.Cram = append(out.Cram, j)
	}
	for _, cc := range rep.Certificates {
		out.Certificates = append(out.Certificates, checkedJSON(cc, false))
	}
	for _, cc := range rep.Elsewhere {
		out.Elsewhere = append(out.Elsewhere, checkedJSON(cc, true))
	}
	b, _ := json.Marshal(out)
	fmt.Fprintf(w, "%s\n", b)
}

// checkedJSON is a certificate in check's JSON (elsewhere: one kept
// outside the corpus).
func checkedJSON(cc corpus.CertCheck, elsewhere bool) certJSON {
	j := recordJSON(cc.Record)
	j.Path, j.Seconds, j.Status = cc.Path, cc.Elapsed.Seconds(), certStatus(cc, elsewhere)
	j.Cites, j.Cited = cc.Cites, cc.Result.Cited
	if cc.Err != nil {
		j.Error = cc.Err.Error()
	}
	return j
}

// checkTally counts what check did with the certificates.
type checkTally struct {
	verified, found, elsewhere, missing, cramVerified, cramFound int
}

// printCheck prints check's report for people: what it verifies, a line
// per certificate, the problems and a summary.
func (e *env) printCheck(c *corpus.Corpus, rep *corpus.Report, opt corpus.CheckOptions, sample string) {
	if sample != "" {
		rest := ""
		if opt.Sample != nil {
			rest = "; the others are only found (make corpus-check verifies all)"
		}
		fmt.Fprintf(e.stdout, "sample    verifying %s%s\n", sample, rest)
	}
	if e.opt.independent {
		fmt.Fprintln(e.stdout, "rules     the independent implementation (verify/sprouts2), witnesses searched for; Cram certificates only found")
	}
	n := printCertLines(e.stdout, rep, opt.Elsewhere)
	printProblems(e.stdout, rep)
	printCheckSummary(e.stdout, c, rep, n, e.opt.independent)
}

// printCertLines prints a line per certificate verified, found or missing
// (none for one that failed: its problem says why) and counts them.
func printCertLines(w io.Writer, rep *corpus.Report, elsewhere []string) checkTally {
	var n checkTally
	for _, cc := range rep.Certificates {
		switch {
		case cc.Err != nil:
		case cc.Trusted:
			n.found++
			fmt.Fprintf(w, "found     %s  %s  not verified (not in the sample)  %s\n", cc.Record.Claim, cc.Record.ShortAddress(), cc.Path)
		default:
			n.verified++
			fmt.Fprintf(w, "verified  %s  %s  %d entries  %.2f s  %s%s\n",
				cc.Record.Claim, cc.Record.ShortAddress(), cc.Result.Entries, cc.Elapsed.Seconds(), cc.Path, citesNote(cc))
		}
	}
	for _, cc := range rep.Elsewhere {
		switch {
		case cc.Missing:
			n.missing++
			fmt.Fprintf(w, "missing   %s  %s  kept elsewhere, in none of %s (%s makes it again)\n",
				cc.Record.Claim, cc.Record.ShortAddress(), strings.Join(elsewhere, ", "), cc.Record.Command)
		case cc.Err == nil:
			n.elsewhere++
			fmt.Fprintf(w, "verified  %s  %s  %d entries  %.2f s  %s  (kept elsewhere)%s\n",
				cc.Record.Claim, cc.Record.ShortAddress(), cc.Result.Entries, cc.Elapsed.Seconds(), cc.Path, citesNote(cc))
		}
	}
	for _, cc := range rep.Cram {
		switch {
		case cc.Err != nil:
		case cc.Trusted:
			n.cramFound++
		default:
			n.cramVerified++
			fmt.Fprintf(w, "verified  %s  %s  %d entries  %.2f s  %s\n",
				cc.Record.Claim, cc.Record.Address[:min(12, len(cc.Record.Address))], cc.Result.Entries, cc.Elapsed.Seconds(), cc.Path)
		}
	}
	return n
}

// citesNote ends the line of a verified certificate that cites others:
// how many it cites and relies on in all, each verified once in this run
// (its time is its own: those it cites are checked before it).
func citesNote(cc corpus.CertCheck) string {
	if len(cc.Cites) == 0 {
		return ""
	}
	return fmt.Sprintf("  cites %d (relies on %d in all, verified)", len(cc.Cites), cc.Result.Cited)
}

// printCheckSummary prints check's last line: what was verified and
// found, the corpus's size and whether it checks.
func printCheckSummary(w io.Writer, c *corpus.Corpus, rep *corpus.Report, n checkTally, independent bool) {
	listed := len(c.Records) - len(rep.Certificates)
	fmt.Fprintf(w, "%s: %d of %d committed certificates verified", c.Dir, n.verified, len(rep.Certificates))
	if n.found > 0 {
		fmt.Fprintf(w, " (%d more found, not in the sample)", n.found)
	}
	fmt.Fprintf(w, ", %d listed but not committed", listed)
	if rep.Elsewhere != nil {
		fmt.Fprintf(w, " (%d verified in --dir, %d missing)", n.elsewhere, n.missing)
	}
	if len(rep.Cram) > 0 {
		fmt.Fprintf(w, ", Cram: %d of %d verified", n.cramVerified, len(rep.Cram))
		switch {
		case n.cramFound > 0 && independent:
			fmt.Fprintf(w, " (%d more found: the independent check knows only Sprouts)", n.cramFound)
		case n.cramFound > 0:
			fmt.Fprintf(w, " (%d more found, not in the sample)", n.cramFound)
		}
	}
	fmt.Fprintf(w, ", %d literature rows, %s; ", len(c.Literature), corpus.SizeText(rep.Bytes))
	if rep.OK() {
		fmt.Fprintln(w, "no problem")
	} else {
		fmt.Fprintln(w, plural(len(rep.Problems), "problem"))
	}
}

// ---- regenerate

func runRegenerate(e *env) int {
	if e.opt.noVerify && !e.opt.check {
		return e.fail(2, "--no-verify goes with --check (regenerate writes only what it verified)")
	}
	c, status := e.open()
	if c == nil {
		return status
	}
	return e.regenerate(c, e.opt.check, false)
}

// regenerate checks the corpus and writes (or with check compares) the
// generated files. quiet prints nothing on success (for add --json, whose
// standard output is one JSON object).
func (e *env) regenerate(c *corpus.Corpus, check, quiet bool) int {
	stdout := e.stdout
	if quiet {
		stdout = io.Discard
	}
	rep := e.check(c, corpus.CheckOptions{})
	if !rep.OK() {
		printProblems(e.stderr, rep)
		return e.fail(1, "%s does not check (%s): not regenerating", c.Dir, plural(len(rep.Problems), "problem"))
	}
	gen, err := c.Generate(rep)
	if err != nil {
		return e.fail(1, "%v", err)
	}
	stale := c.Stale(gen)
	if check {
		if len(stale) > 0 {
			return e.fail(1, "%s stale: run spots-corpus regenerate (or make corpus) and commit the result", strings.Join(stale, " and ")+map[bool]string{true: " is", false: " are"}[len(stale) == 1])
		}
		fmt.Fprintf(stdout, "%s and %s are up to date\n", c.Path(corpus.OutcomesFile), c.Path(corpus.PlotFile))
		return 0
	}
	if len(stale) == 0 {
		fmt.Fprintf(stdout, "%s and %s are up to date\n", c.Path(corpus.OutcomesFile), c.Path(corpus.PlotFile))
		return 0
	}
	if err := c.Write(gen); err != nil {
		return e.fail(2, "%v", err)
	}
	fmt.Fprintf(stdout, "wrote %s\n", strings.Join(stale, " and "))
	return 0
}

// ---- status

type rowJSON struct {
	N                int             `json:"n"`
	Outcome          outcome.Outcome `json:"outcome"`
	Grundy           *uint32         `json:"grundy"`
	Conjecture       outcome.Outcome `json:"conjecture"`
	ConjectureGrundy uint32          `json:"conjecture_grundy"`
	Literature       *literatureJSON `json:"literature"`
	Certificates     []certJSON      `json:"certificates"`
	Unfinished       []unfinished    `json:"unfinished,omitempty"`
}

// unfinished is a solve of add that stopped before its certificate, as its
// checkpoint describes it.
type unfinished struct {
	Claim      string    `json:"claim"` // 0*n or gn(0*n): what the search is after
	Checkpoint string    `json:"checkpoint"`
	Seconds    float64   `json:"seconds"`
	Iterations uint64    `json:"iterations"`
	Nimbers    int       `json:"grundy_numbers"`
	OldNimbers int       `json:"grundy_values"` // deprecated: grundy_numbers' former key (docs/json.md)
	Runs       int       `json:"runs"`
	Saved      time.Time `json:"saved"`
}

// unfinishedOf returns the checkpoints of add --solve n (with and without
// --nimber) found in the state directories under root.
func unfinishedOf(root string, n int) []unfinished {
	if root == "" {
		return nil
	}
	var out []unfinished
	for _, nimber := range []bool{false, true} {
		name := corpus.StartText(n)
		if nimber {
			name = "gn(" + name + ")"
		}
		dir := filepath.Join(root, name)
		m, err := checkpoint.Load(dir)
		if err != nil || m.Position != corpus.StartText(n) || m.Nimber != nimber {
			continue
		}
		out = append(out, unfinished{Claim: name, Checkpoint: dir, Seconds: millis(m.Seconds), Iterations: m.Iterations,
			Nimbers: m.Nimbers, OldNimbers: m.Nimbers, Runs: m.Runs, Saved: m.Saved})
	}
	return out
}

type literatureJSON struct {
	Outcome       outcome.Outcome `json:"outcome"`
	FirstSolvedBy string          `json:"first_solved_by"`
	Who           string          `json:"who"`
	Year          string          `json:"year"`
	ProofSize     string          `json:"proof_size_grundy_numbers"`
}

func runStatus(e *env) int {
	c, status := e.open()
	if c == nil {
		return status
	}
	// From the index: each certificate found, none verified (check does).
	e.opt.noVerify = true
	rep := e.check(c, corpus.CheckOptions{})
	rows := foundRows(c.Table(rep))
	root, err := stateRoot(e.opt.state)
	if err != nil {
		root = "" // no cache directory: no checkpoints to show
	}
	if e.opt.json {
		for _, r := range rows {
			j := rowJSON{N: r.N, Outcome: r.Outcome, Grundy: r.Grundy, Conjecture: r.ConjectureOutcome,
				ConjectureGrundy: r.ConjectureGrundy, Certificates: []certJSON{}, Unfinished: unfinishedOf(root, r.N)}
			if k := r.Known; k != nil {
				who, year := k.Solver()
				j.Literature = &literatureJSON{Outcome: k.Outcome, FirstSolvedBy: k.FirstSolvedBy, Who: who, Year: year, ProofSize: k.ProofSize}
			}
			for _, cert := range r.Certificates {
				cj := recordJSON(cert.Record)
				cj.Status = cert.Status
				if cert.Committed {
					cj.Path = c.CertPath(cert.Record)
				}
				j.Certificates = append(j.Certificates, cj)
			}
			b, _ := json.Marshal(j)
			fmt.Fprintf(e.stdout, "%s\n", b)
		}
	} else {
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "n\toutcome\tGrundy\tconj.\tfirst solved by\tyear\tcertificate\tstatus\tentries\tsolve\tverify")
		for _, r := range rows {
			who, year := "", ""
			if r.Known != nil {
				who, year = r.Known.Solver()
				if r.Known.Open() {
					who = "open"
				}
			}
			g := ""
			if r.Grundy != nil {
				g = strconv.FormatUint(uint64(*r.Grundy), 10)
			}
			lead := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s", r.N, r.Outcome.Mark(), g, r.ConjectureOutcome.Mark(), who, year)
			if len(r.Certificates) == 0 {
				fmt.Fprintf(tw, "%s\t\t\t\t\t\n", lead)
			}
			for i, cert := range r.Certificates {
				if i > 0 {
					lead = "\t\t\t\t\t"
				}
				fmt.Fprintf(tw, "%s\t%s  %s\t%s\t%d\t%.2f s\t%.2f s\n", lead, cert.Claim, cert.ShortAddress(),
					cert.Status, cert.Entries, cert.SolveSeconds, cert.VerifySeconds)
			}
			for _, u := range unfinishedOf(root, r.N) {
				fmt.Fprintf(tw, "\t\t\t\t\t\t%s\tunfinished\t\t%.0f s\t\t%d iterations, %d Grundy values, %d run(s); checkpoint %s\n",
					u.Claim, u.Seconds, u.Iterations, u.Nimbers, u.Runs, u.Checkpoint)
			}
		}
		tw.Flush()
		printFrontier(e.stdout, corpus.FrontierOf(rows))
	}
	if rep != nil && !rep.OK() {
		printProblems(e.stderr, rep)
		return e.fail(1, "%s does not check (%s)", c.Dir, plural(len(rep.Problems), "problem"))
	}
	return 0
}

// printFrontier prints, after status's table, how far the certified
// outcomes reach: every n up to the frontier, those beyond it, and those
// of corpus.GoalFrom … corpus.GoalTo certified and open.
func printFrontier(w io.Writer, f corpus.Frontier) {
	beyond := ""
	if len(f.Beyond) > 0 {
		beyond = "; certified beyond it: " + corpus.Spans(f.Beyond)
	}
	if f.Complete == 0 {
		fmt.Fprintf(w, "frontier  the outcome of 0*1 is not certified%s\n", beyond)
	} else {
		fmt.Fprintf(w, "frontier  every outcome of 0*1 … 0*%d certified%s\n", f.Complete, beyond)
	}
	late := ""
	if len(f.Late) > 0 {
		late = fmt.Sprintf(" (GLOP 2010–2011 first solved %s)", corpus.Spans(f.Late))
	}
	fmt.Fprintf(w, "%d … %d   certified: %s; open: %s%s\n", corpus.GoalFrom, corpus.GoalTo, corpus.Spans(f.Goal), corpus.Spans(f.Open), late)
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
