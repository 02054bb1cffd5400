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
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
	"github.com/spots-dev/spots/verify"
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
	simulate     int
	masterCost   float64
	wait         time.Duration // worker: how long to wait for a master
}

func addSwarmFlags(flags *pflag.FlagSet, sf *swarmFlags, worker bool) {
	sf.params = swarm.DefaultParams()
	p := &sf.params
	flags.StringVar(&sf.key, "key", "", "the swarm's shared key (or $SPOTS_SWARM_KEY, or --key-file); at least 8 characters (a master with only --workers-local workers makes a random one when none is given)")
	flags.StringVar(&sf.keyFile, "key-file", "", "read the swarm's shared key from `FILE` (its first line; e.g. a systemd credential, %d/swarm-key, or a mounted Kubernetes Secret); overrides $SPOTS_SWARM_KEY")
	flags.IntVar(&p.Grouping, "grouping", p.Grouping, fmt.Sprintf("swarm: solvers per worker process, sharing one nimber database (1 to %d)", swarm.MaxGrouping))
	flags.IntVar(&p.StateLevel, "state-level", p.StateLevel, "swarm: what a solver keeps between jobs: 0 table and values, 1 values, 2 nothing")
	flags.Float64Var(&p.Gather, "gather", p.Gather, fmt.Sprintf("swarm: once one of a worker's solvers ends a cycle, how long the worker waits for its others before it reports, as a share of that cycle (0 to %d; 0: at once): fewer exchanges for the master, a little idle time for the solvers", swarm.MaxGather))
	if worker {
		flags.StringVar(&sf.join, "join", "", "the master's gossip address (host:port)")
		flags.StringVar(&sf.gossip, "gossip", "127.0.0.1:0", "this worker's gossip address")
		flags.DurationVar(&sf.wait, "wait", defaultWorkerWait, "give up (exit 1) when no master answers at --join for this long")
		return
	}
	flags.StringVar(&sf.listen, "listen", "127.0.0.1:7400", "swarm: the master's HTTP address for jobs")
	flags.StringVar(&sf.gossip, "gossip", "127.0.0.1:7401", "swarm: the master's gossip address, which workers --join")
	flags.StringVar(&sf.statusListen, "status-listen", defaultStatusListen, "swarm: serve the read-only status page (/), /status.json and /metrics here without a key: a loopback address only (open it through ssh -L or kubectl port-forward); \"\" for none. On --listen the same pages (/status, /status.json, /metrics) need the status token as Bearer or Basic password: printf 'spots-swarm-status\\000%s' \"$KEY\" | sha256sum")
	flags.IntVar(&sf.workersLocal, "workers-local", 0, fmt.Sprintf("swarm: start this many worker processes on this machine (1 to %d)", maxWorkersLocal))
	flags.StringVar(&sf.stateDir, "state", "", "save the search to `DIR` so that --resume can continue it after a crash or Ctrl-C: dfpn and pdfpn save their nimber database and table every --state-every and when they stop; the swarm's master saves its database and state every few seconds")
	flags.StringVar(&sf.resumeDir, "resume", "", "continue the search saved in `DIR` by --state (dfpn and pdfpn go on saving into DIR unless --state names another)")
	flags.Uint64Var(&p.Iterations, "iterations", p.Iterations, "swarm: most iterations of a job before its leaf is expanded (each PDFPN thread's: with --threads T a job runs up to T times as many)")
	flags.Uint64Var(&p.Updates, "updates", p.Updates, "swarm: iterations between a job's reports (each PDFPN thread's)")
	flags.BoolVar(&p.NoSharing, "no-sharing", false, "swarm: do not pass Grundy values between groups")
	flags.BoolVar(&p.Follow, "follow", p.Follow, "swarm: give a worker's solver its next job below the leaf of the job it just ended, whose positions its table knows, while that part still bears on the root, instead of the most-proving leaf; for hundreds of solvers with short jobs (such as --iterations 500 --updates 500): on a few it can dig into one part of the tree and multiply the work")
	flags.BoolVar(&p.NoPlan, "no-plan", false, "swarm: hand out leaves by the lock-aware proof numbers alone (an alternative move as soon as the leaves below a couple's best move are all locked) instead of first the leaves of a plan, the proof of the outcome the root looks like having that its numbers make the most likely; for comparison (BENCHMARKS.md, \"The plan as a proof\")")
	flags.IntVar(&p.LargeSwarm, "large-swarm", p.LargeSwarm, "swarm: from this many cores in the swarm (its workers' solvers times their --threads, counted as they join) jobs last --large-iterations (longer while the master is loaded) and follow (--follow), which did less work in simulation on hundreds of cores and more on a few; 0: never")
	flags.Uint64Var(&p.LargeIterations, "large-iterations", p.LargeIterations, "swarm: iterations of a job once the swarm is large (each PDFPN thread's; at most --iterations), reported at least as often; longer when the master's load asks for fewer reports")
	flags.DurationVar(&p.Lease, "lease", p.Lease, "swarm: a worker silent this long loses its jobs")
	flags.BoolVar(&sf.noVerify, "no-verify", false, "swarm: report the result without auditing the workers' values first (a lying worker can then make it wrong)")
	flags.IntVar(&sf.simulate, "simulate-workers", 0, fmt.Sprintf("swarm: simulate this many workers (1 to %d, each with --grouping tables of --capacity entries, all in this machine's memory) in one process under a clock counted in iterations", swarm.MaxSimulatedWorkers))
	flags.Float64Var(&sf.masterCost, "master-cost", swarm.DefaultCosts().Exchange, "with --simulate-workers: the master's CPU time of one exchange under its lock, in µs, besides its measured cost per report (BENCHMARKS.md); an iteration costs what the sequential baseline's took")
}

