package swarm

import (
	"cmp"
	"fmt"
	"time"
)

// EventKind names what happened to a group, as the master's events say.
type EventKind string

// The kinds of event a master records.
const (
	// EventJoin: a group the master did not know (a new one, or one it
	// had forgotten) exchanged.
	EventJoin EventKind = "join"
	// EventExpire: a group was silent longer than its lease: the master
	// took its jobs back and forgot it.
	EventExpire EventKind = "expire"
	// EventLoss: the gossip declared a group dead, or it left: the master
	// took its jobs back and forgot it.
	EventLoss EventKind = "loss"
	// EventResync: a group came back running jobs the master had taken
	// back (its lease had run out), or without jobs the master had sent
	// it (a reply that never arrived): each side dropped what the other
	// no longer holds.
	EventResync EventKind = "resync"
	// EventBan: the master banned a group for wrong Grundy values or
	// outcomes its values do not back.
	EventBan EventKind = "ban"
)

// EventKinds lists every kind, in the order the status page and
// /metrics show them.
var EventKinds = []EventKind{EventJoin, EventExpire, EventLoss, EventResync, EventBan}

// Event is something that happened to a group, as the master logs it
// (Master.Log), keeps it (Master.Events) and counts it
// (MasterStats.Events).
type Event struct {
	Time  time.Time `json:"time"`
	Kind  EventKind `json:"kind"`
	Group string    `json:"group"`
	// Jobs is the number of jobs taken back or dropped with the event.
	Jobs int `json:"jobs,omitempty"`
	// Detail says more: the group's solvers, how long it was silent, why
	// it was banned.
	Detail string `json:"detail,omitempty"`
}

// verbs say what each kind of event did to its group.
var verbs = map[EventKind]string{EventJoin: "joined", EventExpire: "expired", EventLoss: "lost",
	EventResync: "re-synchronised", EventBan: "banned"}

// String writes the event as the master logs it: "worker-a expired:
// silent for 31s, longer than its lease of 30s; 2 jobs taken back".
func (e Event) String() string {
	s := e.Group + " " + cmp.Or(verbs[e.Kind], string(e.Kind))
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// maxEvents bounds the events a master keeps; older ones are counted,
// not kept.
const maxEvents = 64

// eventLog is a master's recent events and their counts.
type eventLog struct {
	ring  [maxEvents]Event
	n     int // events recorded in all
	count map[EventKind]int
}

// record adds an event, and logs it. With the master's lock held.
func (m *Master) record(kind EventKind, group string, jobs int, detail string, args ...any) {
	if len(args) > 0 {
		detail = fmt.Sprintf(detail, args...)
	}
	e := Event{Time: m.now(), Kind: kind, Group: group, Jobs: jobs, Detail: detail}
	ev := &m.events
	ev.ring[ev.n%maxEvents] = e
	ev.n++
	if ev.count == nil {
		ev.count = map[EventKind]int{}
	}
	ev.count[kind]++
	if m.Log != nil {
		m.Log("%s", e)
	}
}

// Events returns the master's latest events (at most 64), oldest first.
func (m *Master) Events() []Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.recentEvents()
}

// recentEvents is Events with the lock held.
func (m *Master) recentEvents() []Event {
	ev := &m.events
	k := min(ev.n, maxEvents)
	out := make([]Event, 0, k)
	for i := ev.n - k; i < ev.n; i++ {
		out = append(out, ev.ring[i%maxEvents])
	}
	return out
}

// eventCounts copies the counts of the events by kind. With the lock held.
func (m *Master) eventCounts() map[string]int {
	out := make(map[string]int, len(EventKinds))
	for _, k := range EventKinds {
		out[string(k)] = m.events.count[k]
	}
	return out
}
