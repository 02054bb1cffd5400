package swarm

import (
	"fmt"
	"time"

	"github.com/spots-dev/spots/solve"
)

// Params configure a swarm solve. The names and their meanings follow the
// paper "Massively Parallel Proof-Number Search for Impartial Games and
// Beyond" (Čížek, Balko, Schmid), whose PNS-PDFPN this package
// implements. DefaultParams gives values that suit a swarm of any size:
// the master switches its jobs' length by itself once the swarm is large
// (LargeSwarm). The master reads the job fields (Iterations to
// LargeIterations, Seed, Lease, Probation, InitNodes, Pace); a worker the solver
// fields (Threads to Capacity, Seed, Lease), which belong to the machine
// it runs on.
type Params struct {
	// Iterations is the most iterations a job runs before the master
	// expands its leaf with what the job found, counted per PDFPN thread
	// (as solve.DFPN.Job counts them). A long job lets a solver's table
	// pay off and costs the master few exchanges; a short one lets the
	// master move the swarm to where the proof needs it sooner. The
	// paper's 100,000 did the least work in simulation up to 64 cores.
	Iterations uint64
	// Updates is the iterations between a job's reports (a cycle), per
	// PDFPN thread: how often the master hears of a job's proof numbers.
	// Every report costs the master time under the lock its exchanges take in
	// turn (the work's, see Master); when that
	// load is high the master asks for fewer (Pace), never for more.
	Updates uint64
	// LargeSwarm is the number of cores (the solvers of the groups the
	// master knows times their PDFPN threads) from which the swarm is
	// large: its jobs last LargeIterations (longer while the master's
	// load asks for longer cycles, up to Iterations), and a group's next
	// job is taken below the leaf of the job it ended, where its solver's
	// table knows the positions, while that part still bears on the root.
	// Hundreds of cores on long jobs spread over alternatives the proof
	// never needs; on a few cores short jobs that follow dig into one part
	// of the tree and multiply the work. 0: never large.
	LargeSwarm int
	// LargeIterations is a large swarm's iterations of a job, per PDFPN
	// thread, while the master keeps up; its jobs report at least that
	// often.
	LargeIterations uint64

	// Threads is the PDFPN threads of each solver; 0 for sequential DFPN
	// (deterministic). The paper's best is sequential solvers, one a
	// core, up to 32 cores a machine, and PDFPN threads past that.
	Threads int
	// Spread is how far a solver's PDFPN threads keep apart
	// (solve.Options.Spread; 0: solve.DefaultSpread).
	Spread uint64
	// Grouping is the solvers of one worker group (one process, one
	// machine), which share one nimber database and one exchange with the
	// master. More solvers a group share more values at once and cost the
	// master fewer exchanges; the paper's best is the machine's cores.
	Grouping int
	// Capacity is each solver's transposition-table entries: a job that
	// outgrows its table loses what it learned below its leaf.
	Capacity int
	// Seed breaks ties between equal children at random, in the master
	// and the solvers; 0 keeps them in the heuristic order
	// (deterministic).
	Seed uint64
	// Lease is how long a group may be silent before the master takes its
	// jobs back and hands their leaves out again; a group exchanges at
	// least every third of it. Short leases recover a dead worker's work
	// sooner and take it from a slow one that is only late.
	Lease time.Duration
	// Probation is how long a group on probation (one that has not yet
	// reported a job) has to report the first cycle of a job it was
	// handed (Lease if shorter), however often it exchanges meanwhile:
	// twice as long after each it let run out, up to Lease. A newcomer
	// that takes jobs and never reports them holds them that long, not a
	// lease. 0 trusts every group from its first exchange, as a swarm of
	// known machines, or a simulation, may. See the package's doc,
	// Newcomers.
	Probation time.Duration
	// InitNodes is the DAG's size, in nodes, that the master grows by its
	// own expansions before it hands out jobs: enough leaves for the first
	// groups, each a job's worth of the top of the tree.
	InitNodes int
	// paceConfig says how the master paces the groups' reports to its load.
	Pace paceConfig
}

