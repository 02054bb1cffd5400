package swarm

import (
	"math"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/spots-dev/spots/solve"
)

// metricSpec is one metric of the master: its name, help, type and how it
// is read from a status report.
type metricSpec struct {
	name, help string
	kind       prometheus.ValueType
	value      func(r *StatusReport) float64
}

// pnValue is a proof number as a metric: infinity is +Inf.
func pnValue(n uint64) float64 {
	if n == solve.Inf {
		return math.Inf(1)
	}
	return float64(n)
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// masterMetrics are the metrics /metrics serves besides the Go runtime's
// and the process's. Counters count since this master process started.
var masterMetrics = []metricSpec{
	{"spots_swarm_workers", "Worker groups the master knows (those that exchanged within the lease).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Groups) }},
	{"spots_swarm_gossip_members", "Members the master's gossip holds alive or suspect, the master included.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.GossipMembers) }},
	{"spots_swarm_slots", "Solvers of the worker groups the master knows.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Slots) }},
	{"spots_swarm_jobs_out", "Jobs held by worker groups now.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Open) }},
	{"spots_swarm_jobs_assigned_total", "Jobs handed out.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Assigned) }},
	{"spots_swarm_jobs_continued_total", "Job cycles continued on the same group.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Continued) }},
	{"spots_swarm_jobs_expanded_total", "Jobs finished and their leaves expanded.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Expanded) }},
	{"spots_swarm_jobs_expired_total", "Jobs taken back from silent or dead groups.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Expired) }},
	{"spots_swarm_reports_stale_total", "Reports for jobs the master no longer knows.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Stale) }},
	{"spots_swarm_reports_malformed_total", "Reports the master could not use.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Malformed) }},
	{"spots_swarm_exchanges_total", "Exchanges with worker groups.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Exchanges) }},
	{"spots_swarm_iterations_total", "Iterations reported by all groups (T-It).", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Iterations) }},
	{"spots_swarm_dag_nodes", "Nodes of the master's DAG (M-Nodes).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Nodes) }},
	{"spots_swarm_root_proof_number", "The root's proof number (+Inf once disproved).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return pnValue(r.Stats.RootPN) }},
	{"spots_swarm_root_disproof_number", "The root's disproof number (+Inf once proved).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return pnValue(r.Stats.RootDN) }},
	{"spots_swarm_nimbers", "Grundy values in the master's database.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.Nimbers) }},
	{"spots_swarm_nimbers_received_total", "Grundy values received from groups.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.NimbersIn) }},
	{"spots_swarm_nimbers_forwarded_total", "Grundy values forwarded to groups (one per value and receiving group).", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.NimbersShared) }},
	{"spots_swarm_utilisation_ratio", "Share of slot time, since the first exchange, during which a slot held a job.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return r.Stats.Utilisation }},
	{"spots_swarm_master_busy_seconds_total", "Time the master spent in exchanges.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return r.Stats.BusySeconds }},
	{"spots_swarm_master_load_ratio", "Share of time the master spends on exchanges under the work's lock, which they take in turn (moving average).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return r.Stats.Load }},
	{"spots_swarm_master_load_paced_ratio", "Part of the master's load spent on reports at the end of a full cycle, which longer cycles reduce (moving average).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return r.Stats.PacedLoad }},
	{"spots_swarm_report_every_iterations", "Iterations between a job's reports the master asks for now (more than --updates when it is loaded).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.Stats.ReportEvery) }},
	{"spots_swarm_gather_ratio", "Share of a cycle the master asks groups to wait for their other solvers before reporting (more than 0 when it is loaded).", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return r.Stats.Gather }},
	{"spots_swarm_audits_total", "Audits of a solved root.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Audits) }},
	{"spots_swarm_groups_banned", "Groups banned for sending wrong Grundy values or outcomes their values do not back.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Banned) }},
	{"spots_swarm_values_dropped_total", "Grundy values dropped as wrong or resting on wrong ones.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Dropped) }},
	{"spots_swarm_group_joins_total", "Events: worker groups that joined (new, or back after the master forgot them).", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Events[string(eventJoin)]) }},
	{"spots_swarm_group_expiries_total", "Events: worker groups silent longer than their lease, whose jobs were taken back.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Events[string(eventExpire)]) }},
	{"spots_swarm_group_losses_total", "Events: worker groups the gossip declared dead or that left, whose jobs were taken back.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Events[string(eventLoss)]) }},
	{"spots_swarm_group_resyncs_total", "Events: worker groups whose jobs the master and the group re-synchronised (jobs dropped or taken back).", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Events[string(eventResync)]) }},
	{"spots_swarm_group_bans_total", "Events: worker groups banned for wrong Grundy values or outcomes their values do not back.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Events[string(eventBan)]) }},
	{"spots_swarm_claims_total", "Outcomes reported by jobs that settled their leaf, each checked against the values.", prometheus.CounterValue,
		func(r *StatusReport) float64 { return float64(r.Stats.Claims) }},
	{"spots_swarm_solved", "1 once the root's outcome is known, else 0.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return boolValue(r.Outcome != solve.Unknown) }},
	{"spots_swarm_finished", "1 once the outcome passed its audit and the groups are told to stop, else 0.", prometheus.GaugeValue,
		func(r *StatusReport) float64 { return boolValue(r.Finished) }},
}

// metricNames returns the names of the master's own metrics, as /metrics
// serves them.
func metricNames() []string {
	names := make([]string, len(masterMetrics))
	for i, m := range masterMetrics {
		names[i] = m.name
	}
	return names
}

// statusCollector serves the master's metrics from one status report per
// scrape.
type statusCollector struct {
	s     *Status
	descs []*prometheus.Desc
}

func newStatusCollector(s *Status) *statusCollector {
	c := &statusCollector{s: s}
	for _, m := range masterMetrics {
		c.descs = append(c.descs, prometheus.NewDesc(m.name, m.help, nil, nil))
	}
	return c
}

// Describe implements prometheus.Collector.
func (c *statusCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *statusCollector) Collect(ch chan<- prometheus.Metric) {
	r := c.s.report()
	for i, m := range masterMetrics {
		ch <- prometheus.MustNewConstMetric(c.descs[i], m.kind, m.value(&r))
	}
}

// registry returns a new Prometheus registry (not the global one) holding
// the master's metrics (metricNames, read from a status report at each
// scrape) and the Go runtime's and the process's collectors.
func (s *Status) registry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(newStatusCollector(s), collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// MetricsHandler serves the master's metrics (and the Go runtime's and the process's) in the Prometheus text
// format (or another the scraper asks for). Every call makes a new
// registry; call it once per server.
func (s *Status) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.registry(), promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, MaxRequestsInFlight: 4})
}
