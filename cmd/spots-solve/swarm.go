package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/internal/searchstatus"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// swarmFlags are the flags of the master (--algorithm swarm) and of the
// worker command.
type swarmFlags struct {
	listen       string
	gossip       string
	join         string
	key          string
	keyFile      string
	statusListen string
	workersLocal int
	stateDir     string
	resumeDir    string
	params       swarm.Params
	noVerify     bool
	wait         time.Duration // worker: how long to wait for a master
	reuse        []string      // --reuse: directories of certificates to draw on

	metricsListen string // the master's --metrics-listen
}

// addSwarmFlags adds the master's flags (--algorithm swarm) to flags,
// and --state and --resume, which dfpn and pdfpn take too. The master's
// own are listed by --help only after --algorithm swarm (masterFlags).
func addSwarmFlags(flags *pflag.FlagSet, sf *swarmFlags) {
	sf.params = swarm.DefaultParams()
	p := &sf.params
	addKeyFlags(flags, sf)
	flags.IntVar(&p.Grouping, "grouping", p.Grouping, fmt.Sprintf("solvers of each --workers-local worker, sharing one nimber database and one exchange with the master (1 to %d): more share more values and cost the master fewer exchanges", swarm.MaxGrouping))
	flags.StringVar(&sf.listen, "listen", "127.0.0.1:7400", "the master's HTTP address for jobs")
	flags.StringVar(&sf.gossip, "gossip", "127.0.0.1:7401", "the master's gossip address, which workers --join")
	flags.StringVar(&sf.statusListen, "status-listen", defaultStatusListen, "serve the read-only status page (/), /status.json and /metrics here without a key: a loopback address only (open it through ssh -L or kubectl port-forward); \"\" for none. On --listen the same pages (/status, /status.json, /metrics) need the status token as Bearer or Basic password: printf 'spots-swarm-status\\000%s' \"$KEY\" | sha256sum")
	flags.StringVar(&sf.metricsListen, "metrics-listen", "", "serve /metrics alone (Prometheus text, counters and gauges of the search; no positions, no status page) here without a key, on any address, for a scraper that cannot send the status token (Kubernetes' prometheus.io annotations); \"\" (the default) for none")
	flags.IntVar(&sf.workersLocal, "workers-local", 0, fmt.Sprintf("start this many worker processes on this machine (1 to %d); one that dies is started again, up to %d times", maxWorkersLocal, maxLocalRestarts))
	flags.StringVar(&sf.stateDir, "state", "", "save the search to `DIR` so that --resume can continue it after a crash or Ctrl-C: dfpn and pdfpn save their nimber database and table every --state-every and when they stop; the swarm's master saves its database and state every few seconds (once solved, only the values its proof checked). A DIR that holds another search is refused (--resume DIR continues it, --force moves it aside), and so is one another process is using (it is locked while in use)")
	flags.StringVar(&sf.resumeDir, "resume", "", "continue the search saved in `DIR` by --state (dfpn and pdfpn go on saving into DIR unless --state names another). A checkpoint is input, not truth: the result is checked from the rules before it is printed, and solved again without the checkpoint if the checkpoint's values do not prove it")
	flags.Uint64Var(&p.Iterations, "iterations", p.Iterations, "most iterations of a job before the master expands its leaf (each PDFPN thread's), until the swarm has 256 cores, then 500: longer jobs cost the master fewer exchanges, shorter ones let it steer the search sooner")
	flags.Uint64Var(&p.Updates, "updates", p.Updates, "iterations between a job's reports (each PDFPN thread's); a loaded master asks for fewer")
	flags.DurationVar(&p.Lease, "lease", p.Lease, "a worker silent this long loses its jobs: shorter recovers a dead worker's work sooner, and takes it from a slow one that is only late")
	flags.BoolVar(&sf.noVerify, "no-verify", false, "report the result without auditing the workers' values first (a lying worker can then make it wrong)")
}

// masterFlags are the flags that only the swarm's master takes: --help
// lists them after --algorithm swarm, and not otherwise.
var masterFlags = []string{"key", "key-file", "grouping", "listen", "gossip", "status-listen", "metrics-listen", "workers-local", "iterations", "updates", "lease", "no-verify"}

// masterReuseHelp is what --reuse does for the swarm's master (--help
// after --algorithm swarm).
const masterReuseHelp = "draw on the certificates in `DIR` (e.g. corpus/certs; repeatable): the master and its --workers-local workers start from the Grundy values they prove (a worker started by hand takes its own --reuse). " +
	"The values are input, not truth: the master's audit cites the certificates of those its proof relies on instead of deriving them, and checks each of them, with what they cite, before the result is printed; --cert writes a certificate that cites them. " +
	"A certificate drawn on that does not hold (one cited is not valid, or a value of it is found wrong by solving its position again) stops the solve: exit 1, its address named, no result (remove it from DIR, or leave out --reuse)"

