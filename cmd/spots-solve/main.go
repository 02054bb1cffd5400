// Command spots-solve solves Sprouts positions (and, with --game cram,
// Cram boards) with proof-number search.
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
// --no-progress); --progress json writes the same as a JSON object a
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
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/cram"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/internal/searchstatus"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
	"github.com/spots-dev/spots/verify"
)

const usage = `usage: spots-solve [flags] POSITION...
       spots-solve --game cram [flags] BOARD...
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

Games (--game): sprouts (the default) and cram, whose boards are written
5x5 (5 rows of 5 empty cells) or row by row with '.' for an empty cell and
'#' for a hole, rows separated by '/' (.#./.../..#), boards added with '+'
(go doc github.com/spots-dev/spots/cram). Cram runs with pdfpn, dfpn and
pns, not with the swarm, --db-in, --db-out, --state or --resume.

A position whose children would cost more than the checker's limits is
refused before any search (exit 2), naming the limit and the flag that
raises it: --max-lives, --max-boundaries, --max-letters, --max-cells,
--max-moves, --max-work, as spots-verify --help lists them.

Examples:
  spots-solve 0*12                      who wins 12 spots
  spots-solve --nimber --json 0*9 0*10  Grundy values, as JSON lines
  spots-solve --cert certs 0*3+*1       solve and certify 0*3+*1=W|L
  spots-solve --game cram --cert certs 5x5
  spots-solve --algorithm swarm --workers-local 2 0*14

The options of SPOTS (the reference solver) are accepted too:
--compute_nimber, --input_database, --output_database, --stats_path and
--algorithm pns-pdfpn (the swarm).

Flags:
`

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
crash or restart. go doc github.com/spots-dev/spots/swarm describes the
protocol.

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

// spotsAliases maps the option names of SPOTS, the reference solver, to
// ours. They are accepted and hidden from --help (which names them).
var spotsAliases = map[string]string{
	"compute_nimber":  "nimber",
	"input_database":  "db-in",
	"output_database": "db-out",
	"stats_path":      "stats",
	"workers":         "workers-local", // SPOTS's Ray workers: processes here
}

// normalizeAlias is the flag set's normalize func: it turns SPOTS's option
// names into ours.
func normalizeAlias(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	if to, ok := spotsAliases[name]; ok {
		return pflag.NormalizedName(to)
	}
	return pflag.NormalizedName(name)
}

// config holds the parsed flags.
type config struct {
	game          string // sprouts.Game or cram.Game
	algorithm     string
	threads       int
	nimber        bool
	capacity      int
	memory        string
	plan          solve.MemoryPlan
	dbIn, dbOut   string
	reuse         []string // --reuse: directories of certificates to draw on
	statsPath     string
	json          bool
	rootMoves     bool
	seed          uint64
	timeout       time.Duration
	maxIterations uint64
	noProgress    bool
	progress      statusline.Mode // --progress (Off with --no-progress)
	lenient       bool
	certDir       string
	cpuProfile    string
	stateEvery    time.Duration
	force         bool // --force: move a search saved in --state aside
	swarm         swarmFlags
	limits        verify.Limits // --max-…: what a position given may cost
	args          []string      // the command line, for --stats
}

// result is one solved position, as printed with --json.
type result struct {
	Input         string        `json:"input"`            // the text given
	Canonical     string        `json:"canonical"`        // with " + *N" for a heap
	Outcome       solve.Outcome `json:"outcome"`          // W, L or unknown
	Reason        string        `json:"reason,omitempty"` // why unknown: timeout, iteration limit, interrupted
	Nimber        *uint32       `json:"grundy"`           // with --nimber: the Grundy value
	Algorithm     string        `json:"algorithm"`
	Seconds       float64       `json:"seconds"`
	Iterations    uint64        `json:"iterations"`
	GrundyNumbers int           `json:"grundy_numbers"`
	TTEntries     int64         `json:"tt_entries"`
	Claim         string        `json:"claim,omitempty"`   // with --cert: the claim certified
	Address       string        `json:"address,omitempty"` // with --cert: the certificate's content address
	Certificate   string        `json:"path,omitempty"`    // with --cert: the certificate's file
	CertEntries   int           `json:"entries,omitempty"` // with --cert: the certificate's entries
	Cites         []string      `json:"cites,omitempty"`   // with --cert and --reuse: the addresses of the certificates it cites
	Cited         int           `json:"cited,omitempty"`   // and the number it relies on, directly or not, all verified
	// pdfpn only
	Threads         int      `json:"threads,omitempty"`
	Spread          uint64   `json:"spread,omitempty"`
	PerThread       []uint64 `json:"per_thread_iterations,omitempty"`
	LockWaits       int64    `json:"lock_waits,omitempty"`
	LockWaitSeconds float64  `json:"lock_wait_seconds,omitempty"`
	TTHitRate       float64  `json:"tt_hit_rate,omitempty"`
	// With --root-moves.
	RootMoves []rootMove `json:"root_moves,omitempty"`
	// The keys of grundy, path and entries before docs/json.md, written
	// beside them for one release (deprecated).
	OldNimber      *uint32 `json:"nimber"`
	OldCertificate string  `json:"certificate,omitempty"`
	OldCertEntries int     `json:"certificate_entries,omitempty"`

	stats solve.Stats // the search's counters for this position
}

