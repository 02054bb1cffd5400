package prove

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/outcome"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/verify"
)

// Pipeline proves positions of one game with one search, one after
// another. Its fields are read by each call; set them before the first.
type Pipeline[P fmt.Stringer] struct {
	// Game is the game of the positions (a name of the registry, package game), the
	// game the certificates name.
	Game string
	// Searcher finds the results: a search of NewSearcher, or any other
	// solve.Searcher (one that implements Certified offers the certificate
	// it built of its result).
	Searcher solve.Searcher[P]
	// Nimber makes Solve find the Grundy value of a position (which must
	// then have no heap) instead of the outcome of the position plus a
	// heap.
	Nimber bool
	// Timeout stops each solve after this long (0: never).
	Timeout time.Duration
	// Memory is the bytes the process may hold while a solve runs (the
	// budget of --memory, or what the machine lets it use): past them, the
	// solve stops with MemoryLimit and its checkpoint is saved, where the
	// Go runtime would otherwise die of an allocation the system refuses,
	// its work lost. 0 watches nothing.
	Memory uint64
	// CertDir is where Prove writes certificates, as <address>.arrow; ""
	// writes none.
	CertDir string
	// Version is the producer version the certificates record: the
	// build of the command that made them ("" records
	// certify.DevVersion). It is provenance, not content: the address
	// does not depend on it.
	Version string
	// Verify is given to the checker that builds the certificate and
	// verifies the written file (its progress, its limits, the library
	// that finds the certificates a certificate cites).
	Verify verify.Options
	// Pool, if set, is the certificates the search drew on (its values
	// preloaded into the search's database): a certificate cites those
	// whose values its proof relies on (certify.BuildCiting), and is
	// verified with them. Verify.Library, if nil, is the pool's.
	Pool *certify.Pool
	// Checkpoint, if set, saves the search when a solve stops unsolved,
	// so that a later run resumes all it did; with CheckpointSolved also
	// when it stops solved (so that the next question about the same
	// position starts from what this one learnt).
	Checkpoint       *Checkpoint
	CheckpointSolved bool
	// Stopped, if set, is called as soon as each solve stops, before the
	// checkpoint is saved or anything certified (to clear a status line).
	Stopped func()
	// Certifying, if set, is called as Prove begins to certify a result,
	// and the function it returns when the certificate is written and
	// verified: a command stops at once on a signal meanwhile
	// (interrupt.ExitWhenDone), as a certificate, written atomically, has
	// nothing to wind down, and checking a large one takes minutes.
	Certifying func() (done func())
}

// Result is what one solve found about a position (plus a heap).
type Result struct {
	// Outcome is the outcome for the player to move, Unknown if the
	// search stopped first. With Nimber it is the outcome the Grundy value
	// implies.
	Outcome solve.Outcome
	// Grundy is the Grundy value found with Nimber (nil otherwise, and
	// when the search stopped first).
	Grundy *uint32
	// Stop says why the outcome is Unknown.
	Stop Stop
	// StopCause, for a MemoryLimit, says how much the process held against
	// what budget (a *memguard.OverBudgetError); nil otherwise.
	StopCause error
	// Spent is this solve's share of the search's counters: the counts of
	// work (iterations, expansions, Grundy numbers added, seconds, table
	// lookups and hits, lock waits, per-thread iterations) as the
	// difference over the solve, the sizes (table entries, capacity,
	// evictions, nodes, the database) as they are after it.
	Spent solve.Stats
	// Certificate is the certificate written and verified (Prove with a
	// CertDir, or Certify).
	Certificate *Certificate
}

// Certificate is a certificate the pipeline wrote and verified.
type Certificate struct {
	Claim   format.Claim // what it proves
	Path    string       // the file, CertDir/<Address>.arrow
	Address string       // its content address
	Entries int          // its entries
	Cites   []string     // the addresses of the certificates it cites
	Cited   int          // the certificates it relies on, directly or through others, all verified
}

// Stop says why a solve stopped without a result.
type Stop string

// The reasons a solve stops unsolved.
const (
	Solved         Stop = ""                // it did not stop early
	Interrupted    Stop = "interrupted"     // the caller's context ended
	TimedOut       Stop = "timeout"         // the pipeline's Timeout
	IterationLimit Stop = "iteration limit" // the search's own limit (Search.MaxIterations)
	MemoryLimit    Stop = "memory limit"    // the process held more than the pipeline's Memory
)

// Certified is a search that builds, as it proves its result, the
// certificate of it (the swarm's master, whose audit builds one). Certify
// writes that certificate when it proves the claim certified, instead of
// building it again.
type Certified interface {
	Certificate() *format.Certificate
}

// Prove solves root + *heap (with Nimber: finds root's Grundy value) and,
// with a CertDir, certifies what it found. The error is the certificate's
// (the result is still returned); an unsolved result is not certified.
func (p *Pipeline[P]) Prove(ctx context.Context, root P, heap uint32) (Result, error) {
	r := p.Solve(ctx, root, heap)
	if p.CertDir == "" || !r.Outcome.Known() {
		return r, nil
	}
	if p.Certifying != nil {
		defer p.Certifying()()
	}
	return r, p.Certify(root, heap, &r)
}

