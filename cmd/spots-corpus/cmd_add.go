package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/corpus"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/buildinfo"
	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/internal/cmdline"
	"github.com/spots-dev/spots/internal/interrupt"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/internal/searchstatus"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/prove"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

// maxSolve bounds --solve: far beyond what can be solved, small enough
// that a typo does not build an absurd position.
const maxSolve = 1000

type addJSON struct {
	certJSON
	Outcome outcome.Outcome `json:"outcome"`
	Grundy  *uint32         `json:"grundy"`
}

// adder is one run of add: 0*N solved, certified and verified by the
// pipeline, the certificate verified again in a separate process, listed
// in the index and the generated files regenerated.
type adder struct {
	*env
	c        *corpus.Corpus
	n        int
	root     sprouts.Position
	existing int    // the index of the record it replaces, or -1
	stateAt  string // the checkpoint directory, or ""
	unlock   func() // releases the lock of stateAt
	saver    *prove.Checkpoint
	pipeline *prove.Pipeline[sprouts.Position]
	result   prove.Result
	stats    solve.Stats     // of the search over all its runs
	db       *solve.NimberDB // the search's values
	rules    sprouts.Rules   // the game of its search, with the search's cache of canonical codes
	pool     *certify.Pool   // what it draws on
	keeper   *lemmaKeeper    // keeps its lemmas while it runs (nil: only at a stop)
	// independent is the seconds of the new certificate's independent check.
	independent float64
}

func runAdd(e *env) int {
	if status := e.checkAddFlags(); status >= 0 {
		return status
	}
	if status := e.checkVersioned(); status >= 0 {
		return status
	}
	if status := e.checkAddDirs(); status >= 0 {
		return status
	}
	// Several n in one run share the certificates drawn on and the
	// checks of what they cite: the frontier's certificates all rely on
	// the same large proofs, checked here once.
	for _, n := range e.opt.solves {
		e.opt.solve = n
		if status := e.addOne(); status != 0 {
			return status
		}
	}
	return 0
}

// addOne adds 0*N for N = --solve: solved, certified, verified, listed,
// and the generated files regenerated. It returns the exit status.
func (e *env) addOne() int {
	a, status := e.newAdder()
	if a == nil {
		return status
	}
	defer a.unlock()
	if status := a.solve(); status >= 0 {
		return status
	}
	release, status := a.lock()
	if release == nil {
		return status
	}
	defer release()
	res, verifySeconds, status := a.certify()
	if status >= 0 {
		return status
	}
	rec, path, status := a.record(res, verifySeconds)
	if status >= 0 {
		return status
	}
	old, replaced, status := a.list(rec, path)
	if status >= 0 {
		return status
	}
	a.print(rec, path, old, replaced)
	if status := a.retireLemmas(); status >= 0 {
		return status
	}
	if a.stateAt != "" {
		// The certificate is in: the checkpoint has served its purpose.
		if err := checkpoint.Remove(a.stateAt); err != nil {
			fmt.Fprintf(a.stderr, "spots-corpus: warning: removing the checkpoint %s: %v\n", a.stateAt, err)
		}
	}
	// The new certificate was verified above; the others are what check
	// verifies. Verifying the whole corpus again here took longer than
	// adding 0*29.
	a.opt.noVerify = true
	return a.regenerate(a.c, false, a.opt.json)
}

