//go:build !unix

package solve

// newBuckets returns n zeroed buckets on the Go heap.
func newBuckets(t *tt, n int) []ttBucket { return make([]ttBucket, n) }