// workerReuseHelp is what --reuse does for a worker.
const workerReuseHelp = "draw on the certificates in `DIR` (e.g. corpus/certs; repeatable): the worker's solvers start from the Grundy values they prove, and it sends the master only what it derives. " +
	"Give the master the same --reuse: its audit takes only values it can derive from its own, and refuses a value that rests on certificates it does not draw on"

// searchFlags are the flags that only the searches of this process take
// (dfpn, pdfpn, pns): --help leaves them out after --algorithm swarm.
var searchFlags = []string{"game", "threads", "nimber", "memory", "db-in", "db-out", "lenient", "stats", "root-moves", "state-every"}

// showFlags hides the flags of --help that do not apply to algorithm.
func showFlags(flags *pflag.FlagSet, algorithm string) {
	swarmHelp := algorithm == "swarm"
	if swarmHelp {
		flags.Lookup("reuse").Usage = masterReuseHelp
	}
	for _, name := range masterFlags {
		flags.Lookup(name).Hidden = !swarmHelp
	}
	for _, name := range searchFlags {
		flags.Lookup(name).Hidden = swarmHelp
	}
}

// addKeyFlags adds --key and --key-file, which master and workers take.
func addKeyFlags(flags *pflag.FlagSet, sf *swarmFlags) {
	flags.StringVar(&sf.key, "key", "", "the swarm's shared key (or $SPOTS_SWARM_KEY, or --key-file); at least 8 characters (a master with only --workers-local workers makes a random one when none is given)")
	flags.StringVar(&sf.keyFile, "key-file", "", "read the swarm's shared key from `FILE` (its first line; e.g. a systemd credential, %d/swarm-key, or a mounted Kubernetes Secret); overrides $SPOTS_SWARM_KEY")
}

// defaultStatusListen is where a master serves its status pages to this
// machine by default.
const defaultStatusListen = "127.0.0.1:7402"

// defaultWorkerWait is how long a worker waits for a master by default.
const defaultWorkerWait = 2 * time.Minute

// maxWorkersLocal bounds --workers-local: processes started on this one
// machine.
const maxWorkersLocal = 256

// checkSwarmFlags refuses values of the master's flags that would mean
// nothing or be silently replaced: a flag given must be in its range
// (zero and negative numbers and durations are usage errors).
func checkSwarmFlags(flags *pflag.FlagSet, sf *swarmFlags) error {
	p := sf.params
	if err := checkStatusListen(sf.statusListen); err != nil {
		return err
	}
	if _, _, err := net.SplitHostPort(sf.metricsListen); err != nil && sf.metricsListen != "" {
		return fmt.Errorf("--metrics-listen %q: %w", sf.metricsListen, err)
	}
	switch {
	case sf.key != "" && sf.keyFile != "":
		return errors.New("--key and --key-file: give one of them")
	case p.Grouping < 1 || p.Grouping > swarm.MaxGrouping:
		return fmt.Errorf("--grouping %d: want 1 to %d", p.Grouping, swarm.MaxGrouping)
	case p.Iterations == 0:
		return errors.New("--iterations 0: want a positive number")
	case p.Updates == 0:
		return errors.New("--updates 0: want a positive number")
	case p.Lease <= 0:
		return fmt.Errorf("--lease %v: want a positive duration", p.Lease)
	case flags.Changed("workers-local") && (sf.workersLocal < 1 || sf.workersLocal > maxWorkersLocal):
		return fmt.Errorf("--workers-local %d: want 1 to %d", sf.workersLocal, maxWorkersLocal)
	}
	return nil
}

// checkResources checks the flags whose values size what the command
// allocates: --capacity (for every table the run builds on this machine)
// and the swarm's flags.
func checkResources(flags *pflag.FlagSet, cfg config) error {
	if err := checkSwarmFlags(flags, &cfg.swarm); err != nil {
		return err
	}
	tables := 1
	if cfg.algorithm == "swarm" && cfg.swarm.workersLocal > 0 {
		tables = cfg.swarm.workersLocal * cfg.swarm.params.Grouping
	}
	if err := swarm.CheckCapacity(cfg.capacity, tables); err != nil {
		return fmt.Errorf("--capacity %d: %w", cfg.capacity, err)
	}
	return nil
}

