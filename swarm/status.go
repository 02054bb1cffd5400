package swarm

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/spots-dev/spots/solve"
)

// StatusOptions configures a Status.
type StatusOptions struct {
	// Position is the position being solved, as the page shows it.
	Position string
	// Members returns the gossip's view of the swarm (Member.Members); nil
	// when there is none.
	Members func() []MemberInfo
	// Interval is the first interval between two samples (0: 5 s); it
	// doubles each time the samples fill MaxSamples.
	Interval time.Duration
	// MaxSamples bounds the samples kept (0: 720; at least 4).
	MaxSamples int
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Status watches a master for its status page, its JSON and its metrics.
// It only reads the master: each report is a snapshot taken under the
// master's locks (a copy of its counters and of its groups, nothing
// rendered) and made into HTML, JSON or metrics outside it; a snapshot is
// taken at most once every snapshotMaxAge however many clients read.
// Its methods are safe for concurrent use.
type Status struct {
	m     *Master
	opts  StatusOptions
	start time.Time

	refresh  sync.Mutex // held while a snapshot is taken for Report
	mu       sync.Mutex // guards the fields below
	samples  []sample
	interval time.Duration
	cached   *StatusReport
}

// snapshotMaxAge is how long a report is served again before a new
// snapshot of the master is taken.
const snapshotMaxAge = 500 * time.Millisecond

// NewStatus returns a Status of m with no sample yet.
func NewStatus(m *Master, opts StatusOptions) *Status {
	if opts.Interval <= 0 {
		opts.Interval = 5 * time.Second
	}
	if opts.MaxSamples <= 0 {
		opts.MaxSamples = 720
	}
	opts.MaxSamples = max(opts.MaxSamples, 4)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Status{m: m, opts: opts, start: opts.Now(), interval: opts.Interval}
}

// sample is the master's state at one time, as the status page plots it.
type sample struct {
	Time          time.Time `json:"time"`
	Workers       int       `json:"workers"` // groups the master knows
	Slots         int       `json:"slots"`
	JobsOut       int       `json:"jobs_out"`
	Iterations    uint64    `json:"iterations"`
	Nodes         int       `json:"nodes"`
	RootPN        uint64    `json:"root_pn"`
	RootDN        uint64    `json:"root_dn"`
	Nimbers       int       `json:"grundy_numbers"` // values in the master's database
	NimbersShared int       `json:"grundy_numbers_shared"`
	// Utilisation is the share of the slot time between the previous
	// sample and this one during which a slot held a job (the first
	// sample's covers the time since the first exchange).
	Utilisation float64 `json:"utilisation"`
	// The master's time integrals (slot-seconds, busy slot-seconds) at
	// this sample, from which Utilisation is derived.
	slotTime, busyTime float64
}

// workerStatus is one worker group on the status page: what the master
// knows of it (slots, jobs, last exchange) joined with what the gossip
// says (state, address, meta).
type workerStatus struct {
	Name     string     `json:"name"`
	Slots    int        `json:"slots"`
	JobsOut  int        `json:"jobs_out"`
	LastSeen *time.Time `json:"last_seen,omitempty"` // its last exchange; nil if it has made none the master remembers
	// SinceSeen is the seconds since LastSeen (-1 without one).
	SinceSeen float64 `json:"since_seen_seconds"`
	Gossip    string  `json:"gossip,omitempty"` // the gossip's state of it; "" if the gossip does not list it
	Addr      string  `json:"addr,omitempty"`   // its gossip address
	Grouping  int     `json:"grouping,omitempty"`
	Threads   int     `json:"threads,omitempty"`
	Version   string  `json:"version,omitempty"`
}

// timeLeft is the status page's guess of the time left.
type timeLeft struct {
	Available bool    `json:"available"`
	Seconds   float64 `json:"seconds,omitempty"` // when Available: the time left
	Method    string  `json:"method"`
	Reason    string  `json:"reason,omitempty"` // when not Available: why
}

// estimateMethod says how Estimate is made.
const estimateMethod = "a least-squares line through min(root pn, root dn) over the newest third of the samples (at least 3, 30 s), extended to zero; " +
	"none while that number is under 16 (a few leaves left can take any time) or the line fits its fall badly (r² under 0.5); " +
	"proof numbers are not monotone, so this is a hint, not a bound"

// StatusReport is the status of a swarm's master: GET /status.json.
type StatusReport struct {
	Position string    `json:"position,omitempty"`
	Now      time.Time `json:"now"`
	Started  time.Time `json:"started"`
	// Outcome is the root's: "W", "L" or "unknown" in JSON; Finished says
	// the outcome passed its audit and the groups are told to stop.
	Outcome  solve.Outcome `json:"outcome"`
	Finished bool          `json:"finished"`
	Stats    MasterStats   `json:"stats"`
	Nimbers  int           `json:"grundy_numbers"` // values in the master's database
	// GossipMembers counts the members the gossip holds alive or suspect,
	// the master included.
	GossipMembers  int            `json:"gossip_members"`
	Workers        []workerStatus `json:"workers"`
	SampleInterval float64        `json:"sample_interval_seconds"`
	Samples        []sample       `json:"samples"`
	Estimate       timeLeft       `json:"estimate"`
	// Events are the master's latest events (at most 64), oldest first:
	// groups that joined, expired, were lost, re-synchronised or were
	// banned. Stats.Events counts them all.
	Events []event `json:"events"`
}

// masterView is what a status report reads from the master besides its
// Stats, under the roster's and the work's locks.
type masterView struct {
	groups             []workerStatus
	slotTime, busyTime float64
	finished           bool
	events             []event
}

// statusView copies, under the locks, the master's groups (with their jobs
// out) and its time integrals brought up to now. It changes nothing the
// solve depends on.
func (m *Master) statusView() masterView {
	r, w := m.members, m.work
	r.mu.Lock()
	defer r.mu.Unlock()
	w.mu.Lock()
	out := make(map[string]int, len(r.members))
	for _, j := range w.jobs {
		out[j.group]++
	}
	w.mu.Unlock()
	v := masterView{finished: r.finished, events: m.eventsNow()}
	v.slotTime, v.busyTime = m.tally.read(m.now())
	for name, g := range r.members {
		seen := g.lastSeen
		v.groups = append(v.groups, workerStatus{Name: name, Slots: g.slots, JobsOut: out[name], LastSeen: &seen})
	}
	return v
}

// Sample records a sample of the master now if the sampling interval has
// passed since the last one. When MaxSamples are kept, every other one is
// dropped and the interval doubles: the samples always cover the whole
// run, more coarsely as it grows.
func (s *Status) takeSample() {
	now := s.opts.Now()
	s.mu.Lock()
	due := len(s.samples) == 0 || now.Sub(s.samples[len(s.samples)-1].Time) >= s.interval
	s.mu.Unlock()
	if !due {
		return
	}
	st, v := s.m.Stats(), s.m.statusView()
	smp := sample{Time: now, Workers: st.Groups, Slots: st.Slots, JobsOut: st.Open, Iterations: st.Iterations, Nodes: st.Nodes,
		RootPN: st.RootPN, RootDN: st.RootDN, Nimbers: s.m.DB().Len(), NimbersShared: st.NimbersShared,
		slotTime: v.slotTime, busyTime: v.busyTime}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.samples = append(s.samples, smp)
	if len(s.samples) > s.opts.MaxSamples {
		kept := s.samples[:0]
		for i, x := range s.samples {
			if i%2 == 0 || i == len(s.samples)-1 {
				kept = append(kept, x)
			}
		}
		s.samples = kept
		s.interval *= 2
	}
	utilisations(s.samples)
}

// utilisations sets each sample's Utilisation from the integrals.
func utilisations(samples []sample) {
	var slot, busy float64
	for i := range samples {
		x := &samples[i]
		x.Utilisation = 0
		if ds := x.slotTime - slot; ds > 0 {
			x.Utilisation = (x.busyTime - busy) / ds
		}
		slot, busy = x.slotTime, x.busyTime
	}
}

// Run samples the master every second (takeSample keeps those due) until ctx
// ends.
func (s *Status) Run(ctx context.Context) {
	s.takeSample()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.takeSample()
		}
	}
}