func main() { os.Exit(runMain()) }

// runMain is main without the exit: the build's version goes into the
// certificates, SIGINT or SIGTERM cancels the run (a second one ends it at
// once), and a failed write to standard output makes the status at least 1.
func runMain() int {
	certify.Version = buildinfo.Version()
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
	prof, err := cpuprofile.Start(cfg.cpuProfile)
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

// checkOutputs checks the files the run will write before it starts (see
// cmdline.CheckOutputs). --db-out may name the file of --db-in: that
// database is read whole before the search and replaced, extended, after
// it, through a temporary file.
func checkOutputs(cfg config) error {
	var inputs []cmdline.File
	if cfg.dbIn != "" && !cmdline.SameFile(cfg.dbIn, cfg.dbOut) {
		inputs = append(inputs, cmdline.File{Flag: "--db-in", Path: cfg.dbIn})
	}
	return cmdline.CheckOutputs(inputs, []cmdline.File{
		{Flag: "--db-out", Path: cfg.dbOut}, {Flag: "--stats", Path: cfg.statsPath}, {Flag: "--cpuprofile", Path: cfg.cpuProfile},
	})
}

// solveAll solves the positions of the command line, one after another
// (or the one position of a swarm), and returns the exit status.
func solveAll(ctx context.Context, cfg config, positions []string, stdout, stderr io.Writer) int {
	r := &runner{ctx: ctx, cfg: cfg, stdout: stdout, stderr: stderr}
	if cfg.game == cram.Game {
		return solveCram(r, positions)
	}
	return solveSprouts(r, positions)
}

// runner is one run of spots-solve: its configuration, its streams and
// its status line.
type runner struct {
	ctx            context.Context
	cfg            config
	stdout, stderr io.Writer
	prog           *statusline.Line // nil with --no-progress
}

// fail says msg on standard error and returns the status of bad input.
func (r *runner) fail(msg string, a ...any) int {
	fmt.Fprintf(r.stderr, "spots-solve: "+msg+"\n", a...)
	return 2
}

// solveSprouts is solveAll for Sprouts: the positions solved one after
// another by one search (saved into --state, resumed from --resume,
// preloaded from --db-in), or by a swarm.
func solveSprouts(r *runner, inputs []string) int {
	cfg := r.cfg
	roots, heaps, err := parseAll(inputs, cfg.nimber, parseInput, func(in string, n uint32) error {
		if n > 0 && cfg.algorithm == "swarm" {
			return fmt.Errorf("%q: the swarm solves a position without a heap", in)
		}
		return nil
	})
	if err != nil {
		return r.fail("%v", err)
	}
	if status := r.checkLimits(inputs, roots); status >= 0 {
		return status
	}
	r.notePositions(sprouts.Game, inputs)
	r.noteFarBeyond(inputs, roots)
	if status := r.makeCertDir(); status >= 0 {
		return status
	}
	if status := r.lockStateDirs(); status >= 0 {
		return status
	}
	if note, err := claimStateDir(cfg.swarm.stateDir, cfg.swarm.resumeDir, cfg.force); err != nil {
		return r.fail("%v", err)
	} else if note != "" {
		fmt.Fprintf(r.stderr, "spots-solve: %s\n", note)
	}
	if cfg.algorithm == "swarm" {
		if len(roots) != 1 {
			return r.fail("the swarm solves one position at a time (got %d)", len(roots))
		}
		return runMaster(r.ctx, cfg, cfg.swarm, inputs[0], roots[0], r.stdout, r.stderr)
	}
	db := solve.NewNimberDB()
	if cfg.dbIn != "" {
		if err := loadDB(r.ctx, db, cfg.dbIn, cfg.lenient, r.stderr); err != nil {
			return r.fail("--db-in %s: %v", cfg.dbIn, err)
		}
	}
	r.startProgress()
	pool, err := r.loadPool()
	if err != nil {
		return r.fail("--reuse %s: %v (leave out --reuse to solve without them)", strings.Join(cfg.reuse, ", "), err)
	}
	pool.Preload(db)
	saver := newStateSaver(cfg, roots[0], heaps[0], r.stderr, r.prog)
	s := dbInChecked(r.ctx, cfg, newSearcher(cfg, sprouts.Rules{}, db, r.prog, saver), saver, r.prog, r.stderr)
	if saver != nil && cfg.swarm.resumeDir != "" {
		if _, err := saver.Resume(r.ctx, cfg.swarm.resumeDir); err != nil {
			return r.fail("--resume %s: %v", cfg.swarm.resumeDir, err)
		}
		s = resumeChecked(r.ctx, cfg, s, saver, cfg.swarm.resumeDir, r.prog, r.stderr)
	}
	var lib *verify.Library
	if pool != nil {
		lib = pool.Library()
		s = reuseChecked(r.ctx, cfg, s, pool, lib, saver, r.prog, r.stderr)
	}
	p := pipeline(r, sprouts.Game, s)
	p.Checkpoint, p.CheckpointSolved = saver, true
	p.Pool, p.Verify.Library = pool, lib
	results, status := solveEach(r, p, inputs, roots, heaps)
	return r.finish(results, status, func() int {
		if cfg.dbOut != "" {
			if err := saveDB(p.Searcher.DB(), cfg.dbOut); err != nil {
				return r.fail("--db-out %s: %v", cfg.dbOut, err)
			}
		}
		return -1
	})
}

// loadPool reads the certificates of --reuse (nil without it), saying on
// standard error what it drew on.
func (r *runner) loadPool() (*certify.Pool, error) {
	if len(r.cfg.reuse) == 0 {
		return nil, nil
	}
	start := time.Now()
	pool, err := certify.LoadPool(r.ctx, r.cfg.reuse, nil, func(done, total int) {
		r.prog.Show(true, "reading the certificates to draw on: %d of %d", done, total)
	})
	if err != nil {
		return nil, err
	}
	r.prog.Clear()
	fmt.Fprintf(r.stderr, "spots-solve: drawing on %d values of %d certificates (read in %.1f s)\n", pool.Len(), pool.Files, time.Since(start).Seconds())
	return pool, nil
}

// parseAll parses the positions of the command line with parse; check
// refuses what the run cannot do with one (a heap). With nimber, a
// position with a heap is refused.
func parseAll[P any](inputs []string, nimber bool, parse func(string) (P, uint32, error), check func(string, uint32) error) ([]P, []uint32, error) {
	var roots []P
	var heaps []uint32
	for _, in := range inputs {
		p, n, err := parse(in)
		if err != nil {
			return nil, nil, err
		}
		if n > 0 && nimber {
			return nil, nil, fmt.Errorf("%q: --nimber computes the Grundy value of a position alone; leave out the heap (the value of POS+*N is that of POS xor N)", in)
		}
		if err := check(in, n); err != nil {
			return nil, nil, err
		}
		roots = append(roots, p)
		heaps = append(heaps, n)
	}
	return roots, heaps, nil
}

// checkLimits refuses, before any search, a position whose children would
// cost more than the limits allow, as the checker refuses it: the search
// would run out of memory generating them. It returns the exit status of
// a refusal, or -1.
func (r *runner) checkLimits(inputs []string, roots []sprouts.Position) int {
	for i, p := range roots {
		if err := r.cfg.limits.Check(p); err != nil {
			return r.fail("%q: %s", inputs[i], cmdline.LimitMessage(err))
		}
	}
	// Within the limits, the positions can be read again by the second
	// implementation of the rules, and must be the same.
	return r.checkReadings(inputs, roots)
}

// lockStateDirs locks the directories of --state and --resume for the
// run (see lockStateDir); it returns the exit status of a failure, or -1.
// A --resume directory that is not there is left to --resume to report.
func (r *runner) lockStateDirs() int {
	state, resume := r.cfg.swarm.stateDir, r.cfg.swarm.resumeDir
	if state != "" {
		if err := lockStateDir("--state", state); err != nil {
			return r.fail("%v", err)
		}
	}
	if resume != "" && (state == "" || !cmdline.SameFile(state, resume)) {
		if info, err := os.Stat(resume); err == nil && info.IsDir() {
			if err := lockStateDir("--resume", resume); err != nil {
				return r.fail("%v", err)
			}
		}
	}
	return -1
}

// makeCertDir makes the --cert directory; it returns the exit status of a
// failure, or -1.
func (r *runner) makeCertDir() int {
	if r.cfg.certDir != "" {
		if err := os.MkdirAll(r.cfg.certDir, 0o755); err != nil {
			return r.fail("--cert: %v", err)
		}
	}
	return -1
}

// notePositions says on standard error what a newcomer may have meant by
// a position of game (0*12 for 12).
func (r *runner) notePositions(game string, inputs []string) {
	for _, in := range inputs {
		if note := cmdline.PositionNote(game, in); note != "" {
			fmt.Fprintf(r.stderr, "spots-solve: note: %s\n", note)
		}
	}
}

// solvedLives are the lives of 0*47 (141), the largest position whose
// outcome anyone has computed (corpus/literature.csv); each spot more
// multiplies the search by a large factor.
const solvedLives = 3 * 47

// noteFarBeyond says on standard error, for a position of more lives than
// any solved, that the search will not end in any time one waits for, when
// nothing (--timeout, --max-iterations) would stop it.
func (r *runner) noteFarBeyond(inputs []string, roots []sprouts.Position) {
	if r.cfg.timeout > 0 || r.cfg.maxIterations > 0 {
		return
	}
	for i, p := range roots {
		if lives := p.Lives(); lives > solvedLives {
			fmt.Fprintf(r.stderr, "spots-solve: note: %s has %d lives, past the %d of 0*47, the largest position ever solved: this search will not end in any time you wait for; --timeout 10m (or --max-iterations) gives up after that long\n", inputs[i], lives, solvedLives)
		}
	}
}

// startProgress makes the status line of --progress (none with
// --no-progress or --progress none).
func (r *runner) startProgress() {
	r.prog = r.cfg.progress.New(r.stderr)
}

// pipeline returns the pipeline of the run's positions of game, solved by
// s: --nimber, --timeout and --cert.
func pipeline[P fmt.Stringer](r *runner, game string, s solve.Searcher[P]) *prove.Pipeline[P] {
	return &prove.Pipeline[P]{Game: game, Searcher: s, Nimber: r.cfg.nimber, Timeout: r.cfg.timeout,
		CertDir: r.cfg.certDir, Stopped: r.prog.Clear, Certifying: atOnce(r.ctx, r.stderr)}
}

// atOnce returns the pipeline's Certifying: a signal while a certificate
// is written and verified ends the run at once (status 130).
func atOnce(ctx context.Context, stderr io.Writer) func() func() {
	return func() func() { return interrupt.ExitWhenDone(ctx, "spots-solve", stderr) }
}

// finish ends the run after its positions: --stats written, then more
// (--db-out; it returns an exit status, or -1), and the exit status:
// status, or 130 when the run was interrupted.
func (r *runner) finish(results []result, status int, more func() int) int {
	if r.cfg.statsPath != "" {
		if err := writeStats(r.cfg.statsPath, r.cfg.args, time.Now(), results); err != nil {
			return r.fail("--stats %s: %v", r.cfg.statsPath, err)
		}
	}
	if more != nil {
		if s := more(); s >= 0 {
			return s
		}
	}
	if r.ctx.Err() != nil {
		fmt.Fprintln(r.stderr, "spots-solve: interrupted")
		return statusInterrupted
	}
	return status
}

// parseInput reads a position given on the command line: in our notation
// or GLOP's, optionally followed by a nim heap "+*N".
func parseInput(in string) (sprouts.Position, uint32, error) {
	text, n := in, uint32(0)
	if i := strings.LastIndex(in, "+*"); i >= 0 {
		v, err := strconv.ParseUint(in[i+2:], 10, 32)
		if err != nil {
			return sprouts.Position{}, 0, fmt.Errorf("%q: the heap after \"+*\" must be a number from 0 to %d", in, uint32(1<<32-1))
		}
		text, n = in[:i], uint32(v)
	}
	text, err := fromGLOP(text)
	if err != nil {
		return sprouts.Position{}, 0, fmt.Errorf("%q: %w", in, err)
	}
	p, err := sprouts.Parse(text)
	if err != nil {
		return sprouts.Position{}, 0, cmdline.PositionError(sprouts.Game, text, err)
	}
	return p, n, nil
}

// parseFlags returns the configuration and positions, or an exit status
// (not negative) when the command should stop.
func parseFlags(args []string, stdout, stderr io.Writer) (config, []string, int) {
	cfg := config{args: args}
	flags := pflag.NewFlagSet("spots-solve", pflag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.SetNormalizeFunc(normalizeAlias)
	std := buildinfo.AddStd(flags)
	addFlags(flags, &cfg)
	showFlags(flags, "")
	foreign := cmdline.AddForeign(flags, spotsForeign...)
	flags.Usage = func() { buildinfo.Usage(stderr, usage, flags, exitCodes) }
	if err := cmdline.Parse(flags, args); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	if err := foreign.Check(flags); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	cfg.progress = cfg.progress.Unless(cfg.noProgress)
	if cfg.algorithm == "pns-pdfpn" {
		cfg.algorithm = "swarm" // SPOTS's name of its distributed search
	}
	if std.Handle("spots-solve", stdout, func(w io.Writer) {
		showFlags(flags, cfg.algorithm)
		text := usage
		if cfg.algorithm == "swarm" {
			text = swarmUsage
		}
		buildinfo.Usage(w, text, flags, exitCodes)
	}) {
		return cfg, nil, 0
	}
	if cfg.certDir != "" && !flags.Changed("algorithm") {
		cfg.algorithm = "dfpn" // deterministic: a reproducible certificate
	}
	if cfg.certDir != "" && cfg.algorithm == "pdfpn" && cfg.threads > 1 {
		fmt.Fprintln(stderr, "spots-solve: note: --algorithm pdfpn with several threads is not deterministic: the certificate's address will differ from run to run (leave out --algorithm for dfpn, which reproduces it)")
	}
	if err := checkSearch(flags, cfg); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	if flags.NArg() == 0 {
		fmt.Fprintln(stderr, "spots-solve: no position given (e.g. spots-solve 0*12)")
		flags.Usage()
		return cfg, nil, 2
	}
	plan, err := checkRun(flags, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	cfg.plan = plan
	return cfg, flags.Args(), -1
}

// addFlags defines the flags of spots-solve (the swarm's among them) on
// flags, with cfg holding their values.
func addFlags(flags *pflag.FlagSet, cfg *config) {
	defaultAlg := "dfpn"
	if runtime.NumCPU() > 1 {
		defaultAlg = "pdfpn"
	}
	flags.StringVar(&cfg.algorithm, "algorithm", defaultAlg, "search: pdfpn (parallel dfpn, --threads: faster with more than one CPU, but not the same search twice), dfpn (depth-first, memory bounded by --capacity, deterministic), pns (keeps its whole DAG) or swarm (a master of worker processes; spots-solve --algorithm swarm --help). "+defaultMode())
	flags.StringVar(&cfg.game, "game", sprouts.Game, "the game: sprouts (positions such as 0*12) or cram (boards such as 5x5 or .#./.../..#)")
	flags.IntVar(&cfg.threads, "threads", runtime.NumCPU(), "threads for pdfpn (1 is plain dfpn, move for move)")
	flags.BoolVar(&cfg.nimber, "nimber", false, "compute the Grundy value instead of the outcome")
	flags.IntVar(&cfg.capacity, "capacity", solve.DefaultCapacity, "transposition-table entries (dfpn, pdfpn, and each worker started by --workers-local); without it pdfpn gets 10⁶ a thread, at most what a quarter of the machine's memory holds")
	flags.StringVar(&cfg.memory, "memory", "", memoryFlagHelp)
	flags.StringArrayVar(&cfg.reuse, "reuse", nil, "draw on the certificates in `DIR` (e.g. corpus/certs; repeatable): the search starts from the Grundy values they prove, and a certificate --cert writes cites those its proof relies on instead of repeating them. The values are input, not truth: the result is checked with the certificates it relies on, all verified, before it is printed, and solved again without them if they do not hold (every algorithm; the swarm: spots-solve --algorithm swarm --help)")
	flags.StringVar(&cfg.dbIn, "db-in", "", "preload a nimber database ([Positions+Nimber] text); a result found with it is checked from the rules before it is printed, and found again without it if its values do not prove it")
	flags.StringVar(&cfg.dbOut, "db-out", "", "write the nimber database built (and preloaded) to `FILE`")
	flags.StringVar(&cfg.statsPath, "stats", "", "append one CSV row of statistics per position to `FILE`, with a header when the file is new or empty (columns: input, canonical, algorithm, outcome, nimber, seconds, iterations, expansions, grundy_numbers, nimber_db, tt_entries, tt_capacity, tt_evictions, nodes, arguments, time)")
	flags.BoolVar(&cfg.json, "json", false, "print one JSON object per position")
	flags.BoolVar(&cfg.rootMoves, "root-moves", false, "dfpn, pdfpn: also print the iterations spent below each move of the position (with --nimber: of its last couple, the position plus a heap of its value), most first")
	flags.Uint64Var(&cfg.seed, "seed", 0, "break ties between equal children at random with this seed (0: in heuristic order)")
	flags.DurationVar(&cfg.timeout, "timeout", 0, "give up on a position after this long (e.g. 30s, 10m; without it: never)")
	flags.Uint64Var(&cfg.maxIterations, "max-iterations", 0, "give up on a couple after this many iterations (without it: never)")
	flags.BoolVar(&cfg.noProgress, "no-progress", false, "do not show progress on standard error")
	_ = flags.MarkHidden("no-progress") // --progress none says it; kept for the scripts that use it
	flags.BoolVar(&cfg.lenient, "lenient", false, "skip malformed lines of --db-in with a warning instead of failing")
	flags.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	flags.StringVar(&cfg.certDir, "cert", "", "write a certificate of each solved position into `DIR` (as <address>.arrow) and verify it")
	flags.DurationVar(&cfg.stateEvery, "state-every", solve.DefaultCheckpointEvery, "dfpn, pdfpn: how often --state saves the search")
	flags.BoolVar(&cfg.force, "force", false, "with --state DIR: if DIR already holds a search, move it aside into DIR/previous-N instead of refusing")
	flags.Var(&cfg.progress, "progress", statusline.FlagUsage)
	cmdline.LimitFlags(flags, &cfg.limits)
	for _, name := range []string{"max-lives", "max-boundaries", "max-letters", "max-cells", "max-moves", "max-work"} {
		flags.MarkHidden(name) // the usage text names them; spots-verify --help lists them
	}
	addSwarmFlags(flags, &cfg.swarm)
}

// checkSearch refuses the values of the search's flags that cannot be
// honoured.
func checkSearch(flags *pflag.FlagSet, cfg config) error {
	switch {
	case cfg.algorithm != "dfpn" && cfg.algorithm != "pns" && cfg.algorithm != "pdfpn" && cfg.algorithm != "swarm":
		return fmt.Errorf("unknown --algorithm %q (want pdfpn, dfpn, pns or swarm)", cfg.algorithm)
	case cfg.threads < 1 || cfg.threads > solve.MaxThreads:
		return fmt.Errorf("--threads %d: want 1 to %d", cfg.threads, solve.MaxThreads)
	case cfg.capacity < solve.MinCapacity:
		return fmt.Errorf("--capacity %d is too small (at least %d)", cfg.capacity, solve.MinCapacity)
	case cfg.rootMoves && cfg.algorithm != "dfpn" && cfg.algorithm != "pdfpn":
		return fmt.Errorf("--root-moves counts the iterations of dfpn and pdfpn, not of %s", cfg.algorithm)
	case cfg.nimber && cfg.algorithm == "swarm":
		return errors.New("the swarm solves outcomes; --nimber needs pdfpn, dfpn or pns")
	case cfg.timeout < 0:
		return fmt.Errorf("--timeout %v is negative", cfg.timeout)
	case flags.Changed("timeout") && cfg.timeout == 0:
		return errors.New("--timeout 0: want a positive duration (leave the flag out for no limit)")
	case flags.Changed("max-iterations") && cfg.maxIterations == 0:
		return errors.New("--max-iterations 0: want a positive number (leave the flag out for no limit)")
	}
	if err := cmdline.CheckLimitFlags(cfg.limits); err != nil {
		return err
	}
	return notApplying(flags, cfg)
}

// notApplying refuses a flag given for a search that does not take it:
// ignored without a word, it would leave the user believing it was used.
func notApplying(flags *pflag.FlagSet, cfg config) error {
	if cfg.algorithm == "swarm" {
		for _, name := range []string{"db-in", "db-out", "lenient"} {
			if flags.Changed(name) {
				return fmt.Errorf("--%s is a flag of the searches of this process (pdfpn, dfpn, pns); the swarm's master takes no database: leave it out", name)
			}
		}
	} else {
		for _, name := range masterFlags {
			if f := flags.Lookup(name); f.Changed && name != "key" && name != "key-file" {
				return fmt.Errorf("--%s %s is a flag of the swarm's master, and this run is %s: add --algorithm swarm, or leave it out", name, f.Value, cfg.algorithm)
			}
		}
	}
	if flags.Changed("threads") && cfg.threads != 1 && cfg.algorithm != "pdfpn" {
		why := ""
		if cfg.certDir != "" && !flags.Changed("algorithm") {
			why = " (--cert makes it dfpn, for a certificate made the same way every time)"
		}
		return fmt.Errorf("--threads %d is for pdfpn, and this run is %s%s, one thread: add --algorithm pdfpn, or leave --threads out", cfg.threads, cfg.algorithm, why)
	}
	return nil
}

// checkRun refuses what cannot run with the positions given (--state,
// the game, the resources asked for) and returns the memory plan.
func checkRun(flags *pflag.FlagSet, cfg config) (solve.MemoryPlan, error) {
	switch {
	case (cfg.swarm.stateDir != "" || cfg.swarm.resumeDir != "") && (cfg.algorithm == "pns" || flags.NArg() != 1):
		return solve.MemoryPlan{}, errStateUse
	case cfg.stateEvery <= 0:
		return solve.MemoryPlan{}, fmt.Errorf("--state-every %v: want a positive duration", cfg.stateEvery)
	}
	if err := checkGame(cfg); err != nil {
		return solve.MemoryPlan{}, err
	}
	if err := checkResources(flags, cfg); err != nil {
		return solve.MemoryPlan{}, err
	}
	return memoryPlan(flags, cfg)
}

// defaultMode says what plain spots-solve POS runs on this machine: every
// core in one process, with a table that grows with the threads.
func defaultMode() string {
	cpus := runtime.NumCPU()
	if cpus < 2 {
		return "The default here (1 CPU) is dfpn with a table of 10⁶ entries."
	}
	usable, _ := swarm.UsableMemory()
	capacity := solve.ThreadCapacity(cpus, usable)
	return fmt.Sprintf("The default here (%d CPUs) is pdfpn with %d threads and a table of %s entries, all in one process; "+
		"with --cert it is dfpn, which gives the same certificate, at the same address, on every run",
		cpus, cpus, entriesText(capacity))
}

// entriesText writes a number of table entries for people: 10⁶, 2×10⁶,
// 2.5×10⁶.
func entriesText(n int) string {
	switch {
	case n == 1_000_000:
		return "10⁶"
	case n%1_000_000 == 0:
		return fmt.Sprintf("%d×10⁶", n/1_000_000)
	}
	return fmt.Sprintf("%.2g×10⁶", float64(n)/1e6)
}

// newSearcher makes the search of cfg for the game g; saver, if not nil,
// saves it (Sprouts only).
func newSearcher[P any](cfg config, g solve.Game[P], db *solve.NimberDB, prog *statusline.Line, saver *checkpoint.Saver) solve.Searcher[P] {
	applyMemory(cfg.plan, cfg.algorithm)
	s := prove.Search{Algorithm: cfg.algorithm, Threads: cfg.threads, Capacity: cfg.plan.Capacity, ChildrenCache: cfg.plan.ChildrenCache,
		Seed: cfg.seed, MaxIterations: cfg.maxIterations, Saver: saver, SaveEvery: cfg.stateEvery}
	if prog != nil {
		s.Progress = func(p solve.Progress) {
			prog.Report(true, "solving", searchstatus.FiguresOf(p), searchstatus.Search(p))
		}
		s.ProgressEvery = prog.Every()
	}
	return prove.NewSearcher(g, db, s)
}

// solveEach proves and prints each root in turn with the pipeline p,
// until all are done or the run is interrupted. Its status is 1 when a
// root was left unsolved or its certificate failed, else 0.
func solveEach[P fmt.Stringer](r *runner, p *prove.Pipeline[P], inputs []string, roots []P, heaps []uint32) ([]result, int) {
	var results []result
	status := 0
	for i, root := range roots {
		if r.ctx.Err() != nil {
			break // interrupted: the positions left are not started
		}
		pr, err := p.Prove(r.ctx, root, heaps[i])
		if err != nil {
			fmt.Fprintf(r.stderr, "spots-solve: %v\n", err)
			status = 1
		}
		res := newResult(r.cfg, inputs[i], root, heaps[i], pr)
		if d, ok := p.Searcher.(interface{ RootChildren() []solve.RootChild[P] }); ok && r.cfg.rootMoves {
			res.RootMoves = rootMoves(d.RootChildren())
		}
		results = append(results, res)
		if !pr.Outcome.Known() {
			status = 1
		}
		printResult(r.stdout, r.cfg, res)
	}
	return results, status
}

// newResult is what the run prints of the result pr about root + *heap
// (its canonical text, with " + *N" for a heap).
func newResult[P fmt.Stringer](cfg config, input string, root P, heap uint32, pr prove.Result) result {
	st := pr.Spent
	r := result{Input: input, Canonical: root.String(), Algorithm: cfg.algorithm, Outcome: pr.Outcome,
		Reason: string(pr.Stop), Nimber: pr.Grundy, Seconds: st.Seconds, Iterations: st.Iterations,
		GrundyNumbers: st.GrundyNumbers, TTEntries: st.TTEntries, stats: st}
	if heap > 0 {
		r.Canonical += " + *" + strconv.FormatUint(uint64(heap), 10)
	}
	if cfg.algorithm == "pdfpn" {
		r.Threads, r.Spread = cfg.threads, solve.DefaultSpread
		r.PerThread, r.LockWaits, r.LockWaitSeconds = st.PerThread, st.LockWaits, st.LockWaitSeconds
		if st.TTLookups > 0 {
			r.TTHitRate = float64(st.TTHits) / float64(st.TTLookups)
		}
	}
	if c := pr.Certificate; c != nil {
		r.Claim, r.Certificate, r.Address, r.CertEntries = c.Claim.String(), c.Path, c.Address, c.Entries
		r.Cites, r.Cited = c.Cites, c.Cited
	}
	return r
}

func printResult(w io.Writer, cfg config, r result) {
	if cfg.json {
		r.OldNimber, r.OldCertificate, r.OldCertEntries = r.Nimber, r.Certificate, r.CertEntries
		b, _ := json.Marshal(r)
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	who := map[solve.Outcome]string{solve.Win: "first player wins", solve.Loss: "second player wins"}
	switch {
	case r.Outcome == solve.Unknown:
		fmt.Fprintf(w, "%s  unknown  (stopped after %.1f s, %d iterations: %s)\n", r.Input, r.Seconds, r.Iterations, r.Reason)
	case r.Nimber != nil:
		fmt.Fprintf(w, "%s  %d  (Grundy value; %s)\n", r.Input, *r.Nimber, who[r.Outcome])
	default:
		fmt.Fprintf(w, "%s  %s  (%s)\n", r.Input, r.Outcome, who[r.Outcome])
	}
	if r.Certificate != "" {
		cites := ""
		if len(r.Cites) > 0 {
			cites = fmt.Sprintf("; cites %d certificates, %d in all, verified", len(r.Cites), r.Cited)
		}
		fmt.Fprintf(w, "    certificate %s  (%d entries, verified%s)\n", r.Certificate, r.CertEntries, cites)
	}
	for _, m := range r.RootMoves {
		fmt.Fprintf(w, "    %12d iterations (%5.1f %%) below %s\n", m.Iterations, 100*float64(m.Iterations)/float64(max(r.Iterations, 1)), m.Position)
	}
}

// rootMove is a move of a solved position with the iterations spent below
// it, as --root-moves prints it.
type rootMove struct {
	Position   string `json:"position"` // the position after the move, with " + *N" for a heap
	Iterations uint64 `json:"iterations"`
}

func rootMoves[P fmt.Stringer](kids []solve.RootChild[P]) []rootMove {
	moves := make([]rootMove, 0, len(kids))
	for _, k := range kids {
		pos := k.Pos.String()
		if k.N > 0 {
			pos += " + *" + strconv.FormatUint(uint64(k.N), 10)
		}
		moves = append(moves, rootMove{pos, k.Iterations})
	}
	return moves
}

// statsHeader is the header row of --stats.
var statsHeader = []string{"input", "canonical", "algorithm", "outcome", "nimber", "seconds", "iterations", "expansions",
	"grundy_numbers", "nimber_db", "tt_entries", "tt_capacity", "tt_evictions", "nodes", "arguments", "time"}

// writeStats appends the rows of results to the CSV file at path, as SPOTS
// does, with the command's arguments and the time in each row. The header
// is written only when the file is new or empty; a file with another
// header is refused. The old content and the new rows are written together
// to a temporary file renamed over path, so a reader never sees a partial
// file; the old content is copied, never held in memory. A path that is not
// a regular file (/dev/null, /dev/stdout, a pipe) is written directly, as
// a new file: nothing is read from it.
func writeStats(path string, args []string, now time.Time, results []result) error {
	old, err := format.OpenInput(path)
	switch {
	case errors.Is(err, os.ErrNotExist), errors.Is(err, format.ErrNotRegular):
		old = nil
	case err != nil:
		return err
	default:
		defer old.Close()
	}
	var oldHead []byte // the old file's first line, checked against the header
	if old != nil {
		br := bufio.NewReader(format.NewBoundedReader(old, path, format.Bounds{Line: maxStatsLine}))
		line, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return err
		}
		if len(line) > 0 {
			head, err := csv.NewReader(bytes.NewReader(line)).Read()
			if err != nil || !slices.Equal(head, statsHeader) {
				return fmt.Errorf("the file's first line is not the header %s: not appending to it", strings.Join(statsHeader, ","))
			}
			oldHead = line
		}
		if _, err := old.Seek(0, io.SeekStart); err != nil {
			return err
		}
	}
	cmdline := strings.Join(args, " ")
	stamp := now.UTC().Format(time.RFC3339)
	return format.WriteFileAtomic(path, func(w io.Writer) error {
		if oldHead != nil {
			n, err := io.Copy(w, old)
			if err != nil {
				return err
			}
			if last, err := lastByte(old, n); err != nil {
				return err
			} else if last != '\n' {
				if _, err := w.Write([]byte("\n")); err != nil {
					return err
				}
			}
		}
		cw := csv.NewWriter(w)
		if oldHead == nil {
			cw.Write(statsHeader)
		}
		for _, r := range results {
			nimber := ""
			if r.Nimber != nil {
				nimber = strconv.FormatUint(uint64(*r.Nimber), 10)
			}
			st := r.stats
			cw.Write([]string{r.Input, r.Canonical, r.Algorithm, r.Outcome.String(), nimber,
				strconv.FormatFloat(r.Seconds, 'f', 3, 64), u(st.Iterations), u(st.Expansions),
				strconv.Itoa(st.GrundyNumbers), strconv.Itoa(st.NimberDB), strconv.FormatInt(st.TTEntries, 10),
				strconv.Itoa(st.TTCapacity), strconv.FormatInt(st.TTEvictions, 10), strconv.Itoa(st.Nodes),
				cmdline, stamp})
		}
		cw.Flush()
		return cw.Error()
	})
}

// maxStatsLine bounds the header line of an existing --stats file.
const maxStatsLine = 64 << 10

// lastByte returns the last of the n bytes of f.
func lastByte(f *os.File, n int64) (byte, error) {
	var b [1]byte
	_, err := f.ReadAt(b[:], n-1)
	return b[0], err
}

func u(x uint64) string { return strconv.FormatUint(x, 10) }

// loadDB reads a [Positions+Nimber] database into db, re-keying its
// positions under the canonical form. Positions may be in our notation or
// GLOP's. The file must be a regular file (format.OpenInput); it is read
// entry by entry, a line at most format.MaxSPRLine long, and the end of
// ctx stops the read. Two values for one position are refused.
func loadDB(ctx context.Context, db *solve.NimberDB, path string, lenient bool, stderr io.Writer) error {
	f, err := format.OpenInput(path)
	if err != nil {
		return err
	}
	defer f.Close()
	warn := func(e *format.LineError) { fmt.Fprintf(stderr, "spots-solve: --db-in %s: skipping %v\n", path, e) }
	sr := format.NewSPRReader(format.NewBoundedReader(f, path, format.Bounds{Ctx: ctx}), format.SPROptions{Lenient: lenient, Warn: warn})
	return sr.Each(func(e format.SPREntry) error {
		text, err := fromGLOP(e.Position)
		var p sprouts.Position
		if err == nil {
			p, err = sprouts.Parse(text)
		}
		if err != nil {
			le := &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
			if lenient {
				warn(le)
				return nil
			}
			return le
		}
		if p.NumLands() != 1 {
			warn(&format.LineError{Line: e.Line, Text: e.Position, Reason: fmt.Sprintf("%s is not one land", p)})
			return nil
		}
		if g, ok := db.Get(p.Key()); ok && g != e.Grundy {
			return &format.LineError{Line: e.Line, Text: e.Position,
				Reason: fmt.Sprintf("gives %s the Grundy value %d, but an earlier line gives it %d", p, e.Grundy, g)}
		}
		db.Put(p.Key(), e.Grundy)
		return nil
	})
}

// saveDB writes db as a [Positions+Nimber] text file, as a checkpoint
// holds it.
func saveDB(db *solve.NimberDB, path string) error {
	entries, err := checkpoint.DBEntries(db)
	if err != nil {
		return err
	}
	return format.WriteSPRFile(path, entries)
}
