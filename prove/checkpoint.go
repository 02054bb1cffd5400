package prove

import (
	"context"
	"errors"

	"github.com/spots-dev/spots/internal/checkpoint"
	"github.com/spots-dev/spots/solve"
)

// Question is what a checkpointed search is about, as its checkpoint
// records it: a checkpoint of another question is refused on resume.
type Question struct {
	Root      string          // the canonical text of the root
	Heap      uint32          // the nim heap beside it (0 with Nimber)
	Nimber    bool            // the search finds the root's Grundy value, not the outcome
	Algorithm solve.Algorithm // the search, for people reading the checkpoint
	Capacity  int             // its table's entries, for people reading the checkpoint
	Version   string          // the build that saves it
}

// ErrNoCheckpoint is wrapped by Checkpoint.Resume when the directory holds
// no checkpoint.
var ErrNoCheckpoint = checkpoint.ErrNone

// Checkpoint is where one DFPN or PDFPN search is saved as it runs and
// resumed from in a later process, so that hours of search survive a
// crash, a Ctrl-C or a timeout. The pipeline decides when it is written:
// every Search.SaveEvery while the search runs (NewSearcher) and when a
// solve stops (Pipeline.Solve). Each save replaces the previous one whole:
// a crash at any moment leaves the last complete save.
//
// A checkpoint is input, not truth: what a search resumed from one finds
// is reported only once the checker derives it from the rules (Resumed).
type Checkpoint struct {
	saver *checkpoint.Saver
}

// NewCheckpoint returns the checkpoint of a search of q kept in dir (made
// when first saved). log, if set, is given a line after each save, a
// failed save (which does not stop the search) and a resume. Temporary
// files that a save killed in an earlier run left in dir are removed now.
func NewCheckpoint(dir string, q Question, log func(line string)) *Checkpoint {
	base := checkpoint.Manifest{Position: q.Root, Heap: q.Heap, Nimber: q.Nimber,
		Algorithm: q.Algorithm, Capacity: q.Capacity, Version: q.Version}
	return &Checkpoint{saver: checkpoint.NewSaver(dir, base, nil, log)}
}

// Dir is the directory the search is saved into.
func (c *Checkpoint) Dir() string { return c.saver.Dir }

// Resume loads the checkpoint of dir (which may differ from Dir: a search
// resumed from one place and saved in another) into the search that
// NewSearcher made with this checkpoint, before it searches. A checkpoint of another question is refused, and so is a
// damaged one (its files not those its manifest names, too large, two
// values for one position); an error wrapping ErrNoCheckpoint says there
// is none. The end of ctx stops it.
func (c *Checkpoint) Resume(ctx context.Context, dir string) error {
	if c.saver.Search == nil {
		return errors.New("resume: no search saves into this checkpoint (give it to NewSearcher first)")
	}
	_, err := c.saver.Resume(ctx, dir)
	return err
}

// Forget drops what Resume learnt of earlier runs: the search starts again
// from nothing (after the checkpoint's values failed to back a result).
func (c *Checkpoint) Forget() { c.saver.Forget() }

// Runs is the number of earlier runs of the search that the checkpoint
// resumed holds (0 for a search not resumed).
func (c *Checkpoint) Runs() int { return c.saver.Base.Runs }

// Totals returns the iterations and seconds of search over all runs,
// this one's counted up to now with iterations (a snapshot of the search).
func (c *Checkpoint) Totals(iterations uint64) (its uint64, seconds float64) {
	return c.saver.Totals(iterations)
}

// save writes the search now; p is a snapshot of it.
func (c *Checkpoint) save(p solve.Progress) { c.saver.Save(p) }

// attach makes s the search the checkpoint saves and returns the save
// function a search calls as it runs.
func (c *Checkpoint) attach(s checkpoint.Search) func(solve.Progress) {
	c.saver.Search = s
	return c.saver.Save
}
