package format

import (
	"fmt"

	"github.com/apache/arrow/go/v17/arrow/memory"
)

// budgetAllocator is the Arrow decoder's allocator: it refuses, by
// panicking (which guard turns into an error), to hold more than limit
// bytes at once. It is used by one goroutine at a time.
type budgetAllocator struct {
	mem         memory.Allocator
	used, limit int
}

func newBudgetAllocator(limit int) *budgetAllocator {
	return &budgetAllocator{mem: memory.NewGoAllocator(), limit: limit}
}

func (a *budgetAllocator) take(n int) {
	if n < 0 || n > a.limit-a.used {
		panic(fmt.Sprintf("refusing to allocate %d bytes with %d in use: a batch may take at most %d", n, a.used, a.limit))
	}
	a.used += n
}

func (a *budgetAllocator) Allocate(size int) []byte {
	a.take(size)
	return a.mem.Allocate(size)
}

func (a *budgetAllocator) Reallocate(size int, b []byte) []byte {
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

func (a *budgetAllocator) Free(b []byte) {
	a.used -= len(b)
	a.mem.Free(b)
}
