package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

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
	game          string          // a registered game's name, or gameList
	algorithm     solve.Algorithm // --algorithm, read (0 while it names none)
	algorithmName string          // --algorithm as given
	threads       int
	nimber        bool
	capacity      int
	memory        string
	plan          solve.MemoryPlan
	lands         *sprouts.Cache // the cache of the run's Sprouts searches, sized by plan (solveHere)
	dbIn, dbOut   string
	reuse         []string // --reuse: directories of certificates to draw on
	lemmasDir     string   // --lemmas: where a search stopped unsolved keeps what it proved
	noState       bool     // --state none: no checkpoint, not even the default one
	npos          int      // positions to solve (given, or the one --resume DIR holds)
	statsPath     string
	json          bool
	rootMoves     bool
	timeout       time.Duration
	maxIterations uint64
	progress      statusline.Mode // --progress
	lenient       bool
	certDir       string
	cpuProfile    string
	stateEvery    time.Duration
	capacitySet   bool // --capacity given
	force         bool // --force: move a search saved in --state aside
	swarm         swarmFlags
	limits        verify.Limits // --max-…: what a position given may cost
	args          []string      // the command line, for --stats
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
	showFlags(flags, false)
	foreign := cmdline.AddForeign(flags, spotsForeign...)
	flags.Usage = func() { buildinfo.Usage(stderr, usageText(), flags, exitCodes) }
	if err := cmdline.Parse(flags, args); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	if err := foreign.Check(flags); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	cfg.game = strings.ToLower(cfg.game) // --game Sprouts is sprouts
	if cfg.swarm.stateDir == stateNone {
		cfg.swarm.stateDir, cfg.noState = "", true
	}
	if cfg.algorithmName == "pns-pdfpn" {
		cfg.algorithmName = solve.SearchSwarm.String() // SPOTS's name of its distributed search
	}
	// An unknown name leaves the algorithm 0, which checkSearch refuses
	// (after --help, which lists the names).
	cfg.algorithm, _ = solve.ParseAlgorithm(cfg.algorithmName)
	if std.Handle("spots-solve", stdout, func(w io.Writer) {
		showFlags(flags, cfg.algorithm == solve.SearchSwarm)
		text := usageText()
		if cfg.algorithm == solve.SearchSwarm {
			text = swarmUsage
		}
		buildinfo.Usage(w, text, flags, exitCodes)
	}) {
		return cfg, nil, 0
	}
	if cfg.game == gameList {
		if err := listGames(stdout, cfg.json); err != nil {
			fmt.Fprintf(stderr, "spots-solve: %v\n", err)
			return cfg, nil, 1
		}
		return cfg, nil, 0
	}
	if cfg.certDir != "" && !flags.Changed("algorithm") {
		cfg.algorithm = solve.SearchDFPN // deterministic: a reproducible certificate
	}
	if cfg.certDir != "" && cfg.algorithm == solve.SearchPDFPN && cfg.threads > 1 {
		fmt.Fprintln(stderr, "spots-solve: note: --algorithm pdfpn with several threads is not deterministic: the certificate's address will differ from run to run (leave out --algorithm for dfpn, which reproduces it)")
	}
	if err := checkSearch(flags, cfg); err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	positions := flags.Args()
	if len(positions) == 0 && cfg.swarm.resumeDir != "" {
		var err error
		if positions, err = resumeArgs(flags, &cfg); err != nil {
			fmt.Fprintf(stderr, "spots-solve: %v\n", err)
			return cfg, nil, 2
		}
	}
	if len(positions) == 0 {
		fmt.Fprintf(stderr, "spots-solve: no position given%s\n", noPositionHint(cfg))
		flags.Usage()
		return cfg, nil, 2
	}
	cfg.npos = len(positions)
	cfg.capacitySet = flags.Changed("capacity")
	plan, err := checkRun(flags, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return cfg, nil, 2
	}
	cfg.plan = plan
	return cfg, positions, -1
}

