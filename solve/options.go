package solve

import (
	"encoding/json"
	"time"
)

// Options configures a search. The zero value is usable: heuristic
// tie-breaking, estimator (1, 1), no limits, and for DFPN a transposition
// table of DefaultCapacity entries.
type Options struct {
	// Threads is the number of threads DFPN runs (PDFPN when ≥ 2); 0 or 1
	// is plain sequential DFPN. At most MaxThreads.
	Threads int
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
	// DepthEstimator initialises new leaves with 1 + Size + n instead of
	// (1, 1).
	DepthEstimator bool
	// MaxIterations stops each call of Solve after so many iterations of
	// each thread (0: none). A stopped search reports Unknown.
	MaxIterations uint64
	// Progress, if set, is called from the searching goroutine about every
	// ProgressEvery with a snapshot of the search.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

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