func (sf *swarmFlags) swarmKey() (swarm.Key, error) {
	k, err := sf.keyText()
	if err != nil {
		return swarm.Key{}, err
	}
	if k == "" {
		return swarm.Key{}, errors.New("no swarm key: give --key or --key-file, or set SPOTS_SWARM_KEY")
	}
	return swarm.NewKey(k)
}

// keyText returns the key given by --key, --key-file or $SPOTS_SWARM_KEY
// (in that order), or "" when none is given.
func (sf *swarmFlags) keyText() (string, error) {
	switch {
	case sf.key != "":
		return sf.key, nil
	case sf.keyFile != "":
		return readKeyFile(sf.keyFile)
	}
	return os.Getenv("SPOTS_SWARM_KEY"), nil
}

// randomKey returns a new random key (256 bits, in hexadecimal) for a
// swarm of local workers only: they get it through their environment, and
// it is never printed.
func randomKey() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a random swarm key: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// workerFlags are the flags of `spots-solve worker`.
type workerFlags struct {
	swarmFlags
	threads, capacity int
	profile           string
	lieEvery          int // the hidden test hook --test-lie-every
}

// runWorker is `spots-solve worker`: one worker group that joins the swarm
// and solves jobs until the master says the root is solved.
func runWorker(ctx context.Context, args []string, stdout, stderr io.Writer) (status int) {
	wf, status := parseWorkerFlags(args, stdout, stderr)
	if status >= 0 {
		return status
	}
	key, err := wf.swarmKey()
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return 2
	}
	prof, err := cpuprofile.Start(wf.profile, format.CreateAtomic)
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return 2
	}
	defer func() {
		if err := prof.Stop(); err != nil {
			fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
			status = max(status, 2)
		}
	}()
	return runGroup(ctx, wf, key, stderr)
}

// parseWorkerFlags returns the worker's flags, or an exit status (not
// negative) when the command should stop.
func parseWorkerFlags(args []string, stdout, stderr io.Writer) (workerFlags, int) {
	var wf workerFlags
	wf.params = swarm.DefaultParams()
	flags := pflag.NewFlagSet("spots-solve worker", pflag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&wf.join, "join", "", "the master's gossip address (host:port)")
	flags.StringVar(&wf.gossip, "gossip", "127.0.0.1:0", "this worker's gossip address")
	flags.DurationVar(&wf.wait, "wait", defaultWorkerWait, "give up (exit 1) when no master answers at --join for this long")
	addKeyFlags(flags, &wf.swarmFlags)
	flags.IntVar(&wf.params.Grouping, "grouping", wf.params.Grouping, fmt.Sprintf("solvers of this worker, sharing one nimber database and one exchange with the master (1 to %d; the machine's cores, or its cores over --threads, is the paper's best)", swarm.MaxGrouping))
	flags.IntVar(&wf.threads, "threads", 1, fmt.Sprintf("PDFPN threads per solver (1 to %d; 1: sequential DFPN)", solve.MaxThreads))
	flags.IntVar(&wf.capacity, "capacity", wf.params.Capacity, "transposition-table entries per solver")
	flags.StringArrayVar(&wf.reuse, "reuse", nil, workerReuseHelp)
	flags.StringVar(&wf.profile, "cpuprofile", "", "write a CPU profile of the worker to `FILE` (for go tool pprof)")
	// A test hook, hidden from --help: the worker sends every k-th of its
	// Grundy values (of those ≥ 1) one less than it found, so the tests can
	// check that a lying worker cannot poison a solve.
	flags.IntVar(&wf.lieEvery, "test-lie-every", 0, "test hook: send every k-th Grundy value wrong")
	flags.MarkHidden("test-lie-every")
	std := buildinfo.AddStd(flags)
	flags.Usage = func() { buildinfo.Usage(stderr, workerUsage, flags, workerExitCodes) }
	if err := flags.Parse(args); err != nil {
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return wf, 2
	}
	if std.Handle("spots-solve worker", stdout, func(w io.Writer) { buildinfo.Usage(w, workerUsage, flags, workerExitCodes) }) {
		return wf, 0
	}
	if err := checkWorkerFlags(wf); err != nil {
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return wf, 2
	}
	wf.params.Threads, wf.params.Capacity = wf.threads, wf.capacity
	return wf, -1
}