// addFlags defines the flags of spots-solve (the swarm's among them) on
// flags, with cfg holding their values.
func addFlags(flags *pflag.FlagSet, cfg *config) {
	defaultAlg := solve.SearchDFPN
	if runtime.NumCPU() > 1 {
		defaultAlg = solve.SearchPDFPN
	}
	flags.StringVar(&cfg.algorithmName, "algorithm", defaultAlg.String(), "search: pdfpn (parallel dfpn, --threads: faster with more than one CPU, but not the same search twice), dfpn (depth-first, memory bounded by --capacity, deterministic), pns (keeps its whole DAG) or swarm (a master of worker processes; spots-solve --algorithm swarm --help). "+defaultMode())
	flags.StringVar(&cfg.game, "game", sprouts.Game, "the game: sprouts (positions such as 0*12), another that --game list prints, or list")
	flags.IntVar(&cfg.threads, "threads", runtime.NumCPU(), "threads for pdfpn (1 is plain dfpn, move for move)")
	flags.BoolVar(&cfg.nimber, "nimber", false, "compute the Grundy value instead of the outcome")
	flags.IntVar(&cfg.capacity, "capacity", solve.DefaultCapacity, "transposition-table entries (dfpn, pdfpn, and each worker started by --workers-local); without it pdfpn gets 10⁶ a thread, at most what a quarter of the machine's memory holds")
	flags.StringVar(&cfg.memory, "memory", "", memoryFlagHelp)
	flags.StringArrayVar(&cfg.reuse, "reuse", nil, "draw on the certificates in `DIR` (e.g. corpus/certs; repeatable): the search starts from the Grundy values they prove, and a certificate --cert writes cites those its proof relies on instead of repeating them. The values are input, not truth: the result is checked with the certificates it relies on, all verified, before it is printed, and solved again without them if they do not hold (every algorithm; the swarm: spots-solve --algorithm swarm --help)")
	flags.StringVar(&cfg.dbIn, "db-in", "", "preload a nimber database ([Positions+Nimber] text); a result found with it is checked from the rules before it is printed, and found again without it if its values do not prove it")
	flags.StringVar(&cfg.lemmasDir, "lemmas", "", "when a search stops unsolved (--timeout, --max-iterations, memory), write what it proved into `DIR` as a certificate of lemmas, which both checkers verify and a later run, on any machine, draws on with --reuse DIR")
	flags.StringVar(&cfg.dbOut, "db-out", "", "write the nimber database built (and preloaded) to `FILE`")
	flags.StringVar(&cfg.statsPath, "stats", "", "append one CSV row of statistics per position to `FILE`, with a header when the file is new or empty (columns: input, canonical, algorithm, outcome, nimber, seconds, iterations, expansions, grundy_numbers, nimber_db, tt_entries, tt_capacity, tt_evictions, nodes, arguments, time)")
	flags.BoolVar(&cfg.json, "json", false, "print one JSON object per position")
	flags.BoolVar(&cfg.rootMoves, "root-moves", false, "dfpn, pdfpn: also print the iterations spent below each move of the position (with --nimber: of its last couple, the position plus a heap of its value), most first")
	flags.DurationVar(&cfg.timeout, "timeout", 0, "give up on a position after this long (e.g. 30s, 10m; without it: never)")
	flags.Uint64Var(&cfg.maxIterations, "max-iterations", 0, "give up on a couple after this many iterations (without it: never)")
	flags.BoolVar(&cfg.lenient, "lenient", false, "skip malformed lines of --db-in, counted in one line of stderr, instead of failing")
	flags.StringVar(&cfg.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for go tool pprof)")
	flags.StringVar(&cfg.certDir, "cert", "", "write a certificate of each solved position into `DIR` (as <address>.arrow) and verify it")
	flags.DurationVar(&cfg.stateEvery, "state-every", solve.DefaultCheckpointEvery, "dfpn, pdfpn: how often --state saves the search")
	flags.BoolVar(&cfg.force, "force", false, "with --state DIR: if DIR already holds a search, move it aside into DIR/previous-N instead of refusing")
	flags.Var(&cfg.progress, "progress", statusline.FlagUsage)
	cmdline.LimitFlags(flags, &cfg.limits)
	flags.IntVar(&cfg.limits.Entries, "max-entries", 0, fmt.Sprintf("refuse a --db-in of more entries than `N`, counted as read (sums and repeats included), as spots-verify --max-entries does: they bound its memory, which --memory counts too (0: default %d, -1: no limit)", verify.DefaultLimits.Entries))
	for _, name := range []string{"max-lives", "max-boundaries", "max-letters", "max-cells", "max-moves", "max-work", "max-entries"} {
		flags.MarkHidden(name) // the usage text names them; spots-verify --help lists them
	}
	addSwarmFlags(flags, &cfg.swarm)
}

