package solve

import (
	"container/heap"
	"math/rand/v2"
	"testing"
)

// oldQueue is the container/heap queue RankQueue replaced; nodes of equal
// rank must still come out in its order, or searches would change.
type oldQueue []ranked[int]

func (q oldQueue) Len() int { return len(q) }
func (q oldQueue) Less(i, j int) bool {
	if q[i].size != q[j].size {
		return q[i].size < q[j].size
	}
	return q[i].n < q[j].n
}
func (q oldQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *oldQueue) Push(x any)   { *q = append(*q, x.(ranked[int])) }
func (q *oldQueue) Pop() any {
	old := *q
	v := old[len(old)-1]
	*q = old[:len(old)-1]
	return v
}

func TestRankQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q RankQueue[int]
	var old oldQueue
	for i := range 20000 {
		if q.Len() != old.Len() {
			t.Fatalf("step %d: %d queued, want %d", i, q.Len(), old.Len())
		}
		if q.Len() > 0 && rng.IntN(3) == 0 {
			got, want := q.Pop(), heap.Pop(&old).(ranked[int]).v
			if got != want {
				t.Fatalf("step %d: popped %d, want %d", i, got, want)
			}
			continue
		}
		size, n := rng.IntN(6), uint32(rng.IntN(3)) // many ties
		q.Push(i, size, n)
		heap.Push(&old, ranked[int]{i, size, n})
	}
}
