package swarm

import (
	"cmp"
	"fmt"
	"sync"
	"time"
)

// eventKind names what happened to a group, as the master's events say.
type eventKind string

// The kinds of event a master records.
const (
	// eventJoin: a group the master did not know (a new one, or one it
	// had forgotten) exchanged.
	eventJoin eventKind = "join"
	// eventExpire: a group was silent longer than its lease: the master
	// took its jobs back and forgot it.
	eventExpire eventKind = "expire"
	// eventLoss: the gossip declared a group dead, or it left: the master
	// took its jobs back and forgot it.
	eventLoss eventKind = "loss"
	// eventResync: a group came back running jobs the master had taken
	// back (its lease had run out), or without jobs the master had sent
	// it (a reply that never arrived): each side dropped what the other
	// no longer holds.
	eventResync eventKind = "resync"
	// eventBan: the master banned a group for wrong Grundy values or
	// outcomes its values do not back.
	eventBan eventKind = "ban"
)

// eventKinds lists every kind, in the order the status page and
// /metrics show them.
var eventKinds = []eventKind{eventJoin, eventExpire, eventLoss, eventResync, eventBan}

// event is something that happened to a group, as the master logs it
// (Master.Log), keeps it (Master.eventsNow) and counts it
// (MasterStats.Events).
type event struct {
	Time  time.Time `json:"time"`
	Kind  eventKind `json:"kind"`
	Group string    `json:"group"`
	// Jobs is the number of jobs taken back or dropped with the event.
	Jobs int `json:"jobs,omitempty"`
	// Detail says more: the group's solvers, how long it was silent, why
	// it was banned.
	Detail string `json:"detail,omitempty"`
}

// verbs say what each kind of event did to its group.
var verbs = map[eventKind]string{eventJoin: "joined", eventExpire: "expired", eventLoss: "lost",
	eventResync: "re-synchronised", eventBan: "banned"}

// text writes the event as the master logs it: "worker-a expired:
// silent for 31s, longer than its lease of 30s; 2 jobs taken back".
func (e event) text() string {
	s := e.Group + " " + cmp.Or(verbs[e.Kind], string(e.Kind))
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// maxEvents bounds the events a master keeps; older ones are counted,
// not kept.
const maxEvents = 64

// eventLog is a master's recent events and their counts: a leaf lock of
// the master (see Master).
type eventLog struct {
	mu    sync.Mutex
	ring  [maxEvents]event
	n     int // events recorded in all
	count map[eventKind]int
}

// record adds an event, and logs it. Called with any of the master's
// chained locks held (or none), it logs with the event log's lock held, so
// that the log tells events in the order the master keeps them.
func (m *Master) record(kind eventKind, group string, jobs int, detail string, args ...any) {
	if len(args) > 0 {
		detail = fmt.Sprintf(detail, args...)
	}
	e := event{Time: m.now(), Kind: kind, Group: group, Jobs: jobs, Detail: detail}
	ev := &m.events
	ev.mu.Lock()
	defer ev.mu.Unlock()
	ev.ring[ev.n%maxEvents] = e
	ev.n++
	if ev.count == nil {
		ev.count = map[eventKind]int{}
	}
	ev.count[kind]++
	if m.Log != nil {
		m.Log("%s", e.text())
	}
}

// eventsNow returns the master's latest events (at most 64), oldest
// first.
func (m *Master) eventsNow() []event {
	ev := &m.events
	ev.mu.Lock()
	defer ev.mu.Unlock()
	k := min(ev.n, maxEvents)
	out := make([]event, 0, k)
	for i := ev.n - k; i < ev.n; i++ {
		out = append(out, ev.ring[i%maxEvents])
	}
	return out
}

// eventCounts copies the counts of the events by kind.
func (m *Master) eventCounts() map[string]int {
	m.events.mu.Lock()
	defer m.events.mu.Unlock()
	out := make(map[string]int, len(eventKinds))
	for _, k := range eventKinds {
		out[string(k)] = m.events.count[k]
	}
	return out
}
