package format

import (
	"fmt"

	"github.com/apache/arrow/go/v17/arrow/memory"
)

// BudgetAllocator is an Arrow allocator (memory.Allocator) for decoding
// input that may be hostile: Arrow's decoders size some allocations by
// lengths they read from the input, and this allocator refuses to hold
// more than a fixed number of bytes at once, whatever the input declares.
//
// It guarantees that the bytes it holds (allocated, less those given
// back by Free or by a Reallocate that shrinks) never exceed its limit.
// A request that would pass the limit, or one of a negative size, is
// refused by a panic whose message starts "refusing to allocate", before
// anything is allocated: the caller runs the decoder under a recover and
// reports the input as malformed (this package's readers report it as
// ErrCorrupt). The memory comes from Go's heap (memory.NewGoAllocator).
//
// A BudgetAllocator is not safe for concurrent use: give each decoder
// its own, used by one goroutine at a time.
type BudgetAllocator struct {
	mem         memory.Allocator
	used, limit int
}

var _ memory.Allocator = (*BudgetAllocator)(nil)

// NewBudgetAllocator returns an allocator that holds at most limit bytes
// at once (see BudgetAllocator).
func NewBudgetAllocator(limit int) *BudgetAllocator {
	return &BudgetAllocator{mem: memory.NewGoAllocator(), limit: limit}
}

func (a *BudgetAllocator) take(n int) {
	if n < 0 || n > a.limit-a.used {
		panic(fmt.Sprintf("refusing to allocate %d bytes with %d in use: at most %d may be held at once", n, a.used, a.limit))
	}
	a.used += n
}

// Allocate returns size bytes, or panics if holding them would pass the
// limit (or size is negative).
func (a *BudgetAllocator) Allocate(size int) []byte {
	a.take(size)
	return a.mem.Allocate(size)
}

// Reallocate resizes b, which this allocator returned, to size bytes. A
// growth that would pass the limit (or a negative size) panics; a
// shrinking gives the difference back to the budget.
func (a *BudgetAllocator) Reallocate(size int, b []byte) []byte {
	switch {
	case size < 0:
		a.take(size) // panics
	case size >= len(b):
		a.take(size - len(b))
	default:
		a.used -= len(b) - size
	}
	return a.mem.Reallocate(size, b)
}

// Free gives b, which this allocator returned, back: its bytes count
// towards the limit no more.
func (a *BudgetAllocator) Free(b []byte) {
	a.used -= len(b)
	a.mem.Free(b)
}

// InUse returns the bytes held now: those allocated and not yet given
// back.
func (a *BudgetAllocator) InUse() int { return a.used }
