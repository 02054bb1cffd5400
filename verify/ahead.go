package verify

import "sync"

// The unhinted check in parallel.
//
// Database.Check searches the database depth first from the claim, and
// almost all of its time goes into generating children: those of each
// entry it checks and, for winning replies, those of the lands of the
// entry's children. Which entries it checks next it learns as it goes, so
// it cannot be cut into rows as the hinted check is; but once it has the
// children of an entry, the lands it will ask about soon are known: the
// lands of those children. An ahead hands them to worker goroutines, most
// recently found first (the search is depth first), which measure each one
// and generate its children if the limits allow; the search takes what
// they made on a miss of its own cache (landMoves) instead of generating
// it. What it takes is what it would have made, and it still measures and
// counts everything as before, so every result and error is that of a
// sequential check; a land the workers have not reached yet is made by the
// search itself.
//
// Bounds: at most aheadQueue lands wait (the oldest are forgotten), at
// most landMovesMaxBytes of children wait to be taken (past that, what
// waits is dropped),
// and a worker generates no land over the limits (Limits.check of its
// measure), so a hostile database costs the workers no more than the check
// itself may spend on one land, times the lands it names.
const aheadQueue = 1 << 14

const (
	aheadQueued uint8 = 1 + iota
	aheadSkip
)

type ahead[P any] struct {
	g      rules[P]
	limits Limits // resolved
	wg     sync.WaitGroup

	mu     sync.Mutex
	cond   sync.Cond
	stack  []P              // lands to make, most recently found last
	queued map[string]uint8 // lands ever queued (aheadQueued, or aheadSkip once the search made them)
	made   map[string]prepared[P]
	bytes  int64 // estimated size of the children in made
	closed bool
}

// startAhead starts workers goroutines; stop waits for them.
func startAhead[P any](g rules[P], limits Limits, workers int) *ahead[P] {
	a := &ahead[P]{g: g, limits: limits, queued: map[string]uint8{}, made: map[string]prepared[P]{}}
	a.cond.L = &a.mu
	for range workers {
		a.wg.Add(1)
		go a.work()
	}
	return a
}

// stop ends the workers and waits for them.
func (a *ahead[P]) stop() {
	if a == nil {
		return
	}
	a.mu.Lock()
	a.closed = true
	a.cond.Broadcast()
	a.mu.Unlock()
	a.wg.Wait()
}

// want queues the lands of the positions ps.
func (a *ahead[P]) want(ps []P) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	// The search takes ps in order: the first goes on top.
	for i := len(ps) - 1; i >= 0; i-- {
		for _, land := range a.g.components(ps[i]) {
			k := a.g.key(land)
			if a.queued[k] != 0 {
				continue
			}
			if len(a.queued) >= 4*aheadQueue {
				clear(a.queued)
			}
			a.queued[k] = aheadQueued
			a.stack = append(a.stack, land)
		}
	}
	if n := len(a.stack); n > aheadQueue {
		a.stack = append(a.stack[:0], a.stack[n-aheadQueue:]...)
	}
	a.cond.Broadcast()
}

// take returns what the workers made of the land with the given key, if
// they have, and forgets it: the search's own cache keeps it from then on.
func (a *ahead[P]) take(key string) (prepared[P], bool) {
	if a == nil {
		return prepared[P]{}, false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.made[key]
	if ok {
		delete(a.made, key)
		a.bytes -= childrenBytes(a.g, p.kids)
	}
	return p, ok
}

// skip tells the workers that the search made the land with the given key
// itself: if it still waits, it is not made again.
func (a *ahead[P]) skip(key string) {
	if a == nil {
		return
	}
	a.mu.Lock()
	if a.queued[key] == aheadQueued {
		a.queued[key] = aheadSkip
	}
	a.mu.Unlock()
}

func (a *ahead[P]) work() {
	defer a.wg.Done()
	for {
		a.mu.Lock()
		for len(a.stack) == 0 && !a.closed {
			a.cond.Wait()
		}
		if a.closed {
			a.mu.Unlock()
			return
		}
		land := a.stack[len(a.stack)-1]
		a.stack = a.stack[:len(a.stack)-1]
		skip := a.queued[a.g.key(land)] == aheadSkip
		a.mu.Unlock()
		if skip {
			continue
		}

		c := a.g.measure(land)
		if a.limits.check(c) != nil {
			continue // the search will refuse it itself
		}
		kids := a.g.children(land)
		size := childrenBytes(a.g, kids)
		a.mu.Lock()
		if a.bytes+size > landMovesMaxBytes {
			// What waits longest is least likely to be asked for: the
			// search is depth first.
			clear(a.made)
			a.bytes = 0
		}
		if size <= landMovesMaxBytes {
			a.made[a.g.key(land)] = prepared[P]{cost: c, kids: kids, made: true}
			a.bytes += size
		}
		a.mu.Unlock()
	}
}