// Report returns the master's status now (or as it was at most
// snapshotMaxAge ago). The report is the caller's: it shares nothing with
// the master or with other reports.
func (s *Status) report() StatusReport {
	if r, ok := s.fresh(s.opts.Now()); ok {
		return r
	}
	// One snapshot at a time: readers that find the cache stale together
	// wait for the first one's.
	s.refresh.Lock()
	defer s.refresh.Unlock()
	now := s.opts.Now()
	if r, ok := s.fresh(now); ok {
		return r
	}
	s.mu.Lock()
	samples, interval := append([]sample(nil), s.samples...), s.interval
	s.mu.Unlock()
	st, v := s.m.Stats(), s.m.statusView()
	var members []MemberInfo
	if s.opts.Members != nil {
		members = s.opts.Members()
	}
	outcome := s.m.Outcome()
	r := StatusReport{Position: s.opts.Position, Now: now, Started: s.start, Outcome: outcome,
		Finished: v.finished, Stats: st, Nimbers: s.m.DB().Len(), GossipMembers: len(members),
		Workers: joinMembers(v.groups, members, now), SampleInterval: interval.Seconds(), Samples: samples,
		Estimate: estimate(samples, outcome != solve.Unknown), Events: v.events}
	s.mu.Lock()
	s.cached = &r
	s.mu.Unlock()
	return r.clone()
}

