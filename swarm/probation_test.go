package swarm

import (
	"context"
	"testing"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// watchLink passes a group's exchanges to a master and tells watch of
// each request and its reply.
type watchLink struct {
	link  Link
	watch func(ExchangeRequest, ExchangeReply)
}

func (l watchLink) Exchange(ctx context.Context, req ExchangeRequest) (ExchangeReply, error) {
	reply, err := l.link.Exchange(ctx, req)
	if err == nil {
		l.watch(req, reply)
	}
	return reply, err
}

// TestUnheardValuesSentAgain: a group on probation that sends values
// before it has reported a job (a worker that finds a master restarted
// sends it all it holds) is not heard, and is told so; it sends them
// again with its first report, and then they are heard. The master
// loses none of them.
func TestUnheardValuesSentAgain(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 4096
	m, err := NewMaster(sprouts.MustParse("0*8"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup("newcomer", p)
	if err != nil {
		t.Fatal(err)
	}
	value := solve.NimberEntry{Key: sprouts.MustParse("0*2").Key(), G: 0}
	g.DB().Put(value.Key, value.G) // what it proved before, to send
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var sends, unheard int
	heard := make(chan struct{})
	link := watchLink{localLink{m}, func(req ExchangeRequest, reply ExchangeReply) {
		for _, e := range req.Nimbers {
			if e != value {
				continue
			}
			sends++
			if reply.Unheard {
				unheard++
			} else if sends == unheard+1 {
				close(heard)
			}
		}
	}}
	ran := make(chan error, 1)
	go func() { ran <- g.Run(ctx, link) }()
	select {
	case <-heard:
	case <-ctx.Done():
	}
	cancel()
	<-ran
	if got, ok := m.DB().Get(value.Key); !ok || got != value.G {
		t.Errorf("the master holds %d (%v) of gn(0*2), want %d: sent %d times, %d unheard", got, ok, value.G, sends, unheard)
	}
	if unheard == 0 {
		t.Errorf("sent %d times, never unheard: the test shows nothing", sends)
	}
}
