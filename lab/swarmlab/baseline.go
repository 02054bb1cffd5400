package swarmlab

import (
	"context"
	"runtime"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/swarm"
)

// SequentialBaseline solves root with sequential DFPN as one worker's
// solver would (same table size), the baseline of speedup and search
// overhead, and returns the CPU time the solve took too: the cost of a
// real solver's iteration on this machine, against which the master's
// costs are charged.
func SequentialBaseline(ctx context.Context, root sprouts.Position, params swarm.Params) (uint64, solve.Outcome, time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := cpuTime()
	d := solve.NewDFPN(sprouts.Rules{Cache: sprouts.NewCache(sprouts.DefaultCacheBytes)}, nil, solve.Options{Capacity: params.Capacity, Seed: params.Seed})
	out := d.Solve(ctx, root, 0)
	return d.Stats().Iterations, out, cpuTime() - cpu0
}
