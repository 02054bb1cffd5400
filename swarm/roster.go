package swarm

import (
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// roster is the master's membership and epochs: the groups it knows (as
// members: their solvers, when each was last heard from, its epoch), the
// groups it banned, the latest epoch, whether the solve is over, and the
// exchange clock of the audit trail. It is the first of the master's
// locks (see Master).
type roster struct {
	mu      sync.Mutex
	members map[string]*member
	banned  map[string]bool
	// epoch is the latest epoch, of all groups or one (member.epoch).
	epoch int
	// finished: the root's outcome passed its audit, groups are told to
	// stop.
	finished bool
	// seq counts the exchanges taken: the clock by which the audit trail
	// orders values, deliveries, reads and claims.
	seq uint64
	// slots is the sum of the members' solvers, cores of their solvers
	// times their threads, and size the number of members: written with
	// mu held, read without it wherever a job's length or the utilisation
	// needs them.
	slots, cores, size atomic.Int64
}

// member is what the roster knows of one group.
type member struct {
	slots, cores int
	lastSeen     time.Time
	toldDone     bool // the group was told the solve is over
	// epoch is the group's epoch: the roster's at the last new epoch, or
	// later where the group alone was made to start afresh
	// (Master.restartEpoch).
	epoch int
	// forget holds the readHash of each value dropped that the group is
	// yet to be told to forget, where it keeps what it holds
	// (blameVerdict.kept): through a new epoch, or with none.
	forget map[uint64]bool
}

func newRoster() *roster {
	return &roster{members: map[string]*member{}, banned: map[string]bool{}}
}

// setSolvers records that member g has slots solvers of cores in all,
// and reports whether that changed the roster's sums. The sums, read on
// every exchange, are written only when they change. With mu held.
func (r *roster) setSolvers(g *member, slots, cores int) (changed bool) {
	if slots != g.slots {
		r.slots.Add(int64(slots - g.slots))
		changed = true
	}
	if cores != g.cores {
		r.cores.Add(int64(cores - g.cores))
		changed = true
	}
	g.slots, g.cores = slots, cores
	return changed
}

// remove forgets a member, its solvers with it. With mu held.
func (r *roster) remove(name string) {
	if g := r.members[name]; g != nil {
		r.setSolvers(g, 0, 0)
		delete(r.members, name)
		r.size.Store(int64(len(r.members)))
	}
}

// add makes a member of the group name, in the roster's epoch. With mu
// held.
func (r *roster) add(name string) *member {
	g := &member{epoch: r.epoch}
	r.members[name] = g
	r.size.Store(int64(len(r.members)))
	return g
}

// restartEpoch gives member g an epoch of its own, so that what it sends
// before it hears of it is ignored. With mu held.
func (r *roster) restartEpoch(g *member) {
	r.epoch++
	g.epoch = r.epoch
	g.forget = nil
}

// takeForget returns, sorted, the values member g is to be told to
// forget, and forgets them. With mu held.
func (g *member) takeForget() []uint64 {
	if g.forget == nil {
		return nil
	}
	out := slices.Sorted(maps.Keys(g.forget))
	g.forget = nil
	return out
}

// unheard returns the number of members not yet told, since finish, that
// the solve is over.
func (r *roster) unheard() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, g := range r.members {
		if !g.toldDone {
			n++
		}
	}
	return n
}
