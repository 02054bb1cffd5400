package swarm

import (
	"time"

	"github.com/spots-dev/spots/solve"
)

// JobSpec is a job as a group receives it.
type JobSpec struct {
	ID            string `json:"id"`       // UUIDv7; a continued job keeps its id
	Position      string `json:"position"` // canonical text
	N             uint32 `json:"n"`
	MaxIterations uint64 `json:"max_iterations"`
	Cycle         int    `json:"cycle"`
	// After is the job of the same group whose leaf this one's lies
	// below (in a large swarm, Params.LargeSwarm): its solver's table
	// knows the part.
	After string `json:"after,omitempty"`
}

// Report is what a group sends back for a job after a cycle: a
// solve.Expansion with positions as canonical text.
type Report struct {
	ID         string        `json:"id"`
	Outcome    solve.Outcome `json:"outcome"` // in JSON "W", "L" or "unknown" while unsolved (earlier versions sent "")
	PN         uint64        `json:"pn"`
	DN         uint64        `json:"dn"`
	Folded     string        `json:"folded,omitempty"`
	FoldedN    uint32        `json:"folded_n,omitempty"`
	Sum        bool          `json:"sum,omitempty"`
	Merged     uint32        `json:"merged,omitempty"`
	Children   []childReport `json:"children,omitempty"`
	Iterations uint64        `json:"iterations"`
}

// childReport is one child couple of a Report.
type childReport struct {
	Position string `json:"position"`
	N        uint32 `json:"n"`
	PN       uint64 `json:"pn"`
	DN       uint64 `json:"dn"`
}

// ExchangeRequest is what a group sends each cycle: the reports of the jobs
// that completed a cycle and the Grundy values it found since its last
// exchange. Slots is the number of solvers of the group.
type ExchangeRequest struct {
	Group     string              `json:"group"`
	Slots     int                 `json:"slots"`
	Threads   int                 `json:"threads,omitempty"` // PDFPN threads per solver; 0 or 1: sequential DFPN
	Epoch     int                 `json:"epoch,omitempty"`   // the master's epoch the group last heard of
	Completed []Report            `json:"completed,omitempty"`
	Nimbers   []solve.NimberEntry `json:"-"` // sent as an Arrow IPC stream
	// Running lists the jobs whose cycles run in the group as it sends
	// the request (those of Completed aside), when Resync is set. The
	// master then takes back the jobs it handed the group that are in
	// neither list (a reply that never arrived), and answers in
	// ExchangeReply.Drop those of Running it no longer holds for the
	// group (its lease ran out while it was stopped or cut off), so that
	// both sides agree on the group's jobs after every exchange. Group.Run
	// always sends them; a caller that does not (a simulation) keeps the
	// jobs it was handed until it reports them or its lease runs out.
	Running []string `json:"running,omitempty"`
	Resync  bool     `json:"resync,omitempty"`
	// Read names the values the master sent that the group's solvers
	// looked up for the first time since its previous exchange, each by
	// readHash of its key and value; TracksReads says the group reports
	// them. A
	// value the group sends rests only on values it read by then: when
	// an audit finds a lie, it drops only what the group sent after it
	// read the lie (or a value resting on one). A group that does not
	// report its reads is taken to rest on every value it was sent.
	Read        []uint64 `json:"read,omitempty"`
	TracksReads bool     `json:"tracks_reads,omitempty"`
	// Afresh says the group forgot everything it learned since its last
	// exchange (told to keep what it held, it found it had read a value
	// of Forget meanwhile): the master sends it every value again.
	Afresh bool `json:"afresh,omitempty"`
}

// ExchangeReply gives a group its jobs (continued ones under their old id,
// and new ones for its idle solvers) and the Grundy values it has not seen.
type ExchangeReply struct {
	Master string `json:"master"` // the master process: a new one means the old one's values may be lost
	// Epoch changes when the master dropped values it had found wrong (and
	// those that may rest on them), or when this group alone may rest on
	// values dropped: a group that sees a new epoch forgets everything it
	// learned, and its jobs, and starts afresh (but see Kept).
	Epoch int `json:"epoch,omitempty"`
	// Lease is the master's Params.Lease: the group exchanges at least
	// every third of it (or of its own, if shorter), so that the master
	// does not take its jobs back while it works.
	Lease time.Duration       `json:"lease_ns,omitempty"`
	Jobs  []JobSpec           `json:"jobs,omitempty"`
	Done  bool                `json:"done,omitempty"` // the solve is over (its result audited): stop
	Delta []solve.NimberEntry `json:"-"`              // sent as an Arrow IPC stream
	// Drop lists the jobs of the request's Running that the master no
	// longer holds for the group: it stops them and forgets their
	// results.
	Drop []string `json:"drop,omitempty"`
	// Kept, with a new Epoch, says the group read none of the values
	// dropped nor any that may rest on them, and sent none of them: it
	// stops its jobs but keeps its values and tables, and is sent only
	// what it had not been. Without Kept, a new epoch makes it start
	// afresh. Forget names values the master dropped (each by readHash of
	// its key and value), for the group to forget: with Kept, or in an
	// epoch that goes on, when nothing the master or the groups held
	// rested on them.
	Kept   bool     `json:"kept,omitempty"`
	Forget []uint64 `json:"forget,omitempty"`
	// Unheard says the master did not take in the values of the request:
	// the group is on probation (it has not reported a job yet), and
	// sends them again with its next report.
	Unheard bool `json:"unheard,omitempty"`
	// Gather is the share of a cycle the master asks the group to wait,
	// once one of its solvers has ended one, for its others before it
	// reports (Pace.Gather): a loaded master asks for it before it asks for
	// longer cycles.
	Gather float64 `json:"gather,omitempty"`
}