// checkAddFlags refuses add's flags out of their range; it returns the
// exit status, or -1.
func (e *env) checkAddFlags() int {
	if a, err := solve.ParseAlgorithm(e.opt.algorithmName); err == nil {
		e.opt.algorithm = a
	}
	o := e.opt
	switch {
	case !e.flags.Changed("solve"):
		e.flags.Usage()
		return e.fail(2, "add needs --solve N (e.g. spots-corpus add --solve 12)")
	case len(o.solves) > 1 && (o.state != "" || o.replace):
		return e.fail(2, "--solve %v: --state and --replace go with one N at a time", o.solves)
	case o.algorithm != solve.SearchDFPN && o.algorithm != solve.SearchPDFPN && o.algorithm != solve.SearchPNS:
		return e.fail(2, "unknown --algorithm %q (want dfpn, pdfpn or pns)", o.algorithmName)
	case o.threads < 1 || o.threads > solve.MaxThreads:
		return e.fail(2, "--threads %d: want 1 to %d", o.threads, solve.MaxThreads)
	case o.capacity < solve.MinCapacity:
		return e.fail(2, "--capacity %d is too small (at least %d)", o.capacity, solve.MinCapacity)
	case memguard.CheckCapacity(o.capacity, 1) != nil:
		return e.fail(2, "--capacity %d: %v", o.capacity, memguard.CheckCapacity(o.capacity, 1))
	case o.timeout < 0:
		return e.fail(2, "--timeout %v is negative", o.timeout)
	case o.every <= 0:
		return e.fail(2, "--state-every %v: want a positive duration", o.every)
	case slices.ContainsFunc(o.solves, func(n int) bool { return n < 1 || n > maxSolve }):
		return e.fail(2, "--solve %v: want numbers of spots from 1 to %d", o.solves, maxSolve)
	}
	return e.notApplying()
}

// notApplying refuses a flag of add that this run would not read: ignored
// without a word, it would leave the user believing it was used. It
// returns the exit status of a refusal, or -1.
func (e *env) notApplying() int {
	o := e.opt
	switch {
	case o.state != "" && (o.noState || o.algorithm == solve.SearchPNS):
		return e.fail(2, "--state saves a dfpn or pdfpn search: leave it out with --no-state or --algorithm %s", o.algorithm)
	case e.flags.Changed("state-every") && (o.noState || o.algorithm == solve.SearchPNS):
		return e.fail(2, "--state-every %v says how often a dfpn or pdfpn search is saved, and this one is not (--no-state or --algorithm %s): leave it out", o.every, o.algorithm)
	case e.flags.Changed("capacity") && o.algorithm == solve.SearchPNS:
		return e.fail(2, "--capacity %d sizes dfpn's table, and pns has none (it keeps its whole DAG): leave it out, or use --algorithm dfpn", o.capacity)
	case e.flags.Changed("threads") && o.algorithm != solve.SearchPDFPN:
		return e.fail(2, "--threads %d is for pdfpn, and this search is %s, one thread: add --algorithm pdfpn, or leave --threads out", o.threads, o.algorithm)
	}
	return -1
}

// checkVersioned refuses, before a search that may take hours, to add to
// the repository's own corpus with a build that records no version: the
// certificate would not say which code made it, and the repository's tests
// refuse such a row. It returns the exit status, or -1.
func (e *env) checkVersioned() int {
	if buildinfo.Named(buildinfo.Version()) {
		return -1
	}
	repo, err := corpus.Find(".")
	if err != nil || !sameDir(repo, e.opt.dir) {
		return -1
	}
	return e.fail(2, "this build records no version (%s), so the certificate would not say which code made it, and %s is the repository's corpus, whose tests refuse that: build with make build and run bin/spots-corpus (or give --dir for a corpus of your own)", buildinfo.Version(), e.opt.dir)
}

