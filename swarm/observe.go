package swarm

import (
	"time"

	"github.com/spots-dev/spots/solve"
)

// A Clock is a master's time. The master reads Now for its jobs' leases,
// the utilisation and the pace, and takes the time an exchange kept it
// busy as Since(start), where start is what Now said when the exchange
// took the master's first lock (see Master). The default is the wall clock; a simulation
// gives a virtual one, on which an exchange costs what the simulation
// says it does (WithClock).
type Clock interface {
	Now() time.Time
	Since(start time.Time) time.Duration
}

// Couple names a couple of the master's DAG: a position, by its canonical
// key (sprouts.Position.Key; a sum of several lands has one too), plus a
// nim heap of N.
type Couple struct {
	Key string
	N   uint32
}

// An Observer watches a master's DAG grow and its jobs' work come in, for
// accounts the master does not keep itself (where a simulation's work
// went, on the proof or off it, say). Its methods are called with the
// work's lock held (see Master), in the order things happen; they must be quick and
// must not call the master.
type Observer interface {
	// Linked is called when child becomes a child of parent: when the
	// master expands a couple, when a job's report expands its leaf, and
	// when a sum moves on to its next component.
	Linked(parent, child Couple)
	// Worked is called for each report of a job that the master takes:
	// it ran iterations on leaf.
	Worked(leaf Couple, iterations uint64)
}

// A MasterOption changes a master from its defaults (NewMaster).
type MasterOption func(*Master)

// WithClock makes the master keep time by c instead of the wall clock.
func WithClock(c Clock) MasterOption { return func(m *Master) { m.clock = c } }

// WithObserver has o watch the master from its first expansion on.
func WithObserver(o Observer) MasterOption { return func(m *Master) { m.watch = o } }

// CoupleOutcome returns the outcome of couple c for its player to move as
// the master's DAG holds it now: Win or Loss once the DAG has solved it,
// Unknown while it is open or when the DAG has no such couple (a new epoch
// starts a new DAG).
func (m *Master) CoupleOutcome(c Couple) solve.Outcome {
	m.work.mu.Lock()
	defer m.work.mu.Unlock()
	v := m.work.dag.nodes[ckey{c.Key, c.N}]
	switch {
	case v == nil:
		return solve.Unknown
	case v.pn == 0:
		return solve.Win
	case v.dn == 0:
		return solve.Loss
	}
	return solve.Unknown
}
