package swarm

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

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

// supervisedMaster starts the master of 0*n with small tables and short
// jobs, and its supervision (supervise) in a goroutine of wg until ctx
// ends or the root is solved. It returns the master, the parameters for
// its groups, and the audits and checks that found something, complete
// once wg is waited for.
func supervisedMaster(ctx context.Context, t *testing.T, n int, wg *sync.WaitGroup) (*Master, Params, *[]AuditResult) {
	t.Helper()
	p := DefaultParams()
	p.Capacity, p.Iterations, p.Updates = 4096, 300, 300
	m, err := NewMaster(sprouts.MustParse(fmt.Sprintf("0*%d", n)), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	failed := new([]AuditResult)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var err error
		if *failed, err = supervise(ctx, m); err != nil {
			t.Errorf("supervise: %v", err)
		}
	}()
	return m, p, failed
}

// provesRoot fails t unless the master of 0*n found the right outcome and
// its values prove it: the certificate built from them verifies. what
// says what went on, for the message.
func provesRoot(t *testing.T, m *Master, n int, what string) {
	t.Helper()
	if out := m.Outcome(); out.String() != outcomeOf(n) {
		t.Fatalf("0*%d is %v, want %s; %s; master %+v", n, out, outcomeOf(n), what, m.Stats())
	}
	claim, _ := certify.Claim(sprouts.MustParse(fmt.Sprintf("0*%d", n)), 0, m.Outcome(), nil)
	cert, err := certify.Build(m.DB(), claim, verify.Options{})
	if err == nil {
		_, err = verify.Certificate(cert)
	}
	if err != nil {
		t.Errorf("the final values do not prove %s: %v", claim, err)
	}
}

// supervise runs m.Supervise, as spots-solve does, checking the values
// every second; it returns the audits and checks that found something
// wrong.
func supervise(ctx context.Context, m *Master) ([]AuditResult, error) {
	var failed []AuditResult
	_, err := m.Supervise(ctx, SuperviseOptions{CheckEvery: time.Second, Report: func(res AuditResult) { failed = append(failed, res) }})
	return failed, err
}

// superviseInBackground runs supervise until the test ends.
func superviseInBackground(t *testing.T, m *Master) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if failed, err := supervise(ctx, m); err != nil && ctx.Err() == nil {
			t.Errorf("supervise: %v (%d audits failed)", err, len(failed))
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
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
	wg.Add(1)
	go func() {
		defer wg.Done()
		if failed, err := supervise(ctx, m); err != nil || len(failed) > 0 {
			t.Errorf("supervise: %v, %d audits failed", err, len(failed))
		}
	}()
	runGroups(t, ctx, &wg, m, p, "g", groups)
	wg.Wait()
	return m
}

// runGroups runs n groups named prefix0, prefix1, … against m until the
// solve is over or ctx ends, each in a goroutine wg waits for; a group
// that fails fails the test.
func runGroups(t *testing.T, ctx context.Context, wg *sync.WaitGroup, m *Master, p Params, prefix string, n int) {
	t.Helper()
	for i := range n {
		g, err := NewGroup(fmt.Sprintf("%s%d", prefix, i), p)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := g.Run(ctx, localLink{m}); err != nil {
				t.Errorf("group %s: %v", g.Name, err)
			}
		}()
	}
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
	m, p, now := clockedMaster(t)
	reply, err := m.Exchange(ExchangeRequest{Group: "silent", Slots: 4})
	if err != nil || len(reply.Jobs) != 4 {
		t.Fatalf("%d jobs, %v", len(reply.Jobs), err)
	}
	if n := m.expire(); n != 0 {
		t.Errorf("%d jobs expired within the lease", n)
	}
	*now = now.Add(2 * time.Minute)
	if n := m.expire(); n != 4 {
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
	superviseInBackground(t, m)
	g, _ := NewGroup("worker", p)
	if err := g.Run(context.Background(), localLink{m}); err != nil {
		t.Fatal(err)
	}
	if m.Outcome() != solve.Loss {
		t.Errorf("0*8: %v", m.Outcome())
	}
}

