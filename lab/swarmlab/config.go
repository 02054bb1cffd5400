package swarmlab

import (
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/swarm"
)

// MaxWorkers bounds SimConfig.Workers: each holds Params.Grouping tables
// in this machine's memory.
const MaxWorkers = 4096

// SimConfig describes a simulated swarm: Workers groups of Params.Grouping
// solvers, and what the master's work costs.
type SimConfig struct {
	Workers int
	// Costs are the CPU time the master's work takes, and Iteration the CPU
	// time of one iteration of a real solver on the position simulated
	// (SequentialBaseline measures it), both in microseconds of one
	// machine: an exchange is charged Costs over Iteration iterations of
	// virtual time. With zero costs the master is free.
	Costs     MasterCosts
	Iteration float64
	// Progress, if set, is called every few seconds of real time with the
	// virtual time and the master's counters.
	Progress func(now uint64, st swarm.MasterStats)
	// Procs is how many groups' cycles run at once on this machine (0:
	// GOMAXPROCS). It changes how long a simulation takes, never what it
	// measures: a cycle depends only on its group and the reply that
	// started it, and the master takes the groups' reports in order of
	// virtual time whatever order their cycles finish in.
	Procs int
}

// MasterCosts are what the master's work under its lock costs, in
// microseconds of CPU: an exchange costs Exchange, plus Report for every
// report it carries. What an exchange does besides (the Grundy values it
// merges and propagates, the jobs it ends and hands out) comes with its
// reports, and is counted in Report on average. The values it sends back
// are copied out after the lock is let go, on the cores of the groups'
// requests, and cost nothing here.
type MasterCosts struct {
	Exchange float64 `json:"exchange_us"`
	Report   float64 `json:"report_us"`
}

// DefaultCosts are the master's costs a simulation charges unless told
// otherwise: what the master's work under its lock was measured to cost
// on a 2-core AMD EPYC VM (SimResult.ExchangeLockSeconds), rounded up.
func DefaultCosts() MasterCosts {
	return MasterCosts{Exchange: 50, Report: 15}
}

// ticks returns the cost of an exchange carrying reports in ticks of the
// virtual clock, an iteration costing iteration µs.
func (c MasterCosts) ticks(reports int, iteration float64) uint64 {
	if iteration <= 0 {
		return 0
	}
	return uint64((c.Exchange+c.Report*float64(reports))/iteration*simTick + 0.5)
}

// SimResult is what a simulation measured, in the paper's terms.
type SimResult struct {
	Workers int           `json:"workers"` // groups (SimConfig.Workers)
	Outcome solve.Outcome `json:"outcome"`
	Time    uint64        `json:"time"`    // virtual time to solve the root, in iterations
	TIt     uint64        `json:"t_it"`    // iterations of all workers
	TGN     int           `json:"t_gn"`    // entries of the master's nimber database
	MNodes  int           `json:"m_nodes"` // nodes of the master DAG
	WNodes  float64       `json:"w_nodes"` // mean table entries per solver at the end
	// Util is the mean over groups of the share of their solvers' time
	// spent in jobs, from the group's first job to the end of the solve:
	// a solver is idle between the end of its job's cycle and the start of
	// its next one (the group's exchange, its wait in line at the master,
	// or a leaf not free yet).
	Util float64 `json:"util"`
	// Iterating is the share of the cores' time spent on iterations:
	// T-It over cores × Time. It is below Util by the solve's first
	// moments, before every group has a job, and by each cycle counted
	// at least one iteration long. Speedup = cores × Iterating / search
	// overhead.
	Iterating  float64           `json:"iterating"`
	Waited     float64           `json:"waited"` // mean share of a solver's time spent waiting at the master for a free leaf (the rest of idle: in line for exchanges)
	Master     swarm.MasterStats `json:"master"`
	Seconds    float64           `json:"seconds"`     // real time the simulation took
	MasterBusy uint64            `json:"master_busy"` // virtual time the master spent on exchanges
	// What the simulation's exchanges really cost on the machine that ran
	// it, in CPU time: the mean of one Master.Exchange (no transport) and
	// of its part under the master's lock (the serial part, which a
	// simulation charges to the master), and the mean number of reports
	// an exchange carried: MasterCosts as this machine shows them.
	// IterationSeconds is the mean CPU time of a simulated worker's
	// iteration, cheaper than a real one: simulated solvers share one
	// children cache.
	ExchangeSeconds     float64 `json:"exchange_cpu_seconds"`
	ExchangeLockSeconds float64 `json:"exchange_lock_cpu_seconds"`
	ReportsPerExchange  float64 `json:"reports_per_exchange"`
	IterationSeconds    float64 `json:"iteration_cpu_seconds"`
	// ProofWork splits the iterations the master was reported by whether
	// they went on the proof of the root its DAG holds (unset if the root
	// was not solved).
	ProofWork ProofWork `json:"proof_work"`
}

// simTick is the simulated clock's unit: a thousandth of an iteration, so
// that an exchange may cost less than one iteration.
const simTick = 1000

// simIdleRetry is how long, in ticks, a worker waits before it asks again
// when the master neither had a job for it nor let it wait for one.
const simIdleRetry = simTick

// progressEvery is how often, in real time, a simulation shows progress.
const progressEvery = 5 * time.Second
