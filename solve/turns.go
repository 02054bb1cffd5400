package solve

import "sync"

// turns makes the threads of a PDFPN take turns, one iteration each, in
// the order of their ids (Options.Lockstep). Exactly one thread runs at a
// time: the one holding the turn. A thread that leaves the search hands
// the turn on for good.
type turns struct {
	mu     sync.Mutex
	active []bool
	wake   []chan struct{}
}

// newTurns returns the turns of n threads, thread 0 to move first.
func newTurns(n int) *turns {
	t := &turns{active: make([]bool, n), wake: make([]chan struct{}, n)}
	for i := range n {
		t.active[i] = true
		t.wake[i] = make(chan struct{}, 1)
	}
	t.wake[0] <- struct{}{}
	return t
}

// wait blocks until thread i has the turn.
func (t *turns) wait(i int) { <-t.wake[i] }

// pass gives the turn to the next thread still searching and waits for it
// to come back. With no other thread left, i keeps it.
func (t *turns) pass(i int) {
	j := t.next(i)
	if j == i {
		return
	}
	t.wake[j] <- struct{}{}
	<-t.wake[i]
}

// leave takes thread i out of the turns and hands the turn on.
func (t *turns) leave(i int) {
	t.mu.Lock()
	t.active[i] = false
	t.mu.Unlock()
	if j := t.next(i); j != i {
		t.wake[j] <- struct{}{}
	}
}

// next returns the first thread after i still searching, or i if there is
// none.
func (t *turns) next(i int) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	for k := 1; k < len(t.active); k++ {
		if j := (i + k) % len(t.active); t.active[j] {
			return j
		}
	}
	return i
}