// DefaultParams are the defaults: the paper's best settings with the
// child-ordering heuristic up to 255 cores (jobs of 100,000 iterations
// reported every 1,000, one sequential solver a group), and from 256
// cores jobs of 500 that follow, each of which did the least work in
// simulation on its side of the line. A worker process is given its
// Grouping, Threads and Capacity on its command line.
func DefaultParams() Params {
	return Params{Iterations: 100_000, Updates: 1000, LargeSwarm: 256, LargeIterations: 500,
		Threads: 0, Grouping: 1, Capacity: 100_000, Lease: 30 * time.Second, Probation: 5 * time.Second, InitNodes: 100, Pace: defaultPace()}
}

// paceConfig configures how the master paces the groups' reports to its load:
// the share of time it spends on exchanges under the lock they take in turn
// (the work's), a moving
// average over the latest exchanges. Every report costs it that time; a
// thousand solvers reporting every Updates iterations can ask for more
// than all of it, and then each waits in line for its next cycle.
//
// When the load passes High, a master some of whose groups hold several
// solvers first asks them to gather (ExchangeReply.Gather): to wait up to
// Gather of a cycle, once one of their solvers has ended one, for the
// others, so that their reports come in fewer exchanges. If the load stays
// high it stretches the cycles (the jobs' next cycles run more
// iterations), down to Updates again when the load falls under Low, and
// stops asking to gather once the cycles are back to Updates. A job still
// runs Iterations in all, but in a large swarm, whose short jobs lengthen
// with their cycles: a job of one cycle can report less often no other
// way.
//
// Longer cycles thin out only the reports that come at a cycle's end; a
// job that solves its leaf reports at once, whatever its cycle. So the
// stretch is set for the part of the load that stretching removes: to
// bring it to what Target leaves of the load after the rest, and to Floor
// at least. Cycles more than twice as long as that asks for are shortened,
// whatever the rest of the load, by at most Step at a time.
type paceConfig struct {
	// Target is the load a change of the cycles' length aims for.
	Target float64
	// High is the load above which the master asks groups to gather, then
	// stretches the cycles; Low the load under which it shortens them and
	// stops asking to gather. Between the two it changes nothing, so that
	// a load near one mark does not swing the pace back and forth.
	High, Low float64
	// Floor is the least load the stretch brings the reports at cycles'
	// ends down to, however much of the load the rest takes: without it a
	// master loaded by early ends would stretch cycles without bound.
	Floor float64
	// Gather is the share of a cycle a loaded master asks groups to
	// gather for (at most MaxGather). Gathering leaves a group's solvers
	// idle a little; reporting apart, a group of 32 solvers sends up to 32
	// exchanges a cycle.
	Gather float64
	// Weight is the weight of the newest exchange in the load's moving
	// averages: small weights ignore bursts and are slow to follow a
	// change.
	Weight float64
	// Every is the fewest reports between two changes of pace. A change
	// waits for as many reports as there are jobs out too: every job's
	// next cycle then ran at the new pace, and the load shows it (a burst,
	// such as every group asking for its first job at once, is not taken
	// for the load to come).
	Every int
	// Step is the most one change shortens the cycles by (a factor), so
	// that a wrong reading costs one step, not a swing back to Updates.
	Step uint64
}

// defaultPace is the pace of DefaultParams: a target of half the
// master's time, raised at 60 % and lowered under 30 %, an eighth of a
// cycle's gathering (of 1/32 to 1/2, the share that did the least work
// at 256 cores in groups of 32), averages over about 256 exchanges.
func defaultPace() paceConfig {
	return paceConfig{Target: 0.5, High: 0.6, Low: 0.3, Floor: 0.5 / 4, Gather: 1.0 / 8, Weight: 1.0 / 256, Every: 256, Step: 4}
}

// MaxGather bounds Pace.Gather and what a group does of
// ExchangeReply.Gather: a group waits at most a whole cycle.
const MaxGather = 1

