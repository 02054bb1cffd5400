package swarm

import (
	"maps"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spots-dev/spots/solve"
)

// The master's leaf locks: each guards one small concern and is taken last,
// with or without any of the master's other locks held, and nothing is
// locked while one is held (see Master).

// dropped holds the readHash of every value an audit or a check dropped,
// until a group sends it again: a group that reports reading one rests on
// what was dropped, and starts afresh.
type dropped struct {
	mu   sync.Mutex
	gone map[uint64]bool
	// n is len(gone), written with mu held when it changes: an exchange
	// reads it without the lock, and finds most often that nothing was
	// dropped, or nothing is left to regain.
	n atomic.Int64
}

// readAny reports whether any of read is a value dropped.
func (d *dropped) readAny(read []uint64) bool {
	if len(read) == 0 || d.n.Load() == 0 {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return readAny(read, d.gone)
}

// regained takes the values of fresh, new to the master, out of the
// values dropped: a value dropped and sent again (a true value a culprit
// sent first) is one a group may rest on.
func (d *dropped) regained(fresh []solve.NimberEntry) {
	if len(fresh) == 0 || d.n.Load() == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, e := range fresh {
		delete(d.gone, readHash(e))
	}
	d.count()
}

// regainedShared is regained for entries of the shared log.
func (d *dropped) regainedShared(fresh []sharedValue) {
	if len(fresh) == 0 || d.n.Load() == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, v := range fresh {
		delete(d.gone, readHash(v.e))
	}
	d.count()
}

// count publishes len(gone), if it changed. With mu held.
func (d *dropped) count() {
	if n := int64(len(d.gone)); n != d.n.Load() {
		d.n.Store(n)
	}
}

// add adds the values of gone to the values dropped.
func (d *dropped) add(gone map[uint64]bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.gone == nil {
		d.gone = map[uint64]bool{}
	}
	maps.Copy(d.gone, gone)
	d.count()
}

// tally keeps the time integrals behind MasterStats.Utilisation: slot
// time and busy time, each brought up to date with the solvers and jobs as
// they were until a change (set) or a reading (account).
type tally struct {
	mu                 sync.Mutex
	at                 time.Time
	slots, jobs        int
	slotTime, busyTime float64
}

// account adds the time since its last call to the integrals, with the
// solvers and jobs as they were during that time (no solvers, no slot
// time: waiting for the first worker costs nothing). With mu held.
func (t *tally) account(now time.Time) {
	if !t.at.IsZero() && now.After(t.at) {
		dt := now.Sub(t.at).Seconds()
		t.slotTime += dt * float64(t.slots)
		t.busyTime += dt * float64(min(t.jobs, t.slots))
	}
	t.at = now
}

// setSlots brings the integrals up to now and records that the groups
// have slots solvers from now on.
func (t *tally) setSlots(now time.Time, slots int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.account(now)
	t.slots = slots
}

// setJobs brings the integrals up to now and records that jobs are out
// from now on.
func (t *tally) setJobs(now time.Time, jobs int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.account(now)
	t.jobs = jobs
}

// read brings the integrals up to now and returns them.
func (t *tally) read(now time.Time) (slotTime, busyTime float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.account(now)
	return t.slotTime, t.busyTime
}

// pacer is the master's pace (its load meter and the cycles' length) and
// the time it spent on exchanges. The stretch and the share of a cycle to
// gather, read on every exchange, are published as words that readers
// only read.
type pacer struct {
	mu      sync.Mutex
	pace    pace
	busy    float64       // seconds spent on exchanges (MasterStats.BusySeconds)
	stretch atomic.Uint64 // pace.stretch, at least 1
	gather  atomic.Uint64 // math.Float64bits of pace.gathering()
}

// observe adds an exchange to the pace (pace.observe) and to the busy
// time, and publishes the pace.
func (p *pacer) observe(now time.Time, busy time.Duration, reports int, paced float64, shape paceShape) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy += busy.Seconds()
	p.pace.observe(now, busy, reports, paced, shape)
	// Stored only when they change: every exchange reads them.
	if s := max(p.pace.stretch, 1); s != p.stretch.Load() {
		p.stretch.Store(s)
	}
	if g := math.Float64bits(p.pace.gathering()); g != p.gather.Load() {
		p.gather.Store(g)
	}
}

// stretched returns the cycles' stretch now (at least 1).
func (p *pacer) stretched() uint64 { return max(p.stretch.Load(), 1) }

// gathering returns the share of a cycle groups are asked to gather for.
func (p *pacer) gathering() float64 { return math.Float64frombits(p.gather.Load()) }

// read returns the pace's readings for MasterStats: the load, its paced
// part, the stretch, the share to gather, and the busy time.
func (p *pacer) read() (load, paced float64, stretch uint64, gather, busy float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pace.load(), p.pace.pacedLoad(), max(p.pace.stretch, 1), p.pace.gathering(), p.busy
}
