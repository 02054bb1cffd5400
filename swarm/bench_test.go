package swarm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spots-dev/spots/sprouts"
)

// countedLink is the in-process link of a group (localLink: the master's
// real exchange path, parking included) that counts the exchanges of all
// the groups sharing it and ends their runs after the budget's last.
type countedLink struct {
	m      *Master
	left   *atomic.Int64
	cancel context.CancelFunc
}

func (l countedLink) Exchange(ctx context.Context, req ExchangeRequest) (ExchangeReply, error) {
	if l.left.Add(-1) < 0 {
		l.cancel()
		return ExchangeReply{}, ctx.Err()
	}
	return localLink{l.m}.Exchange(ctx, req)
}

// BenchmarkMasterExchange measures the master's throughput of exchanges:
// groups of real solvers (one sequential DFPN each) solve 0*12 against one
// master in the process, over the real exchange path, with short cycles so
// that the master, not the solvers, sets the pace. An op is one exchange.
// The pace is held at its first (no stretching): a master that measures
// its load otherwise would ask for fewer exchanges, and the two sides of a
// comparison would run different work. It reports the exchanges a second
// and the master's time per exchange under its locks (MasterStats
// .BusySeconds over the exchanges).
func BenchmarkMasterExchange(b *testing.B) {
	for _, groups := range []int{4, 16} {
		b.Run(fmt.Sprintf("groups=%d", groups), func(b *testing.B) {
			p := DefaultParams()
			p.Capacity, p.Iterations, p.Updates, p.Probation = 1<<12, 8, 1, 0
			p.Pace.High, p.Pace.Low = 1, 1e-9
			m, err := NewMaster(sprouts.MustParse("0*12"), p, nil)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var left atomic.Int64
			left.Store(int64(b.N))
			link := countedLink{m: m, left: &left, cancel: cancel}
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for i := range groups {
				g, err := NewGroup(fmt.Sprintf("g%d", i), p)
				if err != nil {
					b.Fatal(err)
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := g.Run(ctx, link); err != nil && !errors.Is(err, context.Canceled) {
						b.Errorf("group %s: %v", g.Name, err)
					}
				}()
			}
			wg.Wait()
			took := time.Since(start)
			b.StopTimer()
			st := m.Stats()
			if st.Exchanges > 0 {
				b.ReportMetric(st.BusySeconds/float64(st.Exchanges)*1e6, "busy-µs/exchange")
			}
			b.ReportMetric(float64(st.Exchanges)/took.Seconds(), "exchanges/s")
			if m.Outcome().Known() {
				b.Logf("0*12 solved after %d exchanges: the last ones found no job", st.Exchanges)
			}
		})
	}
}
