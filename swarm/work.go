package swarm

import (
	"slices"
	"sync"
	"time"

	"github.com/spots-dev/spots/solve"
)

// work is the master's jobs and what they work on: the DAG, the database
// of Grundy values with each value's origin, the jobs out and each
// group's share of them (its crew), probation, and the groups parked for a
// job. It is the second of the master's locks (see Master), and the one
// whose exchanges are serial: the rest of an exchange runs beside other
// exchanges' work.
type work struct {
	mu     sync.Mutex
	dag    *dag
	db     *solve.NimberDB
	jobs   map[string]*job
	crews  map[string]*crew
	ledger ledger
	// probation lends jobs to the groups that have not proved themselves.
	probation probation
	// parked are the groups without a job waiting for one, first come
	// first served (see Park).
	parked []*parkedGroup
	// done is closed once the DAG's root is solved (a new one after an
	// epoch reopened it).
	done  chan struct{}
	count workCounts
}

// workCounts are the counters of MasterStats that work keeps.
type workCounts struct {
	assigned, continued, expanded, expired, stale int
	iterations                                    uint64
	nimbersIn, malformed, expansions              int
}

// crew is a group's share of the work: its solvers, the jobs it holds and
// its probation.
type crew struct {
	slots int
	// jobs are the jobs the group holds, so that an exchange costs the
	// master in proportion to the group, not to the swarm.
	jobs map[string]*job
	// ended are the leaves of the group's jobs that ended in this
	// exchange, where (in a large swarm) its new jobs are looked for.
	ended []endedJob
	// proven is whether the master took in the report of one of its jobs
	// (or trusts every group: Params.Probation 0); till then the group is
	// on probation (probation.go), and trialLease is how long its next
	// trial may take, once it let one run out.
	proven     bool
	trialLease time.Duration
}

// ledger is where each value of the database came from: the group that
// sent it first and the exchange it came with (origin), and the other
// groups that sent it since (resent, see Master.noteKnown).
type ledger struct {
	origin map[string]valueOrigin
	resent map[string][]valueOrigin
}

func newWork(db *solve.NimberDB) *work {
	return &work{db: db, jobs: map[string]*job{}, crews: map[string]*crew{}, done: make(chan struct{}),
		ledger: ledger{origin: map[string]valueOrigin{}, resent: map[string][]valueOrigin{}}}
}

// crewOf returns group's crew, made on first use with the jobs held for
// the group (those of a group forgotten while it held them). With mu held.
func (w *work) crewOf(group string, trusted bool) *crew {
	c := w.crews[group]
	if c != nil {
		return c
	}
	c = &crew{jobs: map[string]*job{}, proven: trusted}
	for id, j := range w.jobs {
		if j.group == group {
			c.jobs[id] = j
		}
	}
	w.crews[group] = c
	return c
}

// checkDone closes done once the root is solved. With mu held.
func (w *work) checkDone() {
	if solved(w.dag.root) {
		select {
		case <-w.done:
		default:
			close(w.done)
		}
	}
}

// reopen makes a new done channel, if the old one was closed. With mu
// held.
func (w *work) reopen() {
	select {
	case <-w.done:
		w.done = make(chan struct{})
	default:
	}
}

// allValues returns every value of the database, and the latest exchange
// any of them arrived with, for a group to be sent all of them. With mu
// held.
func (w *work) allValues() ([]solve.NimberEntry, uint64) {
	out := make([]solve.NimberEntry, 0, w.db.Len())
	var arrived uint64
	w.db.Range(func(k string, v uint32) bool {
		out = append(out, solve.NimberEntry{Key: k, G: v})
		arrived = max(arrived, w.ledger.origin[k].seq)
		return true
	})
	return out, arrived
}

// arrival returns the latest exchange any of entries arrived with. With mu
// held.
func (w *work) arrival(entries []solve.NimberEntry) uint64 {
	var arrived uint64
	for _, e := range entries {
		arrived = max(arrived, w.ledger.origin[e.Key].seq)
	}
	return arrived
}

// takeLearned gives the values the DAG derived since the last call an
// origin (at exchange seq, where they have none), and returns them as
// entries of the shared log. With mu held.
func (w *work) takeLearned(seq uint64) []sharedValue {
	if len(w.dag.learned) == 0 {
		return nil
	}
	out := make([]sharedValue, len(w.dag.learned))
	for i, e := range w.dag.learned {
		o, ok := w.ledger.origin[e.Key]
		if !ok {
			o = valueOrigin{seq: seq}
			w.ledger.origin[e.Key] = o
		}
		out[i] = sharedValue{e: e, seq: o.seq}
	}
	w.dag.learned = nil
	return out
}

// noteKnown looks at the entries group sent, at exchange seq, that the
// master had already. Sent with the master's value by another group, it
// records group as another sender: a value that a liar sent first may also
// be an honest group's own derivation, on which that group's later values
// rest, and the audit keeps it if any of its senders is trusted (see
// drop). Sent with another value, one of the two is wrong: it returns a
// dispute, which the trail records for the next check or audit to settle
// by solving the position. With mu held.
func (w *work) noteKnown(group string, seq uint64, entries []solve.NimberEntry) []dispute {
	var disputes []dispute
	l := &w.ledger
	for _, e := range entries {
		o, ok := l.origin[e.Key]
		if !ok || o.group == group {
			continue
		}
		v, ok := w.db.Get(e.Key)
		if !ok {
			continue
		}
		if v != e.G {
			disputes = append(disputes, dispute{key: e.Key, group: group, g: e.G, seq: seq})
			continue
		}
		also := l.resent[e.Key]
		if len(also) >= maxResent || slices.ContainsFunc(also, func(a valueOrigin) bool { return a.group == group }) {
			continue
		}
		l.resent[e.Key] = append(also, valueOrigin{group: group, seq: seq})
	}
	return disputes
}
