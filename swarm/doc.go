// Package swarm solves a Sprouts position with PNS-PDFPN across machines:
// one master keeps a proof-number DAG of the top of the game and hands its
// most-proving leaves out as jobs; worker groups (one per machine) run
// PDFPN (or DFPN) on them for a few thousand iterations at a time and send
// back what they learned, with every Grundy value they proved; the master
// merges the values, forwards them to the other groups, and grows its DAG.
//
// The package is layered:
//
//   - dag.go: the master DAG: PNS with Grundy numbers, lock-aware proof
//     numbers (a leaf is locked while it is a job), expansion from a
//     worker's report;
//   - plan.go: which leaves go out first: those of the proof of the
//     outcome the root looks like having that the numbers make the most
//     likely, then alternatives; proofwork.go: where a simulation's work
//     went, on that proof or off it;
//   - master.go: jobs, their cycles and leases, Grundy-number sharing
//     through one shared log read by each group from its own cursor, the
//     exchange a group makes each cycle (reports parsed and checked before
//     the lock is taken, the values to send copied out after it is let go);
//   - park.go: a group the master has no job for waits at the master,
//     which hands it the next free leaf, instead of polling it;
//   - pace.go: the master measures its load and, when it is high, asks for
//     reports less often, so that a thousand solvers do not wait in line;
//   - group.go: a worker group: solvers sharing one nimber database, jobs
//     kept on the solver that ran them before (its table is warm);
//   - http.go, cluster.go: the transport between processes: memberlist for
//     membership (encrypted gossip), HTTP with HMAC-signed requests for
//     jobs, Arrow IPC streams for Grundy values;
//   - audit.go: the master's checks of the values it was sent: each value
//     remembers its sender; a solved root is reported only after the
//     certificate built from the master's database has been verified, and
//     when it does not verify (or values contradict each other) the master
//     solves the suspects itself, drops the wrong values with everything
//     that may rest on them, bans their senders and solves on;
//   - server.go, memory.go: the bounds of the master's HTTP server
//     (timeouts, connections) and of what a process may allocate;
//   - status.go, status_page.go, status_http.go, metrics.go: what the
//     master shows of a run, read-only: a status page, JSON and Prometheus
//     metrics, copied under the master's lock and rendered outside it;
//   - sim.go, simcache.go, simcpu_*.go: the same master and groups in one
//     process under a deterministic clock counted in iterations, to plan
//     past one machine; the master's CPU time per exchange is measured as
//     it runs and charged against a real solver's iteration on the
//     position simulated.
//
// A worker is never trusted: a request is authenticated by its headers
// before its body is read and is accepted once; what a worker sends is
// checked before it is believed.
package swarm
