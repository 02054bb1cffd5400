package solve

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Options configures a search. The zero value is usable: heuristic
// tie-breaking, estimator (1, 1), no limits, and for DFPN a transposition
// table of DefaultCapacity entries.
type Options struct {
	// Threads is the number of threads DFPN runs (PDFPN when ≥ 2); 0 or 1
	// is plain sequential DFPN. At most MaxThreads.
	Threads int
	// Lockstep makes the threads of a PDFPN take turns, one iteration
	// each, in a fixed order, instead of running at once: the search then
	// runs on one core, as if each thread had a core of its own and every
	// iteration took as long, and it does the same on every run. It is for
	// simulating machines with more cores than this one (package swarm).
	Lockstep bool
	// Spread is what each thread working below a child adds to the child's
	// complexity (its disproof number, or min(pn, dn) in a sum) when
	// another PDFPN thread chooses where to go: the larger it is, the
	// more the threads spread over the tree instead of following each
	// other down (0: DefaultSpread, the paper's 1).
	Spread uint64
	// Capacity is the number of transposition-table entries (DFPN). Memory
	// for the table is bounded by it; the nimber database is not bounded.
	Capacity int
	// ChildrenCache is the memory, in bytes, of the cache in which DFPN
	// keeps the children of positions it expanded, to avoid generating them
	// again when it re-enters a couple (0: DefaultChildrenCache, negative:
	// none). A full part of it is emptied.
	ChildrenCache int64
	// Replacement chooses the entry a full table bucket gives up.
	Replacement Replacement
	// Seed, if not 0, breaks ties between equally good children at random
	// (seeded); with 0 the first in the Lemoine–Viennot order wins.
	Seed uint64
	// Estimator chooses the proof and disproof numbers of a new leaf
	// (EstimateUnit unless set).
	Estimator Estimator
	// MaxIterations stops each call of Solve after so many iterations of
	// each thread (0: none). A stopped search reports Unknown.
	MaxIterations uint64
	// Progress, if set, is called from the searching goroutine about every
	// ProgressEvery with a snapshot of the search.
	Progress      func(Progress)
	ProgressEvery time.Duration
	// Checkpoint, if set, is called by DFPN from its searching goroutine
	// (thread 0 of a PDFPN) about every CheckpointEvery
	// (DefaultCheckpointEvery if 0) while a search runs, so that a long
	// search can be saved (DB, WriteTable) and resumed after a crash. The
	// other threads of a PDFPN go on meanwhile. It is given a snapshot of
	// the search, since Stats may not be called while threads run. PNS does
	// not call it.
	Checkpoint      func(Progress)
	CheckpointEvery time.Duration
}

// DefaultCheckpointEvery is the default of Options.CheckpointEvery.
const DefaultCheckpointEvery = 10 * time.Minute

// Estimator chooses the numbers a search gives a couple it has not
// expanded yet.
type Estimator int8

const (
	// EstimateUnit gives pn = dn = 1, as the paper and the reference
	// solver do. It is the default.
	EstimateUnit Estimator = iota
	// EstimateMoves gives pn 1 and dn 1 + EstimateChildren/8: to prove a
	// couple lost every move must be answered, so the more moves the
	// position has, the more work a disproof looks. On 0*12 and 0*14 it
	// takes a quarter and a third of EstimateUnit's time, on 0*13 and 0*15
	// 1.2 and 2.5 times as long.
	EstimateMoves
	// EstimateDepth gives pn = dn = 1 + Size + n.
	EstimateDepth
)

// movesDivisor scales EstimateChildren into a disproof number.
const movesDivisor = 8

// ParseEstimator returns the estimator named moves, unit or depth.
func ParseEstimator(name string) (Estimator, error) {
	switch name {
	case "moves":
		return EstimateMoves, nil
	case "unit":
		return EstimateUnit, nil
	case "depth":
		return EstimateDepth, nil
	}
	return 0, fmt.Errorf("unknown estimator %q (want moves, unit or depth)", name)
}

func (e Estimator) String() string {
	switch e {
	case EstimateMoves:
		return "moves"
	case EstimateDepth:
		return "depth"
	}
	return "unit"
}

