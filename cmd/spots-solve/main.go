// Command spots-solve solves Sprouts positions with proof-number search.
//
// Usage:
//
//	spots-solve [flags] POSITION...
//
// For each position it prints who wins, as in
//
//	0*12  L  (second player wins)
//
// or with --nimber its Grundy value. With --json it prints one JSON object
// per position instead:
//
//	{"position":"0*12","canonical":"0*12","outcome":"L","nimber":null,
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
// (--timeout, --max-iterations, an interrupt) left one unknown, 2 for bad
// usage or input, in which case nothing is solved or written.
package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/spots-dev/spots/internal/statusline"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

const usage = `usage: spots-solve [flags] POSITION...
       spots-solve --algorithm swarm [--workers-local N] [flags] POSITION
       spots-solve worker --join HOST:PORT [flags]

Solves Sprouts positions (e.g. 0*12) with proof-number search and prints
who wins, or with --nimber the Grundy value. With --algorithm swarm the
process is the master of a swarm of worker processes (started here with
--workers-local, or on other machines with "spots-solve worker").

Flags:
`

// config holds the parsed flags.
type config struct {
	algorithm     string
	threads       int
	nimber        bool
	capacity      int
	memory        string
	plan          solve.MemoryPlan
	estimator     string
	dbIn, dbOut   string
	statsPath     string
	json          bool
	seed          uint64
	timeout       time.Duration
	maxIterations uint64
	noProgress    bool
	lenient       bool
	certDir       string
	cpuProfile    string
	swarm         swarmFlags
}

// searcher is what the command needs of a search.
type searcher interface {
	Solve(context.Context, sprouts.Position, uint32) solve.Outcome
	Grundy(context.Context, sprouts.Position) (uint32, bool)
	Stats() solve.Stats
	DB() *solve.NimberDB
}

// result is one solved position, as printed with --json.
type result struct {
	Position      string  `json:"position"`
	Canonical     string  `json:"canonical"`
	Outcome       string  `json:"outcome"`
	Nimber        *uint32 `json:"nimber"`
	Algorithm     string  `json:"algorithm"`
	Seconds       float64 `json:"seconds"`
	Iterations    uint64  `json:"iterations"`
	GrundyNumbers int     `json:"grundy_numbers"`
	TTEntries     int64   `json:"tt_entries"`
	Certificate   string  `json:"certificate,omitempty"`
	CertEntries   int     `json:"certificate_entries,omitempty"`
	// pdfpn only
	Threads         int      `json:"threads,omitempty"`
	PerThread       []uint64 `json:"per_thread_iterations,omitempty"`
	LockWaits       int64    `json:"lock_waits,omitempty"`
	LockWaitSeconds float64  `json:"lock_wait_seconds,omitempty"`
	TTHitRate       float64  `json:"tt_hit_rate,omitempty"`

	stats solve.Stats // the search's counters for this position
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "worker" {
		return runWorker(ctx, args[1:], stderr)
	}
	cfg, positions, status := parseFlags(args, stderr)
	if status >= 0 {
		return status
	}
	prof, err := startCPUProfile(cfg.cpuProfile)
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return 2
	}
	status = solveAll(ctx, cfg, positions, stdout, stderr)
	if err := prof.stop(); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		status = max(status, 2)
	}
	return status
}