// defaultStatusListen is where a master serves its status pages to this
// machine by default.
const defaultStatusListen = "127.0.0.1:7402"

// defaultWorkerWait is how long a worker waits for a master by default.
const defaultWorkerWait = 2 * time.Minute

// maxWorkersLocal bounds --workers-local: processes started on this one
// machine.
const maxWorkersLocal = 256

// checkSwarmFlags refuses values of the swarm's flags that would mean
// nothing or be silently replaced: a flag given must be in its range (zero
// and negative numbers and durations are usage errors). worker selects the
// worker command's flags.
func checkSwarmFlags(flags *pflag.FlagSet, sf *swarmFlags, worker bool) error {
	p := sf.params
	given := flags.Changed
	if err := checkStatusListen(sf.statusListen); err != nil && !worker {
		return err
	}
	switch {
	case sf.key != "" && sf.keyFile != "":
		return errors.New("--key and --key-file: give one of them")
	case p.Grouping < 1 || p.Grouping > swarm.MaxGrouping:
		return fmt.Errorf("--grouping %d: want 1 to %d", p.Grouping, swarm.MaxGrouping)
	case p.StateLevel < 0 || p.StateLevel > 2:
		return fmt.Errorf("--state-level %d: want 0, 1 or 2", p.StateLevel)
	case !(p.Gather >= 0 && p.Gather <= swarm.MaxGather):
		return fmt.Errorf("--gather %g: want 0 to %d", p.Gather, swarm.MaxGather)
	case worker && sf.wait <= 0:
		return fmt.Errorf("--wait %v: want a positive duration", sf.wait)
	case worker:
		return nil
	case p.Iterations == 0:
		return errors.New("--iterations 0: want a positive number")
	case p.Updates == 0:
		return errors.New("--updates 0: want a positive number")
	case p.Lease <= 0:
		return fmt.Errorf("--lease %v: want a positive duration", p.Lease)
	case p.LargeSwarm < 0:
		return fmt.Errorf("--large-swarm %d: want 0 (never) or a number of cores", p.LargeSwarm)
	case p.LargeIterations == 0:
		return errors.New("--large-iterations 0: want a positive number")
	case given("workers-local") && (sf.workersLocal < 1 || sf.workersLocal > maxWorkersLocal):
		return fmt.Errorf("--workers-local %d: want 1 to %d", sf.workersLocal, maxWorkersLocal)
	case given("simulate-workers") && (sf.simulate < 1 || sf.simulate > swarm.MaxSimulatedWorkers):
		return fmt.Errorf("--simulate-workers %d: want 1 to %d", sf.simulate, swarm.MaxSimulatedWorkers)
	}
	return nil
}

