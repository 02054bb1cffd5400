package swarm

// Bounds on what a swarm (and a command that starts one) may be asked for:
// beyond them a typo or a hostile peer would make a process allocate
// without limit.
const (
	// MaxGrouping is the most solvers a group may have, and the most slots
	// the master believes a group claims: a group that declares more is
	// given jobs for MaxGrouping solvers only.
	MaxGrouping = 256
)