// checkWorkerFlags refuses the worker's flags out of their range.
func checkWorkerFlags(wf workerFlags) error {
	switch {
	case wf.join == "":
		return errors.New("--join is required: the master's gossip address")
	case wf.key != "" && wf.keyFile != "":
		return errors.New("--key and --key-file: give one of them")
	case wf.params.Grouping < 1 || wf.params.Grouping > swarm.MaxGrouping:
		return fmt.Errorf("--grouping %d: want 1 to %d", wf.params.Grouping, swarm.MaxGrouping)
	case wf.wait <= 0:
		return fmt.Errorf("--wait %v: want a positive duration", wf.wait)
	case wf.threads < 1 || wf.threads > solve.MaxThreads:
		return fmt.Errorf("--threads %d: want 1 to %d", wf.threads, solve.MaxThreads)
	case wf.capacity < solve.MinCapacity:
		return fmt.Errorf("--capacity %d is too small (at least %d)", wf.capacity, solve.MinCapacity)
	}
	if err := swarm.CheckCapacity(wf.capacity, wf.params.Grouping); err != nil {
		return fmt.Errorf("--capacity %d: %w", wf.capacity, err)
	}
	return nil
}

// runGroup joins the swarm as one worker group and runs it until the
// master says the solve is over; it returns the exit status.
func runGroup(ctx context.Context, wf workerFlags, key swarm.Key, stderr io.Writer) int {
	logf := func(msg string, a ...any) { fmt.Fprintf(stderr, "spots-solve worker: "+msg+"\n", a...) }
	host, _ := os.Hostname()
	name := fmt.Sprintf("worker-%s-%d-%s", host, os.Getpid(), uuid.NewString()[:8])
	pool, err := loadSwarmPool(ctx, wf.reuse, "spots-solve worker", stderr)
	if err != nil {
		logf("--reuse %s: %v (leave out --reuse to solve without them)", strings.Join(wf.reuse, ", "), err)
		return 2
	}
	var opts []swarm.GroupOption
	if pool != nil {
		opts = append(opts, swarm.WithGroupPool(pool))
	}
	g, err := swarm.NewGroup(name, wf.params, opts...)
	if err != nil {
		logf("%v", err)
		return 2
	}
	g.Log = logf
	if wf.lieEvery > 0 {
		g.Lie = lyingHook(wf.lieEvery)
	}
	logf("%s: waiting for a master at %s (up to %v)", name, wf.join, wf.wait)
	member, err := swarm.StartMember(ctx, swarm.MemberConfig{Name: name, Bind: wf.gossip, Key: key, Join: []string{wf.join}, JoinWait: wf.wait,
		Meta: swarm.Meta{Role: "worker", Grouping: wf.params.Grouping, Threads: wf.threads, Version: buildinfo.Version()}})
	if err != nil {
		if ctx.Err() != nil {
			logf("interrupted while waiting for a master")
			return statusInterrupted
		}
		if strings.Contains(err.Error(), "nothing answers") {
			logf("no master at %s after %v (--wait): %v", wf.join, wf.wait, err)
			return 1
		}
		logf("%v", err)
		return 2
	}
	defer member.Leave()
	err = g.Run(ctx, &loggingLink{link: masterLink(member, key, wf.swarmFlags, logf), logf: logf})
	switch {
	case err == nil:
		logf("the master says the solve is over")
		return 0
	case errors.Is(err, swarm.ErrUnauthorized):
		logf("%v", err)
		return 2
	case ctx.Err() != nil:
		logf("interrupted")
		return statusInterrupted
	}
	logf("%v", err) // no master within --wait, banned, or another fault
	return 1
}

// loadSwarmPool reads the certificates of --reuse (nil without it) for
// the master or a worker (who), saying on standard error what it drew on.
func loadSwarmPool(ctx context.Context, dirs []string, who string, stderr io.Writer) (*certify.Pool, error) {
	if len(dirs) == 0 {
		return nil, nil
	}
	start := time.Now()
	pool, err := certify.LoadPool(ctx, dirs, nil, nil)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "%s: drawing on %d values of %d certificates (read in %.1f s)\n", who, pool.Len(), pool.Files, time.Since(start).Seconds())
	return pool, nil
}

