package prove

import (
	"time"

	"github.com/spots-dev/spots/solve"
)

// The algorithms NewSearcher makes.
const (
	DFPN  = "dfpn"  // depth-first proof-number search, memory bounded by its table
	PDFPN = "pdfpn" // DFPN on Threads threads sharing one table
	PNS   = "pns"   // proof-number search over the whole DAG it keeps
)

// Search describes the search NewSearcher makes. The zero value of a field
// is solve's default.
type Search struct {
	// Algorithm is DFPN, PDFPN or PNS; anything else makes a DFPN.
	Algorithm string
	// Threads is PDFPN's number of threads (DFPN and PNS run one).
	Threads int
	// Capacity and ChildrenCache size the search's table and its cache
	// (solve.Options).
	Capacity      int
	ChildrenCache int64
	// Seed, if not 0, breaks ties between equal children at random.
	Seed uint64
	// MaxIterations stops each solve after so many iterations (0: never).
	MaxIterations uint64
	// Progress, if set, is called about every ProgressEvery while a solve
	// runs.
	Progress      func(solve.Progress)
	ProgressEvery time.Duration
	// Checkpoint, if set, saves a DFPN or PDFPN search (never a PNS)
	// every SaveEvery while it runs (0: solve's default); NewSearcher
	// makes the search the one it saves and resumes.
	Checkpoint *Checkpoint
	SaveEvery  time.Duration
}

// NewSearcher returns the search s describes for the game g, filling db
// (a new database when nil).
func NewSearcher[P any](g solve.Game[P], db *solve.NimberDB, s Search) solve.Searcher[P] {
	opt := solve.Options{Capacity: s.Capacity, ChildrenCache: s.ChildrenCache, Seed: s.Seed,
		MaxIterations: s.MaxIterations, Progress: s.Progress, ProgressEvery: s.ProgressEvery}
	switch s.Algorithm {
	case PNS:
		return solve.NewPNS(g, db, opt)
	case PDFPN:
		opt.Threads = s.Threads
	}
	var d *solve.DFPN[P]
	if s.Checkpoint != nil {
		// The search calls the save, which reads the search: tied after.
		var save func(solve.Progress)
		opt.Checkpoint = func(p solve.Progress) { save(p) }
		opt.CheckpointEvery = s.SaveEvery
		d = solve.NewDFPN(g, db, opt)
		save = s.Checkpoint.attach(d)
		return d
	}
	return solve.NewDFPN(g, db, opt)
}
