package swarm

import (
	"sync"

	"github.com/spots-dev/spots/format"
)

// trail is the audit trail of the values (see audit): what each group was
// sent and what it read of it, the disputes and claims waiting to be
// checked, the exchange the epoch began after, and what the audits and
// checks found. Each value's origin is kept with the values (ledger). It
// is the last of the master's chained locks (see Master).
type trail struct {
	mu         sync.Mutex
	epochSeq   uint64 // the last exchange before the epoch began
	deliveries map[string][]delivery
	reads      map[string]*readLog // what each group read of what it was sent, this epoch
	disputes   []dispute
	// claims are the outcomes jobs reported that settled their leaves,
	// waiting to be checked against the values (claims.go); firstClaim
	// is the exchange of each group's first claim of the epoch; overflow
	// the groups with disputes not recorded (maxDisputes) since the last
	// check.
	claims     []claim
	firstClaim map[string]uint64
	overflow   map[string]bool
	// proof is the certificate the last audit that proved the root's
	// outcome built (Certificate).
	proof *format.Certificate
	count trailCounts
}

// trailCounts are the counters of MasterStats that the trail keeps.
type trailCounts struct {
	audits, banned, dropped, claims, unbacked int
}

func newTrail() *trail {
	return &trail{deliveries: map[string][]delivery{}, reads: map[string]*readLog{},
		firstClaim: map[string]uint64{}, overflow: map[string]bool{}}
}

// dispute records the disputes of an exchange, as many as there is room
// for (maxDisputes); a group with more is not heard until the next check.
// With mu held.
func (t *trail) dispute(disputes []dispute) {
	for _, d := range disputes {
		if len(t.disputes) < maxDisputes {
			t.disputes = append(t.disputes, d)
		} else {
			t.overflow[d.group] = true
		}
	}
}

// deliver records that group was sent the values of d, and counts them
// in its read log. With mu held.
func (t *trail) deliver(group string, d delivery) {
	t.deliveries[group] = append(t.deliveries[group], d)
	t.readLogOf(group).sent += len(d.log) + len(d.pending)
}

// takeDisputes returns the disputes recorded since the last call. With mu
// held.
func (t *trail) takeDisputes() []dispute {
	d := t.disputes
	t.disputes = nil
	return d
}