// masterLink is a worker's link to the master that the gossip names,
// found again when the master restarts; it gives up (swarm.ErrNoMaster)
// when none is known for --wait.
func masterLink(member *swarm.Member, key swarm.Key, sf swarmFlags, logf func(string, ...any)) *swarm.HTTPLink {
	var noMaster time.Time // since when no master is known (zero: one is)
	resolved := ""
	return &swarm.HTTPLink{Key: key, Resolve: func(ctx context.Context) (string, error) {
		for {
			if meta, ok := member.Master(); ok {
				if meta.HTTP != resolved {
					resolved = meta.HTTP
					logf("joined the swarm: master at %s (jobs over http://%s)", sf.join, meta.HTTP)
				}
				noMaster = time.Time{}
				return "http://" + meta.HTTP, nil
			}
			if noMaster.IsZero() {
				noMaster = time.Now()
				logf("waiting for a master at %s (up to %v)", sf.join, sf.wait)
			} else if time.Since(noMaster) > sf.wait {
				return "", fmt.Errorf("%w at %s for %v (--wait)", swarm.ErrNoMaster, sf.join, sf.wait)
			}
			member.Rejoin([]string{sf.join}) // the master may have restarted
			select {
			case <-time.After(500 * time.Millisecond):
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
	}}
}

const workerUsage = `usage: spots-solve worker --join HOST:PORT [flags]

Joins a swarm (the master's gossip address, --gossip of the master) and
solves its jobs until the master says the solve is over. It says on
standard error what it is doing: waiting for a master, joined, each new
job and its size. The key is --key, --key-file or $SPOTS_SWARM_KEY, as the
master's.

Example:
  SPOTS_SWARM_KEY=... spots-solve worker --join 10.0.0.1:7401 --grouping 2

Flags:
`

const workerExitCodes = `  0    the master said the solve is over
  1    no master answered within --wait, or the master banned this worker
  2    bad usage, or a wrong key
  130  interrupted (SIGINT, SIGTERM)
`

// loggingLink is a worker's link that says on standard error which jobs
// the master hands out.
type loggingLink struct {
	link swarm.Link
	logf func(msg string, a ...any)
}

// Exchange passes req on and logs each new job of the reply (a continued
// job, in a later cycle, is not logged again).
func (l *loggingLink) Exchange(ctx context.Context, req swarm.ExchangeRequest) (swarm.ExchangeReply, error) {
	reply, err := l.link.Exchange(ctx, req)
	if err != nil {
		return reply, err
	}
	for _, j := range reply.Jobs {
		if j.Cycle > 0 {
			continue
		}
		size := ""
		if p, err := sprouts.Parse(j.Position); err == nil {
			size = fmt.Sprintf("%d lives, ", p.Lives())
		}
		heap := ""
		if j.N > 0 {
			heap = fmt.Sprintf(" + *%d", j.N)
		}
		id := j.ID // a UUIDv7: its end tells jobs apart, its start is the time
		if len(id) > 8 {
			id = id[len(id)-8:]
		}
		l.logf("job …%s: %s%s (%sup to %d iterations a cycle)", id, j.Position, heap, size, j.MaxIterations)
	}
	return reply, nil
}

// lyingHook is the test hook of --test-lie-every: every k-th value of at
// least 1 is sent one less.
func lyingHook(k int) func([]solve.NimberEntry) []solve.NimberEntry {
	n := 0
	return func(es []solve.NimberEntry) []solve.NimberEntry {
		for i := range es {
			if es[i].G > 0 {
				if n++; n%k == 0 {
					es[i].G--
				}
			}
		}
		return es
	}
}

// savedState is what --state writes besides the nimber database. Run is
// the run of the master that saved it (swarm.Master.Run): a master
// resumed from it runs under a new one, so that no request signed for
// the saved run is accepted again.
type savedState struct {
	Root    string        `json:"root"`
	Outcome solve.Outcome `json:"outcome"`
	Params  swarm.Params  `json:"params"`
	Saved   time.Time     `json:"saved"`
	Run     string        `json:"run,omitempty"`
}

// runMaster is `spots-solve --algorithm swarm POSITION`: the master runs
// the pipeline with the swarm as its search (masterSearch).
func runMaster(ctx context.Context, cfg config, sf swarmFlags, input string, root sprouts.Position, stdout, stderr io.Writer) int {
	fail := func(status int, msg string, a ...any) int {
		fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...)
		return status
	}
	sf.params.Seed, sf.params.Capacity = cfg.seed, cfg.capacity
	sf.reuse = cfg.reuse
	pool, err := loadSwarmPool(ctx, sf.reuse, "spots-solve", stderr)
	if err != nil {
		return fail(2, "--reuse %s: %v (leave out --reuse to solve without them)", strings.Join(sf.reuse, ", "), err)
	}
	m, key, err := newMaster(ctx, &sf, root, pool, stderr)
	if err != nil {
		return fail(2, "%v", err)
	}
	member, stop, err := startMaster(sf, m, key, input, stderr)
	if err != nil {
		return fail(2, "%v", err)
	}
	defer stop()
	search := &masterSearch{m: m, start: time.Now(), supervise: func(ctx context.Context) (solve.Outcome, error) {
		return superviseMaster(ctx, cfg, sf, root, m, member, stderr)
	}}
	p := &prove.Pipeline[sprouts.Position]{Game: sprouts.Game, Searcher: search, Timeout: cfg.timeout, CertDir: cfg.certDir, Version: buildinfo.Version(),
		Stopped: func() {
			if sf.stateDir != "" {
				saveState(sf.stateDir, root, m, sf.params)
			}
		}}
	// The written certificate is verified with the library that checked
	// the certificates the audit's proof cites: they are not checked
	// again.
	p.Pool, p.Verify.Library = pool, m.Library()
	// Audited (unless --no-verify); the certificate the audit built is
	// written and verified again.
	pr, err := p.Prove(ctx, root, 0)
	st := m.Stats()
	r := newResult(cfg, input, root, 0, pr)
	r.Iterations, r.GrundyNumbers = st.Iterations, m.DB().Len()
	if !pr.Outcome.Known() {
		return masterUnsolved(cfg, r, pr.Stop, search.err, stdout, stderr)
	}
	if err != nil {
		claim, _ := certify.Claim(root, 0, pr.Outcome, nil)
		return fail(1, "certifying %s: %v", claim, err)
	}
	printResult(stdout, cfg, r)
	if cfg.json {
		b, _ := json.Marshal(st)
		fmt.Fprintf(stderr, "swarm: %s\n", b)
	}
	return 0
}

// newMaster makes the master of root with the flags sf (setting the
// key, masterKey, and the master's initial nodes), its database loaded
// from --resume, drawing on pool if not nil, and returns it with the
// swarm's key. Every error is bad input (exit status 2).
func newMaster(ctx context.Context, sf *swarmFlags, root sprouts.Position, pool *certify.Pool, stderr io.Writer) (*swarm.Master, swarm.Key, error) {
	key, err := masterKey(sf)
	if err != nil {
		return nil, key, err
	}
	db := solve.NewNimberDB()
	savedRun, err := resumeMaster(ctx, *sf, root, db, stderr)
	if err != nil {
		return nil, key, fmt.Errorf("--resume %s: %w", sf.resumeDir, err)
	}
	sf.params.InitNodes = 100 * max(1, sf.workersLocal)
	var opts []swarm.MasterOption
	if pool != nil {
		opts = append(opts, swarm.WithPool(pool))
	}
	m, err := swarm.NewMaster(root, sf.params, db, opts...)
	if err != nil {
		return nil, key, err
	}
	if savedRun != "" {
		// The nonces of the saved run are gone with it: its requests are
		// refused by their run instead.
		fmt.Fprintf(stderr, "spots-solve: this is run %s; requests signed for the saved run %s are refused\n", m.Run(), savedRun)
	}
	m.Log = func(msg string, a ...any) { fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...) }
	return m, key, nil
}

