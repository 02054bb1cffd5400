package solve

import "time"

// stopped checks the budget, the other threads, and now and then the
// context and the clock.
func (w *worker[P]) stopped() bool {
	if w.stop {
		return true
	}
	if w.parallel && w.s.halt.Load() {
		w.stop = true
		return true
	}
	if w.s.opt.MaxIterations > 0 && w.stats.Iterations >= w.budgetEnd {
		w.stop = true
		return true
	}
	if w.stats.Iterations >= w.check {
		// An iteration of a large position can take milliseconds, so the
		// context is looked at often; a look costs nanoseconds.
		w.check = w.stats.Iterations + IterationsPublishedEvery
		w.iters.Store(w.stats.Iterations)
		if w.s.ctx.Err() != nil {
			w.stop = true
			return true
		}
		if w.id == 0 {
			w.report()
		}
	}
	return false
}

// report calls Options.Progress and Options.Checkpoint when they are due;
// thread 0 calls it.
func (w *worker[P]) report() {
	opt := &w.s.opt
	if opt.Progress == nil && opt.Checkpoint == nil {
		return
	}
	now := time.Now()
	if opt.Progress != nil {
		every := opt.ProgressEvery
		if every <= 0 {
			every = time.Second
		}
		if now.Sub(w.last) >= every {
			w.last = now
			opt.Progress(w.s.progress(now))
		}
	}
	if opt.Checkpoint != nil {
		every := opt.CheckpointEvery
		if every <= 0 {
			every = DefaultCheckpointEvery
		}
		if now.Sub(w.s.saved) >= every {
			opt.Checkpoint(w.s.progress(now))
			w.s.saved = time.Now() // a slow save does not make the next one due at once
		}
	}
}

func (s *DFPN[P]) progress(now time.Time) Progress {
	p := Progress{Elapsed: now.Sub(s.start), Nimbers: s.db.Len(),
		TTEntries: s.tt.entries.Load(), TTCapacity: s.tt.capacity()}
	for _, w := range s.workers {
		p.Iterations += w.iters.Load()
	}
	if r := s.workers[0].root; r != nil {
		p.RootPN, p.RootDN = r.pn, r.dn
	}
	return p
}
