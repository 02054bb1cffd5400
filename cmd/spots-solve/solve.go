package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/internal/searchstatus"
	"github.com/spots-dev/spots/internal/statusline"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// solveAll solves the positions of the command line, one after another
// (or the one position of a swarm), and returns the exit status.
func solveAll(ctx context.Context, cfg config, positions []string, stdout, stderr io.Writer) int {
	r := &runner{ctx: ctx, cfg: cfg, stdout: stdout, stderr: stderr}
	if cfg.game != sprouts.Game {
		return solveGame(r, cfg.game, positions)
	}
	return solveSprouts(r, positions)
}

// runner is one run of spots-solve: its configuration, its streams and
// its status line.
type runner struct {
	ctx            context.Context
	cfg            config
	stdout, stderr io.Writer
	prog           *statusline.Line // nil with --progress none
	auto           string           // the default checkpoint's directory, when the run keeps one
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
		if n > 0 && cfg.algorithm == solve.SearchSwarm {
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
	if cfg.algorithm == solve.SearchSwarm {
		if len(roots) != 1 {
			return r.fail("the swarm solves one position at a time (got %d)", len(roots))
		}
		return runMaster(r.ctx, cfg, cfg.swarm, inputs[0], roots[0], r.stdout, r.stderr)
	}
	return r.solveHere(inputs, roots, heaps)
}

// solveHere solves the positions in this process, one after another, by
// one search (saved into --state or the default checkpoint, resumed from
// --resume or it, preloaded from --db-in and --reuse).
func (r *runner) solveHere(inputs []string, roots []sprouts.Position, heaps []uint32) int {
	if status := r.autoState(roots, heaps); status >= 0 {
		return status
	}
	cfg := r.cfg
	r.startProgress()
	db := solve.NewNimberDB()
	if cfg.dbIn != "" {
		if status := r.loadDBIn(db); status >= 0 {
			return status
		}
		cfg = r.cfg // its memory planned with the database's taken off
	}
	cfg.lands = sprouts.NewCache(cfg.plan.GameCache)
	r.cfg = cfg
	pool, err := r.loadPool()
	if err != nil {
		return r.fail("--reuse %s: %v (leave out --reuse to solve without them)", strings.Join(cfg.reuse, ", "), err)
	}
	pool.Preload(db)
	saver := newStateSaver(cfg, roots[0], heaps[0], r.stderr, r.prog)
	search, err := newSearcher(cfg, sproutsRules(cfg), db, r.prog, saver)
	if err != nil {
		return r.fail("--algorithm %s: %v", cfg.algorithm, err)
	}
	s := dbInChecked(r.ctx, cfg, search, saver, r.prog, r.stderr)
	if saver != nil && cfg.swarm.resumeDir != "" {
		if err := saver.Resume(r.ctx, cfg.swarm.resumeDir); err != nil {
			return r.fail("--resume %s: %v", cfg.swarm.resumeDir, err)
		}
		s = resumeChecked(r.ctx, cfg, s, saver, cfg.swarm.resumeDir, r.prog, r.stderr)
	}
	var lib *verify.Library
	var verdicts *verify.Verdicts
	if pool != nil {
		lib, verdicts = pool.Library(), cmdline.Verdicts("spots-solve", r.stderr)
		s = reuseChecked(r.ctx, cfg, s, pool, lib, saver, r.prog, r.stderr)
		if rs, ok := s.(*prove.Resumed[sprouts.Position]); ok {
			rs.Verdicts = verdicts
		}
	}
	p := pipeline(r, sprouts.Game, s)
	p.Checkpoint, p.CheckpointSolved = saver, r.auto == "" // a default checkpoint is removed once solved
	p.Pool, p.Verify.Library, p.Verify.Verdicts = pool, lib, verdicts
	results, status := solveEach(r, p, inputs, roots, heaps)
	status = keepLemmas(r, p, pool, roots, results, status)
	r.afterState(results)
	return r.finish(results, status, func() int {
		if cfg.dbOut != "" {
			if err := saveDB(p.Searcher.DB(), cfg.dbOut); err != nil {
				return r.fail("--db-out %s: %v", cfg.dbOut, err)
			}
		}
		return -1
	})
}

// loadPool reads the certificates of --reuse of the game of --game (nil
// without it), saying on standard error what it drew on.
func (r *runner) loadPool() (*certify.Pool, error) {
	if len(r.cfg.reuse) == 0 {
		return nil, nil
	}
	start := time.Now()
	pool, err := certify.LoadPoolOf(r.ctx, r.cfg.game, r.cfg.reuse, nil, func(done, total int) {
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

// makeCertDir makes the --cert and --lemmas directories, before any
// search; it returns the exit status of a
// failure, or -1.
func (r *runner) makeCertDir() int {
	if r.cfg.certDir != "" {
		if err := os.MkdirAll(r.cfg.certDir, 0o755); err != nil {
			return r.fail("--cert: %v", err)
		}
	}
	if r.cfg.lemmasDir != "" {
		if err := os.MkdirAll(r.cfg.lemmasDir, 0o755); err != nil {
			return r.fail("--lemmas: %v", err)
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
// --progress none).
func (r *runner) startProgress() {
	r.prog = r.cfg.progress.New(r.stderr)
}

// pipeline returns the pipeline of the run's positions of game, solved by
// s: --nimber, --timeout and --cert.
func pipeline[P fmt.Stringer](r *runner, game string, s solve.Searcher[P]) *prove.Pipeline[P] {
	return &prove.Pipeline[P]{Game: game, Searcher: s, Nimber: r.cfg.nimber, Timeout: r.cfg.timeout, Memory: memoryGuard(r.cfg),
		CertDir: r.cfg.certDir, Version: buildinfo.Version(), Stopped: r.prog.Clear, Certifying: atOnce(r.ctx, r.stderr),
		Verify: verify.Options{Progress: r.prog.Entries("certifying")}}
}

// checking is the progress of prove.Resumed's check of a result found with
// values the search did not derive (a checkpoint's, --db-in's, --reuse's).
func checking(prog *statusline.Line) func(done, total int) {
	return prog.Entries("checking the result against the rules with the values it was found with")
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

// newSearcher makes the search of cfg for the game g; saver, if not nil,
// saves it (Sprouts only). It fails only for an algorithm that is not a
// search of this process (checkSearch and solveSprouts leave none): a
// search made once with cfg is made again without fail.
func newSearcher[P any](cfg config, g solve.Game[P], db *solve.NimberDB, prog *statusline.Line, saver *prove.Checkpoint) (solve.Searcher[P], error) {
	limit := newHeapLimit(cfg, db)
	s := prove.Search{Algorithm: cfg.algorithm, Threads: cfg.threads, Capacity: cfg.plan.Capacity, ChildrenCache: cfg.plan.ChildrenCache,
		MaxIterations: cfg.maxIterations, Checkpoint: saver, SaveEvery: cfg.stateEvery}
	if prog != nil {
		s.Progress = func(p solve.Progress) {
			limit.values(p.Nimbers)
			prog.Report(true, "solving", searchstatus.FiguresOf(p), searchstatus.Search(p))
		}
		s.ProgressEvery = prog.Every()
	} else if limit != nil && limit.follow {
		s.Progress = func(p solve.Progress) { limit.values(p.Nimbers) }
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
		if pr.Stop == prove.MemoryLimit {
			fmt.Fprintf(r.stderr, "spots-solve: %s: stopped at the memory limit (%s): %s; give more --memory, or --algorithm dfpn, whose table is bounded (with --state DIR a later run resumes)\n",
				inputs[i], memoryLimitWhat(r.cfg), pr.StopCause)
		}
		printResult(r.stdout, r.cfg, res)
	}
	return results, status
}
