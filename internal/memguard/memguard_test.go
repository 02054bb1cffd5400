package memguard

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestWatchEndsOverBudget: a process that holds more than its budget has
// its work's context ended, the cause naming the budget.
func TestWatchEndsOverBudget(t *testing.T) {
	debug.FreeOSMemory()
	budget := Used() + 32<<20
	ctx, g := Watch(context.Background(), budget, 5*time.Millisecond)
	defer g.Stop()
	held := make([]byte, 96<<20)
	for i := range held {
		held[i] = byte(i)
	}
	select {
	case <-ctx.Done():
	case <-time.After(20 * time.Second):
		t.Fatalf("the context did not end with %d MiB held over a budget of %d MiB", Used()>>20, budget>>20)
	}
	cause := context.Cause(ctx)
	var over *OverBudgetError
	if !errors.Is(cause, ErrOverBudget) || !errors.As(cause, &over) {
		t.Fatalf("cause %v, want an *OverBudgetError", cause)
	}
	if over.Budget != budget || over.Used <= budget {
		t.Errorf("got budget %d used %d, want budget %d and more used", over.Budget, over.Used, budget)
	}
	runtime.KeepAlive(held)
}

// TestOverCollectsFirst: garbage is not counted against the budget; what
// is held is.
func TestOverCollectsFirst(t *testing.T) {
	debug.FreeOSMemory()
	base := Used()
	garbage := make([]byte, 128<<20)
	for i := range garbage {
		garbage[i] = 1
	}
	garbage = nil
	if used, over := Over(base + 64<<20); over {
		t.Errorf("over with %d MiB used against a budget of %d MiB, garbage only", used>>20, (base+64<<20)>>20)
	}
	held := make([]byte, 128<<20)
	for i := range held {
		held[i] = 1
	}
	if used, over := Over(base + 64<<20); !over {
		t.Errorf("not over with %d MiB used against a budget of %d MiB", used>>20, (base+64<<20)>>20)
	}
	runtime.KeepAlive(held)
	_ = garbage
}

// TestStop: Stop ends the watch and its context, its cause not the
// budget's; a zero budget watches nothing.
func TestStop(t *testing.T) {
	for _, budget := range []uint64{0, 1 << 40} {
		ctx, g := Watch(context.Background(), budget, time.Millisecond)
		if ctx.Err() != nil {
			t.Fatalf("budget %d: ended before Stop", budget)
		}
		g.Stop()
		g.Stop()
		if ctx.Err() == nil || errors.Is(context.Cause(ctx), ErrOverBudget) {
			t.Errorf("budget %d: after Stop err %v cause %v", budget, ctx.Err(), context.Cause(ctx))
		}
	}
}
