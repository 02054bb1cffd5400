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
//	{"input":"0*12","canonical":"0*12","outcome":"L","nimber":null,
//	 "algorithm":"pdfpn","seconds":4.1,"iterations":41205,
//	 "grundy_numbers":1189,"tt_entries":32845}
//
// While a position takes longer than a second, a status line on standard
// error shows the elapsed time, iterations, iterations per second, the
// root's proof and disproof numbers, the nimbers known and how full the
// transposition table is (a line every 10 s when standard error is not a
// terminal; none with --no-progress).
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
	"path/filepath"
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
	"github.com/spots-dev/spots/internal/cmdout"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/internal/searchstatus"
	"github.com/spots-dev/spots/internal/statusline"
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
	statsPath     string
	json          bool
	rootMoves     bool
	seed          uint64
	timeout       time.Duration
	maxIterations uint64
	noProgress    bool
	lenient       bool
	certDir       string
	cpuProfile    string
	stateEvery    time.Duration
	force         bool // --force: move a search saved in --state aside
	swarm         swarmFlags
	args          []string // the command line, for --stats
}

// result is one solved position, as printed with --json.
type result struct {
	Input         string  `json:"input"`     // the text given
	Canonical     string  `json:"canonical"` // with " + *N" for a heap
	Outcome       string  `json:"outcome"`
	Reason        string  `json:"reason,omitempty"` // why unknown: timeout, iteration limit, interrupted
	Nimber        *uint32 `json:"nimber"`
	Algorithm     string  `json:"algorithm"`
	Seconds       float64 `json:"seconds"`
	Iterations    uint64  `json:"iterations"`
	GrundyNumbers int     `json:"grundy_numbers"`
	TTEntries     int64   `json:"tt_entries"`
	Claim         string  `json:"claim,omitempty"`   // with --cert: the claim certified
	Address       string  `json:"address,omitempty"` // with --cert: the certificate's content address
	Certificate   string  `json:"certificate,omitempty"`
	CertEntries   int     `json:"certificate_entries,omitempty"`
	// pdfpn only
	Threads         int      `json:"threads,omitempty"`
	Spread          uint64   `json:"spread,omitempty"`
	PerThread       []uint64 `json:"per_thread_iterations,omitempty"`
	LockWaits       int64    `json:"lock_waits,omitempty"`
	LockWaitSeconds float64  `json:"lock_wait_seconds,omitempty"`
	TTHitRate       float64  `json:"tt_hit_rate,omitempty"`
	// With --root-moves.
	RootMoves []rootMove `json:"root_moves,omitempty"`

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
	return out.Status("spots-solve", run(ctx, os.Args[1:], out, os.Stderr), os.Stderr)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "worker" {
		return runWorker(ctx, args[1:], stdout, stderr)
	}
	cfg, positions, status := parseFlags(args, stdout, stderr)
	if status >= 0 {
		return status
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

// solveAll solves the positions of the command line, one after another
// (or the one position of a swarm), and returns the exit status.
func solveAll(ctx context.Context, cfg config, positions []string, stdout, stderr io.Writer) int {
	fail := func(msg string, a ...any) int {
		fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...)
		return 2
	}
	if cfg.game == cram.Game {
		return solveCram(ctx, cfg, positions, stdout, stderr)
	}
	var roots []sprouts.Position
	var heaps []uint32
	for _, in := range positions {
		p, n, err := parseInput(in)
		if err != nil {
			return fail("%v", err)
		}
		if n > 0 && cfg.nimber {
			return fail("%q: --nimber computes the Grundy value of a position alone; leave out the heap (the value of POS+*N is that of POS xor N)", in)
		}
		if n > 0 && cfg.algorithm == "swarm" {
			return fail("%q: the swarm solves a position without a heap", in)
		}
		roots = append(roots, p)
		heaps = append(heaps, n)
	}
	if cfg.certDir != "" {
		if err := os.MkdirAll(cfg.certDir, 0o755); err != nil {
			return fail("--cert: %v", err)
		}
	}
	if note, err := claimStateDir(cfg.swarm.stateDir, cfg.swarm.resumeDir, cfg.force); err != nil {
		return fail("%v", err)
	} else if note != "" {
		fmt.Fprintf(stderr, "spots-solve: %s\n", note)
	}
	if cfg.algorithm == "swarm" {
		if len(roots) != 1 {
			return fail("the swarm solves one position at a time (got %d)", len(roots))
		}
		return runMaster(ctx, cfg, cfg.swarm, positions[0], roots[0], stdout, stderr)
	}
	db := solve.NewNimberDB()
	if cfg.dbIn != "" {
		if err := loadDB(ctx, db, cfg.dbIn, cfg.lenient, stderr); err != nil {
			return fail("--db-in %s: %v", cfg.dbIn, err)
		}
	}
	var prog *statusline.Line
	if !cfg.noProgress {
		prog = statusline.New(stderr)
	}
	saver := newStateSaver(cfg, roots[0], heaps[0], stderr, prog)
	s := newSearcher(cfg, sprouts.Rules{}, db, prog, saver)
	if saver != nil && cfg.swarm.resumeDir != "" {
		if _, err := saver.Resume(ctx, cfg.swarm.resumeDir); err != nil {
			return fail("--resume %s: %v", cfg.swarm.resumeDir, err)
		}
		s = resumeChecked(ctx, cfg, s, saver, cfg.swarm.resumeDir, prog, stderr)
	}
	var afterEach func()
	if saver != nil {
		afterEach = func() { saver.Save(solve.Progress{Iterations: s.Stats().Iterations}) }
	}
	results, status := solveEach(ctx, cfg, s, sprouts.Game, positions, roots, heaps, afterEach, prog, stdout, stderr)
	if cfg.statsPath != "" {
		if err := writeStats(cfg.statsPath, cfg.args, time.Now(), results); err != nil {
			return fail("--stats %s: %v", cfg.statsPath, err)
		}
	}
	if cfg.dbOut != "" {
		if err := saveDB(s.DB(), cfg.dbOut); err != nil {
			return fail("--db-out %s: %v", cfg.dbOut, err)
		}
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "spots-solve: interrupted")
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
		return sprouts.Position{}, 0, err
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
	flags.StringVar(&cfg.dbIn, "db-in", "", "preload a nimber database ([Positions+Nimber] text); its entries are trusted, not checked")
	flags.StringVar(&cfg.dbOut, "db-out", "", "write the nimber database built (and preloaded) to `FILE`")
	flags.StringVar(&cfg.statsPath, "stats", "", "append one CSV row of statistics per position to `FILE`, with a header when the file is new or empty (columns: input, canonical, algorithm, outcome, nimber, seconds, iterations, expansions, grundy_numbers, nimber_db, tt_entries, tt_capacity, tt_evictions, nodes, arguments, time)")
	flags.BoolVar(&cfg.json, "json", false, "print one JSON object per position")
	flags.BoolVar(&cfg.rootMoves, "root-moves", false, "dfpn, pdfpn: also print the iterations spent below each move of the position (with --nimber: of its last couple, the position plus a heap of its value), most first")
	flags.Uint64Var(&cfg.seed, "seed", 0, "break ties between equal children at random with this seed (0: in heuristic order)")
	flags.DurationVar(&cfg.timeout, "timeout", 0, "give up on a position after this long (e.g. 30s, 10m; without it: never)")
	flags.Uint64Var(&cfg.maxIterations, "max-iterations", 0, "give up on a couple after this many iterations (without it: never)")
	flags.BoolVar(&cfg.noProgress, "no-progress", false, "do not show progress on standard error")
	flags.BoolVar(&cfg.lenient, "lenient", false, "skip malformed lines of --db-in with a warning instead of failing")
	flags.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	flags.StringVar(&cfg.certDir, "cert", "", "write a certificate of each solved position into `DIR` (as <address>.arrow) and verify it")
	flags.DurationVar(&cfg.stateEvery, "state-every", solve.DefaultCheckpointEvery, "dfpn, pdfpn: how often --state saves the search")
	flags.BoolVar(&cfg.force, "force", false, "with --state DIR: if DIR already holds a search, move it aside into DIR/previous-N instead of refusing")
	addSwarmFlags(flags, &cfg.swarm)
	showFlags(flags, "")
	flags.Usage = func() { buildinfo.Usage(stderr, usage, flags, exitCodes) }
	if err := flags.Parse(args); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
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
	switch {
	case cfg.algorithm != "dfpn" && cfg.algorithm != "pns" && cfg.algorithm != "pdfpn" && cfg.algorithm != "swarm":
		fmt.Fprintf(stderr, "spots-solve: unknown --algorithm %q (want pdfpn, dfpn, pns or swarm)\n", cfg.algorithm)
		return cfg, nil, 2
	case cfg.threads < 1 || cfg.threads > solve.MaxThreads:
		fmt.Fprintf(stderr, "spots-solve: --threads %d: want 1 to %d\n", cfg.threads, solve.MaxThreads)
		return cfg, nil, 2
	case cfg.capacity < solve.MinCapacity:
		fmt.Fprintf(stderr, "spots-solve: --capacity %d is too small (at least %d)\n", cfg.capacity, solve.MinCapacity)
		return cfg, nil, 2
	case cfg.rootMoves && cfg.algorithm != "dfpn" && cfg.algorithm != "pdfpn":
		fmt.Fprintf(stderr, "spots-solve: --root-moves counts the iterations of dfpn and pdfpn, not of %s\n", cfg.algorithm)
		return cfg, nil, 2
	case cfg.nimber && cfg.algorithm == "swarm":
		fmt.Fprintln(stderr, "spots-solve: the swarm solves outcomes; --nimber needs pdfpn, dfpn or pns")
		return cfg, nil, 2
	case cfg.timeout < 0:
		fmt.Fprintf(stderr, "spots-solve: --timeout %v is negative\n", cfg.timeout)
		return cfg, nil, 2
	case flags.Changed("timeout") && cfg.timeout == 0:
		fmt.Fprintln(stderr, "spots-solve: --timeout 0: want a positive duration (leave the flag out for no limit)")
		return cfg, nil, 2
	case flags.Changed("max-iterations") && cfg.maxIterations == 0:
		fmt.Fprintln(stderr, "spots-solve: --max-iterations 0: want a positive number (leave the flag out for no limit)")
		return cfg, nil, 2
	case flags.NArg() == 0:
		fmt.Fprintln(stderr, "spots-solve: no position given (e.g. spots-solve 0*12)")
		flags.Usage()
		return cfg, nil, 2
	case (cfg.swarm.stateDir != "" || cfg.swarm.resumeDir != "") && (cfg.algorithm == "pns" || flags.NArg() != 1):
		fmt.Fprintf(stderr, "spots-solve: %v\n", errStateUse)
		return cfg, nil, 2
	case cfg.stateEvery <= 0:
		fmt.Fprintf(stderr, "spots-solve: --state-every %v: want a positive duration\n", cfg.stateEvery)
		return cfg, nil, 2
	}
	if err := checkGame(cfg); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	if err := checkResources(flags, cfg); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	plan, err := memoryPlan(flags, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	cfg.plan = plan
	return cfg, flags.Args(), -1
}

// defaultMode says what plain spots-solve POS runs on this machine: every
// core in one process, with a table that grows with the threads.
func defaultMode() string {
	cpus := runtime.NumCPU()
	if cpus < 2 {
		return "The default here (1 CPU) is dfpn with a table of 10⁶ entries."
	}
	capacity := solve.ThreadCapacity(cpus, swarm.PhysicalMemory())
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
	opt := solve.Options{Capacity: cfg.plan.Capacity, ChildrenCache: cfg.plan.ChildrenCache, Seed: cfg.seed,
		MaxIterations: cfg.maxIterations}
	if prog != nil {
		opt.Progress = func(p solve.Progress) { prog.Show(true, "%s", searchstatus.Search(p)) }
		opt.ProgressEvery = prog.Every()
	}
	switch cfg.algorithm {
	case "pns":
		return solve.NewPNS(g, db, opt)
	case "pdfpn":
		opt.Threads = cfg.threads
	}
	if saver != nil {
		opt.Checkpoint, opt.CheckpointEvery = saver.Save, cfg.stateEvery
	}
	s := solve.NewDFPN(g, db, opt)
	if saver != nil {
		saver.Search = s
	}
	return s
}

// solveOne solves root + *heap (or with --nimber finds root's Grundy
// value); root's String is its canonical text.
// solveEach solves, certifies (with --cert) and prints each root in turn,
// calling afterEach (if set) after each solve, until all are done or ctx
// ends. Its status is 1 when a root was left unsolved or its certificate
// failed, else 0.
func solveEach[P fmt.Stringer](ctx context.Context, cfg config, s solve.Searcher[P], game string, inputs []string,
	roots []P, heaps []uint32, afterEach func(), prog *statusline.Line, stdout, stderr io.Writer) ([]result, int) {
	var results []result
	status := 0
	for i, root := range roots {
		if ctx.Err() != nil {
			break // interrupted: the positions left are not started
		}
		r := solveOne(ctx, cfg, s, inputs[i], root, heaps[i])
		prog.Clear()
		if afterEach != nil {
			afterEach()
		}
		if cfg.certDir != "" && r.Outcome != solve.Unknown.String() {
			if err := certifyOne(cfg, s, game, root, heaps[i], &r); err != nil {
				fmt.Fprintf(stderr, "spots-solve: %v\n", err)
				status = 1
			}
		}
		results = append(results, r)
		if r.Outcome == solve.Unknown.String() {
			status = 1
		}
		printResult(stdout, cfg, r)
	}
	return results, status
}

func solveOne[P fmt.Stringer](ctx context.Context, cfg config, s solve.Searcher[P], input string, root P, heap uint32) result {
	posCtx := ctx
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		posCtx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	before := s.Stats()
	r := result{Input: input, Canonical: root.String(), Algorithm: cfg.algorithm}
	if heap > 0 {
		r.Canonical += " + *" + strconv.FormatUint(uint64(heap), 10)
	}
	var out solve.Outcome
	if cfg.nimber {
		if g, ok := s.Grundy(posCtx, root); ok {
			r.Nimber = &g
			out = solve.Win
			if g == 0 {
				out = solve.Loss
			}
		}
	} else {
		out = s.Solve(posCtx, root, heap)
	}
	after := s.Stats()
	r.Outcome = out.String()
	if out == solve.Unknown {
		r.Reason = unknownReason(ctx, posCtx)
	}
	r.Seconds = after.Seconds - before.Seconds
	r.Iterations = after.Iterations - before.Iterations
	r.GrundyNumbers = after.GrundyNumbers - before.GrundyNumbers
	r.TTEntries = after.TTEntries
	r.stats = after
	r.stats.Iterations, r.stats.Seconds, r.stats.GrundyNumbers = r.Iterations, r.Seconds, r.GrundyNumbers
	r.stats.Expansions = after.Expansions - before.Expansions
	if d, ok := s.(interface{ RootChildren() []solve.RootChild[P] }); ok && cfg.rootMoves {
		r.RootMoves = rootMoves(d.RootChildren())
	}
	if cfg.algorithm == "pdfpn" {
		r.Threads, r.Spread = cfg.threads, solve.DefaultSpread
		r.PerThread = after.PerThread
		for i := range min(len(r.PerThread), len(before.PerThread)) {
			r.PerThread[i] -= before.PerThread[i]
		}
		r.LockWaits = after.LockWaits - before.LockWaits
		r.LockWaitSeconds = after.LockWaitSeconds - before.LockWaitSeconds
		if n := after.TTLookups - before.TTLookups; n > 0 {
			r.TTHitRate = float64(after.TTHits-before.TTHits) / float64(n)
		}
	}
	return r
}

// certifyOne writes and verifies the certificate of a solved position of
// game.
func certifyOne[P fmt.Stringer](cfg config, s solve.Searcher[P], game string, root P, heap uint32, r *result) error {
	out := solve.Win
	if r.Outcome == solve.Loss.String() {
		out = solve.Loss
	}
	claim, err := certify.Claim(root, heap, out, r.Nimber)
	if err != nil {
		return err
	}
	path, res, err := certify.WriteFor(game, cfg.certDir, s.DB(), claim, verify.Options{})
	if err != nil {
		return err
	}
	setCertificate(r, claim, path, res.Entries)
	return nil
}

// setCertificate records a written certificate in r.
func setCertificate(r *result, claim format.Claim, path string, entries int) {
	r.Claim, r.Certificate, r.CertEntries = claim.String(), path, entries
	r.Address = strings.TrimSuffix(filepath.Base(path), ".arrow")
}

func printResult(w io.Writer, cfg config, r result) {
	if cfg.json {
		b, _ := json.Marshal(r)
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	who := map[string]string{"W": "first player wins", "L": "second player wins"}
	switch {
	case r.Outcome == solve.Unknown.String():
		fmt.Fprintf(w, "%s  unknown  (stopped after %.1f s, %d iterations: %s)\n", r.Input, r.Seconds, r.Iterations, r.Reason)
	case r.Nimber != nil:
		fmt.Fprintf(w, "%s  %d  (Grundy value; %s)\n", r.Input, *r.Nimber, who[r.Outcome])
	default:
		fmt.Fprintf(w, "%s  %s  (%s)\n", r.Input, r.Outcome, who[r.Outcome])
	}
	if r.Certificate != "" {
		fmt.Fprintf(w, "    certificate %s  (%d entries, verified)\n", r.Certificate, r.CertEntries)
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
			cw.Write([]string{r.Input, r.Canonical, r.Algorithm, r.Outcome, nimber,
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

// unknownReason says why a search stopped unsolved: ctx is the run's (an
// interrupt ends it), limited the position's (its --timeout ends it);
// otherwise the iteration limit stopped it.
func unknownReason(ctx, limited context.Context) string {
	switch {
	case ctx.Err() != nil:
		return "interrupted"
	case limited.Err() != nil:
		return "timeout"
	}
	return "iteration limit"
}