// checkResources checks the flags whose values size what the command
// allocates: --capacity (for every table the run builds on this machine)
// and the swarm's flags.
func checkResources(flags *pflag.FlagSet, cfg config) error {
	if err := checkSwarmFlags(flags, &cfg.swarm, false); err != nil {
		return err
	}
	tables := 1
	if cfg.algorithm == "swarm" {
		switch sf := cfg.swarm; {
		case sf.simulate > 0:
			tables = sf.simulate * sf.params.Grouping
		case sf.workersLocal > 0:
			tables = sf.workersLocal * sf.params.Grouping
		}
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

// runWorker is `spots-solve worker`: one worker group that joins the swarm
// and solves jobs until the master says the root is solved.
func runWorker(ctx context.Context, args []string, stdout, stderr io.Writer) (status int) {
	var sf swarmFlags
	var threads, capacity int
	var spread uint64
	var profile string
	flags := pflag.NewFlagSet("spots-solve worker", pflag.ContinueOnError)
	flags.SetOutput(stderr)
	addSwarmFlags(flags, &sf, true)
	flags.IntVar(&threads, "threads", 1, fmt.Sprintf("PDFPN threads per solver (1 to %d; 1: sequential DFPN)", solve.MaxThreads))
	flags.Uint64Var(&spread, "spread", solve.DefaultSpread, fmt.Sprintf("with --threads: what each thread busy below a move adds to its disproof number when another thread chooses, so that a solver's threads spread over the tree (1 to %d; the default is the paper's)", maxSpread))
	flags.IntVar(&capacity, "capacity", sf.params.Capacity, "transposition-table entries per solver")
	flags.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the worker to `FILE` (for go tool pprof)")
	// A test hook, hidden from --help: the worker sends every k-th of its
	// Grundy values (of those ≥ 1) one less than it found, so the tests can
	// check that a lying worker cannot poison a solve.
	var lieEvery int
	flags.IntVar(&lieEvery, "test-lie-every", 0, "test hook: send every k-th Grundy value wrong")
	flags.MarkHidden("test-lie-every")
	std := buildinfo.AddStd(flags)
	flags.Usage = func() { buildinfo.Usage(stderr, workerUsage, flags, workerExitCodes) }
	if err := flags.Parse(args); err != nil {
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return 2
	}
	if std.Handle("spots-solve worker", stdout, func(w io.Writer) { buildinfo.Usage(w, workerUsage, flags, workerExitCodes) }) {
		return 0
	}
	fail := func(msg string, a ...any) int {
		fmt.Fprintf(stderr, "spots-solve worker: "+msg+"\n", a...)
		return 2
	}
	if sf.join == "" {
		return fail("--join is required: the master's gossip address")
	}
	if err := checkSwarmFlags(flags, &sf, true); err != nil {
		return fail("%v", err)
	}
	switch {
	case threads < 1 || threads > solve.MaxThreads:
		return fail("--threads %d: want 1 to %d", threads, solve.MaxThreads)
	case spread < 1 || spread > maxSpread:
		return fail("--spread %d: want 1 to %d", spread, maxSpread)
	case capacity < solve.MinCapacity:
		return fail("--capacity %d is too small (at least %d)", capacity, solve.MinCapacity)
	}
	if err := swarm.CheckCapacity(capacity, sf.params.Grouping); err != nil {
		return fail("--capacity %d: %v", capacity, err)
	}
	key, err := sf.swarmKey()
	if err != nil {
		return fail("%v", err)
	}
	sf.params.Threads, sf.params.Spread, sf.params.Capacity = threads, spread, capacity
	prof, err := cpuprofile.Start(profile)
	if err != nil {
		return fail("%v", err)
	}
	defer func() {
		if err := prof.Stop(); err != nil {
			fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
			status = max(status, 2)
		}
	}()
	host, _ := os.Hostname()
	name := fmt.Sprintf("worker-%s-%d-%s", host, os.Getpid(), uuid.NewString()[:8])
	g, err := swarm.NewGroup(name, sf.params)
	if err != nil {
		return fail("%v", err)
	}
	logf := func(msg string, a ...any) { fmt.Fprintf(stderr, "spots-solve worker: "+msg+"\n", a...) }
	g.Log = logf
	if lieEvery > 0 {
		g.Lie = lyingHook(lieEvery)
	}
	logf("%s: waiting for a master at %s (up to %v)", name, sf.join, sf.wait)
	member, err := swarm.StartMember(swarm.MemberConfig{Name: name, Bind: sf.gossip, Key: key, Join: []string{sf.join}, JoinWait: sf.wait,
		Meta: swarm.Meta{Role: "worker", Grouping: sf.params.Grouping, Threads: threads, Version: certify.Version}})
	if err != nil {
		if strings.Contains(err.Error(), "nothing answers") {
			fmt.Fprintf(stderr, "spots-solve worker: no master at %s after %v (--wait): %v\n", sf.join, sf.wait, err)
			return 1
		}
		return fail("%v", err)
	}
	defer member.Leave()
	var noMaster time.Time // since when no master is known (zero: one is)
	resolved := ""
	link := &swarm.HTTPLink{Key: key, Resolve: func(ctx context.Context) (string, error) {
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
	if err := g.Run(ctx, &loggingLink{link: link, logf: logf}); err != nil {
		if errors.Is(err, swarm.ErrNoMaster) {
			fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
			return 1
		}
		if errors.Is(err, swarm.ErrBanned) {
			fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
			return 1
		}
		if errors.Is(err, swarm.ErrUnauthorized) {
			fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
			return 2
		}
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "spots-solve worker: interrupted")
			return statusInterrupted
		}
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return 1
	}
	logf("the master says the solve is over")
	return 0
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

// savedState is what --state writes besides the nimber database.
type savedState struct {
	Root    string       `json:"root"`
	Outcome string       `json:"outcome"`
	Params  swarm.Params `json:"params"`
	Saved   time.Time    `json:"saved"`
}

// runMaster is `spots-solve --algorithm swarm POSITION`.
func runMaster(ctx context.Context, cfg config, sf swarmFlags, input string, root sprouts.Position, stdout, stderr io.Writer) int {
	fail := func(status int, msg string, a ...any) int {
		fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...)
		return status
	}
	sf.params.Seed, sf.params.Capacity = cfg.seed, cfg.capacity
	if sf.simulate > 0 {
		if cfg.timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
			defer cancel()
		}
		return runSimulation(ctx, cfg, sf, input, root, stdout, stderr)
	}
	keyText, err := sf.keyText()
	if err != nil {
		return fail(2, "%v", err)
	}
	if keyText == "" && sf.workersLocal > 0 {
		// Only this process's own workers, on loopback: a key of its own,
		// passed to them through their environment.
		k, err := randomKey()
		if err != nil {
			return fail(1, "%v", err)
		}
		keyText = k
	}
	sf.key, sf.keyFile = keyText, ""
	key, err := sf.swarmKey()
	if err != nil {
		return fail(2, "%v", err)
	}
	db := solve.NewNimberDB()
	if sf.resumeDir != "" && nothingSaved(sf) {
		fmt.Fprintf(stderr, "spots-solve: nothing saved in %s yet: starting afresh\n", sf.resumeDir)
	} else if sf.resumeDir != "" {
		if err := loadState(sf.resumeDir, root, db, stderr); err != nil {
			return fail(2, "--resume %s: %v", sf.resumeDir, err)
		}
		fmt.Fprintf(stderr, "spots-solve: resumed with %d Grundy values from %s\n", db.Len(), sf.resumeDir)
	}
	sf.params.InitNodes = 100 * max(1, sf.workersLocal)
	m, err := swarm.NewMaster(root, sf.params, db)
	if err != nil {
		return fail(2, "%v", err)
	}
	m.Log = func(msg string, a ...any) { fmt.Fprintf(stderr, "spots-solve: "+msg+"\n", a...) }
	ln, err := net.Listen("tcp", sf.listen)
	if err != nil {
		return fail(2, "--listen %s: %v", sf.listen, err)
	}
	var gossip atomic.Pointer[swarm.Member] // for the status pages, once it exists
	status := swarm.NewStatus(m, swarm.StatusOptions{Position: input, Members: func() []swarm.MemberInfo {
		if g := gossip.Load(); g != nil {
			return g.Members()
		}
		return nil
	}})
	stopServing := serveMaster(sf, ln, m, key, status, stderr)
	defer stopServing()
	member, err := swarm.StartMember(swarm.MemberConfig{Name: "master-" + uuid.NewString()[:8], Bind: sf.gossip, Key: key,
		Meta:   swarm.Meta{Role: "master", HTTP: ln.Addr().String(), Version: certify.Version},
		OnDead: func(name string) { m.DropGroup(name) }})
	if err != nil {
		return fail(2, "%v", err)
	}
	defer member.Leave()
	gossip.Store(member)
	workers := startLocalWorkers(sf, member.Addr(), key, stderr)
	defer stopWorkers(workers)

	start := time.Now()
	runCtx := ctx
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var prog *statusline.Line
	if !cfg.noProgress {
		prog = statusline.New(stderr)
	}
	lastSave, lastCheck := time.Now(), time.Now()
	stopped := "" // why the solve stopped unsolved
	fruitless := 0
wait:
	for {
		select {
		case <-m.Done():
			if sf.noVerify {
				break wait
			}
			res, err := m.Audit(runCtx)
			if err != nil {
				break wait // the time is up (stopped is set below)
			}
			if res.Proved {
				break wait
			}
			prog.Clear()
			fmt.Fprintf(stderr, "spots-solve: the swarm's values do not prove its result (%v)\n", res.Unproved)
			if len(res.Wrong) == 0 && len(res.Refuted) == 0 {
				if fruitless++; fruitless >= maxFruitlessAudits {
					return fail(1, "the result is not proved by the swarm's values after %d audits, and no wrong value was found", fruitless)
				}
				if res.Underived > 0 {
					fmt.Fprintf(stderr, "spots-solve: no wrong value found; dropped %d values the verifier could not derive from the others; solving on\n", res.Underived)
				} else {
					fmt.Fprintln(stderr, "spots-solve: no wrong value found; solving on from the values")
				}
			} else {
				fruitless = 0
				reportWrong(stderr, res)
			}
			if sf.stateDir != "" {
				saveState(sf.stateDir, root, m, sf.params)
			}
		case <-runCtx.Done():
			break wait
		case now := <-tick.C:
			m.Expire()
			if !sf.noVerify && now.Sub(lastCheck) >= sf.params.Lease {
				// Catch a lying group early, before its values spread.
				lastCheck = now
				if res, err := m.Check(runCtx); err == nil && len(res.Wrong)+len(res.Refuted) > 0 {
					prog.Clear()
					reportWrong(stderr, res)
				}
			}
			st := m.Stats()
			if cfg.maxIterations > 0 && st.Iterations >= cfg.maxIterations {
				stopped = fmt.Sprintf("--max-iterations %d reached", cfg.maxIterations)
				break wait
			}
			if sf.stateDir != "" && now.Sub(lastSave) >= 5*time.Second {
				saveState(sf.stateDir, root, m, sf.params)
				lastSave = now
			}
			if prog != nil {
				prog.Show(false, "jobs %d out, %d done  workers %d  util %.0f%%  nimbers %d (shared %d)  T-It %d  root pn/dn %s/%s",
					st.Open, st.Expanded, member.Workers(), 100*st.Utilisation,
					m.DB().Len(), st.NimbersShared, st.Iterations, searchstatus.Num(st.RootPN), searchstatus.Num(st.RootDN))
			}
		}
	}
	prog.Clear()
	out := m.Outcome()
	switch {
	case stopped != "":
		out = solve.Unknown
	case ctx.Err() != nil:
		out, stopped = solve.Unknown, "interrupted"
	case runCtx.Err() != nil:
		out, stopped = solve.Unknown, fmt.Sprintf("--timeout %v reached", cfg.timeout)
	}
	if out != solve.Unknown {
		m.Finish()
		// Let the workers hear that the solve is over.
		for deadline := time.Now().Add(min(sf.params.Lease, 5*time.Second)); m.Unheard() > 0 && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if sf.stateDir != "" {
		saveState(sf.stateDir, root, m, sf.params)
	}
	st := m.Stats()
	r := result{Input: input, Canonical: root.String(), Algorithm: "swarm", Outcome: out.String(),
		Seconds: time.Since(start).Seconds(), Iterations: st.Iterations, GrundyNumbers: m.DB().Len()}
	if out == solve.Unknown {
		r.Reason = unknownReason(ctx, runCtx)
		fmt.Fprintf(stderr, "spots-solve: the swarm stopped unsolved: %s\n", stopped)
		printResult(stdout, cfg, r)
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "spots-solve: interrupted")
			return statusInterrupted
		}
		return 1
	}
	claim, err := certify.Claim(root, 0, out, nil)
	if err != nil {
		return fail(1, "%v", err)
	}
	if cfg.certDir != "" {
		// Audited above (unless --no-verify); written and verified again.
		path, res, err := certify.Write(cfg.certDir, m.DB(), claim, verify.Options{})
		if err != nil {
			return fail(1, "certifying %s: %v", claim, err)
		}
		setCertificate(&r, claim, path, res.Entries)
	}
	printResult(stdout, cfg, r)
	if cfg.json {
		b, _ := json.Marshal(st)
		fmt.Fprintf(stderr, "swarm: %s\n", b)
	}
	return 0
}

