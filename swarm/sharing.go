package swarm

import (
	"sync"
	"sync/atomic"

	"github.com/spots-dev/spots/solve"
)

// sharing is how the master shares values: a log of every value new to it
// since the epoch began, in the order it arrived, and each group's
// mailbox (its place in the log and the values it is to be sent besides).
// Each group is sent the part of the log past its place (but its own
// values), so that sharing costs the master in proportion to what it
// sends, not to the number of groups. It is the third of the master's
// locks (see Master).
type sharing struct {
	mu    sync.Mutex
	log   []sharedValue
	boxes map[string]*mailbox
	// forwarded counts the values sent to groups (MasterStats
	// .NimbersShared), counted outside the lock.
	forwarded atomic.Int64
}

// mailbox is what a group is yet to be sent.
type mailbox struct {
	// pending holds values to send the group besides those of the log:
	// everything known when it joined, or when the epoch changed, or it
	// started afresh; arrived is the latest exchange any of them arrived
	// with.
	pending []solve.NimberEntry
	arrived uint64
	// cursor is how much of the log the group was sent.
	cursor int
}

func newSharing() *sharing { return &sharing{boxes: map[string]*mailbox{}} }

// boxOf returns group's mailbox, made on first use at the end of the log.
// With mu held.
func (s *sharing) boxOf(group string) *mailbox {
	b := s.boxes[group]
	if b == nil {
		b = &mailbox{cursor: len(s.log)}
		s.boxes[group] = b
	}
	return b
}

// resend makes group b be sent all: the values of all, of which the
// latest arrived with exchange arrived, and the log from its end on. With
// mu held.
func (s *sharing) resend(b *mailbox, all []solve.NimberEntry, arrived uint64) {
	b.pending, b.arrived, b.cursor = all, arrived, len(s.log)
}

// post appends entries, of group from ("" for the master's own), to the
// log. With mu held.
func (s *sharing) post(entries []sharedValue) {
	s.log = append(s.log, entries...)
}

// take takes what group is to be sent of the values and moves its cursor
// past it. The log is only ever appended to (a new epoch starts a new
// one), so the outbox can be read after mu is let go. It returns the
// delivery to record in the audit trail, as if the values were sent
// already (what the group proves from now on may rest on them), and
// whether there is one: none when the outbox holds only the group's own
// values. With mu held.
func (s *sharing) take(group string, b *mailbox, seq uint64) (outbox, delivery, bool) {
	out := outbox{pending: b.pending, log: s.log[b.cursor:len(s.log):len(s.log)]}
	arrived := b.arrived
	b.pending, b.arrived, b.cursor = nil, 0, len(s.log)
	// The log is in order of arrival: the last value not from the group
	// itself arrived last. The group's own fresh values, just appended,
	// are all it skips.
	others := len(out.pending) > 0
	for i := len(out.log) - 1; i >= 0; i-- {
		if v := out.log[i]; v.from != group {
			arrived, others = max(arrived, v.seq), true
			break
		}
	}
	return out, delivery{seq: seq, arrived: arrived, log: out.log, pending: out.pending}, others
}

// outbox is what a group is to be sent of the values: its pending values
// and a part of the log, read after the sharing's lock is let go.
type outbox struct {
	pending []solve.NimberEntry
	log     []sharedValue
}

// entries returns the values of the outbox, but those of the log that came
// from group itself.
func (o outbox) entries(group string) []solve.NimberEntry {
	out := make([]solve.NimberEntry, 0, len(o.pending)+len(o.log))
	out = append(out, o.pending...)
	for _, v := range o.log {
		if v.from != group {
			out = append(out, v.e)
		}
	}
	return out
}