// Solve solves root + *heap (with Nimber: finds root's Grundy value) until
// it is solved, ctx ends or the Timeout passes, and saves the checkpoint.
func (p *Pipeline[P]) Solve(ctx context.Context, root P, heap uint32) Result {
	limited := ctx
	if p.Timeout > 0 {
		var cancel context.CancelFunc
		limited, cancel = context.WithTimeout(ctx, p.Timeout)
		defer cancel()
	}
	if p.Memory > 0 {
		var guard *memguard.Guard
		limited, guard = memguard.Watch(limited, p.Memory, memoryCheckEvery)
		defer guard.Stop()
	}
	before := p.Searcher.Stats()
	var r Result
	if p.Nimber {
		if g, ok := p.Searcher.Grundy(limited, root); ok {
			r.Grundy, r.Outcome = &g, outcome.OfGrundy(g)
		}
	} else {
		r.Outcome = p.Searcher.Solve(limited, root, heap)
	}
	after := p.Searcher.Stats()
	r.Spent = spent(before, after)
	if !r.Outcome.Known() {
		r.Stop = StopOf(ctx, limited)
		if r.Stop == MemoryLimit {
			r.StopCause = context.Cause(limited)
		}
	}
	if p.Stopped != nil {
		p.Stopped()
	}
	if p.Checkpoint != nil && (p.CheckpointSolved || !r.Outcome.Known()) {
		p.Checkpoint.save(solve.Progress{Iterations: after.Iterations})
	}
	return r
}

// memoryCheckEvery is how often a solve with a Memory budget measures
// the process: often enough that a search growing by its fastest (a PNS
// DAG, tens of MB a second) passes the budget by little.
const memoryCheckEvery = 100 * time.Millisecond

// StopOf says why a search stopped unsolved: ctx is the caller's (its end
// interrupts), limited the search's (its deadline is a timeout, a cause of
// memguard.ErrOverBudget the memory limit); when neither ended, the
// search's own limit stopped it.
func StopOf(ctx, limited context.Context) Stop {
	switch {
	case ctx.Err() != nil:
		return Interrupted
	case errors.Is(context.Cause(limited), memguard.ErrOverBudget):
		return MemoryLimit
	case limited.Err() != nil:
		return TimedOut
	}
	return IterationLimit
}

// Certify writes the certificate of what r found about root + *heap into
// CertDir and verifies the written file, and sets r.Certificate. The
// certificate is built from the search's values, or is the one the search
// built (Certified) when that proves the same claim.
func (p *Pipeline[P]) Certify(root P, heap uint32, r *Result) error {
	claim, err := certify.Claim(root, heap, r.Outcome, r.Grundy)
	if err != nil {
		return err
	}
	var cert *format.Certificate
	if c, ok := p.Searcher.(Certified); ok {
		if built := c.Certificate(); built != nil && built.Claim == claim {
			cert = built
		}
	}
	pool := p.Pool
	if d, ok := p.Searcher.(interface{ Drawn() *certify.Pool }); ok {
		pool = d.Drawn() // nil once the pool failed to back a result
	}
	opt := p.Verify
	if opt.Library == nil && pool != nil {
		p.Verify.Library = pool.Library()
		opt = p.Verify
	}
	if cert == nil {
		if cert, err = certify.BuildCiting(p.Game, p.Searcher.DB(), pool, claim, opt); err != nil {
			return err
		}
	}
	if p.Version != "" && cert.Version != p.Version {
		stamped := *cert // the search's own certificate is left as it built it
		stamped.Version = p.Version
		cert = &stamped
	}
	path, res, err := certify.WriteCertificate(p.CertDir, cert, opt)
	if err != nil {
		return err
	}
	r.Certificate = &Certificate{Claim: claim, Path: path, Address: strings.TrimSuffix(filepath.Base(path), ".arrow"),
		Entries: res.Entries, Cites: slices.Clone(cert.Cites), Cited: res.Cited}
	return nil
}

// spent returns the counters of a solve that began at before and ended at
// after (see Result.Spent).
func spent(before, after solve.Stats) solve.Stats {
	s := after
	s.Iterations -= before.Iterations
	s.Expansions -= before.Expansions
	s.GrundyNumbers -= before.GrundyNumbers
	s.Seconds -= before.Seconds
	s.TTLookups -= before.TTLookups
	s.TTHits -= before.TTHits
	s.Notifications -= before.Notifications
	s.LockWaits -= before.LockWaits
	s.LockWaitSeconds -= before.LockWaitSeconds
	s.PerThread = slices.Clone(after.PerThread)
	for i := range min(len(s.PerThread), len(before.PerThread)) {
		s.PerThread[i] -= before.PerThread[i]
	}
	return s
}
