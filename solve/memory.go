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

// Shares of a budget. The rest is left for the nimber database, the
// positions on the search's path, the runtime and the collector's slack.
// Small caches cost little speed (0*12: the same time with a tenth of the
// budget as with a quarter), an overfull heap a lot: a collector forever at
// its limit doubled the time of 0*12.
const (
	tableShare    = 0.45
	childrenShare = 0.12
	gameShare     = 0.10
)

// runtimeBytes is what a process takes beyond its heap and table: code,
// stacks, the runtime's own structures.
const runtimeBytes = 10 << 20

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
	}
	p.Limit = p.heapLimit(threads)
	return p, nil
}

// heapLimit is what the budget leaves the Go heap: the table's buckets are
// mapped outside it where the system allows (tt_mem_unix.go), but the locks
// and thread sets of a shared table are on the heap and count against the
// limit, so only the buckets (TableBytes of one thread) are taken off.
// Taking the locks off as well left PDFPN's collector running without
// pause at its limit (215 collections in 10 s of 0*15, against DFPN's
// 60).
func (p MemoryPlan) heapLimit(threads int) int64 {
	return max(p.Budget-int64(TableBytes(p.Capacity, 1))-runtimeBytes, p.Budget/4)
}

// PlanCapacity returns the plan whose table has capacity entries: the
// budget is what PlanMemory would need to give the table that much, so the
// caches grow with the table. It is the plan of a search sized by its
// table alone, as the reference solver's are.
func PlanCapacity(capacity, threads int) MemoryPlan {
	table := TableBytes(capacity, threads)
	budget := max(int64(float64(table)/tableShare)+1, MinMemory)
	p, _ := PlanMemory(budget, threads)
	p.Capacity = capacity
	p.Limit = p.heapLimit(threads)
	return p
}

// ThreadCapacity is the table a search with the given number of threads
// gets when the user names no size: DefaultCapacity entries a thread, as
// the threads of a PDFPN meet that many more positions, but no more than
// a plan (PlanCapacity) of a quarter of memory bytes allows (memory 0:
// unknown, no bound), and never less than DefaultCapacity.
func ThreadCapacity(threads int, memory uint64) int {
	threads = max(threads, 1)
	c := DefaultCapacity * threads
	if memory > 0 {
		for c > DefaultCapacity && uint64(PlanCapacity(c, threads).Budget) > memory/4 {
			c -= DefaultCapacity / 4
		}
	}
	return max(c, DefaultCapacity)
}

// WithCapacity returns the plan with its table set to capacity entries and
// the caches shrunk to what the rest of the budget allows; it fails when
// the table alone takes the budget's share of the caches and more.
func (p MemoryPlan) WithCapacity(capacity, threads int) (MemoryPlan, error) {
	table := int64(TableBytes(capacity, threads))
	planned := int64(float64(p.Budget) * (tableShare + childrenShare + gameShare))
	minCaches := int64(float64(p.Budget) * 0.05)
	rest := planned - table
	if rest < minCaches {
		fit := (planned - minCaches) / int64(TableBytes(ttWays, threads)/ttWays)
		return p, fmt.Errorf("a table of %d entries takes %d MiB, too much of a memory budget of %d MiB (at most %d entries fit)",
			capacity, table>>20, p.Budget>>20, fit)
	}
	share := float64(rest) / float64(p.ChildrenCache+p.GameCache)
	p.Capacity = capacity
	p.ChildrenCache = int64(float64(p.ChildrenCache) * share)
	p.GameCache = int64(float64(p.GameCache) * share)
	p.Limit = p.heapLimit(threads)
	return p, nil
}
