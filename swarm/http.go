package swarm

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/spots-dev/spots/solve"
)

// Key is the shared secret of a swarm: it signs every HTTP request and
// response (HMAC-SHA256) and encrypts the gossip.
type Key struct {
	mac    []byte // HMAC key
	gossip []byte // memberlist's AES-256 key
}

// NewKey derives the swarm's keys from a passphrase.
func NewKey(passphrase string) (Key, error) {
	if len(passphrase) < 8 {
		return Key{}, fmt.Errorf("the swarm key must be at least 8 characters")
	}
	mac := sha256.Sum256([]byte("spots-swarm-http\x00" + passphrase))
	gossip := sha256.Sum256([]byte("spots-swarm-gossip\x00" + passphrase))
	return Key{mac: mac[:], gossip: gossip[:]}, nil
}

// Limits on what the master reads from a worker and a worker from the
// master.
const (
	maxBody      = 64 << 20
	maxClockSkew = 5 * time.Minute
)

func (k Key) sign(kind, path, stamp string, body []byte) string {
	h := hmac.New(sha256.New, k.mac)
	sum := sha256.Sum256(body)
	fmt.Fprintf(h, "%s\n%s\n%s\n%x", kind, path, stamp, sum)
	return hex.EncodeToString(h.Sum(nil))
}

func (k Key) check(kind, path, stamp, got string, body []byte, now time.Time) error {
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return errors.New("no valid X-Spots-Time")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxClockSkew || d < -maxClockSkew {
		return fmt.Errorf("X-Spots-Time is %v off", d.Round(time.Second))
	}
	want, err := hex.DecodeString(k.sign(kind, path, stamp, body))
	if err != nil {
		return err
	}
	sig, err := hex.DecodeString(got)
	if err != nil || !hmac.Equal(sig, want) {
		return errors.New("bad signature")
	}
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

// readNimbers reads what writeNimbers wrote. The input comes over the
// network: a malformed stream is an error, never a panic, and what it may
// allocate is bounded.
func readNimbers(data []byte) (out []solve.NimberEntry, err error) {
	if !bytes.HasPrefix(data, schemaPrefix) {
		return nil, errors.New("Grundy values: the stream does not start with the expected schema")
	}
	mem := &budget{mem: memory.NewGoAllocator(), left: 4 * len(data)}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("malformed Grundy values: %v", r)
		}
	}()
	r, err := ipc.NewReader(bytes.NewReader(data), ipc.WithSchema(nimberSchema), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("Grundy values: %w", err)
	}
	defer r.Release()
	for r.Next() {
		rec := r.Record()
		keys, ok1 := rec.Column(0).(*array.Binary)
		gs, ok2 := rec.Column(1).(*array.Uint32)
		if !ok1 || !ok2 || rec.NumCols() != 2 || keys.Len() != int(rec.NumRows()) || gs.Len() != int(rec.NumRows()) {
			return nil, errors.New("Grundy values: wrong columns")
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
func Handler(m *Master, key Key) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/exchange", func(w http.ResponseWriter, r *http.Request) {
		body, ok := readSigned(w, r, key)
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
		reply, err := m.Exchange(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		out, err := encodeMessage(reply, reply.Delta)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeSigned(w, key, r.URL.Path, out)
	})
	mux.HandleFunc("GET /v1/status", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := readSigned(w, r, key); !ok {
			return
		}
		out, _ := json.Marshal(m.Stats())
		writeSigned(w, key, r.URL.Path, out)
	})
	return mux
}

func readSigned(w http.ResponseWriter, r *http.Request, key Key) ([]byte, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		http.Error(w, "request too large or unreadable", http.StatusRequestEntityTooLarge)
		return nil, false
	}
	if err := key.check("request", r.URL.Path, r.Header.Get("X-Spots-Time"), r.Header.Get("X-Spots-Auth"), body, time.Now()); err != nil {
		http.Error(w, "unauthorized: "+err.Error(), http.StatusUnauthorized)
		return nil, false
	}
	return body, true
}

func writeSigned(w http.ResponseWriter, key Key, path string, body []byte) {
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	w.Header().Set("X-Spots-Time", stamp)
	w.Header().Set("X-Spots-Auth", key.sign("response", path, stamp, body))
	w.Header().Set("Content-Type", "application/octet-stream")
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
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, l.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	hr.Header.Set("X-Spots-Time", stamp)
	hr.Header.Set("X-Spots-Auth", l.Key.sign("request", path, stamp, body))
	client := l.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	resp, err := client.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		return nil, fmt.Errorf("%w: %s", ErrUnauthorized, bytes.TrimSpace(out))
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("master: %s: %s", resp.Status, bytes.TrimSpace(out))
	case len(out) > maxBody:
		return nil, errors.New("master: reply too large")
	}
	if err := l.Key.check("response", path, resp.Header.Get("X-Spots-Time"), resp.Header.Get("X-Spots-Auth"), out, time.Now()); err != nil {
		return nil, fmt.Errorf("%w: the reply is not signed with the swarm key: %v", ErrUnauthorized, err)
	}
	return out, nil
}
