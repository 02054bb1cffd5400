package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/cpuprofile"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// workerFlags are the flags of `spots-solve worker`.
type workerFlags struct {
	swarmFlags
	threads, capacity int
	profile           string
}

// runWorker is `spots-solve worker`: one worker group that joins the swarm
// and solves jobs until the master says the root is solved.
func runWorker(ctx context.Context, args []string, stdout, stderr io.Writer) (status int) {
	wf, status := parseWorkerFlags(args, stdout, stderr)
	if status >= 0 {
		return status
	}
	// The profile is checked before any work: one naming the key file
	// would replace the key, one in a --reuse directory a certificate.
	profile := []cmdline.File{{Flag: "--cpuprofile", Path: wf.profile}}
	if err := cmdline.CheckOutputs([]cmdline.File{{Flag: "--key-file", Path: wf.keyFile}}, profile); err != nil {
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return 2
	}
	if err := checkOutputDirs(reuseDirs(wf.reuse), profile); err != nil {
		fmt.Fprintf(stderr, "spots-solve worker: %v\n", err)
		return 2
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
	flags.Var(&wf.progress, "progress", "how to say what the worker does on standard error (waiting, joined, each new job): text (a line each), json (a JSON object each, phase \"worker\") or none (only what goes wrong)")
	// A test hook, hidden from --help: the worker sends every k-th of its
	// Grundy values (of those ≥ 1) one less than it found, so the tests can
	// check that a lying worker cannot poison a solve.
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
	if err := memguard.CheckCapacity(wf.capacity, wf.params.Grouping); err != nil {
		return fmt.Errorf("--capacity %d: %w", wf.capacity, err)
	}
	return nil
}

// wrapLink, when set, wraps a worker's link to the master. Only the tests
// set it (to make a worker that lies, and show that the master catches
// it); no flag or variable of the command reaches it.
var wrapLink func(swarm.Link) swarm.Link

// runGroup joins the swarm as one worker group and runs it until the
// master says the solve is over; it returns the exit status.
func runGroup(ctx context.Context, wf workerFlags, key swarm.Key, stderr io.Writer) int {
	logf := func(msg string, a ...any) { fmt.Fprintf(stderr, "spots-solve worker: "+msg+"\n", a...) }
	infof := workerInfo(wf.progress, stderr)
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
	infof("%s: waiting for a master at %s (up to %v)", name, wf.join, wf.wait)
	member, err := swarm.StartMember(ctx, swarm.MemberConfig{Name: name, Bind: wf.gossip, Key: key, Join: []string{wf.join}, JoinWait: wf.wait,
		Meta: swarm.Meta{Role: "worker", Grouping: wf.params.Grouping, Threads: wf.threads, Version: buildinfo.Version()}})
	if err != nil {
		if ctx.Err() != nil {
			logf("interrupted while waiting for a master")
			return statusInterrupted
		}
		if errors.Is(err, swarm.ErrNoMaster) {
			logf("no master at %s after %v (--wait): %v", wf.join, wf.wait, err)
			return 1
		}
		logf("%v", err)
		return 2
	}
	defer member.Leave()
	var link swarm.Link = &loggingLink{link: masterLink(member, key, wf.swarmFlags, infof), logf: infof}
	if wrapLink != nil {
		link = wrapLink(link)
	}
	err = g.Run(ctx, link)
	switch {
	case err == nil:
		infof("the master says the solve is over")
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

// workerInfo returns how a worker says what it does, as --progress asks:
// a line of text each (the worker's name first, as its errors have), a
// JSON object each (docs/json.md's progress objects: elapsed_seconds,
// phase "worker", message), or nothing. What goes wrong is said in words
// whatever the mode: a worker is quiet with --progress none, not mute.
func workerInfo(mode statusline.Mode, stderr io.Writer) func(msg string, a ...any) {
	switch mode {
	case statusline.Off:
		return func(string, ...any) {}
	case statusline.JSON:
		line := mode.New(stderr)
		return func(msg string, a ...any) { line.Report(true, "worker", nil, fmt.Sprintf(msg, a...)) }
	}
	return func(msg string, a ...any) { fmt.Fprintf(stderr, "spots-solve worker: "+msg+"\n", a...) }
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
// when none is known for --wait. It says through logf when it joins a
// master and when it waits for one.
func masterLink(member *swarm.Member, key swarm.Key, sf swarmFlags, logf func(string, ...any)) *swarm.HTTPLink {
	var noMaster time.Time // since when no master is known (zero: one is)
	resolved := ""
	return &swarm.HTTPLink{Key: key, Resolve: func(ctx context.Context) (string, error) {
		for {
			if meta, ok := liveMaster(member); ok {
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
job and its size (--progress none: only what goes wrong; a master's
--workers-local workers take the master's --progress). The key is
--key, --key-file or $SPOTS_SWARM_KEY, as the master's.

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

// liveMaster returns the meta of a live master, if the gossip of member
// knows one.
func liveMaster(member *swarm.Member) (swarm.Meta, bool) {
	for _, n := range member.Members() {
		if n.Role == "master" && n.State == "alive" {
			return n.Meta, true
		}
	}
	return swarm.Meta{}, false
}