// masterSearch is the swarm, led by its master, as the search of a
// prove.Pipeline: Solve supervises the solve of the master's root to its
// end; the certificate is the one the master's audit built.
type masterSearch struct {
	m         *swarm.Master
	start     time.Time
	supervise func(context.Context) (solve.Outcome, error)
	err       error // why the last Solve ended unsolved
}

// Solve implements solve.Searcher: pos is the master's root.
func (s *masterSearch) Solve(ctx context.Context, _ sprouts.Position, _ uint32) solve.Outcome {
	out, err := s.supervise(ctx)
	s.err = err
	return out
}

// Grundy implements solve.Searcher: the swarm solves outcomes only.
func (s *masterSearch) Grundy(context.Context, sprouts.Position) (uint32, bool) { return 0, false }

// Stats implements solve.Searcher: the swarm's iterations, the values the
// master holds and the time since it started.
func (s *masterSearch) Stats() solve.Stats {
	return solve.Stats{Iterations: s.m.Stats().Iterations, GrundyNumbers: s.m.DB().Len(), Seconds: time.Since(s.start).Seconds()}
}

// DB implements solve.Searcher.
func (s *masterSearch) DB() *solve.NimberDB { return s.m.DB() }

// Certificate implements prove.Certified: the certificate the master's
// audit built (nil with --no-verify).
func (s *masterSearch) Certificate() *format.Certificate { return s.m.Certificate() }

