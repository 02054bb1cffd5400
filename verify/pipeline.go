package verify

import (
	"io"
	"sync"
	"sync/atomic"

	"github.com/spots-dev/spots/format"
)

// The hinted check in parallel.
//
// Almost all the time of a hinted check goes into generating children:
// those of each entry's position and, for each win hint that names a
// reply, those of one land of a child. Which lands those are depends only
// on the row itself, not on the values of earlier rows, so workers can
// generate them ahead of the check. The pipeline is
//
//	feeder (reads rows in order) ──▶ workers (parse, measure, generate) ─┐
//	        └────────────────────────── rows in order ──────────────────▶ check (in order)
//
// Rows go through in chunks (of pipelineChunk rows or pipelineBytes, so
// that the goroutines meet once per chunk), at most pipelineWindow chunks
// ahead of the check. The check is the sequential one (hinted.check), run
// in the calling goroutine in row order, with the same landMoves cache
// deciding hits, limits and the work of each entry; a miss takes the
// measure and the children a worker made for the row (landMoves.ready)
// instead of making them. So every result and error is the one of a
// sequential check, including which row fails first and every
// *LimitError. A worker does no more than the limits allow one row:
//
//   - it parses the row's position and stops if it is not canonical and
//     atomic;
//   - it measures every land before generating it and stops at the first
//     one over the limits, or at the one that takes the work of the row
//     over Limits.Work, counting every distinct land of the row (the
//     sequential check counts only those its cache misses, so it may go
//     on, generating the rest itself): a worker never makes more than
//     Limits.Work units of children for one row;
//   - it stops at the first hint that names a child or land that does not
//     exist, or any hint after counts that do not match;
//   - the work of all the rows in flight is held to pipelineBudget: a land
//     that would take it over is left to the check, which generates it if
//     it must.
//
// A hostile file can therefore make the pipeline hold at most
// pipelineWindow+2 chunks, each of at most pipelineChunk rows and of
// pipelineBytes of rows plus one row (a row is at most about 4.3 MB:
// format's limits on a position, reach and win), and pipelineBudget units
// of work of children, besides the two caches of children (landMoves and
// sharedMoves, 64 MB of estimated size each, which mostly hold the same
// lists).
//
// What a worker made and the check did not need (the rows after the first
// failure, the replies of hints after a failing one) is thrown away. A
// panic in a worker stops the work on that row, and the check then makes
// what it needs itself, so it panics, if it does, where a sequential check
// would. The feeder reads the rows in order, as the sequential check does;
// a read error (or panic) is reported when the check reaches its row.
//
// The workers share one cache of children (sharedMoves, bounded as
// landMoves is), so that a land asked for by several rows is usually made
// once. Every goroutine is waited for before all returns.
const (
	pipelineChunk  = 16      // rows handed to a worker at a time, at most
	pipelineBytes  = 1 << 20 // a chunk ends at the row that takes its rows' bytes (rowBytes) to this
	pipelineWindow = 8       // chunks read and not yet checked, besides the one being read and the one being checked
	pipelineBudget = 1 << 25 // units of work (Cost.Work) of children held for rows in flight
)

// rowJob is one row going through the pipeline.
type rowJob[P any] struct {
	row       int
	e         format.Entry
	parsed    bool // p, perr and canonical are set
	p         P
	perr      error
	canonical bool
	ready     map[string]prepared[P]
	reserved  int64 // units of pipelineBudget held
}

// chunk is consecutive rows going through the pipeline together (so that
// the goroutines meet once per chunk, not once per row), and what ended
// the reading after them, if anything.
type chunk[P any] struct {
	rows     []rowJob[P]
	err      error         // from the reader: io.EOF or why the next row could not be read
	panicked any           // a panic of the reader, to be raised again in order
	done     chan struct{} // closed when a worker has finished with the rows
}

// pipeline is what the workers share.
type pipeline[P any] struct {
	g        rules[P]
	limits   Limits // resolved
	shared   sharedMoves[P]
	inflight atomic.Int64 // units of work held by rows in flight
	quit     chan struct{}
}

// all checks every row that next returns, until it returns io.EOF, calling
// done after each valid row, with up to workers goroutines generating
// children ahead of the check (none if workers < 2). It returns the first
// error: next's (other than io.EOF) or that of a row, whichever comes
// first in row order.
func (c *hinted[P]) all(workers int, next func() (int, format.Entry, error), done func()) error {
	if workers < 2 {
		for {
			row, e, err := next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := c.entry(row, &e); err != nil {
				return err
			}
			done()
		}
	}
	pl := &pipeline[P]{g: c.g, limits: c.moves.limits, quit: make(chan struct{})}
	pl.shared.g = c.g
	order := make(chan *chunk[P], pipelineWindow)
	work := make(chan *chunk[P], pipelineWindow)
	var wg sync.WaitGroup
	defer func() {
		close(pl.quit)
		wg.Wait()
	}()
	wg.Add(1)
	go pl.feed(&wg, next, order, work)
	for range workers {
		wg.Add(1)
		go pl.work(&wg, work)
	}
	for ch := range order {
		<-ch.done
		for i := range ch.rows {
			j := &ch.rows[i]
			var err error
			if j.parsed {
				c.moves.ready = j.ready
				err = c.check(j.row, &j.e, j.p, j.perr, j.canonical)
				c.moves.ready = nil
			} else {
				err = c.entry(j.row, &j.e) // the worker panicked
			}
			pl.inflight.Add(-j.reserved)
			*j = rowJob[P]{}
			if err != nil {
				return err
			}
			done()
		}
		switch {
		case ch.panicked != nil:
			panic(ch.panicked)
		case ch.err == io.EOF:
			return nil
		case ch.err != nil:
			return ch.err
		}
	}
	return nil // not reached: order is only closed early on quit
}