// sameDir reports whether the paths a and b name the same directory.
func sameDir(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// newAdder opens the corpus and refuses a claim it has already (without
// --replace); it returns nil and the exit status when add cannot go on.
func (e *env) newAdder() (*adder, int) {
	stateAt, err := stateDir(e.opt)
	if err != nil {
		return nil, e.fail(2, "%v", err)
	}
	c, status := e.open()
	if c == nil {
		return nil, status
	}
	n := e.opt.solve
	existing := c.RecordOf(n, e.opt.nimber)
	if existing >= 0 && !e.opt.replace {
		r := c.Records[existing]
		return nil, e.fail(2, "the corpus already has %s (index.csv line %d); give --replace to make it again", r.Claim, r.Line)
	}
	if existing >= 0 {
		if msg := citedMessage(c, c.Records[existing]); msg != "" {
			return nil, e.fail(2, "--replace: %s; a new proof goes beside it with --no-commit --out DIR", msg)
		}
	}
	root, err := sprouts.Parse(corpus.StartText(n))
	if err != nil {
		return nil, e.fail(2, "0*%d: %v", n, err)
	}
	unlock, err := lockState(stateAt)
	if err != nil {
		what := "the checkpoint directory " + stateAt
		if e.opt.state != "" {
			what = "--state " + stateAt
		}
		return nil, e.fail(2, "%s: %v", what, err)
	}
	return &adder{env: e, c: c, n: n, root: root, existing: existing, stateAt: stateAt, unlock: unlock}, -1
}

// solve runs the search, resumed from its checkpoint and saved into it
// (dfpn, pdfpn), until it is solved; it returns the exit status of a search that
// stopped first, or -1.
func (a *adder) solve() int {
	o := a.opt
	s := prove.Search{Algorithm: o.algorithm, Threads: o.threads, Capacity: o.capacity, MaxIterations: addMaxIterations}
	if a.prog != nil {
		s.Progress = func(p solve.Progress) { a.prog.Show(true, "solving: %s", searchstatus.Search(p)) }
		s.ProgressEvery = a.prog.Every()
	}
	if a.stateAt != "" {
		a.saver = prove.NewCheckpoint(a.stateAt, prove.Question{Root: a.root.String(), Nimber: o.nimber,
			Algorithm: o.algorithm, Capacity: o.capacity, Version: buildinfo.Version()}, func(line string) {
			a.prog.Clear()
			fmt.Fprintf(a.stderr, "spots-corpus: %s\n", line)
		})
		s.Checkpoint, s.SaveEvery = a.saver, o.every
		if a.prog != nil {
			var before float64 // a replaced certificate's solve time: an estimate of the whole
			if a.existing >= 0 {
				before = a.c.Records[a.existing].SolveSeconds
			}
			s.Progress = func(p solve.Progress) {
				a.prog.Show(true, "solving: %s%s", searchstatus.Search(p), sofar(a.saver, p, before))
			}
		}
	}
	s.Progress, s.ProgressEvery = a.withKeeper(s.Progress, s.ProgressEvery)
	pool, status := a.loadPool()
	if status >= 0 {
		return status
	}
	db := solve.NewNimberDB()
	pool.Preload(db)
	a.db, a.pool = db, pool
	a.rules = sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}
	search, err := prove.NewSearcher(a.rules, db, s)
	if err != nil {
		return a.fail(2, "--algorithm %s: %v", o.algorithm, err)
	}
	resumed := false
	if a.saver != nil {
		err := a.saver.Resume(a.ctx, a.stateAt)
		if err != nil && !errors.Is(err, prove.ErrNoCheckpoint) {
			return a.fail(2, "resuming from %s: %v (remove the directory, or give --no-state, to start afresh)", a.stateAt, err)
		}
		resumed = err == nil
	}
	var lib *verify.Library
	if pool != nil && pool == a.env.pool {
		lib = a.env.lib
	}
	if resumed || pool.Uncited() > 0 {
		// Lemmas, like a checkpoint, are values of a search not yet
		// certified: a result found with them is checked first.
		search = a.checked(search, s, pool, lib)
	}
	a.pipeline = &prove.Pipeline[sprouts.Position]{Game: sprouts.Game, Searcher: search, Nimber: o.nimber,
		Timeout: o.timeout, Memory: usableMemory(), Version: buildinfo.Version(), Checkpoint: a.saver, Stopped: a.prog.Clear, Pool: pool}
	a.pipeline.Verify.Library, a.pipeline.Verify.Verdicts = lib, cmdline.Verdicts("spots-corpus", a.env.stderr)
	a.keeper = a.startLemmas()
	a.result = a.pipeline.Solve(a.ctx, a.root, 0)
	a.keeper.end(a)
	return a.solved()
}

