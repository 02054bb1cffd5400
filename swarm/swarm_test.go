package swarm

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/spots-dev/spots/certify"
	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
	"github.com/spots-dev/spots/verify"
)

func outcomeOf(n int) string {
	if n%6 >= 3 {
		return "W"
	}
	return "L"
}

// solveLocal runs a master and groups in one process, linked by calls.
func solveLocal(t *testing.T, root sprouts.Position, p Params, groups int) *Master {
	t.Helper()
	m, err := NewMaster(root, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for i := range groups {
		g, err := NewGroup(fmt.Sprintf("g%d", i), p)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.Run(ctx, LocalLink{m}); err != nil {
				t.Errorf("group %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	return m
}

// TestConcurrentLocalSwarm solves small games with a master and several
// groups in one process (make test runs it under the race detector), under
// several parameter sets, and checks answers and certificates.
func TestConcurrentLocalSwarm(t *testing.T) {
	params := func(f func(*Params)) Params {
		p := DefaultParams()
		p.Capacity = 4096
		f(&p)
		return p
	}
	sets := map[string]Params{
		"default":        params(func(*Params) {}),
		"short jobs":     params(func(p *Params) { p.Iterations, p.Updates = 300, 100 }),
		"grouped pdfpn":  params(func(p *Params) { p.Grouping, p.Threads = 2, 2 }),
		"state level 2":  params(func(p *Params) { p.StateLevel = 2 }),
		"no sharing":     params(func(p *Params) { p.NoSharing = true }),
		"seeded, 1 node": params(func(p *Params) { p.Seed, p.InitNodes = 7, 1 }),
	}
	ns := []int{1, 3, 5, 7, 9}
	if testing.Short() {
		ns = []int{1, 3, 5}
	}
	for name, p := range sets {
		for _, n := range ns {
			root := sprouts.MustParse(fmt.Sprintf("0*%d", n))
			m := solveLocal(t, root, p, 3)
			out := m.Outcome()
			if out.String() != outcomeOf(n) {
				t.Errorf("%s: 0*%d is %v, want %s", name, n, out, outcomeOf(n))
				continue
			}
			if p.NoSharing {
				continue // the master's values need not prove the result
			}
			claim, _ := certify.Claim(root, 0, out, nil)
			cert, err := certify.Build(m.DB(), claim, verify.Options{})
			if err == nil {
				_, err = verify.Certificate(cert)
			}
			if err != nil {
				t.Errorf("%s: 0*%d: %v", name, n, err)
			}
		}
	}
}

// TestExpiredLeases hands jobs to a group that never reports: when its
// lease runs out its leaves go to another group.
func TestExpiredLeases(t *testing.T) {
	p := DefaultParams()
	p.Lease = time.Minute
	m, err := NewMaster(sprouts.MustParse("0*8"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	m.now = func() time.Time { return now }
	reply, err := m.Exchange(ExchangeRequest{Group: "silent", Slots: 4})
	if err != nil || len(reply.Jobs) != 4 {
		t.Fatalf("%d jobs, %v", len(reply.Jobs), err)
	}
	if n := m.Expire(); n != 0 {
		t.Errorf("%d jobs expired within the lease", n)
	}
	now = now.Add(2 * time.Minute)
	if n := m.Expire(); n != 4 {
		t.Errorf("%d jobs expired after the lease, want 4", n)
	}
	// A late report of an expired job is ignored.
	if _, err := m.Exchange(ExchangeRequest{Group: "silent", Slots: 1, Completed: []Report{{ID: reply.Jobs[0].ID, PN: 1, DN: 1}}}); err != nil {
		t.Fatal(err)
	}
	if st := m.Stats(); st.Stale != 1 || st.Expired != 4 {
		t.Errorf("stale %d, expired %d", st.Stale, st.Expired)
	}
	// The rest of the solve is done by a group that works.
	g, _ := NewGroup("worker", p)
	if err := g.Run(context.Background(), LocalLink{m}); err != nil {
		t.Fatal(err)
	}
	if m.Outcome() != solve.Loss {
		t.Errorf("0*8: %v", m.Outcome())
	}
}

func TestSimulationIsDeterministic(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 4096
	root := sprouts.MustParse("0*10")
	var first SimResult
	for i := range 2 {
		res, err := Simulate(context.Background(), root, p, SimConfig{Workers: 8, MasterCost: 10})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != "W" || res.Util <= 0 || res.Util > 1 {
			t.Fatalf("%+v", res)
		}
		if i == 0 {
			first = res
			continue
		}
		if res.Time != first.Time || res.TIt != first.TIt || res.TGN != first.TGN || res.MNodes != first.MNodes {
			t.Errorf("runs differ: %+v and %+v", first, res)
		}
	}
}

// TestSimulatedGroupsUseEverySolver checks that the solvers of a simulated
// group each run their own jobs with their own table: were the group's jobs
// all run on one solver (as a sequential loop would place them), the mean
// table of its 4 solvers could hold at most a quarter of one table.
func TestSimulatedGroupsUseEverySolver(t *testing.T) {
	p := DefaultParams()
	p.Capacity, p.Grouping = 1024, 4
	res, err := Simulate(context.Background(), sprouts.MustParse("0*11"), p, SimConfig{Workers: 1, MasterCost: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != "W" || res.WNodes <= float64(p.Capacity)/4 {
		t.Errorf("outcome %s, mean table %.0f entries of %d (T-It %d)", res.Outcome, res.WNodes, p.Capacity, res.TIt)
	}
}

func signedRequest(t *testing.T, key Key, url, path string, body []byte, skew time.Duration) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, url+path, bytes.NewReader(body))
	stamp := strconv.FormatInt(time.Now().Add(skew).Unix(), 10)
	req.Header.Set("X-Spots-Time", stamp)
	req.Header.Set("X-Spots-Auth", key.sign("request", path, stamp, body))
	return req
}

func TestHTTPAuthentication(t *testing.T) {
	key, _ := NewKey("the right key")
	wrong, _ := NewKey("the wrong key")
	m, err := NewMaster(sprouts.MustParse("0*6"), DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(Handler(m, key))
	defer srv.Close()
	body, _ := encodeMessage(ExchangeRequest{Group: "g", Slots: 1}, nil)
	tests := []struct {
		name string
		req  *http.Request
		want int
	}{
		{"right key", signedRequest(t, key, srv.URL, "/v1/exchange", body, 0), http.StatusOK},
		{"wrong key", signedRequest(t, wrong, srv.URL, "/v1/exchange", body, 0), http.StatusUnauthorized},
		{"old stamp", signedRequest(t, key, srv.URL, "/v1/exchange", body, -time.Hour), http.StatusUnauthorized},
		{"garbage body", signedRequest(t, key, srv.URL, "/v1/exchange", []byte("\x00\x00\x00\x05{}"), 0), http.StatusBadRequest},
	}
	unsigned, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/exchange", bytes.NewReader(body))
	tests = append(tests, struct {
		name string
		req  *http.Request
		want int
	}{"unsigned", unsigned, http.StatusUnauthorized})
	for _, tt := range tests {
		resp, err := http.DefaultClient.Do(tt.req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s: %s, want %d", tt.name, resp.Status, tt.want)
		}
	}
	// A link with the wrong key gets ErrUnauthorized, and does not retry.
	link := &HTTPLink{Key: wrong, Resolve: func(context.Context) (string, error) { return srv.URL, nil }}
	if _, err := link.Exchange(context.Background(), ExchangeRequest{Group: "g", Slots: 1}); err == nil {
		t.Error("the wrong key was accepted")
	}
	// The right link solves the position over HTTP.
	g, _ := NewGroup("http", DefaultParams())
	ok := &HTTPLink{Key: key, Resolve: func(context.Context) (string, error) { return srv.URL, nil }}
	if err := g.Run(context.Background(), ok); err != nil || m.Outcome() != solve.Loss {
		t.Errorf("over HTTP: %v, %v", err, m.Outcome())
	}
}

func FuzzDecodeMessage(f *testing.F) {
	good, _ := encodeMessage(ExchangeRequest{Group: "g", Slots: 2}, []solve.NimberEntry{{Key: "\x04", G: 0}})
	f.Add(good)
	f.Add([]byte("\x00\x00\x00\x02{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var req ExchangeRequest
		decodeMessage(data, &req) // must not panic
	})
}

func TestNimbersRoundTrip(t *testing.T) {
	in := []solve.NimberEntry{{Key: "\x04", G: 0}, {Key: "\x04\x01\x04", G: 0}, {Key: "\x05", G: 1}}
	data, err := encodeMessage(ExchangeReply{Done: true}, in)
	if err != nil {
		t.Fatal(err)
	}
	var reply ExchangeReply
	out, err := decodeMessage(data, &reply)
	if err != nil || !reply.Done || len(out) != 3 || out[1] != in[1] {
		t.Errorf("%v %v %v", reply, out, err)
	}
}

// TestUtilisation follows the share of slot time with a job on a clock the
// test moves: 4 slots busy for a minute, then 2 of them for a minute.
func TestUtilisation(t *testing.T) {
	p := DefaultParams()
	p.Lease = time.Hour
	m, err := NewMaster(sprouts.MustParse("0*8"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	m.now = func() time.Time { return now }
	if st := m.Stats(); st.Utilisation != 0 || st.Slots != 0 {
		t.Errorf("before any group: %+v", st)
	}
	now = now.Add(time.Minute) // nobody's slot time
	a, err := m.Exchange(ExchangeRequest{Group: "a", Slots: 2})
	if err != nil || len(a.Jobs) != 2 {
		t.Fatalf("%d jobs, %v", len(a.Jobs), err)
	}
	if _, err := m.Exchange(ExchangeRequest{Group: "b", Slots: 2}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	if st := m.Stats(); st.Open != 4 || st.Slots != 4 || st.Utilisation != 1 {
		t.Errorf("all busy: open %d, slots %d, utilisation %v", st.Open, st.Slots, st.Utilisation)
	}
	m.DropGroup("b") // its slots go with it
	now = now.Add(time.Minute)
	if st := m.Stats(); st.Open != 2 || st.Slots != 2 || st.Utilisation != 1 {
		t.Errorf("b gone: open %d, slots %d, utilisation %v", st.Open, st.Slots, st.Utilisation)
	}
	// A third group joins with 6 slots and gets jobs for as many of them
	// as the DAG has leaves to give.
	if _, err := m.Exchange(ExchangeRequest{Group: "c", Slots: 6}); err != nil {
		t.Fatal(err)
	}
	st := m.Stats()
	now = now.Add(time.Minute)
	st2 := m.Stats()
	want := (4*60 + 2*60 + float64(min(st.Open, 8))*60) / (4*60 + 2*60 + 8*60)
	if st2.Slots != 8 || st2.Utilisation != want {
		t.Errorf("with c: slots %d, utilisation %v, want %v", st2.Slots, st2.Utilisation, want)
	}
}
