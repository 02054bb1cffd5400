// Package memguard keeps a command within the memory it may use: Usable
// says how much that is (the machine, the cgroup, the rlimits),
// CheckCapacity refuses tables that cannot fit in it, and Watch stops a
// command's work before the process outgrows its budget (--memory, or
// Usable). A search plans its table and caches
// within the budget (solve.MemoryPlan), but some of what it holds grows
// with the search and no plan sizes in advance: the DAG of PNS, the
// database of Grundy values, a DFPN's path. Rather than let the Go runtime
// die of an allocation the machine refuses, with a stack dump and no saved
// work, the guard ends the work's context with an error that names the
// budget, so that the command stops as it does on a timeout: it saves its
// checkpoint and says what to do.
package memguard

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// ErrOverBudget is the cause of a context the guard ended: the process
// held more memory than its budget even after a garbage collection.
var ErrOverBudget = errors.New("over the memory budget")

// OverBudgetError says how much memory the process held when the guard
// ended its work, against what budget. It is ErrOverBudget (errors.Is).
type OverBudgetError struct {
	Budget uint64 // bytes
	Used   uint64 // bytes the Go runtime held from the system, less what it had returned
}

func (e *OverBudgetError) Error() string {
	return fmt.Sprintf("the process held %.1f MiB, over its memory budget of %.1f MiB", float64(e.Used)/(1<<20), float64(e.Budget)/(1<<20))
}

// Is makes an OverBudgetError match ErrOverBudget.
func (e *OverBudgetError) Is(target error) bool { return target == ErrOverBudget }

// Used returns the bytes of memory the Go runtime holds from the system
// (heap, stacks, its own metadata), less the heap it has returned: what
// the process's allocations cost, whether or not the pages were touched.
func Used() uint64 {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	total, released := s[0].Value.Uint64(), s[1].Value.Uint64()
	if released > total {
		return 0
	}
	return total - released
}

// Over says whether the process holds more than budget bytes after a
// garbage collection that returns what it frees to the system, and how
// much it holds. Garbage alone never makes it over: the collection runs
// only when the memory held is over the budget, before it decides.
func Over(budget uint64) (uint64, bool) {
	used := Used()
	if used <= budget {
		return used, false
	}
	debug.FreeOSMemory()
	used = Used()
	return used, used > budget
}

// Guard watches the memory of the process for one piece of work. Its zero
// value is not usable: make one with Watch.
type Guard struct {
	cancel context.CancelCauseFunc
	done   chan struct{}
	once   sync.Once
}

// Watch returns a context derived from ctx that ends, its cause an
// *OverBudgetError, as soon as a check, every interval, finds the process
// over budget bytes (Over). A budget of 0 watches nothing: the context
// ends only with ctx. Stop ends the watch; the caller must call it.
func Watch(ctx context.Context, budget uint64, interval time.Duration) (context.Context, *Guard) {
	wctx, cancel := context.WithCancelCause(ctx)
	g := &Guard{cancel: cancel, done: make(chan struct{})}
	if budget == 0 {
		close(g.done)
		return wctx, g
	}
	go func() {
		defer close(g.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-t.C:
				if used, over := Over(budget); over {
					cancel(&OverBudgetError{Budget: budget, Used: used})
					return
				}
			}
		}
	}()
	return wctx, g
}

// Stop ends the watch and waits for its goroutine; the context Watch
// returned ends too (its cause context.Canceled unless the guard ended it
// first). Stop may be called more than once.
func (g *Guard) Stop() {
	g.once.Do(func() {
		g.cancel(context.Canceled)
		<-g.done
	})
}
