package swarm

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/spots-dev/spots/format"
	"github.com/spots-dev/spots/solve"
)

// Key is the shared secret of a swarm: it signs every HTTP request and
// response (HMAC-SHA256) and encrypts the gossip.
type Key struct {
	mac    []byte // HMAC key
	gossip []byte // memberlist's AES-256 key
	status []byte // the bearer token of the status pages (StatusToken)
}

// NewKey derives the swarm's keys from a passphrase.
func NewKey(passphrase string) (Key, error) {
	if len(passphrase) < 8 {
		return Key{}, fmt.Errorf("the swarm key must be at least 8 characters")
	}
	mac := sha256.Sum256([]byte("spots-swarm-http\x00" + passphrase))
	gossip := sha256.Sum256([]byte("spots-swarm-gossip\x00" + passphrase))
	status := sha256.Sum256([]byte(statusTokenPrefix + passphrase))
	return Key{mac: mac[:], gossip: gossip[:], status: status[:]}, nil
}

// statusTokenPrefix is what StatusToken hashes before the passphrase.
const statusTokenPrefix = "spots-swarm-status\x00"

// StatusToken returns the token that opens the master's status pages on
// its job port (HTTP Bearer, or Basic with any user name and the token as
// password): the hexadecimal SHA-256 of "spots-swarm-status", a zero byte
// and the passphrase, which a shell computes as
//
//	printf 'spots-swarm-status\000%s' "$KEY" | sha256sum
//
// It opens only the read-only status pages. Like the signatures on the
// wire, it reveals nothing of a key that cannot be guessed: not the key,
// nor the keys that sign jobs and encrypt gossip.
func (k Key) StatusToken() string { return hex.EncodeToString(k.status) }

// Limits on what the master reads from a worker and a worker from the
// master.
const (
	// maxExchangeBody bounds the body of POST /v1/exchange (a group's
	// reports and Grundy values) and of the master's reply.
	maxExchangeBody = 64 << 20
	// maxClockSkew is how far a request's X-Spots-Time may be from the
	// master's clock; its nonce is remembered for as long.
	maxClockSkew = 5 * time.Minute
	// maxNonces bounds the nonces remembered at once: beyond it (more than
	// ~3,500 signed requests a second for ten minutes) requests are
	// refused until old nonces expire.
	maxNonces = 1 << 21
)

// The headers of a signed request: the time, a fresh random nonce, the
// master's run it is meant for, the body's length and SHA-256, and
// X-Spots-Auth, the HMAC of all of them with the method and path. The
// master checks them before it reads a byte of the body, then reads
// exactly that many bytes and checks their digest.
//
// The nonces a master has seen live in its memory, so a request captured
// before the master restarts could be replayed after it, were it not for
// the run: each master process has a run of its own (a random UUID,
// Master.Run), and it refuses a request signed for another run, with a
// signed 409 reply that names its own. The group's link then signs its
// request again for that run: a capture from an earlier run is never
// accepted.
const (
	hdrTime   = "X-Spots-Time"
	hdrNonce  = "X-Spots-Nonce"
	hdrRun    = "X-Spots-Run"
	hdrLength = "X-Spots-Length"
	hdrDigest = "X-Spots-Digest"
	hdrAuth   = "X-Spots-Auth"
)

// signedHeader is what a request's signature covers.
type signedHeader struct {
	method, path, stamp, nonce, run, length, digest string
}

func (k Key) signRequest(h signedHeader) string {
	m := hmac.New(sha256.New, k.mac)
	fmt.Fprintf(m, "request\n%s\n%s\n%s\n%s\n%s\n%s\n%s", h.method, h.path, h.stamp, h.nonce, h.run, h.length, h.digest)
	return hex.EncodeToString(m.Sum(nil))
}

// signResponse signs a reply to the request with the given nonce, so a
// reply cannot be replayed to another request.
func (k Key) signResponse(path, stamp, nonce string, body []byte) string {
	m := hmac.New(sha256.New, k.mac)
	sum := sha256.Sum256(body)
	fmt.Fprintf(m, "response\n%s\n%s\n%s\n%x", path, stamp, nonce, sum)
	return hex.EncodeToString(m.Sum(nil))
}