// checked makes search, resumed from the checkpoint, report a result
// only once the checker derives it from the rules with the search's
// values (and the certificates of pool it drew on, prove.Resumed): a
// checkpoint is input, not truth. A result they do not back is said on
// stderr and found again by a search with neither (s, from nothing). A
// search that resumed nothing needs no such check: certifying its result
// checks the certificates it draws on, and checking it once more would
// double the check of every add.
func (a *adder) checked(search solve.Searcher[sprouts.Position], s prove.Search, pool *certify.Pool, lib *verify.Library) solve.Searcher[sprouts.Position] {
	progress := a.prog.Entries(fmt.Sprintf("0*%d: checking what the resumed search found", a.n))
	return &prove.Resumed[sprouts.Position]{Searcher: search, Game: sprouts.Game, Pool: pool, Library: lib, Progress: progress, Restart: func(why error) solve.Searcher[sprouts.Position] {
		a.prog.Clear()
		fmt.Fprintf(a.stderr, "spots-corpus: 0*%d: the values of the checkpoint in %s do not prove the result found with them, %v: solving again without it\n", a.n, a.stateAt, why)
		a.saver.Forget()
		// s made the search that failed: it makes this one too.
		fresh, _ := prove.NewSearcher(a.rules, solve.NewNimberDB(), s)
		return fresh
	}}
}

// loadPool reads the corpus's certificates for the search to draw on
// (none with --no-reuse), but for the one that add replaces: a proof must
// not cite the certificate of its own claim. It returns the exit status
// of a failure, or -1.
func (a *adder) loadPool() (*certify.Pool, int) {
	if a.opt.noReuse {
		return nil, -1
	}
	if a.env.pool != nil && a.existing < 0 {
		return a.env.pool, -1
	}
	var skip []string
	if a.existing >= 0 {
		skip = append(skip, a.c.Records[a.existing].Address)
	}
	start := time.Now()
	progress := func(done, total int) {
		if a.prog != nil {
			a.prog.Show(true, "reading the corpus to draw on: %d of %d certificates", done, total)
		}
	}
	pool, err := certify.LoadPool(a.ctx, []string{filepath.Join(a.c.Dir, corpus.CertsDir)}, skip, progress)
	if err != nil {
		return nil, a.fail(2, "%v (give --no-reuse to solve without the corpus)", err)
	}
	a.prog.Clear()
	fmt.Fprintf(a.stderr, "spots-corpus: drawing on %d values of %d certificates (read in %.1f s)\n", pool.Len(), pool.Files, time.Since(start).Seconds())
	if status := a.drawOnLemmas(pool); status >= 0 {
		return nil, status
	}
	if a.existing < 0 {
		a.env.pool, a.env.lib = pool, pool.Library()
	}
	return pool, -1
}

// solved counts the search over all its runs and returns the exit status
// of a search that stopped unsolved, or -1.
func (a *adder) solved() int {
	a.stats = a.result.Spent
	resume := ""
	if a.saver != nil {
		a.stats.Iterations, a.stats.Seconds = a.saver.Totals(a.stats.Iterations)
		if r, ok := a.pipeline.Searcher.(*prove.Resumed[sprouts.Position]); ok {
			a.stats.Seconds -= r.CheckSeconds() // the clock ran on through the check of the result
		}
		a.opt.runs = a.saver.Runs() + 1
		resume = fmt.Sprintf("; the search is saved in %s: run the same command again to go on", a.stateAt)
	}
	switch {
	case a.result.Outcome.Known():
		return -1
	case a.result.Stop == prove.Interrupted:
		return a.fail(130, "0*%d: interrupted after %.1f s and %d iterations in all; nothing added%s", a.n, a.stats.Seconds, a.stats.Iterations, resume)
	case a.result.Stop == prove.MemoryLimit:
		_, what := memguard.Usable()
		return a.fail(1, "0*%d: stopped at the memory this process may use (%s) after %.1f s and %d iterations in all: %v; nothing added%s%s", a.n, what, a.stats.Seconds, a.stats.Iterations, a.result.StopCause, resume, a.keepLemmas())
	}
	return a.fail(1, "0*%d: not solved (stopped after %.1f s and %d iterations in all); nothing added%s%s", a.n, a.stats.Seconds, a.stats.Iterations, resume, a.keepLemmas())
}

