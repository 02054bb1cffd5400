package main

import (
	"github.com/spots-dev/spots/internal/searchstatus"
	"github.com/spots-dev/spots/swarm"
)

// swarmProgress are the figures of the master's progress line in
// --progress json.
type swarmProgress struct {
	JobsOut       int     `json:"jobs_out"`
	JobsDone      int     `json:"jobs_done"` // jobs whose leaf was expanded
	Workers       int     `json:"workers"`   // worker processes the gossip holds
	Utilisation   float64 `json:"utilisation"`
	GrundyNumbers int     `json:"grundy_numbers"` // values in the master's database
	Shared        int     `json:"grundy_numbers_shared"`
	Iterations    uint64  `json:"iterations"` // reported by all workers
	RootPN        *uint64 `json:"root_pn"`    // null: infinite
	RootDN        *uint64 `json:"root_dn"`
}

// swarmFigures returns the figures of the master's progress.
func swarmFigures(st swarm.MasterStats, workers, values int) swarmProgress {
	return swarmProgress{JobsOut: st.Open, JobsDone: st.Expanded, Workers: workers, Utilisation: st.Utilisation,
		GrundyNumbers: values, Shared: st.NimbersShared, Iterations: st.Iterations, RootPN: searchstatus.Finite(st.RootPN), RootDN: searchstatus.Finite(st.RootDN)}
}