// reportWrong tells what an audit or check of the master found wrong.
func reportWrong(stderr io.Writer, res swarm.AuditResult) {
	wrong := append(slices.Clip(res.Wrong), res.Refuted...)
	if len(wrong) > 5 {
		wrong = append(wrong[:5:5], fmt.Sprintf("and %d more", len(wrong)-5))
	}
	by := "no group"
	if len(res.Banned) > 0 {
		by = strings.Join(res.Banned, ", ") + " (banned)"
	}
	fmt.Fprintf(stderr, "spots-solve: wrong Grundy values (%s) from %s; dropped %d values; solving on\n",
		strings.Join(wrong, ", "), by, res.Dropped)
}

// maxFruitlessAudits is how many audits in a row may find the result
// unproved without finding a wrong value before the master gives up.
const maxFruitlessAudits = 3

func startLocalWorkers(sf swarmFlags, gossip string, key swarm.Key, stderr io.Writer) []*exec.Cmd {
	if sf.workersLocal <= 0 {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: --workers-local: %v\n", err)
		return nil
	}
	pass := sf.key // set by runMaster, perhaps at random
	var cmds []*exec.Cmd
	for range sf.workersLocal {
		cmd := exec.Command(self, "worker", "--join", gossip, "--grouping", strconv.Itoa(sf.params.Grouping),
			"--state-level", strconv.Itoa(sf.params.StateLevel), "--capacity", strconv.Itoa(sf.params.Capacity),
			"--gather", strconv.FormatFloat(sf.params.Gather, 'g', -1, 64))
		cmd.Env = append(os.Environ(), "SPOTS_SWARM_KEY="+pass)
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			fmt.Fprintf(stderr, "spots-solve: starting a worker: %v\n", err)
			continue
		}
		cmds = append(cmds, cmd)
	}
	return cmds
}

