// Package swarmlab is the swarm's laboratory: it runs the master and the
// worker groups of package swarm in one process under a deterministic
// clock counted in iterations (Simulate), to see how a swarm of up to a
// few thousand cores would search, on one machine; it charges the master
// a cost model (MasterCosts) measured on a real one, and splits the work
// by where it went, on the proof of the root or off it (ProofWork).
// lab/benchswarm drives it.
//
// The master and the groups are the product's, unchanged: the laboratory
// gives the master its clock (swarm.WithClock) and watches its DAG
// (swarm.WithObserver), and drives the groups' solvers itself, a cycle at
// a time (swarm.Group.Place, Cycle, Release). Only the clock and the link
// between them are simulated.
package swarmlab
