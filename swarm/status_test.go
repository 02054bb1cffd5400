package swarm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/spots-dev/spots/solve"
	"github.com/spots-dev/spots/sprouts"
)

// statusServer serves a master of pos with its status pages on 127.0.0.1
// (through ServeHandler, as spots-solve does) and samples it; both stop
// with the test.
func statusServer(t *testing.T, pos string, key Key, opts StatusOptions) (*Master, *Status, string) {
	t.Helper()
	m := smallMaster(t, pos)
	opts.Position = pos
	st := NewStatus(m, opts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := ServeHandler(ctx, ln, HandlerWithStatus(m, key, st), 0); err != nil {
			t.Errorf("ServeHandler: %v", err)
		}
	}()
	go func() {
		defer wg.Done()
		st.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return m, st, "http://" + ln.Addr().String()
}

// aheadClock is time.Now moved on by what advance adds, for
// StatusOptions.Now: a test takes a Status past its cached report without
// sleeping.
type aheadClock struct{ ahead atomic.Int64 }

func (c *aheadClock) now() time.Time          { return time.Now().Add(time.Duration(c.ahead.Load())) }
func (c *aheadClock) advance(d time.Duration) { c.ahead.Add(int64(d)) }

// getStatus reads a status path with the token (none if "").
func getStatus(t *testing.T, url, token string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// TestStatusOnLoopbackRun solves 0*7 with two groups over HTTP on
// loopback and reads the status JSON while and after they work: it lists
// both groups with their slots and last exchange, and the progress.
func TestStatusOnLoopbackRun(t *testing.T) {
	key, _ := NewKey("the status test key")
	members := func() []MemberInfo {
		return []MemberInfo{{Name: "master-x", State: "alive", Meta: Meta{Role: "master"}},
			{Name: "g0", Addr: "127.0.0.1:1", State: "alive", Meta: Meta{Role: "worker", Grouping: 2, Threads: 1, Version: "test"}}}
	}
	m, _, base := statusServer(t, "0*7", key, StatusOptions{Members: members, Interval: 10 * time.Millisecond})
	superviseInBackground(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := DefaultParams()
	p.Capacity, p.Grouping = 4096, 2
	var wg sync.WaitGroup
	for i := range 2 {
		g, err := NewGroup(fmt.Sprintf("g%d", i), p)
		if err != nil {
			t.Fatal(err)
		}
		link := &HTTPLink{Key: key, Resolve: func(context.Context) (string, error) { return base, nil }}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.Run(ctx, link); err != nil {
				t.Errorf("group %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	// The report is at most snapshotMaxAge old: wait for one taken after
	// the solve.
	var r StatusReport
	for deadline := time.Now().Add(10 * time.Second); ; {
		code, body := getStatus(t, base+statusJSONPath, key.statusToken())
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", statusJSONPath, code, body)
		}
		r = StatusReport{}
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("status JSON: %v\n%s", err, body)
		}
		if r.Finished && len(r.Samples) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	checkSolvedReport(t, r)
	checkStatusPage(t, base, key)
}

// checkSolvedReport checks the status report of TestStatusOnLoopbackRun
// once 0*7 is solved: the progress, both groups joined with their gossip
// members, the samples and the events.
func checkSolvedReport(t *testing.T, r StatusReport) {
	t.Helper()
	if r.Position != "0*7" || r.Outcome != solve.Loss || !r.Finished {
		t.Errorf("position %q outcome %q finished %v, want 0*7 L true", r.Position, r.Outcome, r.Finished)
	}
	if r.Stats.Iterations == 0 || r.Stats.Assigned == 0 || r.Stats.Exchanges == 0 || r.Nimbers == 0 {
		t.Errorf("no progress in the status: %+v, %d values", r.Stats, r.Nimbers)
	}
	if r.Stats.RootPN != 0 && r.Stats.RootDN != 0 {
		t.Errorf("root pn/dn %d/%d of a solved root", r.Stats.RootPN, r.Stats.RootDN)
	}
	if len(r.Workers) != 2 || r.GossipMembers != 2 {
		t.Fatalf("workers %+v (%d gossip members), want g0 and g1 (2)", r.Workers, r.GossipMembers)
	}
	for i, w := range r.Workers {
		if w.Name != fmt.Sprintf("g%d", i) || w.Slots != 2 || w.LastSeen == nil || w.SinceSeen < 0 || w.SinceSeen > 60 {
			t.Errorf("worker %d: %+v", i, w)
		}
	}
	if g0 := r.Workers[0]; g0.Gossip != "alive" || g0.Grouping != 2 || g0.Version != "test" {
		t.Errorf("g0 was not joined with its gossip member: %+v", g0)
	}
	if len(r.Samples) < 2 || r.SampleInterval <= 0 || !r.Estimate.Available {
		t.Errorf("%d samples every %vs, estimate %+v", len(r.Samples), r.SampleInterval, r.Estimate)
	}
	for _, s := range r.Samples {
		if s.Utilisation < 0 || s.Utilisation > 1 {
			t.Errorf("sample utilisation %v", s.Utilisation)
		}
	}
	var joined []string
	for _, e := range r.Events {
		if e.Kind == eventJoin {
			joined = append(joined, e.Group)
		}
	}
	if slices.Sort(joined); !slices.Equal(joined, []string{"g0", "g1"}) || r.Stats.Events["join"] != 2 {
		t.Errorf("events %+v, counts %v: want the joins of g0 and g1", r.Events, r.Stats.Events)
	}
}

// checkStatusPage checks the HTML status page of TestStatusOnLoopbackRun:
// it shows the run and both groups, and loads nothing from elsewhere.
func checkStatusPage(t *testing.T, base string, key Key) {
	t.Helper()
	code, page := getStatus(t, base+statusPath, key.statusToken())
	for _, want := range []string{"<svg", "g0", "g1", `http-equiv="refresh"`, "Recent events", "join 2,", "2 solvers of 1 thread"} {
		if code != http.StatusOK || !strings.Contains(string(page), want) {
			t.Errorf("GET %s: %d, no %q in\n%s", statusPath, code, want, page)
		}
	}
	for _, external := range []string{"src=", "<link", "<script", "@import"} {
		if strings.Contains(string(page), external) {
			t.Errorf("the status page loads something (%q)", external)
		}
	}
}

// TestMetrics scrapes /metrics and parses it: every metric the master
// names is there, with the values of its counters.
func TestMetrics(t *testing.T) {
	key, _ := NewKey("the metrics test key")
	var clock aheadClock
	m, st, base := statusServer(t, "0*6", key, StatusOptions{Now: clock.now})
	g, _ := NewGroup("g", DefaultParams())
	superviseInBackground(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := g.Run(ctx, localLink{m}); err != nil {
		t.Fatal(err)
	}
	clock.advance(snapshotMaxAge) // past any report cached during the run
	code, body := getStatus(t, base+metricsPath, key.statusToken())
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: %d %s", code, body)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("parsing /metrics: %v\n%s", err, body)
	}
	for _, name := range append(metricNames(), "go_goroutines", "process_cpu_seconds_total") {
		if fams[name] == nil {
			t.Errorf("/metrics has no %s", name)
		}
	}
	stats := m.Stats()
	for name, want := range map[string]float64{
		"spots_swarm_iterations_total":     float64(stats.Iterations),
		"spots_swarm_jobs_assigned_total":  float64(stats.Assigned),
		"spots_swarm_solved":               1,
		"spots_swarm_workers":              1,
		"spots_swarm_root_proof_number":    pnValue(stats.RootPN),
		"spots_swarm_root_disproof_number": pnValue(stats.RootDN),
		"spots_swarm_group_joins_total":    1,
		"spots_swarm_group_bans_total":     0,
	} {
		f := fams[name]
		if f == nil || len(f.Metric) != 1 {
			continue
		}
		var got float64
		switch {
		case f.Metric[0].Counter != nil:
			got = f.Metric[0].Counter.GetValue()
		case f.Metric[0].Gauge != nil:
			got = f.Metric[0].Gauge.GetValue()
		}
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if n, err := testutil.GatherAndCount(st.registry(), metricNames()...); err != nil || n != len(metricNames()) {
		t.Errorf("the registry gathers %d of the %d metrics: %v", n, len(metricNames()), err)
	}
}

// TestStatusAccess: on the job port the status pages need the token; on
// the loopback handler they need a loopback client and host; nowhere do
// they take another method than GET.
func TestStatusAccess(t *testing.T) {
	key, _ := NewKey("the access test key")
	other, _ := NewKey("another swarm's key")
	m, err := NewMaster(sprouts.MustParse("0*6"), DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStatus(m, StatusOptions{})
	job, local := HandlerWithStatus(m, key, st), LoopbackStatusHandler(st)
	token := key.statusToken()
	tests := []struct {
		name    string
		h       http.Handler
		method  string
		path    string
		remote  string
		host    string
		auth    func(*http.Request)
		want    int
		wantSub string
	}{
		{"job port, no token", job, "GET", statusJSONPath, "", "", nil, http.StatusUnauthorized, "token"},
		{"job port, no token, page", job, "GET", statusPath, "", "", nil, http.StatusUnauthorized, ""},
		{"job port, no token, metrics", job, "GET", metricsPath, "", "", nil, http.StatusUnauthorized, ""},
		{"job port, another swarm's token", job, "GET", statusJSONPath, "", "", bearer(other.statusToken()), http.StatusUnauthorized, ""},
		{"job port, bearer token", job, "GET", statusJSONPath, "", "", bearer(token), http.StatusOK, `"stats"`},
		{"job port, basic password", job, "GET", statusPath, "", "", basic(token), http.StatusOK, "<svg"},
		{"job port, metrics with token", job, "GET", metricsPath, "", "", bearer(token), http.StatusOK, "spots_swarm_workers"},
		{"job port, HEAD", job, "HEAD", statusJSONPath, "", "", bearer(token), http.StatusOK, ""},
		{"job port, POST", job, "POST", statusJSONPath, "", "", bearer(token), http.StatusMethodNotAllowed, ""},
		{"job port, PUT", job, "PUT", statusPath, "", "", bearer(token), http.StatusMethodNotAllowed, ""},
		{"job port, DELETE metrics", job, "DELETE", metricsPath, "", "", bearer(token), http.StatusMethodNotAllowed, ""},
		{"job port, no root page", job, "GET", "/", "", "", bearer(token), http.StatusNotFound, ""},
		{"loopback", local, "GET", statusJSONPath, "", "", nil, http.StatusOK, `"workers"`},
		{"loopback, root page", local, "GET", "/", "", "localhost:7402", nil, http.StatusOK, "<svg"},
		{"loopback, ::1", local, "GET", metricsPath, "[::1]:5000", "[::1]:7402", nil, http.StatusOK, "spots_swarm_slots"},
		{"loopback, remote client", local, "GET", statusJSONPath, "10.1.2.3:5000", "", nil, http.StatusForbidden, "loopback"},
		{"loopback, rebound host name", local, "GET", statusPath, "", "evil.example:7402", nil, http.StatusForbidden, "host"},
		{"loopback, POST", local, "POST", statusJSONPath, "", "", nil, http.StatusMethodNotAllowed, ""},
		{"loopback, PUT root", local, "PUT", "/", "", "", nil, http.StatusMethodNotAllowed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "http://127.0.0.1:7402"+tt.path, strings.NewReader("x=1"))
			req.RemoteAddr = "127.0.0.1:5000"
			if tt.remote != "" {
				req.RemoteAddr = tt.remote
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			if tt.auth != nil {
				tt.auth(req)
			}
			rec := httptest.NewRecorder()
			tt.h.ServeHTTP(rec, req)
			if rec.Code != tt.want || !strings.Contains(rec.Body.String(), tt.wantSub) {
				t.Errorf("%s %s: %d, want %d with %q\n%.300s", tt.method, tt.path, rec.Code, tt.want, tt.wantSub, rec.Body.String())
			}
		})
	}
	if st := m.Stats(); st.Exchanges != 0 || st.Assigned != 0 {
		t.Errorf("reading the status changed the master: %+v", st)
	}
}

func bearer(token string) func(*http.Request) {
	return func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+token) }
}

func basic(token string) func(*http.Request) {
	return func(r *http.Request) { r.SetBasicAuth("anyone", token) }
}

// TestStatusToken checks the derivation the documentation gives for a
// shell (printf 'spots-swarm-status\000%s' "$KEY" | sha256sum).
func TestStatusToken(t *testing.T) {
	key, _ := NewKey("a long shared secret")
	sum := sha256.Sum256([]byte("spots-swarm-status\x00a long shared secret"))
	if got, want := key.statusToken(), hex.EncodeToString(sum[:]); got != want {
		t.Errorf("StatusToken %s, want %s", got, want)
	}
	if (Key{}).statusToken() != "" {
		t.Error("a zero Key has a status token")
	}
}

// TestStatusSamplesCoverTheRun samples with a fake clock past MaxSamples:
// the samples stay within the bound, cover the whole run, and the interval
// doubles each time they are thinned.
func TestStatusSamplesCoverTheRun(t *testing.T) {
	m, err := NewMaster(sprouts.MustParse("0*6"), DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_000_000, 0)
	st := NewStatus(m, StatusOptions{Interval: time.Second, MaxSamples: 8, Now: func() time.Time { return now }})
	start := now
	for range 40 {
		st.takeSample()
		st.takeSample() // not due: ignored
		now = now.Add(time.Second)
	}
	r := st.report()
	if len(r.Samples) > 8 || len(r.Samples) < 4 {
		t.Errorf("%d samples, want 4 to 8", len(r.Samples))
	}
	if !r.Samples[0].Time.Equal(start) || r.Samples[len(r.Samples)-1].Time.Before(start.Add(30*time.Second)) {
		t.Errorf("samples from %v to %v do not cover the run from %v", r.Samples[0].Time, r.Samples[len(r.Samples)-1].Time, start)
	}
	if r.SampleInterval < 4 {
		t.Errorf("sample interval %vs after thinning 40 samples into 8", r.SampleInterval)
	}
}

// TestEstimate: the estimate extends the fall of min(pn, dn) and says why
// when it cannot.
func TestEstimate(t *testing.T) {
	t0 := time.Unix(0, 0)
	line := func(n int, step time.Duration, v func(i int) uint64) []sample {
		var out []sample
		for i := range n {
			dn := uint64(1 << 40)
			if v(i) == solve.Inf {
				dn = solve.Inf
			}
			out = append(out, sample{Time: t0.Add(time.Duration(i) * step), RootPN: v(i), RootDN: dn})
		}
		return out
	}
	tests := []struct {
		name    string
		samples []sample
		solved  bool
		ok      bool
		seconds float64
		reason  string
	}{
		{"solved", nil, true, true, 0, ""},
		{"no samples", nil, false, false, 0, "too few"},
		{"too short", line(30, time.Second, func(i int) uint64 { return uint64(100 - i) }), false, false, 0, "too few"},
		{"falling by 1 a second", line(120, time.Second, func(i int) uint64 { return uint64(1000 - i) }), false, true, 881, ""},
		{"rising", line(120, time.Second, func(i int) uint64 { return uint64(1000 + i) }), false, false, 0, "not falling"},
		{"flat", line(120, time.Second, func(int) uint64 { return 500 }), false, false, 0, "not falling"},
		{"infinite", line(120, time.Second, func(int) uint64 { return solve.Inf }), false, false, 0, "infinite"},
		// The fall of the last few leaves: from 3 to 1 over the newest
		// samples (the case that said "about 3 s" with 100 s left).
		{"a few leaves left", line(120, time.Second, func(i int) uint64 { return uint64(3 - i/50) }), false, false, 0, "too few leaves"},
		{"just enough leaves", line(120, time.Second, func(i int) uint64 { return uint64(135 - i) }), false, true, 16, ""},
		// A slight fall under a large swing: the line explains little.
		{"uneven", line(120, time.Second, func(i int) uint64 { return uint64(1000 - i + 400*(i%2)) }), false, false, 0, "unevenly"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := estimate(tt.samples, tt.solved)
			if e.Available != tt.ok || (tt.ok && (e.Seconds < tt.seconds-1 || e.Seconds > tt.seconds+1)) || !strings.Contains(e.Reason, tt.reason) || e.Method == "" {
				t.Errorf("estimate %+v, want available %v, %vs, reason %q", e, tt.ok, tt.seconds, tt.reason)
			}
		})
	}
}

// TestConcurrentStatusReads reads the status (report, page, metrics) from
// several goroutines while groups solve (make test runs it under the race
// detector): the readers see the counters only grow, and the solve ends
// right.
func TestConcurrentStatusReads(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 4096
	m, err := NewMaster(sprouts.MustParse("0*5"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := NewStatus(m, StatusOptions{Interval: time.Millisecond})
	reg := st.registry()
	superviseInBackground(t, m)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stop := make(chan struct{})
	var readers, groups sync.WaitGroup
	for i := range 4 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			var last uint64
			for {
				select {
				case <-stop:
					return
				case <-time.After(2 * time.Millisecond): // leave the solvers most of the CPU
				}
				st.takeSample()
				switch i % 3 {
				case 0:
					r := st.report()
					if r.Stats.Iterations < last {
						t.Errorf("T-It went back from %d to %d", last, r.Stats.Iterations)
					}
					last = r.Stats.Iterations
				case 1:
					rec := httptest.NewRecorder()
					st.servePage(rec, httptest.NewRequest("GET", statusPath, nil))
				case 2:
					if _, err := reg.Gather(); err != nil {
						t.Errorf("gather: %v", err)
					}
				}
			}
		}()
	}
	for i := range 2 {
		g, err := NewGroup(fmt.Sprintf("g%d", i), p)
		if err != nil {
			t.Fatal(err)
		}
		groups.Add(1)
		go func() {
			defer groups.Done()
			if err := g.Run(ctx, localLink{m}); err != nil {
				t.Errorf("group %d: %v", i, err)
			}
		}()
	}
	groups.Wait()
	close(stop)
	readers.Wait()
	if out := m.Outcome(); out != solve.Win {
		t.Errorf("0*5 is %v, want W", out)
	}
}

// TestStatusVocabulary: /status.json says iterations, nodes and
// grundy_numbers… as docs/json.md's one vocabulary does, and no longer
// the keys it had before (t_it, m_nodes, nimbers…), which it wrote beside
// them for one release.
func TestStatusVocabulary(t *testing.T) {
	r := StatusReport{Stats: MasterStats{WorkStats: WorkStats{Iterations: 5, Nodes: 3, NimbersIn: 2}, SwarmStats: SwarmStats{NimbersShared: 1}}, Nimbers: 7,
		Samples: []sample{{Iterations: 5, Nodes: 3, Nimbers: 7, NimbersShared: 1}}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"grundy_numbers":7`, `"iterations":5,`, `"nodes":3`, `"grundy_numbers_received":2`, `"grundy_numbers_shared":1`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("status JSON lacks %s: %s", want, b)
		}
	}
	for _, old := range []string{`"t_it"`, `"m_nodes"`, `"nimbers"`, `"nimbers_received"`, `"nimbers_forwarded"`} {
		if strings.Contains(string(b), old) {
			t.Errorf("status JSON still has the removed key %s: %s", old, b)
		}
	}
	var back StatusReport
	if err := json.Unmarshal(b, &back); err != nil || back.Stats.Iterations != 5 || back.Samples[0].Nodes != 3 || back.Nimbers != 7 {
		t.Errorf("read back: %+v, %v", back, err)
	}
}