// check returns an error naming the first parameter out of its range.
func (p Params) check() error {
	switch {
	case p.Updates == 0 || p.Iterations == 0:
		return fmt.Errorf("iterations (%d) and updates (%d) must be positive", p.Iterations, p.Updates)
	case p.Grouping < 1 || p.Grouping > MaxGrouping:
		return fmt.Errorf("grouping %d: want 1 to %d", p.Grouping, MaxGrouping)
	case p.Threads < 0 || p.Threads > solve.MaxThreads:
		return fmt.Errorf("threads %d: want 0 to %d", p.Threads, solve.MaxThreads)
	case p.Spread > solve.MaxSpread:
		return fmt.Errorf("spread %d: want 0 to %d", p.Spread, solve.MaxSpread)
	case p.Lease <= 0:
		return fmt.Errorf("lease %v: want a positive duration", p.Lease)
	case p.Probation < 0:
		return fmt.Errorf("probation %v: want a positive duration, or 0 to trust every group", p.Probation)
	case p.LargeSwarm < 0:
		return fmt.Errorf("large swarm %d: want 0 (never) or a number of cores", p.LargeSwarm)
	case p.LargeSwarm > 0 && p.LargeIterations == 0:
		return fmt.Errorf("large swarm %d: its iterations must be positive", p.LargeSwarm)
	}
	return p.Pace.check()
}

func (c paceConfig) check() error {
	switch {
	case !(c.Low > 0 && c.Low < c.High && c.High <= 1):
		return fmt.Errorf("pace: low %g and high %g: want 0 < low < high ≤ 1", c.Low, c.High)
	case !(c.Target > 0 && c.Target <= 1) || !(c.Floor > 0 && c.Floor <= c.Target):
		return fmt.Errorf("pace: target %g and floor %g: want 0 < floor ≤ target ≤ 1", c.Target, c.Floor)
	case !(c.Gather >= 0 && c.Gather <= MaxGather):
		return fmt.Errorf("pace: gather %g: want 0 to %d", c.Gather, MaxGather)
	case !(c.Weight > 0 && c.Weight <= 1):
		return fmt.Errorf("pace: weight %g: want more than 0, at most 1", c.Weight)
	case c.Every < 1 || c.Step < 2:
		return fmt.Errorf("pace: every %d and step %d: want at least 1 and 2", c.Every, c.Step)
	}
	return nil
}

// large reports whether the swarm is large now (Params.LargeSwarm): the
// groups the master knows have that many cores.
func (m *Master) large() bool {
	return m.params.LargeSwarm > 0 && int(m.members.cores.Load()) >= m.params.LargeSwarm
}

// iterations is the most iterations a job runs now before its leaf is
// expanded. Once the swarm is large, jobs are short; but a short job is
// one cycle or few, and the master can ask for fewer reports only by
// making cycles longer, so a large swarm's jobs last at least a cycle at
// the master's pace.
func (m *Master) iterations() uint64 {
	if m.large() {
		return min(m.params.Iterations, max(m.params.LargeIterations, m.cycle()))
	}
	return m.params.Iterations
}

// updates is the iterations between a job's reports at an idle master's
// pace: Params.Updates, or a large swarm's job when that is shorter.
func (m *Master) updates() uint64 {
	if m.large() {
		return min(m.params.Updates, m.params.LargeIterations)
	}
	return m.params.Updates
}

// cycle is the iterations between a job's reports at the master's pace.
func (m *Master) cycle() uint64 { return m.updates() * m.pacer.stretched() }

// maxStretch bounds the pace's stretch: a cycle is never longer than the
// longest job.
func (m *Master) maxStretch() uint64 { return max(1, m.params.Iterations/m.updates()) }

// follow reports whether a group's next job is taken below its last: in a
// large swarm.
func (m *Master) follow() bool { return m.large() }

// cycles is how many reports a job makes now before its leaf is expanded.
func (m *Master) cycles() int { return max(1, int(m.iterations()/m.updates())) }