// fresh returns the cached report if it is less than snapshotMaxAge old.
func (s *Status) fresh(now time.Time) (StatusReport, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.cached; c != nil && !now.Before(c.Now) && now.Sub(c.Now) < snapshotMaxAge {
		return c.clone(), true
	}
	return StatusReport{}, false
}

// clone copies the slices of a report, so that callers may keep it.
func (r StatusReport) clone() StatusReport {
	r.Workers = append([]workerStatus(nil), r.Workers...)
	r.Samples = append([]sample(nil), r.Samples...)
	r.Events = append([]event(nil), r.Events...)
	return r
}

// joinMembers adds the gossip's workers to the master's groups (a worker
// the gossip lists but the master has not heard from, or the reverse,
// appears once with what is known) and sorts them by name.
func joinMembers(groups []workerStatus, members []MemberInfo, now time.Time) []workerStatus {
	byName := make(map[string]int, len(groups))
	for i := range groups {
		byName[groups[i].Name] = i
	}
	for _, mi := range members {
		if mi.Role != "worker" {
			continue
		}
		i, ok := byName[mi.Name]
		if !ok {
			groups = append(groups, workerStatus{Name: mi.Name})
			i = len(groups) - 1
			byName[mi.Name] = i
		}
		w := &groups[i]
		w.Gossip, w.Addr, w.Grouping, w.Threads, w.Version = mi.State, mi.Addr, mi.Grouping, mi.Threads, mi.Version
	}
	for i := range groups {
		groups[i].SinceSeen = -1
		if t := groups[i].LastSeen; t != nil {
			groups[i].SinceSeen = math.Max(0, now.Sub(*t).Seconds())
		}
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Name < groups[j].Name })
	return groups
}

// The estimate is withheld when it would mean nothing. A proof number
// counts the leaves that must still be solved below the root, not the
// work each takes: while it is large, its steady fall is an average over
// many leaves and says something of the time left; once it is small (the
// proof hangs on a few leaves) the next step may take a second or the
// whole run, and a line through the last steps said "about 3 s" with
// 100 s left and the root's proof number at 1. Nor is a line extended
// that does not fit the fall.
const (
	minEstimateLeaves = 16  // the root's smaller proof number below which no estimate is given
	minEstimateFit    = 0.5 // the r² under which the fall is too uneven to extend
)

// estimate guesses the time left from the samples (see estimateMethod).
func estimate(samples []sample, solved bool) timeLeft {
	e := timeLeft{Method: estimateMethod}
	if solved {
		e.Available = true
		return e
	}
	tail := samples[len(samples)-len(samples)/3:]
	if len(tail) < 3 || tail[len(tail)-1].Time.Sub(tail[0].Time) < 30*time.Second {
		e.Reason = "too few samples yet"
		return e
	}
	t0 := tail[0].Time
	var n, sx, sy, sxx, sxy, syy float64
	for _, x := range tail {
		v := float64(min(x.RootPN, x.RootDN))
		if v >= float64(solve.Inf) {
			e.Reason = "the root's proof numbers are infinite"
			return e
		}
		t := x.Time.Sub(t0).Seconds()
		n, sx, sy, sxx, sxy, syy = n+1, sx+t, sy+v, sxx+t*t, sxy+t*v, syy+v*v
	}
	last := tail[len(tail)-1]
	if left := min(last.RootPN, last.RootDN); left < minEstimateLeaves {
		e.Reason = fmt.Sprintf("the root's smaller proof number is %d: too few leaves are left for their fall to tell the time the rest takes", left)
		return e
	}
	slope := (n*sxy - sx*sy) / (n*sxx - sx*sx)
	if !(slope < 0) {
		e.Reason = "the root's smaller proof number is not falling"
		return e
	}
	// r² of the line: how much of the variation of the proof number the
	// steady fall explains.
	if r2 := (n*sxy - sx*sy) * (n*sxy - sx*sy) / ((n*sxx - sx*sx) * (n*syy - sy*sy)); !(r2 >= minEstimateFit) {
		e.Reason = fmt.Sprintf("the root's smaller proof number falls too unevenly to extend (r² %.2f of the line, under %.2f)", r2, minEstimateFit)
		return e
	}
	left := float64(min(last.RootPN, last.RootDN)) / -slope
	if math.IsInf(left, 0) || math.IsNaN(left) || left > 1e9 {
		e.Reason = "the root's smaller proof number falls too slowly to tell"
		return e
	}
	e.Available, e.Seconds = true, left
	return e
}
