package solve

import "fmt"

// MemoryPlan divides one memory budget between the parts of a search that
// grow with it. A search run with it (Capacity and ChildrenCache in its
// Options, GameCache given to the game's own cache, Limit to the Go
// runtime) stays near the budget; what no plan bounds is the nimber
// database, which only grows, and the search's path.
type MemoryPlan struct {
	Budget        int64 // the whole budget, bytes
	Capacity      int   // transposition-table entries
	ChildrenCache int64 // bytes for the cache of children
	GameCache     int64 // bytes for the game's own caches (canonical forms)
	Limit         int64 // a soft limit for the Go heap (runtime/debug.SetMemoryLimit)
}

// Shares of a budget. The rest (a fifth) is left for the nimber database,
// the text of the positions the table holds, the runtime and the
// collector's slack.
const (
	tableShare    = 0.45
	childrenShare = 0.20
	gameShare     = 0.15
)

// MinMemory is the smallest budget PlanMemory accepts.
const MinMemory = 16 << 20

// PlanMemory divides budget bytes for a search with the given number of
// threads. A budget of about 90 MB gives a sequential search a table of
// 10⁶ entries, as the reference solver uses.
func PlanMemory(budget int64, threads int) (MemoryPlan, error) {
	if budget < MinMemory {
		return MemoryPlan{}, fmt.Errorf("memory budget %d bytes is below the minimum of %d MiB", budget, MinMemory>>20)
	}
	perEntry := TableBytes(ttWays, threads) / ttWays
	p := MemoryPlan{
		Budget:        budget,
		Capacity:      int(float64(budget) * tableShare / float64(perEntry)),
		ChildrenCache: int64(float64(budget) * childrenShare),
		GameCache:     int64(float64(budget) * gameShare),
		// The binary's code and the runtime's own structures are not heap.
		Limit: budget - min(budget/8, 12<<20),
	}
	return p, nil
}