// lock makes the directory the certificate goes into and takes the
// corpus's lock; it returns nil and the exit status when it cannot.
func (a *adder) lock() (release func(), status int) {
	a.pipeline.CertDir = filepath.Join(a.c.Dir, corpus.CertsDir)
	if a.opt.noCommit {
		a.pipeline.CertDir = a.opt.out
	}
	if err := os.MkdirAll(a.pipeline.CertDir, 0o755); err != nil {
		return nil, a.fail(2, "%v", err)
	}
	release, err := lockCorpus(a.c.Dir, func() {
		a.prog.Clear()
		fmt.Fprintf(a.stderr, "spots-corpus: waiting for another add into %s to finish\n", a.c.Dir)
	})
	if err != nil {
		return nil, a.fail(2, "%v", err)
	}
	return release, -1
}

// certify writes and verifies the certificate (the pipeline), then
// verifies it again in a separate process to time the check, and by the
// independent rules (a.independent: their time); it returns
// what that process found, the time it took and the exit status of a
// failure, or -1.
func (a *adder) certify() (verify.Result, float64, int) {
	var none verify.Result
	claim, err := certify.Claim(a.root, 0, a.result.Outcome, a.result.Grundy)
	if err != nil {
		return none, 0, a.fail(1, "0*%d: %v", a.n, err)
	}
	a.pipeline.Verify.Progress = a.prog.Entries(fmt.Sprintf("certifying %s", claim))
	watch := interrupt.ExitWhenDone(a.ctx, "spots-corpus", a.stderr) // nothing to wind down: stop at once
	err = a.pipeline.Certify(a.root, 0, &a.result)
	watch()
	a.prog.Clear()
	if err != nil {
		return none, 0, a.fail(1, "certifying %s: %v", claim, err)
	}
	path := a.result.Certificate.Path
	var res verify.Result
	var verifySeconds float64
	if c := a.result.Certificate; len(c.Cites) > 0 {
		a.prog.Show(false, "timing the check of %s, with what it cites checked", claim)
		res, verifySeconds, err = a.verifyCiting(path, c.Address, a.pipeline.Verify.Library, a.pipeline.Verify)
	} else {
		a.prog.Show(false, "verifying %s in a separate process", claim)
		res, verifySeconds, err = a.verifyApart(path, a.pipeline.Verify)
	}
	a.prog.Clear()
	if err != nil && a.ctx.Err() != nil {
		return res, 0, a.fail(130, "%s: interrupted while verifying; nothing added (the file is left)", path)
	}
	if err != nil {
		return res, 0, a.fail(1, "%s: the certificate of %s does not verify: %v", path, claim, err)
	}
	a.prog.Show(false, "verifying %s with the independent rules", claim)
	a.independent, err = a.verifyIndependent(path, res.Address, a.result.Certificate.Cites)
	a.prog.Clear()
	if err != nil && a.ctx.Err() != nil {
		return res, 0, a.fail(130, "%s: interrupted while verifying; nothing added (the file is left)", path)
	}
	if err != nil {
		return res, 0, a.fail(1, "%s: the certificate of %s does not verify by the independent rules (spots-verify --independent): %v", path, claim, err)
	}
	return res, verifySeconds, -1
}