// solveAll solves the positions of the command line, one after another
// (or the one position of a swarm), and returns the exit status.
func solveAll(ctx context.Context, cfg config, positions []string, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "spots-solve: "+format+"\n", a...)
		return 2
	}
	var roots []sprouts.Position
	for _, in := range positions {
		p, err := sprouts.Parse(in)
		if err != nil {
			return fail("%v", err)
		}
		roots = append(roots, p)
	}
	if cfg.certDir != "" {
		if err := os.MkdirAll(cfg.certDir, 0o755); err != nil {
			return fail("--cert: %v", err)
		}
	}
	if cfg.algorithm == "swarm" {
		if len(roots) != 1 {
			return fail("the swarm solves one position at a time (got %d)", len(roots))
		}
		return runMaster(ctx, cfg, cfg.swarm, positions[0], roots[0], stdout, stderr)
	}
	db := solve.NewNimberDB()
	if cfg.dbIn != "" {
		if err := loadDB(db, cfg.dbIn, cfg.lenient, stderr); err != nil {
			return fail("--db-in %s: %v", cfg.dbIn, err)
		}
	}
	var prog *statusline.Line
	if !cfg.noProgress {
		prog = statusline.New(stderr)
	}
	s := newSearcher(cfg, db, prog)
	var results []result
	status := 0
	for i, root := range roots {
		r := solveOne(ctx, cfg, s, positions[i], root)
		prog.Clear()
		if cfg.certDir != "" && r.Outcome != solve.Unknown.String() {
			if err := certifyOne(cfg, s, root, &r); err != nil {
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
	if cfg.statsPath != "" {
		if err := writeStats(cfg.statsPath, results); err != nil {
			return fail("--stats %s: %v", cfg.statsPath, err)
		}
	}
	if cfg.dbOut != "" {
		if err := saveDB(s.DB(), cfg.dbOut); err != nil {
			return fail("--db-out %s: %v", cfg.dbOut, err)
		}
	}
	return status
}

// parseFlags returns the configuration and positions, or an exit status
// (not negative) when the command should stop.
func parseFlags(args []string, stderr io.Writer) (config, []string, int) {
	var cfg config
	flags := pflag.NewFlagSet("spots-solve", pflag.ContinueOnError)
	flags.SetOutput(stderr)
	defaultAlg := "dfpn"
	if runtime.NumCPU() > 1 {
		defaultAlg = "pdfpn"
	}
	flags.StringVar(&cfg.algorithm, "algorithm", defaultAlg, "search: pdfpn (parallel dfpn, --threads), dfpn (depth-first, memory bounded by --capacity) or pns (keeps its whole DAG); the default is pdfpn when there is more than one CPU")
	flags.IntVar(&cfg.threads, "threads", runtime.NumCPU(), "threads for pdfpn (1 is plain dfpn, move for move)")
	flags.BoolVar(&cfg.nimber, "nimber", false, "compute the Grundy value instead of the outcome")
	flags.IntVar(&cfg.capacity, "capacity", solve.DefaultCapacity, "transposition-table entries (dfpn, pdfpn, and each worker started by --workers-local)")
	flags.StringVar(&cfg.memory, "memory", "", memoryFlagHelp)
	flags.StringVar(&cfg.estimator, "estimator", "unit", "numbers of an unexpanded couple (dfpn, pdfpn, pns): unit (1, 1, as the reference), moves (disproof number from the estimated number of moves: faster on some positions, slower on others; see BENCHMARKS.md) or depth")
	flags.StringVar(&cfg.dbIn, "db-in", "", "preload a nimber database ([Positions+Nimber] text); its entries are trusted, not checked")
	flags.StringVar(&cfg.dbOut, "db-out", "", "write the nimber database built (and preloaded) to `FILE`")
	flags.StringVar(&cfg.statsPath, "stats", "", "write one CSV row of statistics per position to `FILE` (columns: position, canonical, algorithm, outcome, nimber, seconds, iterations, expansions, grundy_numbers, nimber_db, tt_entries, tt_capacity, tt_evictions, nodes)")
	flags.BoolVar(&cfg.json, "json", false, "print one JSON object per position")
	flags.Uint64Var(&cfg.seed, "seed", 0, "break ties between equal children at random with this seed (0: in heuristic order)")
	flags.DurationVar(&cfg.timeout, "timeout", 0, "give up on a position after this long (e.g. 30s, 10m; without it: never)")
	flags.Uint64Var(&cfg.maxIterations, "max-iterations", 0, "give up on a couple after this many iterations (without it: never)")
	flags.BoolVar(&cfg.noProgress, "no-progress", false, "do not show progress on standard error")
	flags.BoolVar(&cfg.lenient, "lenient", false, "skip malformed lines of --db-in with a warning instead of failing")
	flags.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	flags.StringVar(&cfg.certDir, "cert", "", "write a certificate of each solved position into `DIR` (as <address>.arrow) and verify it")
	addSwarmFlags(flags, &cfg.swarm, false)
	flags.Usage = func() {
		fmt.Fprint(stderr, usage)
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return cfg, nil, 0
		}
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	switch {
	case cfg.algorithm != "dfpn" && cfg.algorithm != "pns" && cfg.algorithm != "pdfpn" && cfg.algorithm != "swarm":
		fmt.Fprintf(stderr, "spots-solve: unknown --algorithm %q (want pdfpn, dfpn, pns or swarm)\n", cfg.algorithm)
		return cfg, nil, 2
	case cfg.threads < 1 || cfg.threads > solve.MaxThreads:
		fmt.Fprintf(stderr, "spots-solve: --threads %d: want 1 to %d\n", cfg.threads, solve.MaxThreads)
		return cfg, nil, 2
	case cfg.capacity < ttMinimum:
		fmt.Fprintf(stderr, "spots-solve: --capacity %d is too small (at least %d)\n", cfg.capacity, ttMinimum)
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
	}
	if err := checkResources(flags, cfg); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	if _, err := solve.ParseEstimator(cfg.estimator); err != nil {
		fmt.Fprintf(stderr, "spots-solve: --estimator: %v\n", err)
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

// ttMinimum is the smallest --capacity: one bucket of the table.
const ttMinimum = 4

func newSearcher(cfg config, db *solve.NimberDB, prog *statusline.Line) searcher {
	applyMemory(cfg.plan, cfg.algorithm)
	est, _ := solve.ParseEstimator(cfg.estimator) // checked by parseFlags
	opt := solve.Options{Capacity: cfg.plan.Capacity, ChildrenCache: cfg.plan.ChildrenCache, Seed: cfg.seed,
		MaxIterations: cfg.maxIterations, Estimator: est}
	if prog != nil {
		opt.Progress = func(p solve.Progress) { prog.Show(true, "%s", statusline.Search(p)) }
		opt.ProgressEvery = prog.Every()
	}
	switch cfg.algorithm {
	case "pns":
		return solve.NewPNS(sprouts.Rules{}, db, opt)
	case "pdfpn":
		opt.Threads = cfg.threads
	}
	return solve.NewDFPN(sprouts.Rules{}, db, opt)
}

func solveOne(ctx context.Context, cfg config, s searcher, input string, root sprouts.Position) result {
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	before := s.Stats()
	r := result{Position: input, Canonical: root.String(), Algorithm: cfg.algorithm}
	var out solve.Outcome
	if cfg.nimber {
		if g, ok := s.Grundy(ctx, root); ok {
			r.Nimber = &g
			out = solve.Win
			if g == 0 {
				out = solve.Loss
			}
		}
	} else {
		out = s.Solve(ctx, root, 0)
	}
	after := s.Stats()
	r.Outcome = out.String()
	r.Seconds = after.Seconds - before.Seconds
	r.Iterations = after.Iterations - before.Iterations
	r.GrundyNumbers = after.GrundyNumbers - before.GrundyNumbers
	r.TTEntries = after.TTEntries
	r.stats = after
	r.stats.Iterations, r.stats.Seconds, r.stats.GrundyNumbers = r.Iterations, r.Seconds, r.GrundyNumbers
	r.stats.Expansions = after.Expansions - before.Expansions
	if cfg.algorithm == "pdfpn" {
		r.Threads = cfg.threads
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

// certifyOne writes and verifies the certificate of a solved position.
func certifyOne(cfg config, s searcher, root sprouts.Position, r *result) error {
	out := solve.Win
	if r.Outcome == solve.Loss.String() {
		out = solve.Loss
	}
	claim, err := certify.Claim(root, 0, out, r.Nimber)
	if err != nil {
		return err
	}
	path, res, err := certify.Write(cfg.certDir, s.DB(), claim, verify.Options{})
	if err != nil {
		return err
	}
	r.Certificate, r.CertEntries = path, res.Entries
	return nil
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
		fmt.Fprintf(w, "%s  unknown  (stopped after %.1f s, %d iterations)\n", r.Position, r.Seconds, r.Iterations)
	case r.Nimber != nil:
		fmt.Fprintf(w, "%s  %d  (Grundy value; %s)\n", r.Position, *r.Nimber, who[r.Outcome])
	default:
		fmt.Fprintf(w, "%s  %s  (%s)\n", r.Position, r.Outcome, who[r.Outcome])
	}
	if r.Certificate != "" {
		fmt.Fprintf(w, "    certificate %s  (%d entries, verified)\n", r.Certificate, r.CertEntries)
	}
}

func writeStats(path string, results []result) error {
	return format.WriteFileAtomic(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"position", "canonical", "algorithm", "outcome", "nimber", "seconds", "iterations", "expansions",
			"grundy_numbers", "nimber_db", "tt_entries", "tt_capacity", "tt_evictions", "nodes"})
		for _, r := range results {
			nimber := ""
			if r.Nimber != nil {
				nimber = strconv.FormatUint(uint64(*r.Nimber), 10)
			}
			st := r.stats
			cw.Write([]string{r.Position, r.Canonical, r.Algorithm, r.Outcome, nimber,
				strconv.FormatFloat(r.Seconds, 'f', 3, 64), u(st.Iterations), u(st.Expansions),
				strconv.Itoa(st.GrundyNumbers), strconv.Itoa(st.NimberDB), strconv.FormatInt(st.TTEntries, 10),
				strconv.Itoa(st.TTCapacity), strconv.FormatInt(st.TTEvictions, 10), strconv.Itoa(st.Nodes)})
		}
		cw.Flush()
		return cw.Error()
	})
}

func u(x uint64) string { return strconv.FormatUint(x, 10) }

// loadDB reads a [Positions+Nimber] database into db, re-keying its
// positions under the canonical form.
func loadDB(db *solve.NimberDB, path string, lenient bool, stderr io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	warn := func(e *format.LineError) { fmt.Fprintf(stderr, "spots-solve: --db-in %s: skipping %v\n", path, e) }
	entries, err := format.ReadSPR(f, format.SPROptions{Lenient: lenient, Warn: warn})
	if err != nil {
		return err
	}
	for _, e := range entries {
		p, err := sprouts.Parse(e.Position)
		if err != nil {
			le := &format.LineError{Line: e.Line, Text: e.Position, Reason: err.Error()}
			if lenient {
				warn(le)
				continue
			}
			return le
		}
		if p.NumLands() != 1 {
			warn(&format.LineError{Line: e.Line, Text: e.Position, Reason: fmt.Sprintf("%s is not one land", p)})
			continue
		}
		if g, ok := db.Get(p.Key()); ok && g != e.Grundy {
			return &format.LineError{Line: e.Line, Text: e.Position,
				Reason: fmt.Sprintf("gives %s the Grundy value %d, but an earlier line gives it %d", p, e.Grundy, g)}
		}
		db.Put(p.Key(), e.Grundy)
	}
	return nil
}

func saveDB(db *solve.NimberDB, path string) error {
	var entries []format.SPREntry
	var err error
	db.Range(func(key string, g uint32) bool {
		var p sprouts.Position
		if p, err = sprouts.FromKey(key); err != nil {
			return false
		}
		entries = append(entries, format.SPREntry{Position: p.String(), Grundy: g})
		return true
	})
	if err != nil {
		return err
	}
	return format.WriteSPRFile(path, entries)
}