// leaf returns the numbers of an unexpanded couple.
func (b *base[P]) leaf(est Estimator, c *couple[P]) (pn, dn uint64) {
	switch est {
	case EstimateMoves:
		return 1, 1 + uint64(b.estimate(c))/movesDivisor
	case EstimateDepth:
		d := uint64(1 + c.size + int(c.n))
		return d, d
	}
	return 1, 1
}

// DefaultSpread is the default of Options.Spread: the paper's 1. With
// eight threads taking turns 8 did less work on five positions, but with
// two threads on two real cores it did more on five runs of six, so the
// default stays.
const DefaultSpread = 1

// MaxSpread bounds Options.Spread where it comes from a user, so that
// threads × spread (at most 2²⁶) stays far from overflowing a disproof
// number.
const MaxSpread = 1 << 20

// DefaultCapacity is the transposition-table size used when
// Options.Capacity is 0: a million entries, as in the reference's runs.
const DefaultCapacity = 1_000_000

// DefaultChildrenCache is the default of Options.ChildrenCache: 64 MiB.
const DefaultChildrenCache = 64 << 20

// Progress is a snapshot of a running search.
type Progress struct {
	Elapsed    time.Duration
	Iterations uint64
	RootPN     uint64
	RootDN     uint64
	Nimbers    int // entries in the nimber database
	TTEntries  int64
	TTCapacity int
}

// Stats are the counters of a search, as the paper reports them.
type Stats struct {
	Iterations    uint64  `json:"iterations"`     // node entries (DFPN) or expansions (PNS)
	Expansions    uint64  `json:"expansions"`     // children generated for a node
	GrundyNumbers int     `json:"grundy_numbers"` // entries the search added to the nimber database
	NimberDB      int     `json:"nimber_db"`      // entries in the database at the end, preloaded ones included
	TTEntries     int64   `json:"tt_entries"`     // DFPN: table entries in use
	TTCapacity    int     `json:"tt_capacity"`
	TTEvictions   int64   `json:"tt_evictions"`
	Nodes         int     `json:"nodes"` // PNS: nodes of the DAG
	Seconds       float64 `json:"seconds"`

	// Parallel DFPN.
	PerThread       []uint64 `json:"per_thread_iterations,omitempty"`
	TTLookups       uint64   `json:"tt_lookups"`
	TTHits          uint64   `json:"tt_hits"`
	Notifications   uint64   `json:"notifications,omitempty"`     // solved couples posted to other threads
	LockWaits       int64    `json:"lock_waits,omitempty"`        // table bucket locks found taken
	LockWaitSeconds float64  `json:"lock_wait_seconds,omitempty"` // time spent waiting for them
}

// JSON returns the statistics as a JSON object.
func (s Stats) JSON() []byte {
	b, _ := json.Marshal(s)
	return b
}

// MinCapacity is the smallest transposition table: one bucket.
const MinCapacity = ttWays

// Searcher is what DFPN (with any number of threads) and PNS offer a
// caller that solves positions one after another.
type Searcher[P any] interface {
	// Solve returns the outcome of pos + *n, Unknown if stopped first.
	Solve(ctx context.Context, pos P, n uint32) Outcome
	// Grundy returns the Grundy value of pos; ok is false if stopped.
	Grundy(ctx context.Context, pos P) (g uint32, ok bool)
	// Stats returns the counters of all calls so far.
	Stats() Stats
	// DB returns the nimber database the search fills.
	DB() *NimberDB
}

var (
	_ Searcher[int] = (*DFPN[int])(nil)
	_ Searcher[int] = (*PNS[int])(nil)
)

// grundyBySolving is Searcher.Grundy for a search that offers Solve: the
// first n for which pos + *n is a Loss, solved in turn from n = 0. ok is
// false if solve stopped (returned Unknown) first.
func grundyBySolving[P any](ctx context.Context, pos P, solve func(context.Context, P, uint32) Outcome) (g uint32, ok bool) {
	for n := uint32(0); ; n++ {
		switch solve(ctx, pos, n) {
		case Loss:
			return n, true
		case Unknown:
			return 0, false
		}
	}
}