func stopWorkers(cmds []*exec.Cmd) {
	for _, c := range cmds {
		c.Process.Signal(os.Interrupt)
	}
	done := make(chan struct{})
	go func() {
		for _, c := range cmds {
			c.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		for _, c := range cmds {
			c.Process.Kill()
		}
		<-done
	}
}

// saveState writes the master's database and state into dir, each through
// a temporary file and a rename.
func saveState(dir string, root sprouts.Position, m *swarm.Master, params swarm.Params) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := saveDB(m.DB(), filepath.Join(dir, "nimbers.spr")); err != nil {
		return err
	}
	st := savedState{Root: root.String(), Outcome: m.Outcome().String(), Params: params, Saved: time.Now().UTC()}
	return format.WriteFileAtomic(filepath.Join(dir, "state.json"), func(w io.Writer) error {
		return json.NewEncoder(w).Encode(st)
	})
}

func loadState(dir string, root sprouts.Position, db *solve.NimberDB, stderr io.Writer) error {
	data, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return err
	}
	var st savedState
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("state.json: %w", err)
	}
	if st.Root != root.String() {
		return fmt.Errorf("the saved solve is of %s, not %s", st.Root, root)
	}
	return loadDB(db, filepath.Join(dir, "nimbers.spr"), false, stderr)
}