// record returns the index's record of the certificate and where the file
// is: a certificate over the size rule is moved out of the corpus, to
// --out, and listed as kept elsewhere.
func (a *adder) record(res verify.Result, verifySeconds float64) (corpus.Record, string, int) {
	path := a.result.Certificate.Path
	if err := os.Chmod(path, 0o644); err != nil {
		return corpus.Record{}, "", a.fail(2, "%v", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return corpus.Record{}, "", a.fail(2, "%v", err)
	}
	producer, err := producerOf(path)
	if err != nil {
		return corpus.Record{}, "", a.fail(2, "%v", err)
	}
	kept := a.opt
	if !a.opt.noCommit {
		fits, why, status := a.fits(res.Address, st.Size())
		if status >= 0 {
			return corpus.Record{}, "", status
		}
		if !fits {
			moved, err := moveFile(path, a.opt.out)
			if err != nil {
				return corpus.Record{}, "", a.fail(2, "keeping the certificate of %s elsewhere: %v", res.Claim, err)
			}
			fmt.Fprintf(a.stderr, "spots-corpus: not committing the certificate of %s: %s; it is in %s, listed in %s as kept elsewhere (committed no)\n",
				res.Claim, why, moved, corpus.IndexFile)
			path, kept.noCommit = moved, true
		}
	}
	return corpus.Record{N: a.n, Claim: res.Claim, Address: res.Address, Entries: res.Entries, Bytes: st.Size(),
		Algorithm: a.opt.algorithm, SolveSeconds: millis(a.stats.Seconds), VerifySeconds: millis(verifySeconds), IndependentSeconds: millis(a.independent),
		Added: time.Now().UTC().Format(time.DateOnly), Producer: producer,
		Machine:   fmt.Sprintf("%s/%s %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()),
		Committed: !kept.noCommit, Command: command(kept), Iterations: a.stats.Iterations,
		Cites: a.result.Certificate.Cites, CitesRecorded: true}, path, -1
}

// fits applies the size rule to a certificate of size bytes at address;
// it returns whether it fits, why not, and the exit status of a failure
// (or -1).
func (a *adder) fits(address string, size int64) (bool, string, int) {
	var freed int64 // the replaced certificate's file, removed by list
	if a.existing >= 0 && a.c.Records[a.existing].Committed && a.c.Records[a.existing].Address != address {
		freed = a.c.Records[a.existing].Bytes
	}
	fits, why, err := a.c.Fits(limits, size, true, freed)
	if err != nil {
		return false, "", a.fail(2, "%v", err)
	}
	return fits, why, -1
}

// list lists rec, whose certificate is at path, in the index (replacing
// the record of the same claim with --replace) and removes the replaced
// certificate's file. A valid certificate that contradicts the literature
// or the conjecture is news, or a bug in the rules: a human must look
// before it is listed.
func (a *adder) list(rec corpus.Record, path string) (corpus.Record, bool, int) {
	if problems, _ := a.c.CheckClaim(rec.Claim, path); len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(a.stderr, "PROBLEM   %s\n", p)
		}
		return rec, false, a.fail(1, "%s verifies but disagrees with what is known; not added to %s (the file is left for inspection)", path, a.c.Path(corpus.IndexFile))
	}
	// A solve may take hours, and another add may have listed its
	// certificate meanwhile: list this one in the index as it is now, not
	// as it was read at the start, or the other's row would be lost.
	if beforeListing != nil {
		beforeListing()
	}
	c, status := a.open()
	if c == nil {
		return rec, false, status
	}
	existing := c.RecordOf(a.n, a.opt.nimber)
	if existing >= 0 && !a.opt.replace {
		r := c.Records[existing]
		return rec, false, a.fail(1, "%s was listed by another add while this one solved (index.csv line %d); %s is left for inspection", r.Claim, r.Line, path)
	}
	if existing >= 0 && c.Records[existing].Address != rec.Address {
		if msg := citedMessage(c, c.Records[existing]); msg != "" {
			return rec, false, a.fail(1, "%s (cited while this one solved); %s is left for inspection", msg, path)
		}
	}
	old, replaced := c.Put(rec, existing)
	if err := c.SaveIndex(); err != nil {
		return old, replaced, a.fail(2, "%v", err)
	}
	// The replaced certificate's file is no longer listed as committed.
	if replaced && old.Committed && (old.Address != rec.Address || !rec.Committed) {
		if err := os.Remove(c.CertPath(old)); err != nil && !os.IsNotExist(err) {
			return old, replaced, a.fail(2, "removing the replaced certificate: %v", err)
		}
	}
	// Regenerate from the index as written, as regenerate will.
	if a.c, status = a.open(); a.c == nil {
		return old, replaced, status
	}
	return old, replaced, -1
}