// clockedMaster returns a master of 0*8 with a lease of a minute, that
// trusts every group from its first exchange, its params, and the time
// of its clock, which only the test moves.
func clockedMaster(t *testing.T) (*Master, Params, *time.Time) {
	t.Helper()
	p := DefaultParams()
	p.Lease, p.Probation = time.Minute, 0
	m, err := NewMaster(sprouts.MustParse("0*8"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	m.clock = funcClock(func() time.Time { return now })
	return m, p, &now
}

// funcClock is a Clock that reads the time from a function.
type funcClock func() time.Time

func (f funcClock) Now() time.Time                  { return f() }
func (f funcClock) Since(t time.Time) time.Duration { return f().Sub(t) }

func signedRequest(t *testing.T, key Key, url, path, run string, body []byte, skew time.Duration) *http.Request {
	req, _ := http.NewRequest(http.MethodPost, url+path, bytes.NewReader(body))
	key.setRequestHeaders(req, body, run, time.Now().Add(skew))
	return req
}

// again makes a copy of a request, headers and body, as a replay.
func again(req *http.Request, body []byte) *http.Request {
	r, _ := http.NewRequest(req.Method, req.URL.String(), bytes.NewReader(body))
	r.Header = req.Header.Clone()
	return r
}

func TestHTTPAuthentication(t *testing.T) {
	key, _ := NewKey("the right key")
	wrong, _ := NewKey("the wrong key")
	m, err := NewMaster(sprouts.MustParse("0*6"), DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(newHandler(m, key))
	defer srv.Close()
	body, _ := encodeMessage(ExchangeRequest{Group: "g", Slots: 1}, nil)
	first := signedRequest(t, key, srv.URL, "/v1/exchange", m.Run(), body, 0)
	tampered := signedRequest(t, key, srv.URL, "/v1/exchange", m.Run(), body, 0)
	flipped := bytes.Clone(body)
	flipped[len(flipped)-1] ^= 1
	tampered.Body = io.NopCloser(bytes.NewReader(flipped))
	longer := signedRequest(t, key, srv.URL, "/v1/exchange", m.Run(), body, 0)
	longer.Header.Set(hdrLength, strconv.Itoa(len(body)+1))
	unsigned, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/exchange", bytes.NewReader(body))
	tests := []struct {
		name string
		req  *http.Request
		want int
	}{
		{"right key", first, http.StatusOK},
		{"replayed", again(first, body), http.StatusUnauthorized},
		{"wrong key", signedRequest(t, wrong, srv.URL, "/v1/exchange", m.Run(), body, 0), http.StatusUnauthorized},
		{"old stamp", signedRequest(t, key, srv.URL, "/v1/exchange", m.Run(), body, -time.Hour), http.StatusUnauthorized},
		{"tampered body", tampered, http.StatusUnauthorized},
		{"length not the signed one", longer, http.StatusUnauthorized},
		{"garbage body", signedRequest(t, key, srv.URL, "/v1/exchange", m.Run(), []byte("\x00\x00\x00\x05{}"), 0), http.StatusBadRequest},
		{"unsigned", unsigned, http.StatusUnauthorized},
		{"another run", signedRequest(t, key, srv.URL, "/v1/exchange", "an earlier run", body, 0), http.StatusConflict},
		{"no run", signedRequest(t, key, srv.URL, "/v1/exchange", "", body, 0), http.StatusConflict},
	}
	for _, tt := range tests {
		resp, err := http.DefaultClient.Do(tt.req)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
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
	superviseInBackground(t, m)
	g, _ := NewGroup("http", DefaultParams())
	ok := &HTTPLink{Key: key, Resolve: func(context.Context) (string, error) { return srv.URL, nil }}
	if err := g.Run(context.Background(), ok); err != nil || m.Outcome() != solve.Loss {
		t.Errorf("over HTTP: %v, %v", err, m.Outcome())
	}
}

// countingListener counts the bytes the server reads from its connections.
type countingListener struct {
	net.Listener
	read *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.read}, nil
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c countingConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	c.read.Add(int64(n))
	return n, err
}

// testServer serves a master of 0*8 on 127.0.0.1 through Serve, counting
// the bytes it reads; it stops with the test.
func testServer(t *testing.T, key Key, cfg serverConfig) (addr string, read *atomic.Int64, run string) {
	t.Helper()
	m, err := NewMaster(sprouts.MustParse("0*8"), DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	read = new(atomic.Int64)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveMaster(ctx, countingListener{ln, read}, m, key, cfg) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String(), read, m.Run()
}

// drain reads from c until the server ends the connection; a test-wide
// guard (not a measured threshold) keeps a broken server from hanging it.
func drain(t *testing.T, c net.Conn) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(time.Minute))
	var out bytes.Buffer
	_, err := io.Copy(&out, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server still holds the connection after a minute (read %q)", out.String())
	}
	return out.String()
}

// TestUnauthenticatedBodyIsNotRead posts 100 MB without a signature: the
// master answers from the headers and closes the connection, having read
// no more than a few kilobytes.
func TestUnauthenticatedBodyIsNotRead(t *testing.T) {
	key, _ := NewKey("the right key")
	wrong, _ := NewKey("the wrong key")
	addr, read, run := testServer(t, key, serverConfig{})
	const size = 100 << 20
	tests := []struct {
		name string
		sign func(*http.Request)
	}{
		{"unsigned", func(*http.Request) {}},
		{"wrong key", func(r *http.Request) { wrong.setRequestHeaders(r, make([]byte, size), run, time.Now()) }},
	}
	for _, tt := range tests {
		read.Store(0)
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		hr, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/exchange", nil)
		tt.sign(hr)
		var head bytes.Buffer
		fmt.Fprintf(&head, "POST /v1/exchange HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", addr, size)
		hr.Header.Write(&head)
		head.WriteString("\r\n")
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.Write(head.Bytes()); err != nil {
				return
			}
			chunk := make([]byte, 1<<20)
			for range size / len(chunk) {
				if _, err := c.Write(chunk); err != nil {
					return // the server closed the connection
				}
			}
		}()
		reply := drain(t, c)
		c.Close()
		wg.Wait()
		if reply != "" && !strings.Contains(reply, "401 Unauthorized") {
			t.Errorf("%s: reply %q, want 401", tt.name, reply)
		}
		t.Logf("%s: the server read %d bytes", tt.name, read.Load())
		if n := read.Load(); n > 1<<20 {
			t.Errorf("%s: the server read %d bytes of an unauthenticated 100 MB post", tt.name, n)
		}
	}
}

// TestSlowBodyIsDropped sends signed headers and then trickles the body: the
// server drops the connection at its read timeout (short here).
func TestSlowBodyIsDropped(t *testing.T) {
	key, _ := NewKey("the right key")
	addr, _, run := testServer(t, key, serverConfig{ReadHeaderTimeout: 200 * time.Millisecond, ReadTimeout: 300 * time.Millisecond})
	body, _ := encodeMessage(ExchangeRequest{Group: "g", Slots: 1}, nil)
	tests := []struct {
		name string
		send func(c net.Conn)
	}{
		{"slow body", func(c net.Conn) {
			hr, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/exchange", nil)
			key.setRequestHeaders(hr, body, run, time.Now())
			fmt.Fprintf(c, "POST /v1/exchange HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", addr, len(body))
			hr.Header.Write(c)
			fmt.Fprintf(c, "\r\n%s", body[:3]) // and nothing more
		}},
		{"slow headers", func(c net.Conn) { fmt.Fprintf(c, "POST /v1/exchange HTTP/1.1\r\nHost: %s\r\n", addr) }},
		{"nothing", func(net.Conn) {}},
	}
	for _, tt := range tests {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		tt.send(c)
		reply := drain(t, c) // returns once the server has dropped it
		c.Close()
		if strings.Contains(reply, "200 OK") {
			t.Errorf("%s: accepted: %q", tt.name, reply)
		}
	}
}

// TestConnectionLimit holds the server's connections open: one more is
// closed at once, while those held still work.
func TestConnectionLimit(t *testing.T) {
	key, _ := NewKey("the right key")
	addr, _, run := testServer(t, key, serverConfig{MaxConns: 2})
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		held = append(held, c)
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	extra.Write([]byte("GET /v1/status HTTP/1.1\r\n\r\n"))
	if reply := drain(t, extra); reply != "" {
		t.Errorf("a connection beyond the limit got %q", reply)
	}
	extra.Close()
	body, _ := encodeMessage(ExchangeRequest{Group: "g", Slots: 1}, nil)
	hr, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/v1/exchange", bytes.NewReader(body))
	key.setRequestHeaders(hr, body, run, time.Now())
	if err := hr.Write(held[0]); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(held[0]), hr)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("a held connection: %v, %v", resp, err)
	}
}

