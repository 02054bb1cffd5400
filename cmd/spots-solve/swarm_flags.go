package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
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
	statusFile   string // --status-file: where the master keeps its status
	workersLocal int
	stateDir     string
	resumeDir    string
	params       swarm.Params
	noVerify     bool
	wait         time.Duration // worker: how long to wait for a master
	reuse        []string      // --reuse: directories of certificates to draw on

	metricsListen string // the master's --metrics-listen

	// progress is the worker's --progress, and the master's, which its
	// --workers-local workers are given.
	progress statusline.Mode
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
	flags.StringVar(&sf.statusFile, "status-file", "", "keep the status in `FILE`: the master writes it there when it starts, every few seconds, and once more when the solve is over, so that a run can still be looked at once its status pages are gone (they end with the solve, however short); a FILE ending in .html gets the status page itself (open it in a browser), any other the JSON of /status.json")
	flags.StringVar(&sf.metricsListen, "metrics-listen", "", "serve /metrics alone (Prometheus text, counters and gauges of the search; no positions, no status page) here without a key, on any address, for a scraper that cannot send the status token (Kubernetes' prometheus.io annotations); \"\" (the default) for none")
	flags.IntVar(&sf.workersLocal, "workers-local", 0, fmt.Sprintf("start this many worker processes on this machine (1 to %d); one that dies is started again, up to %d times", maxWorkersLocal, maxLocalRestarts))
	flags.StringVar(&sf.stateDir, "state", "", "save the search to `DIR` so that --resume can continue it after a crash or Ctrl-C (without --state, a dfpn or pdfpn search of one position is saved in the user's cache directory, spots/solve/POSITION, resumed by the same command run again and removed once solved; --state none saves nothing): dfpn and pdfpn save their nimber database and table every --state-every and when they stop; the swarm's master saves its database and state every few seconds (once solved, only the values its proof checked). A DIR that holds another search is refused (--resume DIR continues it, --force moves it aside), and so is one another process is using (it is locked while in use)")
	flags.StringVar(&sf.resumeDir, "resume", "", "continue the search saved in `DIR` by --state (dfpn and pdfpn go on saving into DIR unless --state names another); with no position given, the one DIR holds. A checkpoint is input, not truth: the result is checked from the rules before it is printed, and solved again without the checkpoint if the checkpoint's values do not prove it")
	flags.Uint64Var(&p.Iterations, "iterations", p.Iterations, "most iterations of a job before the master expands its leaf (each PDFPN thread's), until the swarm has 256 cores, then 500: longer jobs cost the master fewer exchanges, shorter ones let it steer the search sooner")
	flags.Uint64Var(&p.Updates, "updates", p.Updates, "iterations between a job's reports (each PDFPN thread's); a loaded master asks for fewer")
	flags.DurationVar(&p.Lease, "lease", p.Lease, "a worker silent this long loses its jobs: shorter recovers a dead worker's work sooner, and takes it from a slow one that is only late")
	flags.BoolVar(&sf.noVerify, "no-verify", false, "report the result without auditing the workers' values first (a lying worker can then make it wrong)")
}

// masterFlags are the flags that only the swarm's master takes: --help
// lists them after --algorithm swarm, and not otherwise.
var masterFlags = []string{"key", "key-file", "grouping", "listen", "gossip", "status-listen", "status-file", "metrics-listen", "workers-local", "iterations", "updates", "lease", "no-verify"}

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

// showFlags hides the flags of --help that do not apply: those of the
// searches of this process after --algorithm swarm (swarmHelp), those of
// the master otherwise.
func showFlags(flags *pflag.FlagSet, swarmHelp bool) {
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
	if cfg.algorithm == solve.SearchSwarm && cfg.swarm.workersLocal > 0 {
		tables = cfg.swarm.workersLocal * cfg.swarm.params.Grouping
	}
	if err := memguard.CheckCapacity(cfg.capacity, tables); err != nil {
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
