//go:build unix

package solve

import (
	"runtime"
	"syscall"
	"unsafe"
)

// newBuckets returns n zeroed buckets mapped outside the Go heap: the
// collector neither counts them towards its goal nor scans them (buckets
// hold no pointers), so a large table does not make every collection
// longer or the heap goal higher. The mapping is released when t is
// collected.
func newBuckets(t *tt, n int) []ttBucket {
	size := n * int(unsafe.Sizeof(ttBucket{}))
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]ttBucket, n) // the Go heap will do
	}
	hugePages(mem)
	runtime.AddCleanup(t, func(m []byte) { syscall.Munmap(m) }, mem)
	return unsafe.Slice((*ttBucket)(unsafe.Pointer(unsafe.SliceData(mem))), n)
}