// TestSlotClaimsAreCapped: a group that claims 65,536 solvers is given jobs
// for MaxGrouping, and the next group still finds jobs (groups trusted
// from their first exchange: on probation, a newcomer gets no more than
// there is room for, TestSchedule/probation).
func TestSlotClaimsAreCapped(t *testing.T) {
	p := DefaultParams()
	p.InitNodes, p.Probation = 3000, 0
	m, err := NewMaster(sprouts.MustParse("0*12"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		group     string
		slots     int
		wantJobs  int
		wantSlots int
	}{
		{"greedy", 1 << 16, MaxGrouping, MaxGrouping},
		{"greedy", 1 << 16, 0, MaxGrouping}, // holds its MaxGrouping already
		{"honest", 4, 4, MaxGrouping + 4},
	}
	for _, tt := range tests {
		reply, err := m.Exchange(ExchangeRequest{Group: tt.group, Slots: tt.slots})
		if err != nil {
			t.Fatal(err)
		}
		if st := m.Stats(); len(reply.Jobs) != tt.wantJobs || st.Slots != tt.wantSlots {
			t.Errorf("%s claims %d: %d jobs, %d slots known; want %d, %d", tt.group, tt.slots, len(reply.Jobs), st.Slots, tt.wantJobs, tt.wantSlots)
		}
	}
	for _, bad := range []ExchangeRequest{{Group: "g", Slots: 0}, {Group: "", Slots: 1}, {Group: strings.Repeat("x", 1000), Slots: 1}} {
		if _, err := m.Exchange(bad); err == nil {
			t.Errorf("group %.10q with %d slots accepted", bad.Group, bad.Slots)
		}
	}
}

// TestIdleGroupsAreForgotten: a group that holds no job and is silent past
// the lease is forgotten; one that keeps exchanging is not.
func TestIdleGroupsAreForgotten(t *testing.T) {
	p := DefaultParams()
	p.Lease, p.InitNodes = time.Minute, 1
	m, err := NewMaster(sprouts.MustParse("0*3"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	m.clock = funcClock(func() time.Time { return now })
	a, _ := m.Exchange(ExchangeRequest{Group: "busy", Slots: 1})
	b, _ := m.Exchange(ExchangeRequest{Group: "idle", Slots: 1})
	if len(a.Jobs) != 1 || len(b.Jobs) != 0 {
		t.Fatalf("jobs %d and %d, want the one job to the first group", len(a.Jobs), len(b.Jobs))
	}
	steps := []struct {
		advance time.Duration
		groups  int
	}{{30 * time.Second, 2}, {40 * time.Second, 1}, {10 * time.Second, 1}}
	for i, s := range steps {
		now = now.Add(s.advance)
		m.Exchange(ExchangeRequest{Group: "busy", Slots: 1}) // alive
		m.expire()
		if st := m.Stats(); st.Groups != s.groups {
			t.Errorf("step %d: %d groups, want %d", i, st.Groups, s.groups)
		}
	}
}

// allocated returns the bytes f allocates (on the Go heap, which is where
// Arrow's Go allocator and its unchecked makes take memory from).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// decodeBudget is what decoding a message of n bytes may allocate: a few
// times its size, and a little for the reader's own state.
func decodeBudget(n int) uint64 { return 64*uint64(n) + 1<<20 }

func FuzzDecodeMessage(f *testing.F) {
	good, _ := encodeMessage(ExchangeRequest{Group: "g", Slots: 2}, []solve.NimberEntry{{Key: "\x04", G: 0}})
	f.Add(good)
	f.Add([]byte("\x00\x00\x00\x02{}"))
	for _, c := range hostileMessages() {
		f.Add(c.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var req ExchangeRequest
		if n := allocated(func() { decodeMessage(data, &req) }); n > decodeBudget(len(data)) { // must not panic
			t.Errorf("decoding %d bytes allocated %d", len(data), n)
		}
	})
}

// recordBatchAt returns the offset in a message of the root table of the
// first record batch's metadata, and the metadata.
func recordBatchAt(msg []byte) (int, fbuf) {
	n := int(binary.BigEndian.Uint32(msg))
	at := 4 + n + len(schemaPrefix) + 8
	metaLen := int(binary.LittleEndian.Uint32(msg[at-4:]))
	return at, fbuf(msg[at : at+metaLen])
}

type hostile struct {
	name string
	data []byte
}

// hostileMessages are signed-size messages whose Arrow stream declares
// lengths it does not have: the reader would allocate by them.
func hostileMessages() []hostile {
	good, _ := encodeMessage(ExchangeRequest{Group: "g", Slots: 2}, []solve.NimberEntry{{Key: "\x04", G: 0}, {Key: "\x05", G: 1}})
	head := good[:4+int(binary.BigEndian.Uint32(good))+len(schemaPrefix)]
	frame := func(metaLen uint32, pad int) []byte {
		out := append(bytes.Clone(head), 0xFF, 0xFF, 0xFF, 0xFF)
		out = binary.LittleEndian.AppendUint32(out, metaLen)
		return append(out, make([]byte, pad)...)
	}
	// patch sets an int64 field of the first record batch's metadata.
	patch := func(field func(b fbuf) int64, v int64) []byte {
		out := bytes.Clone(good)
		at, b := recordBatchAt(out)
		binary.LittleEndian.PutUint64(out[at+int(field(b)):], uint64(v))
		return out
	}
	bodyLength := func(b fbuf) int64 {
		root, _ := b.indirect(0)
		p, _ := b.field(root, 3)
		return p
	}
	rows := func(b fbuf) int64 {
		root, _ := b.indirect(0)
		h, _ := b.field(root, 2)
		rb, _ := b.indirect(h)
		p, _ := b.field(rb, 0)
		return p
	}
	short := frame(0x7FFFFFFF, 0)
	return []hostile{
		// The tester's case: 435 bytes that declare 2³¹ − 1 bytes of metadata.
		{"2³¹ bytes of metadata in 435", frame(0x7FFFFFFF, 435-len(short))},
		{"negative metadata length", frame(0x80000000, 64)},
		{"metadata longer than the stream", frame(4096, 100)},
		{"old framing without marker", append(bytes.Clone(head), 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0, 0)},
		{"body of 2⁴⁰ bytes", patch(bodyLength, 1<<40)},
		{"negative body", patch(bodyLength, -8)},
		{"2⁶⁰ rows", patch(rows, 1<<60)},
	}
}

// TestHostileArrowLengths decodes messages that declare more than they
// hold: each is refused, allocating no more than a few times its size.
func TestHostileArrowLengths(t *testing.T) {
	for _, c := range hostileMessages() {
		var req ExchangeRequest
		var err error
		n := allocated(func() { _, err = decodeMessage(c.data, &req) })
		if err == nil {
			t.Errorf("%s: accepted", c.name)
		}
		if n > decodeBudget(len(c.data)) {
			t.Errorf("%s: decoding %d bytes allocated %d", c.name, len(c.data), n)
		}
	}
	if c := hostileMessages()[0]; len(c.data) != 435 {
		t.Errorf("the first case has %d bytes, want 435", len(c.data))
	}
}

// TestCompressedNimbers decodes streams of Grundy values whose batch is
// compressed (writeNimbers never compresses): a batch that inflates to
// twenty times its message is refused, having allocated no more than a
// few times the message's size.
func TestCompressedNimbers(t *testing.T) {
	for _, opt := range []ipc.Option{ipc.WithLZ4(), ipc.WithZstd()} {
		b := array.NewRecordBuilder(memory.NewGoAllocator(), nimberSchema)
		for range 1000 {
			b.Field(0).(*array.BinaryBuilder).Append(bytes.Repeat([]byte{4}, 100))
			b.Field(1).(*array.Uint32Builder).Append(1)
		}
		var buf bytes.Buffer
		iw := ipc.NewWriter(&buf, ipc.WithSchema(nimberSchema), opt)
		if err := iw.Write(b.NewRecord()); err != nil {
			t.Fatal(err)
		}
		iw.Close()
		hdr, _ := json.Marshal(ExchangeRequest{Group: "g", Slots: 1})
		msg := append(append(binary.BigEndian.AppendUint32(nil, uint32(len(hdr))), hdr...), buf.Bytes()...)
		var req ExchangeRequest
		var err error
		n := allocated(func() { _, err = decodeMessage(msg, &req) })
		if err == nil || n > decodeBudget(len(msg)) {
			t.Errorf("a compressed batch of 100 kB in %d bytes: error %v, allocated %d", len(msg), err, n)
		}
	}
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
	m.clock = funcClock(func() time.Time { return now })
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

// lyingLink is a group's link that changes the values the group sends
// (tell) before passing its requests on: a lying group, to show that a
// liar cannot poison a solve. The swarm itself has no such hook.
type lyingLink struct {
	Link
	tell func([]solve.NimberEntry) []solve.NimberEntry
}

func (l lyingLink) Exchange(ctx context.Context, req ExchangeRequest) (ExchangeReply, error) {
	if len(req.Nimbers) > 0 {
		req.Nimbers = l.tell(slices.Clone(req.Nimbers))
	}
	return l.Link.Exchange(ctx, req)
}

// liar returns a function for lyingLink that changes every k-th value it
// sends (among values of at least 1) by the given function, and the lies
// it told.
func liar(k int, change func(uint32) uint32) (func([]solve.NimberEntry) []solve.NimberEntry, func() map[string]uint32) {
	var mu sync.Mutex
	lies := map[string]uint32{}
	n := 0
	hook := func(es []solve.NimberEntry) []solve.NimberEntry {
		mu.Lock()
		defer mu.Unlock()
		for i := range es {
			if es[i].G == 0 {
				continue
			}
			if n++; n%k == 0 {
				es[i].G = change(es[i].G)
				lies[es[i].Key] = es[i].G
			}
		}
		return es
	}
	told := func() map[string]uint32 {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(lies)
	}
	return hook, told
}

// TestLyingGroup solves with honest groups and one that sends wrong Grundy
// values: the master finds them, bans the liar, drops what may rest on its
// values and ends with the right outcome, proved by a certificate; none of
// the lies is left in its database.
func TestLyingGroup(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		every  int
		change func(uint32) uint32
	}{
		{"one less", 10, 2, func(g uint32) uint32 { return g - 1 }},
		{"one more", 10, 2, func(g uint32) uint32 { return g + 1 }},
		{"all zero", 9, 1, func(uint32) uint32 { return 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var wg sync.WaitGroup
			m, p, failed := supervisedMaster(ctx, t, tt.n, &wg)
			hook, told := liar(tt.every, tt.change)
			errs := make([]error, 3)
			for i := range errs {
				g, err := NewGroup(fmt.Sprintf("g%d", i), p)
				if err != nil {
					t.Fatal(err)
				}
				var link Link = localLink{m}
				if i == 0 {
					link = lyingLink{link, hook}
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = g.Run(ctx, link)
				}()
			}
			wg.Wait()
			provesRoot(t, m, tt.n, fmt.Sprintf("groups ended with %v; %d audits failed", errs, len(*failed)))
			lies := told()
			if len(lies) == 0 {
				t.Fatal("the liar told no lie")
			}
			// A lie may be true by accident (the liar's own values rest on
			// what others derived from its lies): solve each one left.
			left := 0
			check := solve.NewDFPN(sprouts.Rules{}, nil, solve.Options{Capacity: 1 << 16})
			m.DB().Range(func(k string, g uint32) bool {
				if lie, ok := lies[k]; ok && lie == g {
					if p, _ := sprouts.FromKey(k); check.Solve(ctx, p, g) != solve.Loss {
						left++
					}
				}
				return true
			})
			if left > 0 {
				t.Errorf("%d of the %d lies are in the final database", left, len(lies))
			}
			st := m.Stats()
			for _, f := range *failed {
				t.Logf("audit: wrong %v, banned %v, dropped %d (%v)", f.Wrong, f.Banned, f.Dropped, f.Unproved)
			}
			if len(*failed) > 0 && (st.Banned != 1 || !errors.Is(errs[0], ErrBanned)) {
				t.Errorf("banned %d groups; the liar ended with %v", st.Banned, errs[0])
			}
			for i, err := range errs[1:] {
				if err != nil {
					t.Errorf("honest group g%d: %v", i+1, err)
				}
			}
		})
	}
}

// TestWrongSavedValues resumes from a database (as --resume loads) that
// holds wrong values: the master ends with the right outcome, proved; the
// wrong values it met are dropped (there is no group to ban). A wrong value
// that neither the proof needs nor another value contradicts may stay: no
// check refutes it.
func TestWrongSavedValues(t *testing.T) {
	tests := []struct {
		root     string
		wrong    map[string]uint32 // position → a wrong Grundy value
		expect   string
		mustDrop bool
	}{
		{"0*8", map[string]uint32{"0*2": 1, "0*3": 0}, "L", true},
		{"0*9", map[string]uint32{"0*4": 1, "0*5": 2}, "W", false},
	}
	for _, tt := range tests {
		db := solve.NewNimberDB()
		for pos, g := range tt.wrong {
			db.Put(sprouts.MustParse(pos).Key(), g)
		}
		p := DefaultParams()
		p.Capacity = 4096
		root := sprouts.MustParse(tt.root)
		m, err := NewMaster(root, p, db)
		if err != nil {
			t.Fatal(err)
		}
		superviseInBackground(t, m)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var wg sync.WaitGroup
		for i := range 2 {
			g, _ := NewGroup(fmt.Sprintf("g%d", i), p)
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := g.Run(ctx, localLink{m}); err != nil {
					t.Errorf("%s: group %d: %v", tt.root, i, err)
				}
			}()
		}
		wg.Wait()
		cancel()
		if out := m.Outcome().String(); out != tt.expect {
			t.Errorf("%s is %s, want %s (stats %+v)", tt.root, out, tt.expect, m.Stats())
			continue
		}
		claim, _ := certify.Claim(root, 0, m.Outcome(), nil)
		cert, err := certify.Build(m.DB(), claim, verify.Options{})
		if err == nil {
			_, err = verify.Certificate(cert)
		}
		if err != nil {
			t.Errorf("the final values do not prove %s: %v", claim, err)
		}
		for pos, g := range tt.wrong {
			if v, ok := m.DB().Get(sprouts.MustParse(pos).Key()); ok && v == g && tt.mustDrop {
				t.Errorf("%s: the wrong gn(%s)=%d is still in the database", tt.root, pos, g)
			}
		}
	}
}

// fbuf reads a flatbuffer for the tests that patch one, every offset
// checked.
type fbuf []byte

func (b fbuf) u32(at int64) (int64, error) {
	if at < 0 || at+4 > int64(len(b)) {
		return 0, errors.New("out of the buffer")
	}
	return int64(binary.LittleEndian.Uint32(b[at:])), nil
}

// field returns the position of field i of the table at pos, or 0 if the
// table does not have it.
func (b fbuf) field(pos int64, i int) (int64, error) {
	so, err := b.u32(pos)
	if err != nil {
		return 0, err
	}
	vt := pos - int64(int32(so))
	if vt < 0 || vt+4 > int64(len(b)) {
		return 0, errors.New("vtable out of the buffer")
	}
	slot := int64(4 + 2*i)
	if vtSize := int64(binary.LittleEndian.Uint16(b[vt:])); slot+2 > vtSize || vt+slot+2 > int64(len(b)) {
		return 0, nil
	}
	if o := int64(binary.LittleEndian.Uint16(b[vt+slot:])); o != 0 {
		return pos + o, nil
	}
	return 0, nil
}

// indirect follows the offset stored at pos (to a table or vector).
func (b fbuf) indirect(pos int64) (int64, error) {
	o, err := b.u32(pos)
	return pos + o, err
}

// TestSuperviseStops checks the ways Supervise ends without a proved
// outcome: its caller's limit (Every), and ctx.
func TestSuperviseStops(t *testing.T) {
	m, err := NewMaster(sprouts.MustParse("0*9"), DefaultParams(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ticks := 0
	out, err := m.Supervise(context.Background(), SuperviseOptions{Tick: time.Millisecond, Every: func(MasterStats) bool {
		ticks++
		return ticks < 3
	}})
	if out != solve.Unknown || !errors.Is(err, ErrStopped) || ticks != 3 {
		t.Errorf("stopped by Every after %d ticks: %v, %v", ticks, out, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if out, err := m.Supervise(ctx, SuperviseOptions{}); out != solve.Unknown || !errors.Is(err, context.Canceled) {
		t.Errorf("ctx ended: %v, %v", out, err)
	}
}

// TestSuperviseNoAudit solves 0*5 with SuperviseOptions.NoAudit: the
// outcome comes without an audit, and the group is told the solve is
// over.
func TestSuperviseNoAudit(t *testing.T) {
	p := DefaultParams()
	p.Capacity = 4096
	m, err := NewMaster(sprouts.MustParse("0*5"), p, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewGroup("g", p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ran := make(chan error, 1)
	go func() { ran <- g.Run(ctx, localLink{m}) }()
	out, err := m.Supervise(ctx, SuperviseOptions{NoAudit: true})
	if err != nil || out.String() != outcomeOf(5) {
		t.Errorf("0*5: %v, %v; want %s", out, err, outcomeOf(5))
	}
	if err := <-ran; err != nil {
		t.Errorf("the group: %v", err)
	}
	if st := m.Stats(); st.Audits != 0 {
		t.Errorf("%d audits without audits", st.Audits)
	}
}
