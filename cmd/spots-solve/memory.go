package main

import (
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/internal/memguard"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// memoryFlagHelp is the help text of --memory.
const memoryFlagHelp = "memory for the whole process, e.g. 90MB, 512MiB, 2GiB: the transposition table, every cache and the values drawn on with --reuse are sized to it, the values of --db-in may take half of it (and --max-entries bounds their number), and a search that grows past it (pns's DAG, the Grundy values found) stops, saving its --state; " +
	"without it, what a table of --capacity entries asks for (about 90 MB for 10⁶ entries, as the reference solver uses), and a search stops before it outgrows what the machine lets the process use"

// parseSize reads a memory size: a number of bytes, or a number with one of
// the units kB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of
// 1024), case-insensitive, with an optional space; a bare K, M, G or T is
// taken as binary.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	units := map[string]float64{"": 1, "b": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
	mult, ok := units[unit]
	if !ok {
		return 0, fmt.Errorf("size %q: unknown unit %q (want kB, MB, GB, KiB, MiB or GiB)", s, unit)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("size %q: not a number of bytes", s)
	}
	b := v * mult
	if b < 1 || b >= math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q: out of range", s)
	}
	return int64(b), nil
}

// memoryPlan turns --memory and --capacity into the plan of a search: the
// budget given, or the one a table of --capacity entries asks for. With
// --memory, the values of --reuse and the taken bytes (the values of
// --db-in, once read: replanMemory) come off the budget first.
func memoryPlan(cfg config, taken int64) (solve.MemoryPlan, error) {
	threads := 1
	if cfg.algorithm == solve.SearchPDFPN {
		threads = cfg.threads
	}
	if cfg.memory == "" {
		capacity := cfg.capacity
		if !cfg.capacitySet {
			usable, _ := memguard.Usable()
			capacity = solve.ThreadCapacity(threads, usable)
		}
		return solve.PlanCapacity(capacity, threads), nil
	}
	budget, err := parseSize(cfg.memory)
	if err != nil {
		return solve.MemoryPlan{}, fmt.Errorf("--memory: %w", err)
	}
	if usable, what := memguard.Usable(); usable > 0 && uint64(budget) > usable {
		return solve.MemoryPlan{}, fmt.Errorf("--memory %s: more than the %s this process may use: %s; give at most --memory %dMB",
			cfg.memory, memguard.BytesText(float64(usable)), what, usable/1e6)
	}
	// The values drawn on (--reuse) live beside the table: they come off
	// the budget first.
	drawn, err := certify.PoolBytesOf(cfg.game, cfg.reuse)
	if err != nil {
		return solve.MemoryPlan{}, fmt.Errorf("--reuse: %w", err)
	}
	if drawn > 0 && drawn >= budget-solve.MinMemory {
		return solve.MemoryPlan{}, fmt.Errorf("--memory %s: the certificates of --reuse take about %d MiB of it, which leaves less than the minimum of %d MiB for the search (give more memory, or reuse fewer certificates)", cfg.memory, drawn>>20, solve.MinMemory>>20)
	}
	plan, err := solve.PlanMemory(budget-drawn-taken, threads)
	if err != nil {
		return plan, fmt.Errorf("--memory %s: %w", cfg.memory, err)
	}
	// What was taken off lives on the heap beside the search's own: the
	// heap may hold the whole budget but the table.
	plan.Limit += taken + drawn
	if cfg.capacitySet {
		if plan, err = plan.WithCapacity(cfg.capacity, threads); err != nil {
			return plan, fmt.Errorf("--capacity %d with --memory %s: %w", cfg.capacity, cfg.memory, err)
		}
	}
	return plan, nil
}

// replanMemory makes the plan of --memory again once the values of
// --db-in, dbBytes of them, are read: they live beside the table, as
// --reuse's do, and come off the budget first. Without --memory the plan
// is the table's, and stays.
func replanMemory(cfg config, dbBytes int64) (solve.MemoryPlan, error) {
	if cfg.memory == "" || dbBytes == 0 {
		return cfg.plan, nil
	}
	plan, err := memoryPlan(cfg, dbBytes)
	if err != nil {
		return plan, fmt.Errorf("with the %s that the values of --db-in take: %w", memguard.BytesText(float64(dbBytes)), err)
	}
	return plan, nil
}

// heapLimit keeps the Go heap's soft limit (runtime/debug.SetMemoryLimit)
// for the searches whose memory the plan bounds, so that the collector
// works hard only when the heap nears the budget. (The game's cache is
// sized by the plan where it is made: sproutsRules.)
//
// With --memory the limit is the budget less the table, the values drawn
// on and read included. Without it the plan is a table's and its caches',
// and the Grundy values the run holds (drawn on with --reuse, read with
// --db-in or a checkpoint, found by the search) live on the heap beside
// them: the limit grows with them, twice their size, the room the
// collector's default pace leaves a heap. A limit that left them out kept
// the collector running without pause: `spots-solve --reuse corpus/certs`
// made 1,857 iterations a second on a child of 0*45 (155 MB heap, a
// collection every 60 ms), against 4,690 with room for its 786,000 values.
type heapLimit struct {
	plan   solve.MemoryPlan
	follow bool  // the limit grows with the values held
	set    int64 // the limit last given to the runtime
}

// valueHeapBytes is the room a Grundy value held needs on the heap: twice
// what it takes (certify.PoolEntryBytes, an estimate that counts a value
// drawn on twice, in the pool and in the database).
const valueHeapBytes = 2 * certify.PoolEntryBytes

// newHeapLimit applies the limit of cfg's plan, with room for the values db holds.
// It returns nil (and sets nothing) for the searches the plan does not
// bound.
func newHeapLimit(cfg config, db *solve.NimberDB) *heapLimit {
	if cfg.algorithm != solve.SearchDFPN && cfg.algorithm != solve.SearchPDFPN {
		return nil
	}
	h := &heapLimit{plan: cfg.plan, follow: cfg.memory == "", set: cfg.plan.Limit}
	debug.SetMemoryLimit(h.set)
	h.values(db.Len())
	return h
}

// values raises the limit to make room for n values held, when it follows
// them; it never lowers it.
func (h *heapLimit) values(n int) {
	if h == nil || !h.follow {
		return
	}
	if want := h.plan.Limit + int64(n)*valueHeapBytes; want > h.set {
		debug.SetMemoryLimit(want)
		h.set = want
	}
}

// sproutsRules is the game of the run's Sprouts searches: the rules, with
// the run's cache of canonical codes (cfg.lands, sized by the plan), which
// a search made again after its values failed to back a result shares
// with the one it replaces.
func sproutsRules(cfg config) sprouts.Rules {
	return sprouts.Rules{Cache: cfg.lands}
}

// memoryGuard returns the bytes past which a solve stops (the pipeline's
// Memory): the whole of --memory when it is given, else what the process
// may use (the least of the machine's memory, the cgroup's limit and the
// rlimits; 0 where none is known), so that a search that outgrows the
// machine stops with its checkpoint saved instead of crashing the runtime.
func memoryGuard(cfg config) uint64 {
	if cfg.memory != "" {
		if budget, err := parseSize(cfg.memory); err == nil && budget > 0 {
			return uint64(budget)
		}
	}
	usable, _ := memguard.Usable()
	return usable
}

// memoryLimitWhat names the limit memoryGuard set, for the message of a
// search it stopped.
func memoryLimitWhat(cfg config) string {
	if cfg.memory != "" {
		return "--memory " + cfg.memory
	}
	_, what := memguard.Usable()
	return "what this process may use: " + what
}