// checkSearch refuses the values of the search's flags that cannot be
// honoured.
func checkSearch(flags *pflag.FlagSet, cfg config) error {
	switch {
	case !cfg.algorithm.Valid():
		return fmt.Errorf("unknown --algorithm %q (want %s)", cfg.algorithmName, solve.AlgorithmNames())
	case cfg.threads < 1 || cfg.threads > solve.MaxThreads:
		return fmt.Errorf("--threads %d: want 1 to %d", cfg.threads, solve.MaxThreads)
	case cfg.capacity < solve.MinCapacity:
		return fmt.Errorf("--capacity %d is too small (at least %d)", cfg.capacity, solve.MinCapacity)
	case cfg.rootMoves && cfg.algorithm != solve.SearchDFPN && cfg.algorithm != solve.SearchPDFPN:
		return fmt.Errorf("--root-moves counts the iterations of dfpn and pdfpn, not of %s", cfg.algorithm)
	case cfg.nimber && cfg.algorithm == solve.SearchSwarm:
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
	if cfg.limits.Entries < -1 {
		return fmt.Errorf("--max-entries %d: want a positive number, 0 for the default or -1 for no limit", cfg.limits.Entries)
	}
	return notApplying(flags, cfg)
}

// notApplying refuses a flag given for a search that does not take it
// (--threads but for pdfpn, the swarm's flags without it, --state-every
// without --state, …): ignored without a word, it would leave the user
// believing it was used.
func notApplying(flags *pflag.FlagSet, cfg config) error {
	if cfg.algorithm == solve.SearchSwarm {
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
	if flags.Changed("threads") && cfg.threads != 1 && cfg.algorithm != solve.SearchPDFPN {
		why := ""
		if cfg.certDir != "" && !flags.Changed("algorithm") {
			why = " (--cert makes it dfpn, for a certificate made the same way every time)"
		}
		return fmt.Errorf("--threads %d is for pdfpn, and this run is %s%s, one thread: add --algorithm pdfpn, or leave --threads out", cfg.threads, cfg.algorithm, why)
	}
	saved := cfg.swarm.stateDir != "" || cfg.swarm.resumeDir != ""
	for _, f := range []struct {
		name    string
		applies bool   // to this run
		what    string // what the flag does, and what to do instead
	}{
		{"state-every", saved && (cfg.algorithm == solve.SearchDFPN || cfg.algorithm == solve.SearchPDFPN), "is how often dfpn and pdfpn save their search into --state (or back into --resume; the swarm's master saves every few seconds): give --state DIR with --algorithm dfpn or pdfpn, or leave it out"},
		{"force", cfg.swarm.stateDir != "", "moves aside the search a --state DIR holds, and this run has no --state: give --state DIR, or leave it out"},
		{"lemmas", lemmasApply(cfg), "keeps what a search of this process proved, and the swarm and " + otherGames(cfg) + " keep no lemmas: leave it out"},
		{"lenient", cfg.dbIn != "", "skips the malformed lines of --db-in, and this run reads no database: give --db-in FILE, or leave it out"},
		{"max-entries", cfg.dbIn != "", "bounds the entries read from --db-in, and this run reads no database: give --db-in FILE, or leave it out"},
		{"capacity", cfg.algorithm != solve.SearchPNS, "sizes the table of dfpn, pdfpn and the swarm's workers, and pns has none (it keeps its whole DAG): add --algorithm dfpn, or leave it out"},
	} {
		if flag := flags.Lookup(f.name); flag.Changed && !f.applies {
			given := "--" + f.name
			if flag.Value.Type() != "bool" {
				given += " " + flag.Value.String()
			}
			return fmt.Errorf("%s %s", given, f.what)
		}
	}
	return nil
}

// checkRun refuses what cannot run with the positions given (--state,
// the game, the resources asked for) and returns the memory plan.
func checkRun(flags *pflag.FlagSet, cfg config) (solve.MemoryPlan, error) {
	switch {
	case (cfg.swarm.stateDir != "" || cfg.swarm.resumeDir != "") && (cfg.algorithm == solve.SearchPNS || cfg.npos != 1):
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
	return memoryPlan(cfg, 0)
}

// defaultMode says what plain spots-solve POS runs on this machine: every
// core in one process, with a table that grows with the threads.
func defaultMode() string {
	cpus := runtime.NumCPU()
	if cpus < 2 {
		return "The default here (1 CPU) is dfpn with a table of 10⁶ entries."
	}
	usable, _ := memguard.Usable()
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