// runSimulation is --simulate-workers N: the swarm in one process under a
// clock counted in iterations, compared with sequential DFPN.
func runSimulation(ctx context.Context, cfg config, sf swarmFlags, input string, root sprouts.Position, stdout, stderr io.Writer) int {
	var prog *statusline.Line
	if !cfg.noProgress {
		prog = statusline.New(stderr)
	}
	seq, seqOut, seqCPU := swarm.SequentialBaseline(ctx, root, sf.params)
	costs := swarm.DefaultCosts()
	costs.Exchange = sf.masterCost
	res, err := swarm.Simulate(ctx, root, sf.params, swarm.SimConfig{Workers: sf.simulate, Costs: costs,
		Iteration: 1e6 * seqCPU.Seconds() / float64(max(seq, 1)),
		Progress: func(now uint64, st swarm.MasterStats) {
			prog.Show(false, "virtual time %d  jobs %d  T-It %d  root pn/dn %s/%s", now, st.Assigned, st.Iterations, searchstatus.Num(st.RootPN), searchstatus.Num(st.RootDN))
		}})
	prog.Clear()
	if err != nil {
		fmt.Fprintf(stderr, "spots-solve: simulation: %v\n", err)
		return 1
	}
	if res.Outcome != seqOut.String() {
		fmt.Fprintf(stderr, "spots-solve: simulation: the swarm says %s, sequential DFPN %s\n", res.Outcome, seqOut)
		return 1
	}
	overhead := float64(res.TIt) / float64(seq)
	speedup := float64(seq) / float64(res.Time)
	if cfg.json {
		b, _ := json.Marshal(struct {
			Input string `json:"input"`
			swarm.SimResult
			Sequential uint64  `json:"sequential_iterations"`
			Overhead   float64 `json:"search_overhead"`
			Speedup    float64 `json:"speedup"`
		}{input, res, seq, overhead, speedup})
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	fmt.Fprintf(stdout, "%s  %s  (simulated %d workers: time %d iterations, speedup %.1f×, search overhead %.2f, utilisation %.1f%%)\n",
		input, res.Outcome, res.Workers, res.Time, speedup, overhead, 100*res.Util)
	return 0
}