// masterKey returns the swarm's key: the one given, or for a master with
// only --workers-local workers and none given, a random one that its
// workers get through their environment (sf.key is set to it).
func masterKey(sf *swarmFlags) (swarm.Key, error) {
	keyText, err := sf.keyText()
	if err != nil {
		return swarm.Key{}, err
	}
	if keyText == "" && sf.workersLocal > 0 {
		if keyText, err = randomKey(); err != nil {
			return swarm.Key{}, err
		}
	}
	sf.key, sf.keyFile = keyText, ""
	return sf.swarmKey()
}

// resumeMaster loads into db the values --resume saved, if it is given
// and something was saved, and returns the run that saved them ("" if
// none or unknown).
func resumeMaster(ctx context.Context, sf swarmFlags, root sprouts.Position, db *solve.NimberDB, stderr io.Writer) (string, error) {
	switch {
	case sf.resumeDir == "":
		return "", nil
	case nothingSaved(sf):
		fmt.Fprintf(stderr, "spots-solve: nothing saved in %s yet: starting afresh\n", sf.resumeDir)
		return "", nil
	}
	run, err := loadState(ctx, sf.resumeDir, root, db, stderr)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(stderr, "spots-solve: resumed with %d Grundy values from %s\n", db.Len(), sf.resumeDir)
	return run, nil
}

// startMaster serves m: jobs and status pages over HTTP (--listen,
// --status-listen), membership by gossip (--gossip) and the
// --workers-local workers. stop ends all of it.
func startMaster(sf swarmFlags, m *swarm.Master, key swarm.Key, input string, stderr io.Writer) (*swarm.Member, func(), error) {
	ln, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return nil, nil, fmt.Errorf("--listen %s: %w", sf.listen, err)
	}
	var gossip atomic.Pointer[swarm.Member] // for the status pages, once it exists
	status := swarm.NewStatus(m, swarm.StatusOptions{Position: input, Members: func() []swarm.MemberInfo {
		if g := gossip.Load(); g != nil {
			return g.Members()
		}
		return nil
	}})
	stopServing := serveMaster(sf, ln, m, key, status, stderr)
	member, err := swarm.StartMember(context.Background(), swarm.MemberConfig{Name: "master-" + uuid.NewString()[:8], Bind: sf.gossip, Key: key,
		Meta:   swarm.Meta{Role: "master", HTTP: ln.Addr().String(), Version: buildinfo.Version()},
		OnDead: func(name string) { m.DropGroup(name) }})
	if err != nil {
		stopServing()
		return nil, nil, err
	}
	gossip.Store(member)
	workers := startLocalWorkers(sf, member.Addr(), stderr)
	return member, func() {
		workers.stop()
		member.Leave()
		stopServing()
	}, nil
}

// superviseMaster runs the solve to its end (swarm.Master.Supervise):
// it shows progress, saves the state every few seconds with --state,
// stops at --max-iterations and says on stderr what the audits found.
func superviseMaster(ctx context.Context, cfg config, sf swarmFlags, root sprouts.Position, m *swarm.Master, member *swarm.Member, stderr io.Writer) (solve.Outcome, error) {
	prog := cfg.progress.New(stderr)
	defer prog.Clear()
	lastSave := time.Now()
	every := func(st swarm.MasterStats) bool {
		if cfg.maxIterations > 0 && st.Iterations >= cfg.maxIterations {
			return false
		}
		if sf.stateDir != "" && time.Since(lastSave) >= 5*time.Second {
			saveState(sf.stateDir, root, m, sf.params)
			lastSave = time.Now()
		}
		prog.Report(false, "swarm", swarmFigures(st, member.Workers(), m.DB().Len()),
			fmt.Sprintf("jobs %d out, %d done  workers %d  util %.0f%%  nimbers %d (shared %d)  T-It %d  root pn/dn %s/%s",
				st.Open, st.Expanded, member.Workers(), 100*st.Utilisation,
				m.DB().Len(), st.NimbersShared, st.Iterations, searchstatus.Num(st.RootPN), searchstatus.Num(st.RootDN)))
		return true
	}
	report := func(res swarm.AuditResult) {
		prog.Clear()
		reportAudit(stderr, res)
		if res.Unproved != nil && sf.stateDir != "" {
			saveState(sf.stateDir, root, m, sf.params)
		}
	}
	return m.Supervise(ctx, swarm.SuperviseOptions{NoAudit: sf.noVerify, Every: every, Report: report})
}