// citedMessage says why the certificate of r cannot be replaced, or "":
// others in the corpus cite it, and would cite a file no longer there.
func citedMessage(c *corpus.Corpus, r corpus.Record) string {
	by := c.CitedBy(r.Address)
	if len(by) == 0 {
		return ""
	}
	return fmt.Sprintf("the certificate of %s (%s) is cited by %d others (%s): replacing it would leave their citations outside the corpus", r.Claim, r.ShortAddress(), len(by), strings.Join(by, ", "))
}

// print prints what was added (and what it replaced).
func (a *adder) print(rec corpus.Record, path string, old corpus.Record, replaced bool) {
	out, grundy := a.result.Outcome, a.result.Grundy
	if a.opt.json {
		j := addJSON{certJSON: recordJSON(rec), Outcome: out, Grundy: grundy}
		j.Path, j.Status = path, corpus.StatusVerified
		b, _ := json.Marshal(j)
		fmt.Fprintf(a.stdout, "%s\n", b)
		return
	}
	who := map[solve.Outcome]string{solve.Win: "first player wins", solve.Loss: "second player wins"}[out]
	if grundy != nil {
		fmt.Fprintf(a.stdout, "%s  %d  (Grundy value; %s)\n", a.root, *grundy, who)
	} else {
		fmt.Fprintf(a.stdout, "%s  %s  (%s)\n", a.root, out, who)
	}
	fmt.Fprintf(a.stdout, "    certificate %s  (%d entries, %d bytes; solved in %.2f s, verified in %.2f s, independently in %.2f s)\n",
		path, rec.Entries, rec.Bytes, rec.SolveSeconds, rec.VerifySeconds, rec.IndependentSeconds)
	if replaced {
		fmt.Fprintf(a.stdout, "    replaces %s (%s)\n", old.Claim, old.ShortAddress())
	}
}

// beforeListing, when set (by tests), runs just before add reads the index
// again to list its certificate.
var beforeListing func()

// addMaxIterations, when set (by tests), stops add's search after so many
// iterations: a stop at a known point, where a --timeout would depend on
// the machine.
var addMaxIterations uint64

// command returns the command line that makes the certificate again.
func command(o options) string {
	parts := []string{"spots-corpus", "add", "--solve", strconv.Itoa(o.solve)}
	if o.nimber {
		parts = append(parts, "--nimber")
	}
	if o.algorithm != solve.SearchDFPN {
		parts = append(parts, "--algorithm", o.algorithm.String())
	}
	if o.algorithm == solve.SearchPDFPN {
		parts = append(parts, "--threads", strconv.Itoa(o.threads))
	}
	if o.capacity != solve.DefaultCapacity && o.algorithm != solve.SearchPNS {
		parts = append(parts, "--capacity", strconv.Itoa(o.capacity))
	}
	if o.noReuse {
		// Drawing on the corpus makes another certificate (one that cites).
		parts = append(parts, "--no-reuse")
	}
	if o.noCommit {
		parts = append(parts, "--no-commit", "--out", "DIR")
	}
	if o.runs > 1 {
		parts = append(parts, fmt.Sprintf("(in %d runs through --state)", o.runs))
	}
	return strings.Join(parts, " ")
}