// feed reads the rows in order and hands them, a chunk at a time, to the
// check (order) and to the workers (work), until next fails or returns
// io.EOF, or quit.
func (pl *pipeline[P]) feed(wg *sync.WaitGroup, next func() (int, format.Entry, error), order, work chan<- *chunk[P]) {
	defer wg.Done()
	defer close(work)
	for {
		select {
		case <-pl.quit:
			return
		default:
		}
		ch := &chunk[P]{rows: make([]rowJob[P], 0, pipelineChunk), done: make(chan struct{})}
		func() {
			defer func() {
				if p := recover(); p != nil {
					ch.panicked = p
				}
			}()
			bytes := 0
			for len(ch.rows) < pipelineChunk && bytes < pipelineBytes {
				row, e, err := next()
				if err != nil {
					ch.err = err
					return
				}
				ch.rows = append(ch.rows, rowJob[P]{row: row, e: e})
				bytes += rowBytes(&e)
			}
		}()
		select {
		case order <- ch:
		case <-pl.quit:
			return
		}
		select {
		case work <- ch:
		case <-pl.quit:
			return
		}
		if ch.err != nil || ch.panicked != nil {
			return
		}
	}
}

// rowBytes is the memory a row read holds: its text and its hints.
func rowBytes(e *format.Entry) int {
	return len(e.Position) + 4*(len(e.Reach)+len(e.Win))
}

// work prepares the chunks it is handed until work is closed.
func (pl *pipeline[P]) work(wg *sync.WaitGroup, work <-chan *chunk[P]) {
	defer wg.Done()
	for ch := range work {
		for i := range ch.rows {
			select {
			case <-pl.quit:
			default:
				pl.prepare(&ch.rows[i])
			}
		}
		close(ch.done)
	}
}

// prepare parses j's position and generates, in the order the check asks
// for them, the children it will need: those of the position and those of
// the lands named by its win hints. It stops where the check would fail
// or refuse, and at the pipeline's budget (see the top of this file).
func (pl *pipeline[P]) prepare(j *rowJob[P]) {
	defer func() {
		if recover() != nil {
			// Leave the rest to the check, which generates in the calling
			// goroutine what it needs.
			return
		}
	}()
	e := &j.e
	g := pl.g
	j.p, j.perr = g.parse(e.Position)
	if j.perr != nil {
		j.parsed = true
		return
	}
	j.canonical = g.text(j.p) == e.Position
	j.parsed = true
	if !j.canonical || !g.atomic(j.p) {
		return
	}
	j.ready = make(map[string]prepared[P], 1+len(e.Win)/2)
	spent := int64(0)
	// want prepares the children of land; false means stop.
	want := func(land P) ([]P, bool) {
		key := g.key(land)
		if pre, ok := j.ready[key]; ok {
			return pre.kids, pre.made
		}
		cost := g.measure(land)
		if pl.limits.check(cost) != nil {
			return nil, false
		}
		spent = saturate(float64(spent) + float64(cost.Work))
		if spent > pl.limits.Work {
			return nil, false
		}
		j.ready[key] = prepared[P]{cost: cost}
		kids, ok := pl.shared.get(key)
		if !ok {
			if pl.inflight.Add(cost.Work) > pipelineBudget {
				pl.inflight.Add(-cost.Work)
				return nil, false
			}
			j.reserved += cost.Work
			kids = g.children(land)
			pl.shared.put(key, kids)
		}
		j.ready[key] = prepared[P]{cost: cost, kids: kids, made: true}
		return kids, true
	}
	kids, ok := want(j.p)
	if !ok || len(e.Reach) != int(e.Grundy) || len(e.Win) != len(kids) {
		return
	}
	for _, i := range e.Reach {
		if int(i) >= len(kids) {
			return
		}
	}
	for i, w := range e.Win {
		if w < 0 {
			if w != -1 {
				return
			}
			continue
		}
		select {
		case <-pl.quit:
			return
		default:
		}
		comp, _ := format.SplitWin(w)
		lands := g.components(kids[i])
		if comp >= len(lands) {
			return
		}
		if _, ok := want(lands[comp]); !ok {
			return
		}
	}
}

// sharedMoves is the workers' cache of children, bounded as landMoves is
// and safe for concurrent use. A hit saves a generation; which lands it
// holds changes nothing else.
type sharedMoves[P any] struct {
	g     rules[P]
	mu    sync.Mutex
	m     map[string][]P
	bytes int64
}

func (s *sharedMoves[P]) get(key string) ([]P, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	kids, ok := s.m[key]
	return kids, ok
}

func (s *sharedMoves[P]) put(key string, kids []P) {
	size := childrenBytes(s.g, kids)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil || len(s.m) >= landMovesMax || s.bytes+size > landMovesMaxBytes {
		s.m, s.bytes = make(map[string][]P), 0
	}
	s.m[key] = kids
	s.bytes += size
}
