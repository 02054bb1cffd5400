package swarm

import (
	"context"
	"testing"
	"time"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// parkedReply runs exchangeWait for an idle group in the background.
func parkedReply(m *Master, group string) <-chan ExchangeReply {
	ch := make(chan ExchangeReply, 1)
	go func() {
		reply, err := m.exchangeWait(context.Background(), ExchangeRequest{Group: group, Slots: 1}, time.Minute)
		if err != nil {
			reply.Master = "error: " + err.Error()
		}
		ch <- reply
	}()
	return ch
}

// waitParked waits until n groups wait at the master.
func waitParked(t *testing.T, m *Master, n int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		m.work.mu.Lock()
		k := len(m.work.parked)
		m.work.mu.Unlock()
		if k == n {
			return
		}
	}
	t.Fatalf("%d groups never came to wait", n)
}

// busyMaster returns a master of 0*8 whose one leaf, the root, is group
// a's job, and that job.
func busyMaster(t *testing.T, p Params) (*Master, JobSpec) {
	t.Helper()
	p.InitNodes = 1
	m, err := NewMaster(sprouts.MustParse("0*8"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := m.Exchange(ExchangeRequest{Group: "a", Slots: 1})
	if err != nil || len(first.Jobs) != 1 {
		t.Fatalf("a: %d jobs, %v", len(first.Jobs), err)
	}
	return m, first.Jobs[0]
}

// TestConcurrentWaitGetsTheFreedLeaf checks that a group the master has no
// job for waits at the master and is handed a job as soon as a report
// frees leaves, before groups that ask later.
func TestConcurrentWaitGetsTheFreedLeaf(t *testing.T) {
	p := DefaultParams()
	p.Iterations, p.Updates = 1, 1 // a job is one iteration
	m, spec := busyMaster(t, p)
	waiting := parkedReply(m, "b")
	waitParked(t, m, 1)
	// a's solver expands the root: its children are leaves to hand out.
	g, err := NewGroup("a", p)
	if err != nil {
		t.Fatal(err)
	}
	r := g.Cycle(context.Background(), g.Place(spec), spec)
	if r.Outcome != solve.Unknown || len(r.Children) < 2 {
		t.Fatalf("one iteration of 0*8: %+v", r)
	}
	if _, err := m.Exchange(ExchangeRequest{Group: "a", Slots: 1, Completed: []Report{r}}); err != nil {
		t.Fatal(err)
	}
	select {
	case reply := <-waiting:
		if len(reply.Jobs) != 1 || reply.Done {
			t.Errorf("the waiting group got %+v, want one job", reply)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the waiting group was not handed the freed leaf")
	}
	if st := m.Stats(); st.Open != 2 {
		t.Errorf("%d jobs open, want a's and b's", st.Open)
	}
}

// TestConcurrentFinishAnswersWaiting checks that groups waiting for a job are
// told at once when the solve is over.
func TestConcurrentFinishAnswersWaiting(t *testing.T) {
	m, _ := busyMaster(t, DefaultParams())
	waiting := []<-chan ExchangeReply{parkedReply(m, "b"), parkedReply(m, "c")}
	waitParked(t, m, 2)
	m.finish()
	for i, ch := range waiting {
		select {
		case reply := <-ch:
			if !reply.Done || len(reply.Jobs) != 0 {
				t.Errorf("group %d: %+v, want done", i, reply)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("group %d still waits after Finish", i)
		}
	}
	if n := m.unheard(); n != 1 {
		t.Errorf("%d groups not told the solve is over, want only a", n)
	}
}

// TestWaitGivesUp checks that a wait ends without a job when nothing frees
// up, and that the group is no longer waiting then.
func TestWaitGivesUp(t *testing.T) {
	m, _ := busyMaster(t, DefaultParams())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reply, err := m.exchangeWait(ctx, ExchangeRequest{Group: "b", Slots: 1}, time.Minute)
	if err != nil || len(reply.Jobs) != 0 || reply.Done {
		t.Errorf("%+v, %v", reply, err)
	}
	if len(m.work.parked) != 0 {
		t.Errorf("%d groups still waiting", len(m.work.parked))
	}
}