// producerOf returns the producer and version a certificate names.
func producerOf(path string) (string, error) {
	r, err := format.OpenCertificate(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	h := r.Header()
	return strings.TrimSpace(h.Producer + " " + h.Version), nil
}

func addFlags(f *pflag.FlagSet, o *options) {
	f.IntSliceVar(&o.solves, "solve", nil, "solve the n-spot start 0*`N`; several N (--solve 34,35 or the flag again) are added one after another in one run, which checks what their certificates cite once")
	f.BoolVar(&o.nimber, "nimber", false, "prove the Grundy value instead of the outcome")
	f.StringVar(&o.algorithmName, "algorithm", solve.SearchDFPN.String(), "search: dfpn (depth-first, one thread, deterministic), pdfpn (parallel dfpn: --threads search one table; for machines of many cores, and not the same search twice) or pns")
	f.IntVar(&o.threads, "threads", runtime.NumCPU(), "pdfpn: threads searching one table")
	f.DurationVar(&o.timeout, "timeout", 0, "give up after this long (e.g. 10m; 0: never)")
	f.IntVar(&o.capacity, "capacity", solve.DefaultCapacity, "transposition-table entries (dfpn, pdfpn)")
	f.BoolVar(&o.replace, "replace", false, "replace the corpus's certificate of the same kind for 0*N (refused while other certificates cite it)")
	f.BoolVar(&o.noCommit, "no-commit", false, "list the certificate in the index as not committed and write it into --out, not the corpus")
	f.StringVar(&o.out, "out", ".", fmt.Sprintf("where a certificate not committed goes (`DIR`): with --no-commit, or one over the size rule (%d MB, or more than takes the corpus to %d MB)", corpus.MaxCertBytes/1e6, corpus.MaxCorpusBytes/1e6))
	f.StringVar(&o.state, "state", "", "dfpn, pdfpn: save the search to `DIR` every --state-every and when it stops, and resume from it: the same command run again after a crash, a Ctrl-C or --timeout goes on where it was (default: a directory per claim in the user's cache directory, removed once the certificate is added)")
	f.DurationVar(&o.every, "state-every", solve.DefaultCheckpointEvery, "how often --state saves the search")
	f.BoolVar(&o.noState, "no-state", false, "neither save nor resume the search")
	f.BoolVar(&o.noReuse, "no-reuse", false, "solve from nothing: do not draw on the corpus's certificates (by default the search preloads their values and the new certificate cites those its proof relies on)")
	f.DurationVar(&o.lemmasEvery, "lemmas-every", time.Hour, "also keep the lemmas this often while the search runs (0: only when it stops), so that a machine lost mid-search leaves what was proved up to then in the corpus, to commit")
	f.IntVar(&o.lemmaEntries, "lemma-entries", defaultLemmaEntries, "when the search stops unsolved (--timeout, memory), keep what it proved in the corpus as lemmas, at most about `N` entries (largest lands first) in certificates of up to 25,000 entries each (corpus/lemmas/, listed in corpus/lemmas.csv), that a later add of the same N draws on, on any machine; 0: keep none")
	f.BoolVar(&o.json, "json", false, "print the result as one JSON object")
}

// sofar describes, for the status line, the search over all its runs and
// what is left of it when a previous solve's time (before) gives an
// estimate.
func sofar(saver *prove.Checkpoint, p solve.Progress, before float64) string {
	its, secs := saver.Totals(p.Iterations)
	text := ""
	if saver.Runs() > 0 {
		text = fmt.Sprintf("; in all %s, %d iterations over %d runs", time.Duration(secs*float64(time.Second)).Round(time.Second), its, saver.Runs()+1)
	}
	if before > secs {
		text += fmt.Sprintf("; about %s left, if it takes as long as the certificate it replaces", time.Duration((before-secs)*float64(time.Second)).Round(time.Second))
	}
	return text
}

// usableMemory is the pipeline's Memory: what the process may use, so that
// a search outgrowing the machine stops with its checkpoint saved instead
// of crashing the runtime.
func usableMemory() uint64 {
	usable, _ := memguard.Usable()
	return usable
}