// masterUnsolved reports a swarm that stopped unsolved (err says why,
// stop how) and returns the exit status.
func masterUnsolved(cfg config, r result, stop prove.Stop, err error, stdout, stderr io.Writer) int {
	stopped := string(stop)
	if err != nil {
		stopped = err.Error()
	}
	switch {
	case errors.Is(err, swarm.ErrUnproved):
		fmt.Fprintf(stderr, "spots-solve: %v\n", err)
		return 1
	case errors.Is(err, swarm.ErrCited):
		fmt.Fprintf(stderr, "spots-solve: --reuse: %v; no result is reported (remove that certificate from the --reuse directory, or leave out --reuse)\n", err)
		return 1
	case errors.Is(err, swarm.ErrStopped):
		stopped = fmt.Sprintf("--max-iterations %d reached", cfg.maxIterations)
	case stop == prove.Interrupted:
		stopped = "interrupted"
	case stop == prove.TimedOut:
		stopped = fmt.Sprintf("--timeout %v reached", cfg.timeout)
	}
	fmt.Fprintf(stderr, "spots-solve: the swarm stopped unsolved: %s\n", stopped)
	printResult(stdout, cfg, r)
	if stop == prove.Interrupted {
		fmt.Fprintln(stderr, "spots-solve: interrupted")
		return statusInterrupted
	}
	return 1
}

// reportAudit tells what an audit or check of the master found: an audit
// that did not prove the result (res.Unproved), and the wrong values.
func reportAudit(stderr io.Writer, res swarm.AuditResult) {
	if res.Unproved != nil {
		fmt.Fprintf(stderr, "spots-solve: the swarm's values do not prove its result (%v)\n", res.Unproved)
		if len(res.Wrong)+len(res.Refuted)+len(res.Claims) == 0 {
			if res.Underived > 0 {
				fmt.Fprintf(stderr, "spots-solve: no wrong value found; dropped %d values the verifier could not derive from the others; solving on\n", res.Underived)
			} else {
				fmt.Fprintln(stderr, "spots-solve: no wrong value found; solving on from the values")
			}
			return
		}
	}
	reportWrong(stderr, res)
}

// reportWrong tells what an audit or check of the master found wrong:
// wrong values, and outcomes reported without the values that back them.
func reportWrong(stderr io.Writer, res swarm.AuditResult) {
	some := func(list []string) string {
		if len(list) > 5 {
			list = append(list[:5:5], fmt.Sprintf("and %d more", len(list)-5))
		}
		return strings.Join(list, ", ")
	}
	var found []string
	if wrong := append(slices.Clip(res.Wrong), res.Refuted...); len(wrong) > 0 {
		found = append(found, fmt.Sprintf("wrong Grundy values (%s)", some(wrong)))
	}
	if len(res.Claims) > 0 {
		found = append(found, fmt.Sprintf("outcomes reported without the values that prove them (%s)", some(res.Claims)))
	}
	banned := "no group banned"
	if len(res.Banned) > 0 {
		banned = "banned " + strings.Join(res.Banned, ", ")
	}
	fmt.Fprintf(stderr, "spots-solve: %s; %s; dropped %d values; solving on\n", strings.Join(found, " and "), banned, res.Dropped)
}

// saveState writes the master's database and state into dir, each through
// a temporary file and a rename. Once an audit proved the root, the
// database saved is the proof's values: each was checked, where a value
// no check could refute may still be a lie.
func saveState(dir string, root sprouts.Position, m *swarm.Master, params swarm.Params) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	db := m.DB()
	if proved := m.ProvedValues(); proved != nil {
		db = proved
	}
	if err := saveDB(db, filepath.Join(dir, "nimbers.spr")); err != nil {
		return err
	}
	st := savedState{Root: root.String(), Outcome: m.Outcome(), Params: params, Saved: time.Now().UTC(), Run: m.Run()}
	return format.WriteFileAtomic(filepath.Join(dir, "state.json"), func(w io.Writer) error {
		return json.NewEncoder(w).Encode(st)
	})
}

// loadState loads the master's state saved in dir into db, and returns
// the run that saved it.
func loadState(ctx context.Context, dir string, root sprouts.Position, db *solve.NimberDB, stderr io.Writer) (string, error) {
	data, err := format.ReadInput(filepath.Join(dir, "state.json"), maxStateFile)
	if err != nil {
		return "", err
	}
	var st savedState
	if err := json.Unmarshal(data, &st); err != nil {
		return "", fmt.Errorf("state.json: %w", err)
	}
	if st.Root != root.String() {
		return "", fmt.Errorf("the saved solve is of %s, not %s", st.Root, root)
	}
	return st.Run, loadDB(ctx, db, filepath.Join(dir, "nimbers.spr"), false, stderr)
}

// maxStateFile bounds the master's state.json: it is a few hundred bytes.
const maxStateFile = 1 << 20