// setRequestHeaders signs a request whose body is body, for the master's
// run (empty when the sender does not know it yet: the master then
// answers with its run).
func (k Key) setRequestHeaders(hr *http.Request, body []byte, run string, now time.Time) (nonce string) {
	var nb [16]byte
	rand.Read(nb[:])
	sum := sha256.Sum256(body)
	h := signedHeader{method: hr.Method, path: hr.URL.Path, stamp: strconv.FormatInt(now.Unix(), 10),
		nonce: hex.EncodeToString(nb[:]), run: run, length: strconv.Itoa(len(body)), digest: hex.EncodeToString(sum[:])}
	hr.Header.Set(hdrTime, h.stamp)
	hr.Header.Set(hdrNonce, h.nonce)
	hr.Header.Set(hdrRun, h.run)
	hr.Header.Set(hdrLength, h.length)
	hr.Header.Set(hdrDigest, h.digest)
	hr.Header.Set(hdrAuth, k.signRequest(h))
	return h.nonce
}

func checkStamp(stamp string, now time.Time) error {
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return fmt.Errorf("no valid %s", hdrTime)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxClockSkew || d < -maxClockSkew {
		return fmt.Errorf("%s is %v off", hdrTime, d.Round(time.Second))
	}
	return nil
}

func checkMAC(got, want string) error {
	w, err := hex.DecodeString(want)
	if err != nil {
		return err
	}
	sig, err := hex.DecodeString(got)
	if err != nil || !hmac.Equal(sig, w) {
		return errors.New("bad signature")
	}
	return nil
}

// checkRequest checks a request's signed headers (not its body) and
// returns the body's declared length.
func (k Key) checkRequest(r *http.Request, now time.Time) (int64, error) {
	h := signedHeader{method: r.Method, path: r.URL.Path, stamp: r.Header.Get(hdrTime), nonce: r.Header.Get(hdrNonce),
		run: r.Header.Get(hdrRun), length: r.Header.Get(hdrLength), digest: r.Header.Get(hdrDigest)}
	if err := checkStamp(h.stamp, now); err != nil {
		return 0, err
	}
	if len(h.nonce) != 32 {
		return 0, fmt.Errorf("no valid %s", hdrNonce)
	}
	if err := checkMAC(r.Header.Get(hdrAuth), k.signRequest(h)); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(h.length, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("no valid %s", hdrLength)
	}
	return n, nil
}

var errTooManyNonces = errors.New("too many requests: try again later")

// replayGuard remembers the nonces of the signed requests of the last
// 2 × maxClockSkew: a request is accepted once.
type replayGuard struct {
	mu    sync.Mutex
	seen  map[string]time.Time // nonce → when it may be forgotten
	sweep time.Time
	limit int
}

func newReplayGuard(limit int) *replayGuard {
	return &replayGuard{seen: map[string]time.Time{}, limit: limit}
}

// fresh records nonce and reports whether it was new (and room was left).
func (g *replayGuard) fresh(nonce string, now time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now.After(g.sweep) || len(g.seen) >= g.limit {
		for n, until := range g.seen {
			if now.After(until) {
				delete(g.seen, n)
			}
		}
		g.sweep = now.Add(maxClockSkew / 10)
	}
	if _, ok := g.seen[nonce]; ok {
		return errors.New("replayed request (its nonce was seen)")
	}
	if len(g.seen) >= g.limit {
		return errTooManyNonces
	}
	g.seen[nonce] = now.Add(2 * maxClockSkew)
	return nil
}

