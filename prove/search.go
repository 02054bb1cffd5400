package prove

import (
	"fmt"
	"time"

	"github.com/spots-dev/spots/solve"
)

// Search describes the search NewSearcher makes. The zero value of a field
// is solve's default.
type Search struct {
	// Algorithm is solve.SearchDFPN, SearchPDFPN or SearchPNS; any other
	// (the swarm's, none) is an error of NewSearcher.
	Algorithm solve.Algorithm
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
// (a new database when nil). An algorithm it does not make is an error:
// a search is never chosen in the stead of the one asked for.
func NewSearcher[P any](g solve.Game[P], db *solve.NimberDB, s Search) (solve.Searcher[P], error) {
	opt := solve.Options{Capacity: s.Capacity, ChildrenCache: s.ChildrenCache, Seed: s.Seed,
		MaxIterations: s.MaxIterations, Progress: s.Progress, ProgressEvery: s.ProgressEvery}
	switch s.Algorithm {
	case solve.SearchPNS:
		return solve.NewPNS(g, db, opt), nil
	case solve.SearchPDFPN:
		opt.Threads = s.Threads
	case solve.SearchDFPN:
	default:
		return nil, fmt.Errorf("the search %v is not one of dfpn, pdfpn or pns", s.Algorithm)
	}
	var d *solve.DFPN[P]
	if s.Checkpoint != nil {
		// The search calls the save, which reads the search: tied after.
		var save func(solve.Progress)
		opt.Checkpoint = func(p solve.Progress) { save(p) }
		opt.CheckpointEvery = s.SaveEvery
		d = solve.NewDFPN(g, db, opt)
		save = s.Checkpoint.attach(d)
		return d, nil
	}
	return solve.NewDFPN(g, db, opt), nil
}