// encodeMessage frames a JSON header and a list of Grundy values (an Arrow
// IPC stream) into one body: the header's length (4 bytes, big endian), the
// header, the stream.
func encodeMessage(header any, nimbers []solve.NimberEntry) ([]byte, error) {
	js, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	binary.Write(&buf, binary.BigEndian, uint32(len(js)))
	buf.Write(js)
	if err := writeNimbers(&buf, nimbers); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func decodeMessage(body []byte, header any) ([]solve.NimberEntry, error) {
	if len(body) < 4 {
		return nil, errors.New("message too short")
	}
	n := binary.BigEndian.Uint32(body)
	if uint64(n) > uint64(len(body)-4) {
		return nil, errors.New("message header longer than the message")
	}
	if err := json.Unmarshal(body[4:4+n], header); err != nil {
		return nil, fmt.Errorf("message header: %w", err)
	}
	return readNimbers(body[4+n:])
}

var nimberSchema = arrow.NewSchema([]arrow.Field{
	{Name: "key", Type: arrow.BinaryTypes.Binary},
	{Name: "g", Type: arrow.PrimitiveTypes.Uint32},
}, nil)

// writeNimbers writes Grundy values as an Arrow IPC stream of (key, g).
func writeNimbers(w io.Writer, entries []solve.NimberEntry) error {
	mem := memory.NewGoAllocator()
	b := array.NewRecordBuilder(mem, nimberSchema)
	defer b.Release()
	keys := b.Field(0).(*array.BinaryBuilder)
	gs := b.Field(1).(*array.Uint32Builder)
	for _, e := range entries {
		keys.Append([]byte(e.Key))
		gs.Append(e.G)
	}
	rec := b.NewRecord()
	defer rec.Release()
	iw := ipc.NewWriter(w, ipc.WithSchema(nimberSchema), ipc.WithAllocator(mem))
	if err := iw.Write(rec); err != nil {
		return err
	}
	return iw.Close()
}

// schemaPrefix is the schema message that opens every stream writeNimbers
// writes. readNimbers requires it byte for byte, so the Arrow library never
// parses a schema from the network (it sizes allocations by unchecked
// lengths in it).
var schemaPrefix = func() []byte {
	var buf bytes.Buffer
	iw := ipc.NewWriter(&buf, ipc.WithSchema(nimberSchema))
	iw.Close()
	b := buf.Bytes()
	return b[:len(b)-8] // without the end-of-stream marker
}()

// maxNimberMeta bounds the metadata of one message of a stream of Grundy
// values: a record batch of two columns declares a few hundred bytes.
const maxNimberMeta = 4096

// readNimbers reads what writeNimbers wrote. The input comes over the
// network: a malformed stream is an error, never a panic, and what it may
// allocate is bounded.
func readNimbers(data []byte) (out []solve.NimberEntry, err error) {
	if !bytes.HasPrefix(data, schemaPrefix) {
		return nil, errors.New("the Grundy values: the stream does not start with the expected schema")
	}
	if err := format.CheckIPCStream(data[len(schemaPrefix):], maxNimberMeta, int64(len(data))); err != nil {
		return nil, fmt.Errorf("the Grundy values: %w", err)
	}
	mem := &budget{mem: memory.NewGoAllocator(), left: 4 * len(data)}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("malformed Grundy values: %v", r)
		}
	}()
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithSchema(nimberSchema), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("the Grundy values: %w", err)
	}
	defer r.Release()
	for r.Next() {
		rec := r.Record()
		keys, ok1 := rec.Column(0).(*array.Binary)
		gs, ok2 := rec.Column(1).(*array.Uint32)
		if !ok1 || !ok2 || rec.NumCols() != 2 || keys.Len() != int(rec.NumRows()) || gs.Len() != int(rec.NumRows()) {
			return nil, errors.New("the Grundy values: wrong columns")
		}
		for i := range int(rec.NumRows()) {
			out = append(out, solve.NimberEntry{Key: string(keys.Value(i)), G: gs.Value(i)})
		}
	}
	return out, r.Err()
}

// budget is an allocator that refuses (by panicking, which readNimbers
// recovers) to hand out more than it was given: a message cannot make the
// reader allocate more than a few times its own size.
type budget struct {
	mem  memory.Allocator
	left int
}

func (b *budget) take(n int) {
	if n < 0 || n > b.left {
		panic(fmt.Sprintf("the stream asks for %d bytes", n))
	}
	b.left -= n
}

func (b *budget) Allocate(size int) []byte { b.take(size); return b.mem.Allocate(size) }
func (b *budget) Reallocate(size int, old []byte) []byte {
	b.take(size)
	return b.mem.Reallocate(size, old)
}
func (b *budget) Free(old []byte) { b.mem.Free(old) }

// Handler serves the master's side of the exchange over HTTP: POST
// /v1/exchange, signed with the swarm key both ways, and GET /v1/status.
// A request is authenticated by its headers before any of its body is read;
// a signed request is accepted once (its nonce is remembered), and only by
// the master run it was signed for (Master.Run).
func Handler(m *Master, key Key) http.Handler {
	return handler(m, key, newReplayGuard(maxNonces), time.Now, nil)
}

// HandlerWithStatus is Handler and, when st is not nil, the status pages
// of st (GET /status, /status.json and /metrics) for clients that show
// key.StatusToken(); others are refused (401) before anything is read from
// the master. The status pages answer GET and HEAD only (other methods:
// 405) and change nothing.
func HandlerWithStatus(m *Master, key Key, st *Status) http.Handler {
	return handler(m, key, newReplayGuard(maxNonces), time.Now, st)
}

func handler(m *Master, key Key, guard *replayGuard, now func() time.Time, st *Status) http.Handler {
	mux := http.NewServeMux()
	if st != nil {
		routeStatus(mux, st, func(h http.Handler) http.Handler { return requireToken(key, h) })
	}
	mux.HandleFunc("POST /v1/exchange", func(w http.ResponseWriter, r *http.Request) {
		body, nonce, ok := readSigned(w, r, key, guard, now, m.Run(), maxExchangeBody)
		if !ok {
			return
		}
		var req ExchangeRequest
		nimbers, err := decodeMessage(body, &req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Nimbers = nimbers
		reply, err := m.ExchangeWait(r.Context(), req, parkFor)
		if errors.Is(err, ErrBanned) {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, err := encodeMessage(reply, reply.Delta)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeSigned(w, key, r.URL.Path, nonce, out)
	})
	mux.HandleFunc("GET /v1/status", func(w http.ResponseWriter, r *http.Request) {
		_, nonce, ok := readSigned(w, r, key, guard, now, m.Run(), 0)
		if !ok {
			return
		}
		out, _ := json.Marshal(m.Stats())
		writeSigned(w, key, r.URL.Path, nonce, out)
	})
	return mux
}

// refuse answers a request whose body is not to be read, and closes the
// connection so the server does not read (drain) the body either.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	http.Error(w, msg, status)
}

// readSigned authenticates a request by its headers, then reads its body:
// exactly the signed length, at most limit bytes, matching the signed
// digest. A request signed for another run than the master's is answered
// with the master's run (409, signed) and not read.
func readSigned(w http.ResponseWriter, r *http.Request, key Key, guard *replayGuard, now func() time.Time, run string, limit int64) ([]byte, string, bool) {
	t := now()
	n, err := key.checkRequest(r, t)
	if err != nil {
		refuse(w, http.StatusUnauthorized, "unauthorized: "+err.Error())
		return nil, "", false
	}
	nonce := r.Header.Get(hdrNonce)
	if err := guard.fresh(nonce, t); err != nil {
		status := http.StatusUnauthorized
		if errors.Is(err, errTooManyNonces) {
			status = http.StatusServiceUnavailable // the group retries later
		}
		refuse(w, status, "unauthorized: "+err.Error())
		return nil, "", false
	}
	if r.Header.Get(hdrRun) != run {
		// Signed for an earlier run (a capture replayed after a restart),
		// or by a group that does not know this one yet: nothing is done,
		// and the signed reply tells the group the run to sign for.
		w.Header().Set("Connection", "close")
		writeSignedStatus(w, key, r.URL.Path, nonce, http.StatusConflict, []byte(run))
		return nil, "", false
	}
	switch {
	case n > limit:
		refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%s %d: at most %d bytes for %s", hdrLength, n, limit, r.URL.Path))
		return nil, "", false
	case r.ContentLength != n:
		refuse(w, http.StatusBadRequest, fmt.Sprintf("Content-Length %d differs from %s %d", r.ContentLength, hdrLength, n))
		return nil, "", false
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.Body, body); err != nil {
		refuse(w, http.StatusBadRequest, "reading the body: "+err.Error())
		return nil, "", false
	}
	sum := sha256.Sum256(body)
	if err := checkMAC(r.Header.Get(hdrDigest), hex.EncodeToString(sum[:])); err != nil {
		refuse(w, http.StatusUnauthorized, "unauthorized: the body does not match its signed digest")
		return nil, "", false
	}
	return body, nonce, true
}

func writeSigned(w http.ResponseWriter, key Key, path, nonce string, body []byte) {
	writeSignedStatus(w, key, path, nonce, http.StatusOK, body)
}

// writeSignedStatus writes a reply with the given status whose body is
// signed for the request with the given nonce.
func writeSignedStatus(w http.ResponseWriter, key Key, path, nonce string, status int, body []byte) {
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	w.Header().Set(hdrTime, stamp)
	w.Header().Set(hdrAuth, key.signResponse(path, stamp, nonce, body))
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// HTTPLink is a group's link to a master over HTTP. Resolve returns the
// master's base URL (e.g. http://127.0.0.1:7000); it is asked again after a
// failure, so a restarted master is found again.
type HTTPLink struct {
	Key     Key
	Resolve func(ctx context.Context) (string, error)
	Client  *http.Client
	base    string
	run     string // the master's run its requests are signed for
}

// Exchange posts the request and checks the signed reply.
func (l *HTTPLink) Exchange(ctx context.Context, req ExchangeRequest) (ExchangeReply, error) {
	var reply ExchangeReply
	if l.base == "" {
		base, err := l.Resolve(ctx)
		if err != nil {
			return reply, err
		}
		l.base = base
	}
	body, err := encodeMessage(req, req.Nimbers)
	if err != nil {
		return reply, err
	}
	out, err := l.post(ctx, "/v1/exchange", body)
	if err != nil {
		l.base = "" // find the master again next time
		return reply, err
	}
	delta, err := decodeMessage(out, &reply)
	if err != nil {
		return reply, err
	}
	reply.Delta = delta
	return reply, nil
}

func (l *HTTPLink) post(ctx context.Context, path string, body []byte) ([]byte, error) {
	out, status, err := l.postOnce(ctx, path, body)
	if err == nil && status == http.StatusConflict {
		// The master runs another run than the one this link knew (it
		// restarted, or this is the first request): sign for its run.
		l.run = string(out)
		out, status, err = l.postOnce(ctx, path, body)
	}
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("master: %s: the run changed again", http.StatusText(status))
	}
	return out, err
}

// maxRunID bounds the run a master names (a UUID has 36 characters).
const maxRunID = 64

// postOnce posts a request signed for the link's run and returns the
// signed reply: its body and status, 200 or 409 (the master's run is
// another one: the body names it).
func (l *HTTPLink) postOnce(ctx context.Context, path string, body []byte) ([]byte, int, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	nonce := l.Key.setRequestHeaders(hr, body, l.run, time.Now())
	client := l.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	resp, err := client.Do(hr)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxExchangeBody+1))
	if err != nil {
		return nil, 0, err
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return nil, 0, fmt.Errorf("%w: %s", ErrUnauthorized, bytes.TrimSpace(out))
	case resp.StatusCode == http.StatusForbidden:
		return nil, 0, fmt.Errorf("%w: %s", ErrBanned, bytes.TrimSpace(out))
	case resp.StatusCode == http.StatusConflict && len(out) > maxRunID:
		return nil, 0, errors.New("master: 409 Conflict with an over-long run")
	case resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusConflict:
		return nil, 0, fmt.Errorf("master: %s: %s", resp.Status, bytes.TrimSpace(out))
	case len(out) > maxExchangeBody:
		return nil, 0, errors.New("master: reply too large")
	}
	stamp := resp.Header.Get(hdrTime)
	err = checkStamp(stamp, time.Now())
	if err == nil {
		err = checkMAC(resp.Header.Get(hdrAuth), l.Key.signResponse(path, stamp, nonce, out))
	}
	if err != nil {
		return nil, 0, fmt.Errorf("%w: the reply is not signed with the swarm key: %v", ErrUnauthorized, err)
	}
	return out, resp.StatusCode, nil
}
